/**
 * The Tractor bot levels on duplicate deals: for each pair of levels, N fixed deals, each played twice with the
 * teams swapped (so a lucky deal favours neither side), whole rounds through the round engine, every seat deciding
 * from its own SeatView only. Under the statement's rules (every throw stands) and under checked throws.
 *
 * Reports, for the first level of each pair: the share of rounds won (the round's winner is the team the
 * engine's rank change goes to) with a 95% Wilson interval, the mean level change per round (its team's levels
 * gained minus the other's) with a 95% interval over the deal pairs, the mean defender points with each side
 * defending, and both levels' decision times (p50, p95, max). With `--matches M`, also M matches per orientation
 * (rounds from rank 2, or `--match-from R` to shorten them, until a team passes Ace, the main suit drawn per
 * round), and the share of matches won.
 * Figures only: nothing passes or fails on time.
 *
 * Beside the room levels, `random` and `partner` (the partner-aware policy alone, which the strong level's own team
 * plays in its play-outs); `--own-policy heuristic` plays the strong level as it was before that (all four seats
 * of its play-outs the heuristic), to compare the two on the same deals.
 *
 * `--jobs J` shares the deals (and matches) among J processes, deal k to process k mod J, and adds up what they
 * played: the same rounds as one process plays, in 1/J of the time on J free cores. Each process's strong level
 * keeps its budget in its own CPU time.
 *
 *   npm run bench:bots -- --deals 100 --pairs strong:normal --rules both --jobs 2
 */
import { fork } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { Command, InvalidArgumentError } from "commander";
import { randomInt, seededRandom, type Random } from "../rooms/kit/random";
import { MAIN_SUITS } from "../rooms/tractor/order";
import { randomSetup } from "../rooms/tractor/generate";
import { levelPolicy } from "../rooms/tractor/levels";
import { playRound, type TractorPolicy } from "../rooms/tractor/policy";
import { randomPolicy } from "../rooms/tractor/policy-random";
import { partnerPolicy } from "../rooms/tractor/policy-partner";
import type { TractorBotLevel } from "../rooms/tractor/protocol";
import { dealRound } from "../rooms/tractor/round";
import { checkedThrows, classic, type TractorRuleset } from "../rooms/tractor/ruleset";
import {
  declarersOf,
  SEATS,
  teamOf,
  type RoundResult,
  type RoundSetup,
  type Seat,
  type Team,
} from "../rooms/tractor/scoring";
import type { Rank } from "../rooms/tractor/cards";
import { DEFAULT_SEARCH_BUDGET, DEFAULT_WIN_VALUE, type OwnPolicy, type SearchBudget } from "../rooms/tractor/search";
import type { SeatView } from "../rooms/tractor/seat-view";
import { meanInterval, summarize, wilsonInterval } from "./stats";

/** Beside the room levels, the bench plays `random` and `partner` (the partner-aware policy alone, policy-partner.ts). */
type Level = TractorBotLevel | "random" | "partner";
const LEVELS: readonly Level[] = ["random", "easy", "normal", "strong", "partner"];
type Rules = "classic" | "checked";
const RULESETS: Record<Rules, TractorRuleset> = { classic, checked: checkedThrows };

interface Options {
  deals: number;
  matches: number;
  matchFrom: number;
  seed: string;
  rules: "classic" | "checked" | "both";
  pairs: [Level, Level][];
  worlds: number;
  candidates: number;
  confidence: number;
  winValue: number;
  timeMs: number;
  pool: number;
  evidence: number;
  surprise: number;
  ownPolicy: OwnPolicy;
  /** The number of the first deal played: `--deals 500 --first-deal 500` plays deals 500 to 999 of the seed. */
  firstDeal: number;
  /** Where to keep the raw results (every decision time, every deal's change), for `--merge` to add up later. */
  save?: string;
  /** Results kept by `--save`, added up and reported instead of playing. */
  merge?: string[];
  jobs: number;
  /** The share this process plays: deals and matches whose number is `job` mod `jobs` (a child of --jobs). */
  job?: number;
}

function count(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) throw new InvalidArgumentError("expected a whole number");
  return value;
}

