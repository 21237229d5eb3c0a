/**
 * bin/fool-solve [FILE]: the winning-sequence problem of "Funny Card Game". Reads the hand and the face-up card
 * (from FILE, or stdin) in the statement's format and prints YES and a winning sequence, or NO.
 * Malformed input gets one line on stderr and exit status 2.
 */
import { Command } from "commander";
import * as fs from "fs";
import { formatSequence, parsePosition } from "../../rooms/fool/notation";
import { findWinningSequence } from "../../rooms/fool/search";
import { EXIT_BAD_INPUT, usageErrorsAreBadInput } from "./lib/exit-status";

/** The program's whole output for one input text, or the problem with the input. */
export function solve(input: string): { output: string } | { problem: string } {
  const position = parsePosition(input);
  if (!position.ok) return { problem: position.problem };
  const sequence = findWinningSequence(position.value.hand, position.value.faceUp);
  return { output: sequence === null ? "NO\n" : `YES\n${formatSequence(sequence)}\n` };
}

function readInput(file: string | undefined): string {
  return fs.readFileSync(file ?? 0, "utf8");
}

function main(argv: readonly string[]): void {
  const program = usageErrorsAreBadInput(new Command("fool-solve"))
    .description("Decides whether the first player can lay out the whole hand without the opponent moving.")
    .argument("[file]", "input file (default: standard input)")
    .showHelpAfterError()
    .parse(argv);
  const file = program.args[0];
  let input: string;
  try {
    input = readInput(file);
  } catch (error) {
    const reason = error instanceof Error && "code" in error ? String(error.code) : String(error);
    process.stderr.write(`fool-solve: cannot read ${file ?? "standard input"}: ${reason}\n`);
    process.exit(EXIT_BAD_INPUT);
  }
  const result = solve(input);
  if ("problem" in result) {
    process.stderr.write(`fool-solve: ${result.problem}\n`);
    process.exit(EXIT_BAD_INPUT);
  }
  process.stdout.write(result.output);
}

if (require.main === module) main(process.argv);
