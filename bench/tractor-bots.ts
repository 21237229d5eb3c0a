/**
 * Tractor bots benchmark: the heuristic policy (one team) against the random-legal policy (the other team),
 * whole rounds through the round engine, every seat deciding from its own SeatView only. Each deal (setup
 * and cards) is played twice with the teams swapped, so neither side profits from a lucky deal.
 *
 * A round is won by the defenders when they score 80 points or more (the teams swap), else by the
 * declarers; the engine's round result says which. Prints the heuristic team's share of rounds won with a
 * 95% Wilson interval, and the heuristic's decision time (p50, p95) and decisions per second. Figures only:
 * nothing here passes or fails on time.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/tractor-bots.js --deals 1000 --seed tractor-bots
 */
import { Command, InvalidArgumentError } from "commander";
import { seededRandom } from "../rooms/kit/random";
import type { Card } from "../rooms/tractor/cards";
import { randomSetup } from "../rooms/tractor/generate";
import { heuristicPolicy, playRound, type TractorPolicy } from "../rooms/tractor/policy";
import { randomPolicy } from "../rooms/tractor/policy-random";
import { dealRound } from "../rooms/tractor/round";
import { checkedThrows, classic, type TractorRuleset } from "../rooms/tractor/ruleset";
import { declarersOf, SEATS, type Team, teamOf } from "../rooms/tractor/scoring";
import type { SeatView } from "../rooms/tractor/seat-view";
import { summarize, wilsonInterval } from "./stats";

interface Options {
  deals: number;
  seed: string;
  rules: "classic" | "checked";
}

const RULESETS: Record<Options["rules"], TractorRuleset> = { classic, checked: checkedThrows };

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new InvalidArgumentError("expected a positive whole number");
  return value;
}

function rulesName(text: string): Options["rules"] {
  if (text === "classic" || text === "checked") return text;
  throw new InvalidArgumentError("expected classic or checked");
}

/** The same policy, with the time of every decision it makes added to `millis`. */
function timedPolicy(policy: TractorPolicy, millis: number[]): TractorPolicy {
  const timed =
    (decide: (view: SeatView) => Card[]) =>
    (view: SeatView): Card[] => {
      const start = process.hrtime.bigint();
      const cards = decide(view);
      millis.push(Number(process.hrtime.bigint() - start) / 1e6);
      return cards;
    };
  return { choosePlay: timed(policy.choosePlay), chooseBurial: timed(policy.chooseBurial) };
}

interface Tally {
  rounds: number;
  heuristicWins: number;
  /** Rounds and wins with the heuristic team declaring (the dealer's team). */
  declaring: { rounds: number; wins: number };
  heuristicDefenderPoints: number[];
  randomDefenderPoints: number[];
}

function main(): void {
  const options = new Command("bench-tractor-bots")
    .option("--deals <n>", "deals, each played twice with the teams swapped", positiveInteger, 1000)
    .option("--seed <seed>", "seed of the deals and of the random bot", "tractor-bots")
    .option(
      "--rules <rules>",
      "classic (every throw stands) or checked (throws checked against the other hands)",
      rulesName,
      "classic",
    )
    .parse(process.argv)
    .opts<Options>();
  const ruleset = RULESETS[options.rules];
  const millis: number[] = [];
  const heuristic = timedPolicy(heuristicPolicy(ruleset), millis);
  const tally: Tally = {
    rounds: 0,
    heuristicWins: 0,
    declaring: { rounds: 0, wins: 0 },
    heuristicDefenderPoints: [],
    randomDefenderPoints: [],
  };
  const setups = seededRandom(`${options.seed}:setups`);
  const start = process.hrtime.bigint();
  for (let deal = 0; deal < options.deals; deal++) {
    const setup = randomSetup(setups);
    const dealt = dealRound(setup, seededRandom(`${options.seed}:deal:${deal}`), ruleset);
    for (const heuristicTeam of [1, 2] as Team[]) {
      const random = randomPolicy(seededRandom(`${options.seed}:random:${deal}:${heuristicTeam}`));
      const policies = SEATS.map((seat) => (teamOf(seat) === heuristicTeam ? heuristic : random));
      const played = playRound(dealt, policies);
      if (played.phase !== "finished") throw new Error(`deal ${deal} did not finish`);
      const { result } = played;
      const won = result.change.team === heuristicTeam;
      const declaring = declarersOf(setup) === heuristicTeam;
      tally.rounds++;
      tally.heuristicWins += won ? 1 : 0;
      if (declaring)
        [tally.declaring.rounds, tally.declaring.wins] = [
          tally.declaring.rounds + 1,
          tally.declaring.wins + (won ? 1 : 0),
        ];
      (declaring ? tally.randomDefenderPoints : tally.heuristicDefenderPoints).push(result.defenderPoints);
    }
  }
  report(options, tally, millis, Number(process.hrtime.bigint() - start) / 1e9);
}

function percent(share: number): string {
  return `${(100 * share).toFixed(1)}%`;
}

function mean(values: readonly number[]): string {
  return (values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length)).toFixed(1);
}

function report(options: Options, tally: Tally, millis: readonly number[], seconds: number): void {
  const { low, high } = wilsonInterval(tally.heuristicWins, tally.rounds);
  const defending = { rounds: tally.rounds - tally.declaring.rounds, wins: tally.heuristicWins - tally.declaring.wins };
  const decisions = summarize(millis);
  const decisionSeconds = millis.reduce((sum, value) => sum + value, 0) / 1000;
  console.log(
    `rules: ${options.rules}, deals: ${options.deals} (seed ${options.seed}), rounds: ${tally.rounds}, ${seconds.toFixed(1)} s in all`,
  );
  console.log(
    `heuristic team won ${tally.heuristicWins} of ${tally.rounds} rounds: ${percent(tally.heuristicWins / tally.rounds)} (95% CI ${percent(low)} – ${percent(high)}, Wilson)`,
  );
  console.log(
    `  declaring: ${tally.declaring.wins} of ${tally.declaring.rounds}; defending: ${defending.wins} of ${defending.rounds}`,
  );
  console.log(
    `  mean defender points: heuristic defending ${mean(tally.heuristicDefenderPoints)}, random defending ${mean(tally.randomDefenderPoints)}`,
  );
  console.log(
    `heuristic decisions: ${decisions.count}, ${Math.round(decisions.count / decisionSeconds).toLocaleString("en-US")} per second; ` +
      `p50 ${decisions.p50.toFixed(3)} ms, p95 ${decisions.p95.toFixed(3)} ms, max ${decisions.max.toFixed(1)} ms`,
  );
}

main();
