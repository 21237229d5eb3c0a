/** Reading the Even-Steven dealer's input, `N seed` a line, as bin/dealer and bin/evensteven-bridge both do. */
import type { Readable } from "node:stream";
import { gameParametersProblem } from "../../../rooms/evensteven/engine";
import { LineReader } from "./lines";

export type GameLine = { lineNumber: number; n: number; seed: number } | { lineNumber: number; problem: string };

/** `N seed`, or a sentence saying what is wrong with the line. */
export function parseGameLine(line: string): { n: number; seed: number } | { problem: string } {
  const match = /^\s*(\d+)\s+(\d+)\s*$/.exec(line);
  if (!match) return { problem: `expected "N seed" (two whole numbers), got "${line.trim()}"` };
  const n = Number(match[1]);
  const seed = Number(match[2]);
  const problem = gameParametersProblem(n, seed);
  return problem ? { problem } : { n, seed };
}

/**
 * The input's games and problems in order, blank lines skipped. A last line with no line end after it is a problem:
 * the input was cut short there, perhaps in the middle of its seed, and a shorter seed is another game.
 */
export async function* gameLines(input: Readable): AsyncGenerator<GameLine> {
  const reader = new LineReader(input);
  for (let lineNumber = 1, next = await reader.next(); next.kind === "line"; lineNumber++, next = await reader.next()) {
    if (next.text.trim() === "") continue;
    if (next.cutShort) {
      yield {
        lineNumber,
        problem: `the input ends inside this line ("${next.text.trim()}" has no line end after it), so it may be cut short`,
      };
      continue;
    }
    yield { lineNumber, ...parseGameLine(next.text) };
  }
}
