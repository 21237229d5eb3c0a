/**
 * npm run bench:fool -- [--pairs N] [--cap MOVES] [--seed S]
 *
 * 1. The winning-sequence search on its hardest positions: every hand of all thirteen skip cards, both jokers
 *    and one more card against every face-up card, and random large hands; prints the slowest and its time.
 * 2. The AI against the random and the greedy policy: N deals, each played twice with the seats swapped. The AI
 *    keeps its memory of the public events as a room would (startMemory, then remember after every move).
 *    Prints wins, losses and capped games (draws), the score with a 95% confidence interval over the pairs,
 *    and the AI's decision time (p50, p95). Figures only: nothing here passes or fails on time.
 */
import { Command, InvalidArgumentError } from "commander";
import { performance } from "node:perf_hooks";
import { seededRandom, shuffled, type Random } from "../rooms/kit/random";
import {
  aiGame,
  aiPolicy,
  DEFAULT_WEIGHTS,
  makeAiPolicy,
  STRONG_BUDGET,
  strongAiPolicy,
  type AiPolicy,
} from "../rooms/fool/ai";
import { DEFAULT_BUDGET, type OpponentModel, type PlayoutBudget } from "../rooms/fool/ai-playouts";
import { greedyPolicy, randomPolicy, type Policy } from "../rooms/fool/bots";
import { JOKER, NATURAL_CARDS, SKIP_CARDS, SUITS, isQueen, type Card } from "../rooms/fool/cards";
import { formatSequence } from "../rooms/fool/notation";
import { applyMove, formatLaid, newGame, viewFor, type FaceUp, type FoolState } from "../rooms/fool/rules";
import { remember, startMemory } from "../rooms/fool/ai-memory";
import { findWinningSequence } from "../rooms/fool/search";
import { percentile } from "./stats";

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new InvalidArgumentError("expected a positive whole number");
  return value;
}

// ---------------------------------------------------------------- the search

interface Timed {
  hand: readonly Card[];
  faceUp: FaceUp;
  ms: number;
  answer: string;
}

/** The best of three runs, so that a garbage-collection pause is not taken for the search's own time. */
function timeSearch(hand: readonly Card[], faceUp: FaceUp): Timed {
  let ms = Infinity;
  let sequence: FaceUp[] | null = null;
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    sequence = findWinningSequence(hand, faceUp);
    ms = Math.min(ms, performance.now() - started);
  }
  return { hand, faceUp, ms, answer: sequence === null ? "NO" : `YES ${formatSequence(sequence)}` };
}

function faceUpsAgainst(hand: readonly Card[]): FaceUp[] {
  return NATURAL_CARDS.filter((card) => !hand.includes(card)).flatMap((as): FaceUp[] =>
    isQueen(as) ? SUITS.map((namedSuit) => ({ card: as, as, namedSuit })) : [{ card: as, as, namedSuit: null }],
  );
}

function hardestPositions(random: Random): Array<{ hand: Card[]; faceUp: FaceUp }> {
  const everySkip: Card[] = [...SKIP_CARDS, JOKER, JOKER];
  const positions = NATURAL_CARDS.filter((card) => !SKIP_CARDS.includes(card)).flatMap((extra) =>
    faceUpsAgainst([...everySkip, extra]).map((faceUp) => ({ hand: [...everySkip, extra], faceUp })),
  );
  const withoutJokers: Card[] = SKIP_CARDS.slice();
  positions.push(...faceUpsAgainst(withoutJokers).map((faceUp) => ({ hand: withoutJokers, faceUp })));
  for (let i = 0; i < 2000; i++) {
    const pool: Card[] = [...everySkip, ...NATURAL_CARDS.filter((card) => !SKIP_CARDS.includes(card)).slice(0, 6)];
    const hand = shuffled(pool, random).slice(0, 10 + (i % 7));
    const faceUps = faceUpsAgainst(hand);
    positions.push({ hand, faceUp: faceUps[i % faceUps.length] });
  }
  return positions;
}

