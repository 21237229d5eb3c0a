/**
 * The strong Tractor AI's declarations on duplicate deals: N fixed deals dealt for declaring (trump "declare"),
 * each played twice with the teams swapped. One team's seats declare by search (declaration-search.ts), asked as
 * a table asks them (whenever a seat's options or the standing declaration change, and once its hand is complete);
 * the other team's declare as the seat bot (botDeclaration). Everything after the declarations — the burial and
 * the whole round — is the heuristic's for all four seats, so the figures isolate what the declarations are worth.
 * A search's answer is made at once here (at a table it comes a few hundred ms later, while the dealer deals on).
 *
 * Reports the rounds the searching team won with a 95% Wilson interval, its mean level change per round with a 95%
 * interval over the deals, how often each side's declaration set the main suit (or nobody's), how often the search
 * chose other than the seat bot would, and the search's decision times (CPU of this process: its budget's clock).
 * `--first never`: the first team never declares instead of searching, a yardstick of what declaring at all is
 * worth against the seat bot.
 * Figures only: nothing passes or fails on time.
 *
 *   npm run bench:declarations -- --deals 100 --rules checked
 */
import { Command, InvalidArgumentError } from "commander";
import { DEALER } from "../rooms/kit/engine";
import { freshSeed, seededRandom } from "../rooms/kit/random";
import {
  declarationCandidates,
  declarationMoment,
  declarationViewOf,
  declareAtOnce,
  DEFAULT_DECLARATION_BUDGET,
  searchDeclaration,
} from "../rooms/tractor/declaration-search";
import { randomSetup } from "../rooms/tractor/generate";
import { cardName } from "../rooms/tractor/cards";
import { tractorEngine, type TractorMatch } from "../rooms/tractor/match";
import { heuristicPolicy, playRound } from "../rooms/tractor/policy";
import { checkedThrows, classic, type TractorRuleset } from "../rooms/tractor/ruleset";
import { SEATS, teamOf, type RoundResult, type Seat, type Team } from "../rooms/tractor/scoring";
import type { SearchBudget } from "../rooms/tractor/search";
import { meanInterval, summarize, wilsonInterval } from "./stats";

interface Options {
  deals: number;
  seed: string;
  rules: "classic" | "checked";
  worlds: number;
  timeMs: number;
  /** How the first team (the one called searching) declares: by search, or never. */
  first: "search" | "never";
}

function count(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) throw new InvalidArgumentError("expected a whole number");
  return value;
}

