/**
 * tractor-sim: the statement's single-round Tractor simulator. Reads the recorded rounds from stdin and prints,
 * for each, the defenders' points and either the new ranks with the next dealer or the match winner.
 * `--rules` selects rule options (rooms/tractor/ruleset.ts) where tables and judges read the statement differently;
 * without it the statement's rules apply.
 *
 * It streams: each round is read, replayed and printed before the next is read, so its memory does not grow with
 * the input. A malformed case stops it with one line on stderr (exit 2) after the results of the cases before it;
 * the last case's result waits for the end of the input, so text after it leaves the output empty as before.
 */
import { cardsName } from "../../rooms/tractor/cards";
import { classic, type TractorRuleset } from "../../rooms/tractor/ruleset";
import { overplayedCards, replayRound, type RecordedRound } from "../../rooms/tractor/scoring";
import { formatCaseResult, StatementInputError, StatementReader } from "../../rooms/tractor/statement-format";
import { ChunkedOutput, inputLines, isClosedPipe } from "./lib/judge-io";
import { EXIT_BAD_INPUT, EXIT_DONE, usageErrorsAreBadInput } from "./lib/exit-status";
import { loadCommander, plainOperands } from "./lib/plain-arguments";

/** The ruleset the command line asks for; commander (and zod, for --rules) are loaded only when it has options. */
function rulesetOf(args: readonly string[]): TractorRuleset {
  if (plainOperands(args, 0) !== undefined) return classic;
  const { Command } = loadCommander();
  const options = usageErrorsAreBadInput(new Command("tractor-sim"))
    .description("Simulate recorded rounds of Tractor (Shengji): input on stdin in the 'Game Simulator' format.")
    .option(
      "--rules <json>",
      "rule options as JSON: hiddenMultiplier (longest-component, lead-cards, double), overplayedCards (leave-none-hidden, reject)",
      rulesArgument,
    )
    .parse(["node", "tractor-sim", ...args])
    .opts<{ rules?: TractorRuleset }>();
  return options.rules ?? classic;
}

/** `--rules '{"hiddenMultiplier":"lead-cards"}'`: the room's `rules` option, as JSON. */
function rulesArgument(text: string): TractorRuleset {
  const { InvalidArgumentError } = loadCommander();
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- zod is loaded only for --rules
  const { tractorRulesOption } =
    require("../../rooms/tractor/rules-option") as typeof import("../../rooms/tractor/rules-option");
  const { tractorRuleset } = require("../../rooms/tractor/ruleset") as typeof import("../../rooms/tractor/ruleset");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InvalidArgumentError('expected JSON, e.g. {"hiddenMultiplier":"lead-cards"}');
  }
  const parsed = tractorRulesOption.safeParse(json);
  if (!parsed.success)
    throw new InvalidArgumentError(
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "rules"}: ${issue.message}`).join("; "),
    );
  return tractorRuleset(parsed.data);
}

/** Under `overplayedCards: "reject"`, a round that plays a card more often than the two decks hold is malformed. */
function checkOverplayed(round: RecordedRound, caseNumber: number, ruleset: TractorRuleset): void {
  if (ruleset.overplayedCards !== "reject") return;
  const overplayed = overplayedCards(round);
  if (overplayed.length > 0)
    throw new StatementInputError(
      `case ${caseNumber} plays ${cardsName(overplayed)} more often than the two decks hold`,
    );
}

/** Replays every case as it is read; the last result is held back until the input is known to end there. */
function simulateAll(reader: StatementReader, ruleset: TractorRuleset, output: ChunkedOutput): void {
  const count = reader.readCaseCount();
  let held = "";
  for (let caseNumber = 1; caseNumber <= count; caseNumber++) {
    const round = reader.readRound(caseNumber);
    checkOverplayed(round, caseNumber, ruleset);
    output.write(held);
    held = formatCaseResult(caseNumber, replayRound(round, ruleset));
  }
  reader.expectEnd(count);
  output.write(held);
}

function main(args: readonly string[]): number {
  const ruleset = rulesetOf(args);
  const output = new ChunkedOutput();
  try {
    simulateAll(new StatementReader(inputLines("-", () => output.flush())), ruleset, output);
    return EXIT_DONE;
  } catch (error) {
    if (!(error instanceof StatementInputError)) throw error;
    process.stderr.write(`tractor-sim: malformed input: ${error.message}\n`);
    return EXIT_BAD_INPUT;
  } finally {
    output.flush();
  }
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  if (!isClosedPipe(error)) throw error;
}