function benchSearch(random: Random): void {
  const positions = hardestPositions(random);
  positions.slice(0, 50).forEach(({ hand, faceUp }) => findWinningSequence(hand, faceUp)); // warm-up
  const timings = positions.map(({ hand, faceUp }) => timeSearch(hand, faceUp));
  const slowest = timings.reduce((worst, timing) => (timing.ms > worst.ms ? timing : worst));
  const total = timings.reduce((sum, timing) => sum + timing.ms, 0);
  const yes = timings.filter((timing) => timing.answer.startsWith("YES")).length;
  console.log(`search: ${timings.length} positions (${yes} YES), ${total.toFixed(0)} ms in all`);
  console.log(
    `search slowest: ${slowest.ms.toFixed(2)} ms for hand "${slowest.hand.join(" ")}" on ${formatLaid(slowest.faceUp)}`,
  );
  console.log(`  answer: ${slowest.answer}`);
}

// ---------------------------------------------------------------- the AI

interface MatchResult {
  wins: number;
  losses: number;
  draws: number;
  pairScores: number[];
}

/** Runs `work`, adding its time to `decisionsMs`. */
function timed<T>(work: () => T, decisionsMs: number[]): T {
  const started = performance.now();
  const result = work();
  decisionsMs.push(performance.now() - started);
  return result;
}

/** One game, the AI at `aiSeat` with its memory of the events; the seat that went out first, or null if capped. */
/** The AI level under test (`--level`): today's AI, or the strong level's. */
let testedAi: AiPolicy = aiPolicy;

function playGame(
  start: FoolState,
  aiSeat: number,
  opponent: Policy,
  random: Random,
  cap: number,
  decisionsMs: number[],
): number | null {
  const timedAi: AiPolicy = (view, aiRandom, memory) => timed(() => testedAi(view, aiRandom, memory), decisionsMs);
  let end = start;
  for (const { after } of aiGame(start, aiSeat, opponent, random, cap, timedAi)) end = after;
  return end.phase === "over" ? end.finished[0] : null;
}

/**
 * One game of the AI under test against today's AI (`--opponents ai`), each with its own memory of the events as a
 * room keeps one: the seat that went out first, or null if capped.
 */
function playAgainstTodaysAi(
  start: FoolState,
  aiSeat: number,
  random: Random,
  cap: number,
  decisionsMs: number[],
): number | null {
  let state = start;
  let memories = [0, 1].map((seat) => startMemory(viewFor(state, seat)));
  while (state.phase !== "over" && state.moveCount < cap) {
    const seat = state.turn;
    const view = viewFor(state, seat);
    const move =
      seat === aiSeat
        ? timed(() => testedAi(view, random, memories[seat]), decisionsMs)
        : aiPolicy(view, random, memories[seat]);
    const result = applyMove(state, seat, move);
    if (!result.ok) throw new Error(`seat ${seat} chose an illegal move: ${result.reason}`);
    state = result.state;
    memories = memories.map((memory) => remember(memory, result.events));
  }
  return state.phase === "over" ? state.finished[0] : null;
}

/** The opponents the AI is measured against: the baselines, and today's AI (to measure the strong level against). */
type Opponent = Policy | "todays-ai";

function playMatch(opponent: Opponent, pairs: number, cap: number, seed: string, decisionsMs: number[]): MatchResult {
  const result: MatchResult = { wins: 0, losses: 0, draws: 0, pairScores: [] };
  for (let pair = 0; pair < pairs; pair++) {
    let pairScore = 0;
    for (const aiSeat of [0, 1]) {
      const start = newGame(seededRandom(`${seed}:deal:${pair}`));
      const dice = seededRandom(`${seed}:play:${pair}:${aiSeat}`);
      const first =
        opponent === "todays-ai"
          ? playAgainstTodaysAi(start, aiSeat, dice, cap, decisionsMs)
          : playGame(start, aiSeat, opponent, dice, cap, decisionsMs);
      if (first === null) {
        result.draws++;
        pairScore += 0.5;
      } else if (first === aiSeat) {
        result.wins++;
        pairScore += 1;
      } else {
        result.losses++;
      }
    }
    result.pairScores.push(pairScore / 2);
  }
  return result;
}

/** Mean and 95% normal interval of the per-pair scores (a pair is one deal played from both seats). */
function scoreInterval(scores: readonly number[]): { mean: number; low: number; high: number } {
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const variance = scores.reduce((sum, s) => sum + (s - mean) ** 2, 0) / Math.max(1, scores.length - 1);
  const half = 1.96 * Math.sqrt(variance / scores.length);
  return { mean, low: mean - half, high: mean + half };
}