/** This process's CPU time in milliseconds: the search's budget is time on one core, whatever else runs. */
function cpuMillis(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

interface Tally {
  rounds: number;
  wins: number;
  /** Per deal: the searching team's level change, the mean of its two rounds. */
  dealChanges: number[];
  /** Whose declaration set the main suit, round by round. */
  setBy: { search: number; heuristic: number; nobody: number };
  decisions: number;
  /** Decisions where the search chose other than the seat bot would have, and of those, where it waited instead. */
  differed: number;
  waited: number;
  cpuMillis: number[];
}

/** The level change of a round seen from `team`: levels it gained, or minus the levels the other team gained. */
function changeFor(result: RoundResult, team: Team): number {
  return result.change.team === team ? result.change.levels : -result.change.levels;
}

/**
 * One round dealt for declaring and played out: the searching team's seats declare by search whenever their
 * moment changes, the others as the seat bot, in seat order until none declares (as the table asks its bots),
 * card after card; then the heuristic buries and plays for everyone.
 */
function playDeal(
  options: Options,
  ruleset: TractorRuleset,
  deal: number,
  searching: Team,
  budget: SearchBudget,
  tally: Tally,
): RoundResult {
  const setup = randomSetup(seededRandom(`${options.seed}:setup:${deal}`));
  const matchOptions = {
    trump: "declare" as const,
    mainSuit: "O" as const,
    dealer: setup.dealer,
    startRanks: setup.teamRanks,
    ruleset,
  };
  let state: TractorMatch = tractorEngine.start(
    matchOptions,
    freshSeed(seededRandom(`${options.seed}:deal:${deal}`)),
  ).state;
  const asked = new Map<Seat, string>();
  const declaration = (seat: Seat): string[] | undefined => {
    if (state.phase !== "declaring") return undefined;
    if (teamOf(seat) !== searching) {
      const action = tractorEngine.volunteer?.(state, seat);
      return action !== undefined && "cards" in action ? [...action.cards] : undefined;
    }
    if (options.first === "never") return undefined;
    const view = declarationViewOf(state, seat);
    const moment = declarationMoment(view, ruleset);
    if (asked.get(seat) === moment || declarationCandidates(view, ruleset).length === 0) return undefined;
    asked.set(seat, moment);
    const started = cpuMillis();
    const cards = searchDeclaration(view, ruleset, budget).cards;
    tally.cpuMillis.push(cpuMillis() - started);
    tally.decisions++;
    const seatBot = declareAtOnce({ view, rules: ruleset });
    if ((cards ?? []).join() !== (seatBot ?? []).join()) {
      tally.differed++;
      if (cards === undefined) tally.waited++;
    }
    return cards?.map(cardName);
  };
  const volunteer = (seat: Seat): boolean => {
    const cards = declaration(seat);
    const applied = cards === undefined ? undefined : tractorEngine.apply(state, seat, { type: "declare", cards });
    if (applied?.ok) state = applied.state;
    return applied?.ok === true;
  };
  for (let step = 0; step < 1_000 && state.phase === "declaring"; step++) {
    for (let acted = true, rounds = 0; acted && rounds < 100; rounds++) acted = SEATS.map(volunteer).some(Boolean);
    const waiting = tractorEngine.waiting(state);
    if (waiting.for !== "dealer") throw new Error("the deal waits for someone other than the dealer");
    const dealt = tractorEngine.apply(state, DEALER, waiting.action);
    if (!dealt.ok) throw new Error(dealt.reason);
    state = dealt.state;
  }
  if (state.phase !== "burying") throw new Error(`deal ${deal} did not end its declarations`);
  const declarer = state.declaration?.seat;
  if (declarer === undefined) tally.setBy.nobody++;
  else tally.setBy[teamOf(declarer) === searching ? "search" : "heuristic"]++;
  const heuristic = heuristicPolicy(ruleset);
  const played = playRound(state.round, [heuristic, heuristic, heuristic, heuristic]);
  if (played.phase !== "finished") throw new Error(`deal ${deal} did not finish`);
  return played.result;
}

function run(options: Options): void {
  const ruleset = options.rules === "checked" ? checkedThrows : classic;
  const budget: SearchBudget = {
    ...DEFAULT_DECLARATION_BUDGET,
    worlds: options.worlds,
    timeMs: options.timeMs,
    now: cpuMillis,
  };
  const tally: Tally = {
    rounds: 0,
    wins: 0,
    dealChanges: [],
    setBy: { search: 0, heuristic: 0, nobody: 0 },
    decisions: 0,
    differed: 0,
    waited: 0,
    cpuMillis: [],
  };
  const started = performance.now();
  for (let deal = 0; deal < options.deals; deal++) {
    let change = 0;
    for (const searching of [1, 2] as Team[]) {
      const result = playDeal(options, ruleset, deal, searching, budget, tally);
      tally.rounds++;
      tally.wins += result.change.team === searching ? 1 : 0;
      change += changeFor(result, searching);
    }
    tally.dealChanges.push(change / 2);
  }
  report(options, tally, (performance.now() - started) / 1000);
}

const percent = (share: number) => `${(100 * share).toFixed(1)}%`;
const signed = (value: number) => `${value >= 0 ? "+" : ""}${value.toFixed(2)}`;

function report(options: Options, tally: Tally, seconds: number): void {
  const { low, high } = wilsonInterval(tally.wins, tally.rounds);
  const cpu = summarize(tally.cpuMillis);
  const { search, heuristic, nobody } = tally.setBy;
  console.log(
    `declarations ${options.first === "never" ? "never made" : "by search"} vs the seat bot's, ${options.rules} rules: ${tally.rounds} rounds (${options.deals} deals × 2), ${seconds.toFixed(0)} s`,
  );
  console.log(
    `  searching team won ${tally.wins} = ${percent(tally.wins / tally.rounds)} (95% CI ${percent(low)} – ${percent(high)})`,
  );
  const change = meanInterval(tally.dealChanges);
  console.log(
    `  mean level change per round for the searching team: ${signed(change.mean)} (95% CI ${signed(change.low)} to ${signed(change.high)})`,
  );
  console.log(
    `  main suit set by: the searching team ${percent(search / tally.rounds)}, the seat bots' ${percent(heuristic / tally.rounds)}, nobody ${percent(nobody / tally.rounds)}`,
  );
  const differed = percent(tally.differed / Math.max(1, tally.decisions));
  console.log(
    `  searches: ${tally.decisions}, ${differed} chose other than the seat bot (${tally.waited} of those ${tally.differed} to wait)`,
  );
  console.log(`  search CPU p50 ${cpu.p50.toFixed(0)}, p95 ${cpu.p95.toFixed(0)}, max ${cpu.max.toFixed(0)} ms`);
}

const program = new Command()
  .description("the strong Tractor AI's declarations against the seat bot's, on duplicate deals")
  .option("--deals <n>", "fixed deals, each played twice with the teams swapped", count, 10)
  .option("--seed <text>", "the deals' seed", "bench-declarations")
  .option("--rules <rules>", "classic (every throw stands) or checked", "checked")
  .option("--worlds <n>", "the most sampled deals a declaration weighs", count, DEFAULT_DECLARATION_BUDGET.worlds)
  .option("--time-ms <ms>", "a declaration's CPU budget", count, DEFAULT_DECLARATION_BUDGET.timeMs ?? 400)
  .option("--first <how>", "how the first team declares: search, or never (a yardstick)", "search");
program.parse();
const options = program.opts<Options>();
if (options.rules !== "classic" && options.rules !== "checked")
  throw new InvalidArgumentError("--rules is classic or checked");
if (options.first !== "search" && options.first !== "never")
  throw new InvalidArgumentError("--first is search or never");
run(options);
