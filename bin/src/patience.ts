/**
 * bin/patience: the exact Shuffling Patience (UVa 178) simulator. Reads decks (four lines of 13 cards each,
 * the input ended by a `#` line) from a file or stdin and prints one result line per deck, as the judge does.
 */
import { readFileSync } from "fs";
import { Command } from "commander";
import type { Card } from "../../rooms/patience/cards";
import { playByPlay, simulate, type Outcome } from "../../rooms/patience/engine";
import { DeckInputError, describeEvent, formatResult, parseDecks, repeatedCards } from "../../rooms/patience/notation";
import { EXIT_BAD_INPUT, EXIT_DONE, EXIT_FAILED, usageErrorsAreBadInput } from "./lib/exit-status";

const PROGRAM = "patience";

function main(argv: readonly string[]): number {
  const program = usageErrorsAreBadInput(new Command(PROGRAM))
    .description("Plays each deck of Shuffling Patience and prints the pile sizes, or where the 4x4 grid overflowed.")
    .argument("[file]", "the decks to play; standard input when absent or '-'")
    .option("--trace", "also write every move of every deal to standard error");
  program.parse(argv);
  const file = program.args[0] ?? "-";
  const { trace } = program.opts<{ trace?: boolean }>();
  const source = file === "-" ? "standard input" : file;

  const decks = readDecks(file, source);
  if (typeof decks === "string") return fail(decks, EXIT_BAD_INPUT);
  if (decks.length === 0) return fail(`${source} holds no deck before its "#" line`, EXIT_BAD_INPUT);
  decks.forEach((deck, index) => warnAboutRepeats(index + 1, repeatedCards(deck)));
  const lines = decks.map((deck, index) => formatResult(index + 1, trace ? traced(index + 1, deck) : simulate(deck)));
  process.stdout.write(lines.map((line) => line + "\n").join(""));
  return EXIT_DONE;
}

/** The decks in `file`, or a sentence saying why there are none. */
function readDecks(file: string, source: string): Card[][] | string {
  let input: string;
  try {
    input = readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (error) {
    return `cannot read ${source}: ${describe(error)}`;
  }
  try {
    return parseDecks(input);
  } catch (error) {
    if (error instanceof DeckInputError) return `${source}, ${error.message}`;
    throw error;
  }
}

/** Plays a deal, writing each move to stderr so that stdout stays exactly the judge's output. */
function traced(deckNumber: number, deck: readonly Card[]): Outcome {
  const { events, outcome } = playByPlay(deck);
  for (const event of events) process.stderr.write(`deck ${deckNumber}: ${describeEvent(event)}\n`);
  return outcome;
}

/** A deck with a repeated card is still played (the rules never look at suits), but it is worth a word. */
function warnAboutRepeats(deckNumber: number, repeated: readonly string[]): void {
  if (repeated.length > 0) {
    process.stderr.write(`${PROGRAM}: warning: deck ${deckNumber} repeats ${repeated.join(", ")}; played as given\n`);
  }
}

function fail(message: string, status: number): number {
  process.stderr.write(`${PROGRAM}: ${message}\n`);
  return status;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// A reader that stops early (`bin/patience | head -1`) closes the pipe: not worth a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") process.stderr.write(`${PROGRAM}: cannot write the results: ${error.message}\n`);
  process.exit(error.code === "EPIPE" ? EXIT_DONE : EXIT_FAILED);
});

try {
  process.exitCode = main(process.argv);
} catch (error) {
  process.exitCode = fail(`internal error: ${describe(error)}`, EXIT_FAILED);
}
