/**
 * bin/fool-solve [FILE]: the winning-sequence problem of "Funny Card Game". Reads the hand and the face-up card
 * (from FILE, or stdin) in the statement's format and prints YES and a winning sequence, or NO.
 * Malformed input gets one line on stderr and exit status 2.
 */
import * as fs from "node:fs";
import { formatSequence, parsePosition } from "../../rooms/fool/notation";
import { findWinningSequence } from "../../rooms/fool/search";
import { ChunkedOutput } from "./lib/judge-io";
import { EXIT_BAD_INPUT, usageErrorsAreBadInput } from "./lib/exit-status";
import { loadCommander, plainOperands } from "./lib/plain-arguments";

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

/** The input file named on the command line, if any; commander is loaded only for options (--help, mistakes). */
function fileArgument(args: readonly string[]): string | undefined {
  const operands = plainOperands(args, 1);
  if (operands !== undefined) return operands[0];
  const { Command } = loadCommander();
  const program = usageErrorsAreBadInput(new Command("fool-solve"))
    .description("Decides whether the first player can lay out the whole hand without the opponent moving.")
    .argument("[file]", "input file (default: standard input)")
    .showHelpAfterError()
    .parse(["node", "fool-solve", ...args]);
  return program.args[0];
}

function main(args: readonly string[]): void {
  const file = fileArgument(args);
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
  // Written straight to the descriptor: setting up process.stdout would cost a judge milliseconds of start-up.
  const output = new ChunkedOutput();
  output.write(result.output);
  output.flush();
}

if (require.main === module) main(process.argv.slice(2));
