/**
 * tractor-sim: the statement's single-round Tractor simulator. Reads the recorded rounds from stdin and prints,
 * for each, the defenders' points and either the new ranks with the next dealer or the match winner.
 * `--rules` selects rule options (rooms/tractor/ruleset.ts) where tables and judges read the statement differently;
 * without it the statement's rules apply.
 */
import { Command, InvalidArgumentError } from "commander";
import { readFileSync } from "fs";
import { cardsName } from "../../rooms/tractor/cards";
import { classic, tractorRuleset, tractorRulesOption, type TractorRuleset } from "../../rooms/tractor/ruleset";
import { overplayedCards, replayRound } from "../../rooms/tractor/scoring";
import { formatCaseResult, parseStatementInput } from "../../rooms/tractor/statement-format";
import { EXIT_BAD_INPUT, EXIT_DONE, usageErrorsAreBadInput } from "./lib/exit-status";

/** `--rules '{"hiddenMultiplier":"lead-cards"}'`: the room's `rules` option, as JSON. */
function rulesArgument(text: string): TractorRuleset {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InvalidArgumentError('expected JSON, e.g. {"hiddenMultiplier":"lead-cards"}');
  }
  const parsed = tractorRulesOption.safeParse(json);
  if (!parsed.success) throw new InvalidArgumentError(parsed.error.issues.map((issue) => `${issue.path.join(".") || "rules"}: ${issue.message}`).join("; "));
  return tractorRuleset(parsed.data);
}

function main(): number {
  const options = usageErrorsAreBadInput(new Command("tractor-sim"))
    .description("Simulate recorded rounds of Tractor (Shengji): input on stdin in the 'Game Simulator' format.")
    .option("--rules <json>", "rule options as JSON: hiddenMultiplier (longest-component, lead-cards, double), overplayedCards (leave-none-hidden, reject)", rulesArgument)
    .parse(process.argv)
    .opts<{ rules?: TractorRuleset }>();
  const ruleset = options.rules ?? classic;
  const parsed = parseStatementInput(readFileSync(0, "utf8"));
  if (!parsed.ok) {
    process.stderr.write(`tractor-sim: malformed input: ${parsed.reason}\n`);
    return EXIT_BAD_INPUT;
  }
  if (ruleset.overplayedCards === "reject") {
    const index = parsed.rounds.findIndex((round) => overplayedCards(round).length > 0);
    if (index >= 0) {
      const cards = cardsName(overplayedCards(parsed.rounds[index]));
      process.stderr.write(`tractor-sim: malformed input: case ${index + 1} plays ${cards} more often than the two decks hold\n`);
      return EXIT_BAD_INPUT;
    }
  }
  const output = parsed.rounds.map((round, index) => formatCaseResult(index + 1, replayRound(round, ruleset)));
  process.stdout.write(output.join(""));
  return EXIT_DONE;
}

process.exitCode = main();