function percent(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

function benchAi(pairs: number, cap: number, seed: string, opponents: readonly string[]): void {
  const decisionsMs: number[] = [];
  for (const [name, opponent] of [
    ["random", randomPolicy],
    ["greedy", greedyPolicy],
    ["ai", "todays-ai"],
  ] as const) {
    if (!opponents.includes(name)) continue;
    const result = playMatch(opponent, pairs, cap, `${seed}:${name}`, decisionsMs);
    const { mean, low, high } = scoreInterval(result.pairScores);
    console.log(
      `AI vs ${name}: ${pairs} pairs = ${2 * pairs} games; wins ${result.wins}, losses ${result.losses}, ` +
        `capped (draws) ${result.draws}; score ${percent(mean)} (95% CI ${percent(low)}–${percent(high)})`,
    );
  }
  const sorted = decisionsMs.slice().sort((a, b) => a - b);
  console.log(
    `AI decision time over ${sorted.length} decisions: p50 ${percentile(sorted, 0.5).toFixed(3)} ms, ` +
      `p95 ${percentile(sorted, 0.95).toFixed(3)} ms, max ${sorted[sorted.length - 1].toFixed(2)} ms`,
  );
}

/** The level asked for, with any part of its budget the options change (the budget's most moves grown to fit). */
function testedLevel(options: {
  level: "normal" | "strong";
  worlds?: number;
  horizon?: number;
  opponentModels?: OpponentModel[];
}): AiPolicy {
  const level = options.level === "strong" ? STRONG_BUDGET : DEFAULT_BUDGET;
  if (options.worlds === undefined && options.horizon === undefined && options.opponentModels === undefined)
    return options.level === "strong" ? strongAiPolicy : aiPolicy;
  const budget: PlayoutBudget = {
    ...level,
    worlds: options.worlds ?? level.worlds,
    horizon: options.horizon ?? level.horizon,
    opponentModels: options.opponentModels ?? level.opponentModels,
  };
  console.log(`budget: ${JSON.stringify(budget)}`);
  return makeAiPolicy(DEFAULT_WEIGHTS, {
    ...budget,
    maxMoves: Math.max(
      budget.maxMoves,
      (budget.worlds * budget.horizon * budget.maxMoves) / (level.worlds * level.horizon),
    ),
  });
}

function main(): void {
  const options = new Command()
    .name("bench:fool")
    .option("--pairs <n>", "deals per opponent, each played from both seats", positiveInteger, 2000)
    .option("--cap <moves>", "moves after which a game counts as a draw", positiveInteger, 1000)
    .option("--seed <seed>", "seed of the deals and the policies' choices", "fool-bench")
    .option(
      "--level <level>",
      "the AI's level: normal (today's AI) or strong",
      (text) => {
        if (text === "normal" || text === "strong") return text;
        throw new InvalidArgumentError("expected normal or strong");
      },
      "normal",
    )
    .option(
      "--opponents <names>",
      "the opponents, of random, greedy and ai (today's AI, with its memory as in a room)",
      (text) => text.split(","),
      ["random", "greedy"],
    )
    .option("--no-search", "leave out the winning-sequence search's timings")
    .option("--worlds <n>", "the level's sampled worlds per decision (to try another budget)", positiveInteger)
    .option("--horizon <n>", "the level's play-out length in moves (to try another budget)", positiveInteger)
    .option(
      "--opponent-models <models>",
      "how the opponent plays in the play-outs, world after world: greedy and random, e.g. greedy,random",
      (text) => {
        const models = text.split(",");
        if (models.every((model) => model === "greedy" || model === "random")) return models as OpponentModel[];
        throw new InvalidArgumentError("expected greedy and random, comma-separated");
      },
    )
    .parse(process.argv)
    .opts<{
      pairs: number;
      cap: number;
      seed: string;
      level: "normal" | "strong";
      search: boolean;
      opponents: string[];
      worlds?: number;
      horizon?: number;
      opponentModels?: OpponentModel[];
    }>();
  testedAi = testedLevel(options);
  console.log(
    `node ${process.version}; pairs ${options.pairs}, cap ${options.cap} moves, seed "${options.seed}", AI level ${options.level}`,
  );
  if (options.search) benchSearch(seededRandom(`${options.seed}:search`));
  benchAi(options.pairs, options.cap, options.seed, options.opponents);
}

main();
