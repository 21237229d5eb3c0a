/**
 * tractor-sim: the seed's single-round Tractor simulator. Reads the recorded rounds from stdin and prints,
 * for each, the defenders' points and either the new ranks with the next dealer or the match winner.
 */
import { Command } from "commander";
import { readFileSync } from "fs";
import { replayRound } from "../../rooms/tractor/scoring";
import { formatCaseResult, parseSeedInput } from "../../rooms/tractor/seedFormat";

function main(): number {
  new Command("tractor-sim")
    .description("Simulate recorded rounds of Tractor (Shengji): input on stdin in the 'Game Simulator' format.")
    .parse(process.argv);
  const parsed = parseSeedInput(readFileSync(0, "utf8"));
  if (!parsed.ok) {
    process.stderr.write(`tractor-sim: malformed input: ${parsed.reason}\n`);
    return 2;
  }
  const output = parsed.rounds.map((round, index) => formatCaseResult(index + 1, replayRound(round)));
  process.stdout.write(output.join(""));
  return 0;
}

process.exitCode = main();
