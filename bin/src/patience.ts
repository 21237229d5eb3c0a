/**
 * bin/patience: the exact Shuffling Patience (UVa 178) simulator. Reads decks (four lines of 13 cards each,
 * the input ended by a `#` line) from a file or stdin and prints one result line per deck, as the judge does.
 *
 * It streams: each deck is played and its line written before the next deck is read, so its memory does not grow
 * with the input. A malformed deck stops it with one line on stderr (exit 2) after the lines of the decks before it;
 * an input with no deck at all is bad input too (exit 2).
 */
import type { Card } from "../../rooms/patience/cards";
import { playByPlay, simulate, type Outcome } from "../../rooms/patience/engine";
import { DeckInputError, DeckReader, describeEvent, formatResult, repeatedCards } from "../../rooms/patience/notation";
import { ChunkedOutput, InputReadError, inputLines, isClosedPipe } from "./lib/judge-io";
import { EXIT_BAD_INPUT, EXIT_DONE, EXIT_FAILED, usageErrorsAreBadInput } from "./lib/exit-status";
import { loadCommander, plainOperands } from "./lib/plain-arguments";

const PROGRAM = "patience";

interface Options {
  /** The decks' file, "-" for standard input. */
  file: string;
  trace: boolean;
}

/** The command line; commander is loaded only when it holds more than a file name. */
function optionsOf(args: readonly string[]): Options {
  const operands = plainOperands(args, 1);
  if (operands !== undefined) return { file: operands[0] ?? "-", trace: false };
  const { Command } = loadCommander();
  const program = usageErrorsAreBadInput(new Command(PROGRAM))
    .description("Plays each deck of Shuffling Patience and prints the pile sizes, or where the 4x4 grid overflowed.")
    .argument("[file]", "the decks to play; standard input when absent or '-'")
    .option("--trace", "also write every move of every deal to standard error");
  program.parse(["node", PROGRAM, ...args]);
  return { file: program.args[0] ?? "-", trace: program.opts<{ trace?: boolean }>().trace === true };
}

function main(args: readonly string[]): number {
  const { file, trace } = optionsOf(args);
  const source = file === "-" ? "standard input" : file;
  const output = new ChunkedOutput();
  try {
    const played = playAll(new DeckReader(inputLines(file, () => output.flush())), trace, output);
    return played > 0 ? EXIT_DONE : fail(`${source} holds no deck before its "#" line`, EXIT_BAD_INPUT);
  } catch (error) {
    if (error instanceof InputReadError) return fail(`cannot read ${source}: ${error.message}`, EXIT_BAD_INPUT);
    if (error instanceof DeckInputError) return fail(`${source}, ${error.message}`, EXIT_BAD_INPUT);
    throw error;
  } finally {
    output.flush();
  }
}

/** Plays each deck as it is read and writes its result line; returns how many decks there were. */
function playAll(decks: DeckReader, trace: boolean, output: ChunkedOutput): number {
  let deckNumber = 1;
  // Each turn reads a deck from the input, which ends.
  for (let deck = decks.nextDeck(); deck !== undefined; deckNumber++, deck = decks.nextDeck()) {
    warnAboutRepeats(deckNumber, repeatedCards(deck));
    output.write(formatResult(deckNumber, trace ? traced(deckNumber, deck) : simulate(deck)) + "\n");
  }
  return deckNumber - 1;
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

function fail(message: string, status: number = EXIT_FAILED): number {
  process.stderr.write(`${PROGRAM}: ${message}\n`);
  return status;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  // A reader that stops early (`bin/patience | head -1`) closes the pipe: not worth a stack trace.
  if (isClosedPipe(error)) process.exitCode = EXIT_DONE;
  else if ((error as NodeJS.ErrnoException).syscall === "write")
    process.exitCode = fail(`cannot write the results: ${describe(error)}`);
  else process.exitCode = fail(`internal error: ${describe(error)}`);
}