function pairList(text: string): [Level, Level][] {
  return text.split(",").map((pair) => {
    const levels = pair.split(":");
    if (levels.length !== 2 || !levels.every((level) => LEVELS.includes(level as Level)))
      throw new InvalidArgumentError(`expected pairs like strong:normal of ${LEVELS.join(", ")}`);
    return levels as [Level, Level];
  });
}

/** This process's CPU time in milliseconds: the strong level's budget is time on one core, whatever else runs. */
function cpuMillis(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** A level's policy, with the wall-clock and CPU time of every decision it makes added to the side's lists. */
function timedPolicy(
  level: Level,
  ruleset: TractorRuleset,
  random: Random,
  budget: SearchBudget,
  side: Side,
): TractorPolicy {
  const policy =
    level === "random"
      ? randomPolicy(random)
      : level === "partner"
        ? partnerPolicy(ruleset)
        : levelPolicy(level, ruleset, random, budget);
  const timed =
    (decide: (view: SeatView) => number[]) =>
    (view: SeatView): number[] => {
      const [start, cpu] = [performance.now(), cpuMillis()];
      const cards = decide(view);
      side.millis.push(performance.now() - start);
      side.cpuMillis.push(cpuMillis() - cpu);
      return cards;
    };
  return { choosePlay: timed(policy.choosePlay), chooseBurial: timed(policy.chooseBurial) };
}

interface Side {
  readonly level: Level;
  readonly millis: number[];
  readonly cpuMillis: number[];
}

interface PairTally {
  rounds: number;
  wins: number;
  /** Per deal: the first level's level change summed over its two rounds (its team's gain minus the other's). */
  dealChanges: number[];
  /** Defender points with the first level defending, and with the second. */
  firstDefending: number[];
  secondDefending: number[];
  matches: number;
  matchWins: number;
  matchRounds: number;
}

/** The level change of a round seen from `team`: levels it gained, or minus the levels the other team gained. */
function changeFor(result: RoundResult, team: Team): number {
  return result.change.team === team ? result.change.levels : -result.change.levels;
}

function playPair(options: Options, rules: Rules, first: Side, second: Side): PairTally {
  const ruleset = RULESETS[rules];
  const budget: SearchBudget = {
    ...DEFAULT_SEARCH_BUDGET,
    worlds: options.worlds,
    candidates: options.candidates,
    confidence: options.confidence,
    winValue: options.winValue,
    timeMs: options.timeMs,
    pool: options.pool,
    evidence: options.evidence,
    surprise: options.surprise,
    ownPolicy: options.ownPolicy,
    now: cpuMillis,
  };
  const tally: PairTally = {
    rounds: 0,
    wins: 0,
    dealChanges: [],
    firstDefending: [],
    secondDefending: [],
    matches: 0,
    matchWins: 0,
    matchRounds: 0,
  };
  const setups = seededRandom(`${options.seed}:setups`);
  const ours = (index: number) => options.job === undefined || index % options.jobs === options.job;
  for (let deal = 0; deal < options.firstDeal + options.deals; deal++) {
    const setup = randomSetup(setups); // drawn for every deal, so that deal k is the same in every share and chunk
    if (deal < options.firstDeal || !ours(deal)) continue;
    const dealt = dealRound(setup, seededRandom(`${options.seed}:deal:${deal}`), ruleset);
    let change = 0;
    for (const firstTeam of [1, 2] as Team[]) {
      const dice = seededRandom(`${options.seed}:dice:${deal}:${firstTeam}`);
      const policies = sidesFor(firstTeam, ruleset, dice, budget, first, second);
      const played = playRound(dealt, policies);
      if (played.phase !== "finished") throw new Error(`deal ${deal} did not finish`);
      const { result } = played;
      tally.rounds++;
      tally.wins += result.change.team === firstTeam ? 1 : 0;
      change += changeFor(result, firstTeam);
      (declarersOf(setup) === firstTeam ? tally.secondDefending : tally.firstDefending).push(result.defenderPoints);
    }
    tally.dealChanges.push(change / 2);
  }
  for (let match = 0; match < options.matches; match++) {
    if (!ours(match)) continue;
    for (const firstTeam of [1, 2] as Team[]) {
      const dice = seededRandom(`${options.seed}:match-dice:${match}:${firstTeam}`);
      const { winner, rounds } = playMatch(
        `${options.seed}:match:${match}`,
        ruleset,
        sidesFor(firstTeam, ruleset, dice, budget, first, second),
        options.matchFrom as Rank,
      );
      tally.matches++;
      tally.matchWins += winner === firstTeam ? 1 : 0;
      tally.matchRounds += rounds;
    }
  }
  return tally;
}

function sidesFor(
  firstTeam: Team,
  ruleset: TractorRuleset,
  dice: Random,
  budget: SearchBudget,
  first: Side,
  second: Side,
): TractorPolicy[] {
  const policyOf = (side: Side) => timedPolicy(side.level, ruleset, dice, budget, side);
  const [firstPolicy, secondPolicy] = [policyOf(first), policyOf(second)];
  return SEATS.map((seat) => (teamOf(seat) === firstTeam ? firstPolicy : secondPolicy));
}

/** The most rounds a match may take (a match moves at least one level every round: 13 levels each way at most). */
const MATCH_ROUNDS = 60;

/**
 * A match from rank `from` (2 for a whole match; higher shortens it: both teams start there and play to pass Ace):
 * the deals and main suits come from `seed`, the same for both orientations.
 */
function playMatch(
  seed: string,
  ruleset: TractorRuleset,
  policies: readonly TractorPolicy[],
  from: Rank,
): { winner: Team | undefined; rounds: number } {
  const suits = seededRandom(`${seed}:suits`);
  let setup: RoundSetup = {
    mainSuit: MAIN_SUITS[randomInt(suits, MAIN_SUITS.length)],
    dealer: 0 as Seat,
    teamRanks: [from, from],
  };
  for (let round = 1; round <= MATCH_ROUNDS; round++) {
    const played = playRound(dealRound(setup, seededRandom(`${seed}:round:${round}`), ruleset), policies);
    if (played.phase !== "finished") throw new Error("a match round did not finish");
    const { result } = played;
    if (result.matchWinner !== undefined) return { winner: result.matchWinner, rounds: round };
    setup = {
      mainSuit: MAIN_SUITS[randomInt(suits, MAIN_SUITS.length)],
      dealer: result.nextDealer,
      teamRanks: [result.teamRanks[0], result.teamRanks[1]],
    };
  }
  return { winner: undefined, rounds: MATCH_ROUNDS };
}

const percent = (share: number) => `${(100 * share).toFixed(1)}%`;
const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

/** A mean with its 95% normal interval, as the tables write it: "+0.14 (+0.07 to +0.20)". */
function meanWithInterval(values: readonly number[]): string {
  const { mean: average, low, high } = meanInterval(values);
  return `${average >= 0 ? "+" : ""}${average.toFixed(2)} (${low.toFixed(2)} to ${high.toFixed(2)})`;
}

function times(side: Side): string {
  const [wall, cpu] = [summarize(side.millis), summarize(side.cpuMillis)];
  const figures = (summary: typeof wall) =>
    `p50 ${summary.p50.toFixed(2)}, p95 ${summary.p95.toFixed(1)}, max ${summary.max.toFixed(1)} ms`;
  return `${side.level}: ${wall.count} decisions, wall ${figures(wall)}; CPU ${figures(cpu)}`;
}

function report(rules: Rules, first: Side, second: Side, tally: PairTally, seconds: number): void {
  const { low, high } = wilsonInterval(tally.wins, tally.rounds);
  console.log(
    `${first.level} vs ${second.level}, ${rules} rules: ${tally.rounds} rounds (${tally.rounds / 2} deals × 2), ${seconds.toFixed(0)} s`,
  );
  if (tally.rounds > 0) {
    console.log(
      `  rounds won by ${first.level}: ${tally.wins} = ${percent(tally.wins / tally.rounds)} (95% CI ${percent(low)} – ${percent(high)})`,
    );
    console.log(`  mean level change per round for ${first.level}: ${meanWithInterval(tally.dealChanges)}`);
    console.log(
      `  mean defender points: ${first.level} defending ${mean(tally.firstDefending).toFixed(1)}, ${second.level} defending ${mean(tally.secondDefending).toFixed(1)}`,
    );
  }
  if (tally.matches > 0) {
    const matches = wilsonInterval(tally.matchWins, tally.matches);
    console.log(
      `  matches won by ${first.level}: ${tally.matchWins} of ${tally.matches} = ${percent(tally.matchWins / tally.matches)} (95% CI ${percent(matches.low)} – ${percent(matches.high)}), ${(tally.matchRounds / tally.matches).toFixed(1)} rounds each`,
    );
  }
  console.log(`  decision times: ${times(first)}; ${times(second)}`);
}

/** One pair of levels under one set of rules, as a share reports it to the parent. */
interface PairResult {
  rules: Rules;
  first: Side;
  second: Side;
  tally: PairTally;
}

/** Every pair of levels under every set of rules asked for, in this process (or this share of the deals). */
function playAll(options: Options, each: (result: PairResult) => void): void {
  const rulesRun: Rules[] = options.rules === "both" ? ["classic", "checked"] : [options.rules];
  for (const rules of rulesRun) {
    for (const [firstLevel, secondLevel] of options.pairs) {
      const first: Side = { level: firstLevel, millis: [], cpuMillis: [] };
      const second: Side = { level: secondLevel, millis: [], cpuMillis: [] };
      each({ rules, first, second, tally: playPair(options, rules, first, second) });
    }
  }
}

/** Adds one share's result to another's: counts add up, lists are joined. */
function merged(into: PairResult, from: PairResult): PairResult {
  const join = (a: Side, b: Side): Side => ({
    level: a.level,
    millis: a.millis.concat(b.millis),
    cpuMillis: a.cpuMillis.concat(b.cpuMillis),
  });
  const [t, u] = [into.tally, from.tally];
  const tally: PairTally = {
    rounds: t.rounds + u.rounds,
    wins: t.wins + u.wins,
    dealChanges: t.dealChanges.concat(u.dealChanges),
    firstDefending: t.firstDefending.concat(u.firstDefending),
    secondDefending: t.secondDefending.concat(u.secondDefending),
    matches: t.matches + u.matches,
    matchWins: t.matchWins + u.matchWins,
    matchRounds: t.matchRounds + u.matchRounds,
  };
  return { rules: into.rules, first: join(into.first, from.first), second: join(into.second, from.second), tally };
}

/** Reports each pair's results, added up over the shares or chunks that played them, and keeps them if asked. */
function reportAll(options: Options, parts: PairResult[][], seconds: number): void {
  const all = parts[0].map((first, index) =>
    parts.slice(1).reduce((sum, results) => merged(sum, results[index]), first),
  );
  all.forEach((result) => report(result.rules, result.first, result.second, result.tally, seconds));
  if (options.save) writeFileSync(options.save, JSON.stringify({ seconds, results: all }));
}

/** Adds up results kept by `--save` (the same pairs and rules in each, e.g. chunks of deals played one after another). */
function mergeSaved(options: Options): void {
  const saved = options.merge!.map(
    (file) => JSON.parse(readFileSync(file, "utf8")) as { seconds: number; results: PairResult[] },
  );
  const shapes = saved.map(({ results }) =>
    results.map((result) => `${result.rules}:${result.first.level}:${result.second.level}`).join(","),
  );
  if (new Set(shapes).size !== 1)
    throw new Error(`the saved results do not hold the same pairs and rules: ${[...new Set(shapes)].join(" / ")}`);
  reportAll(
    options,
    saved.map(({ results }) => results),
    saved.reduce((sum, { seconds }) => sum + seconds, 0),
  );
}

/** Forks one process per share with the same options, and reports each pair once every share has played it. */
async function playInShares(options: Options): Promise<void> {
  const start = performance.now();
  const shares = Array.from(
    { length: options.jobs },
    (_, job) =>
      new Promise<PairResult[]>((resolve, reject) => {
        const child = fork(__filename, [...process.argv.slice(2), "--job", String(job)], {
          stdio: ["ignore", "inherit", "inherit", "ipc"],
        });
        const results: PairResult[] = [];
        child.on("message", (result: PairResult) => results.push(result));
        child.on("exit", (code) =>
          code === 0 ? resolve(results) : reject(new Error(`share ${job} of the deals failed (exit ${code})`)),
        );
      }),
  );
  const byShare = await Promise.all(shares);
  reportAll(options, byShare, (performance.now() - start) / 1000);
}

/** A share's run: each pair's result to the parent, then the channel closed once the last has gone. */
function playShare(options: Options): void {
  const results: PairResult[] = [];
  playAll(options, (result) => results.push(result));
  results.forEach((result, index) =>
    process.send!(result, undefined, undefined, () => index === results.length - 1 && process.disconnect()),
  );
}

async function main(): Promise<void> {
  const options = new Command("bench-bots")
    .option("--deals <n>", "deals per pair and rules, each played twice with the teams swapped", count, 100)
    .option("--matches <n>", "whole matches per pair and rules, each played twice with the teams swapped", count, 0)
    .option(
      "--match-from <rank>",
      "the rank both teams start a match at (2: whole matches; 10 to 14 shorten them)",
      (text) => {
        const rank = Number(text);
        if (!Number.isInteger(rank) || rank < 2 || rank > 14)
          throw new InvalidArgumentError("expected a rank from 2 to 14 (Ace)");
        return rank;
      },
      2,
    )
    .option("--seed <seed>", "seed of the deals and the dice", "bench-bots")
    .option(
      "--rules <rules>",
      "classic, checked or both",
      (text) => {
        if (text === "classic" || text === "checked" || text === "both") return text;
        throw new InvalidArgumentError("expected classic, checked or both");
      },
      "both",
    )
    .option(
      "--pairs <pairs>",
      `level pairs, first:second, of ${LEVELS.join(", ")}`,
      pairList,
      pairList("strong:normal"),
    )
    .option("--worlds <n>", "the strong level's most sampled deals per decision", count, DEFAULT_SEARCH_BUDGET.worlds)
    .option(
      "--candidates <n>",
      "the strong level's candidate plays per decision",
      count,
      DEFAULT_SEARCH_BUDGET.candidates,
    )
    .option(
      "--confidence <n>",
      "how many standard errors another candidate must win by to replace the heuristic's",
      Number,
      DEFAULT_SEARCH_BUDGET.confidence ?? 1,
    )
    .option(
      "--win-value <n>",
      "what winning a round is worth to the strong level beside its points and levels",
      Number,
      DEFAULT_WIN_VALUE,
    )
    .option("--time-ms <n>", "the strong level's time per decision", count, DEFAULT_SEARCH_BUDGET.timeMs ?? 0)
    .option(
      "--pool <n>",
      "deals sampled for each one the strong level plays out, drawn by how well each explains the others' plays",
      count,
      DEFAULT_SEARCH_BUDGET.pool ?? 1,
    )
    .option(
      "--evidence <n>",
      "how many of the others' latest plays weigh a sampled deal",
      count,
      DEFAULT_SEARCH_BUDGET.evidence ?? 0,
    )
    .option(
      "--surprise <x>",
      "what a play the heuristic would not have made multiplies a deal's weight by",
      Number,
      DEFAULT_SEARCH_BUDGET.surprise ?? 0.3,
    )
    .option(
      "--own-policy <policy>",
      "how the strong level's own team plays in its play-outs: heuristic or partner",
      (text) => {
        if (text === "heuristic" || text === "partner") return text;
        throw new InvalidArgumentError("expected heuristic or partner");
      },
      DEFAULT_SEARCH_BUDGET.ownPolicy ?? "heuristic",
    )
    .option("--first-deal <k>", "the number of the first deal played (to play a long run in chunks)", count, 0)
    .option("--save <file>", "keep the raw results in this file, for --merge")
    .option("--merge <files...>", "add up results kept by --save and report them, instead of playing")
    .option(
      "--jobs <n>",
      "processes to share the deals among (one per free core)",
      (text) => Math.max(1, count(text)),
      1,
    )
    .option("--job <j>", "(set by --jobs for each process it starts)", count)
    .parse(process.argv)
    .opts<Options>();
  if (options.job !== undefined) return playShare(options);
  if (options.merge) return mergeSaved(options);
  console.log(
    `bench:bots: ${options.deals} deals × 2 from deal ${options.firstDeal} per pair and rules, ${options.matches} matches × 2 from rank ${options.matchFrom}, seed ${options.seed}; strong budget: ${options.worlds} deals, ${options.candidates} candidates, confidence ${options.confidence}, win value ${options.winValue}, ${options.timeMs} ms, own team in play-outs ${options.ownPolicy}; ${options.jobs} process(es)`,
  );
  if (options.jobs > 1) return playInShares(options);
  const start = performance.now();
  const results: PairResult[] = [];
  playAll(options, (result) => results.push(result));
  reportAll(options, [results], (performance.now() - start) / 1000);
}

void main();
