/**
 * Where a Fool AI decision should be made: what the server's main thread pays to make an immediate decision itself
 * (rooms/fool/ai.ts `immediateMove`) against what it pays just to hand a decision to a worker thread that sleeps
 * between decisions, as the server's do. `npm run bench:fool-ai-dispatch -- --games N --seed S`.
 */
import * as path from "node:path";
import { Command, InvalidArgumentError } from "commander";
import Piscina from "piscina";
import { seededRandom } from "../rooms/kit/random";
import { aiGame, immediateMove } from "../rooms/fool/ai";
import { AI_WORKER_FILE } from "../server/ai/fool-ai-pool";
import type { AiTask } from "../server/ai/fool-ai-worker";
import { greedyPolicy } from "../rooms/fool/bots";
import { newGame, viewFor, type FoolMove } from "../rooms/fool/rules";
import { summarize, type LatencySummary } from "./stats";

/** The gap between two hand-overs: long enough for the thread to go back to sleep, as between a room's turns. */
const SLEEP_GAP_MS = 5;

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new InvalidArgumentError("expected a positive whole number");
  return value;
}

/** The AI's decisions (seat 0, with its memory) in heads-up games against the greedy bot. */
function aiDecisions(games: number, seed: string): AiTask[] {
  const random = seededRandom(seed);
  return Array.from({ length: games }, () => [...aiGame(newGame(random), 0, greedyPolicy, random, 400)])
    .flat()
    .filter(({ state }) => state.turn === 0)
    .map(({ state, memory }) => ({ view: viewFor(state, 0), memory }));
}

function millisecondsOf(work: () => void): number {
  const start = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** The main thread's time inside `pool.run` (the hand-over alone, not the decision), after `gapMs` of quiet. */
async function handOverTimes(
  pool: Piscina<AiTask, FoolMove>,
  tasks: readonly AiTask[],
  gapMs: number,
): Promise<number[]> {
  const times: number[] = [];
  const answers: Promise<FoolMove>[] = [];
  for (const task of tasks) {
    if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    times.push(millisecondsOf(() => answers.push(pool.run(task))));
    if (gapMs > 0) await answers[answers.length - 1];
  }
  await Promise.all(answers);
  return times;
}

function line(label: string, summary: LatencySummary): string {
  const ms = (value: number) => `${value.toFixed(3)} ms`;
  return `${label.padEnd(48)} ${String(summary.count).padStart(6)}  p50 ${ms(summary.p50)}  p95 ${ms(summary.p95)}  max ${ms(summary.max)}`;
}

async function main(): Promise<void> {
  const options = new Command()
    .option("--games <n>", "heads-up games of the AI against the greedy bot", positiveInteger, 100)
    .option("--seed <text>", "seed of the games", "fool-ai-dispatch")
    .parse()
    .opts<{ games: number; seed: string }>();
  const tasks = aiDecisions(options.games, options.seed);
  const needsNoWeighing = tasks.map(({ view, memory }) => immediateMove(view, memory) !== null);
  const immediate = tasks.filter((_, index) => needsNoWeighing[index]);
  const weighed = tasks.filter((_, index) => !needsNoWeighing[index]);
  console.log(
    `${tasks.length} AI decisions in ${options.games} games: ${immediate.length} immediate, ${weighed.length} weighed`,
  );
  const pool = new Piscina<AiTask, FoolMove>({ filename: path.resolve(AI_WORKER_FILE), minThreads: 1, maxThreads: 1 });
  try {
    await pool.run(weighed[0] ?? tasks[0]);
    console.log(
      line(
        "immediate decision, on the main thread",
        summarize(immediate.map(({ view, memory }) => millisecondsOf(() => immediateMove(view, memory)))),
      ),
    );
    console.log(
      line(
        `hand-over to a sleeping thread (${SLEEP_GAP_MS} ms apart)`,
        summarize(await handOverTimes(pool, immediate, SLEEP_GAP_MS)),
      ),
    );
    console.log(line("queued behind a busy thread (back to back)", summarize(await handOverTimes(pool, immediate, 0))));
  } finally {
    await pool.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
