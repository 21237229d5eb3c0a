/**
 * Admission control for the AI threads (the Fool AI's and the strong Tractor bots'). A decision's budget is sized
 * when it is asked for, from the decisions already under way, so that the threads never build a queue a decision
 * would wait in for long:
 * - while a thread is free, the level's whole budget (`full`);
 * - past that, the threads' share of it: with `u` decisions under way on `t` threads, a new one gets t / (u + 1) of
 *   the budget (`reduced`), down to the least budget worth a search (`least`);
 * - none at all when even the least would wait past WAIT_BOUND_MS, or past `overloadPerThread` decisions per
 *   thread: the level's fast move is made at once on the calling thread (`atOnce`), in microseconds.
 * Counting is not enough when the threads get less CPU than they expect (other processes on the cores, a slower
 * machine): the decisions' own times tell. Each decision that started on a free thread (so its time is its own,
 * not a queue's) updates a moving estimate of what a whole budget takes now; with it, a new decision's share is
 * held to what its wait (the work queued ahead of it, shared by the threads) and its own time fit in TARGET_MS
 * (WAIT_BOUND_MS on a free thread, where it waits for nothing).
 * The estimate can still be wrong (the threads slow down after a decision was admitted), so each decision also
 * carries a time to answer by, ANSWER_WITHIN_MS after it was asked for: a thread that starts it late searches only
 * for the time left, and one that starts it after that time makes the level's fast move (`answerBy`).
 * Each tier is counted (the /metrics say how often each budget was used), and each decision's wait, from being asked
 * for to its answer, is kept over the last WAITS_KEPT decisions for its p99, with the longest since start.
 */
import type Piscina from "piscina";
import type { Worker } from "node:worker_threads";
import type { AiBudgetUse, AiThreadHeaps } from "../telemetry/server-metrics";

export type AiBudgetTier = keyof AiBudgetUse["budgets"];

/**
 * A searched decision's thread answers within this long of its being asked for, whatever its budget: a quarter of a
 * second short of the 1 s bound on a decision's wait, for its answer still crosses back to a main thread that may be
 * busy (at 5,000 clients on two cores its loop stalls up to 0.3 s).
 */
export const ANSWER_WITHIN_MS = 750;

/** The time (Date.now()'s clock, shared by the threads) by which a decision asked for now must answer. */
export function answerBy(now: number = Date.now()): number {
  return now + ANSWER_WITHIN_MS;
}

/** What is left of a decision's search time when it starts: its budget, cut to what remains before `answerBy`. */
export function timeLeft(budgetMs: number, answerByMs: number | undefined, now: number = Date.now()): number {
  return answerByMs === undefined ? budgetMs : Math.min(budgetMs, answerByMs - now);
}

/** A decision's admission: its tier, the share of the level's budget it may use (1 for the whole), and its cost. */
export interface Admission {
  readonly tier: AiBudgetTier;
  readonly share: number;
  /** How much more the level's whole budget takes than the cheapest level's (1). */
  readonly cost: number;
  /** Whether a thread was free when it was admitted: its time is then its own, with no queue in it. */
  readonly threadWasFree: boolean;
}

/**
 * What each AI thread's heap may hold. A thread's play-outs make much short-lived garbage, and V8 lets a thread's
 * young generation grow to 16 MB a half (32 MB resident at once) to hold it: a Fool AI thread cost the process 51–54
 * MB of RSS, about 13 KB a table at the load test's 4,000 tables. Held to 8 MB, the thread costs 26–29 MB and its
 * decisions take the same time.
 */
export const AI_THREAD_LIMITS = { maxYoungGenerationSizeMb: 8 } as const;

/** Past this many decisions under way per thread, the fast move is made at once. */
export const OVERLOAD_PER_THREAD = 8;
/** What a searched decision should take, its wait included, by the current estimate. */
export const TARGET_MS = 250;
/** What no decision should wait past, by the current estimate: past it, the fast move at once. */
export const WAIT_BOUND_MS = 750;
/** Enough recent waits for a p99 that moves with the load, and little memory. */
const WAITS_KEPT = 2_048;
/** The weight of the latest decision in the moving estimate of a whole budget's time. */
const ESTIMATE_WEIGHT = 0.1;

export class AiAdmission {
  private underWay = 0;
  /** The work under way, in whole budgets of the cheapest level (each decision's share times its cost). */
  private workUnderWay = 0;
  private readonly budgets: Record<AiBudgetTier, number> = { full: 0, reduced: 0, least: 0, atOnce: 0 };
  private readonly recentWaits: number[] = [];
  private nextWait = 0;
  private longestWaitMs = 0;
  /** The moving estimate of a whole budget's time at cost 1, in ms; 0 until a decision has been timed. */
  private wholeBudgetMs = 0;

  /**
   * `leastShare`: the smallest share worth a search (below it the tier is `least` at that share). `now`: the
   * clock the waits are timed by.
   */
  constructor(
    private readonly threads: number,
    private readonly leastShare: number,
    private readonly overloadPerThread = OVERLOAD_PER_THREAD,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * The budget a decision asked for now may use. `cost`: how much more its whole budget takes than another's
   * (the Fool AI's strong level searches six times as many moves as its normal one).
   */
  admit(cost = 1): Admission {
    const threadWasFree = this.underWay < this.threads;
    const admitted = (tier: AiBudgetTier, share: number) => this.counted({ tier, share, cost, threadWasFree });
    if (this.underWay >= this.overloadPerThread * this.threads) return admitted("atOnce", 0);
    const byCount = threadWasFree ? 1 : this.threads / (this.underWay + 1);
    // The work a new decision waits behind, in whole budgets: none while a thread is free.
    const ahead = threadWasFree ? 0 : this.workUnderWay / this.threads;
    // On a free thread a decision may take up to the bound (a costly level's search is slow by design); behind a
    // queue, its wait and its own time together aim at the target.
    const timeMs = threadWasFree ? WAIT_BOUND_MS : TARGET_MS;
    const byTime = this.wholeBudgetMs === 0 ? 1 : (timeMs / this.wholeBudgetMs - ahead) / cost;
    const share = Math.min(byCount, byTime);
    if (share >= 1) return admitted("full", 1);
    if (share > this.leastShare) return admitted("reduced", share);
    // A free thread always searches (so the estimate keeps learning); a queue too long for the least does not.
    const leastWaitMs = (ahead + this.leastShare * cost) * this.wholeBudgetMs;
    return threadWasFree || leastWaitMs <= WAIT_BOUND_MS ? admitted("least", this.leastShare) : admitted("atOnce", 0);
  }

  /** How many searched decisions are under way now. */
  get decisionsUnderWay(): number {
    return this.underWay;
  }

  /**
   * Runs a searched decision as admitted, counting its work under way and timing it. `timed`: false when its time
   * is not a budget's (it waits for a thread to start and load the search, seconds on a busy machine): its wait is
   * kept, but the estimate of a whole budget does not learn from it.
   */
  async run<T>(admission: Admission, decide: () => Promise<T>, timed = true): Promise<T> {
    const work = admission.share * admission.cost;
    const askedAt = this.now();
    this.underWay++;
    this.workUnderWay += work;
    try {
      return await decide();
    } finally {
      this.underWay--;
      this.workUnderWay = Math.max(0, this.workUnderWay - work);
      const waitedMs = this.now() - askedAt;
      this.keepWait(waitedMs);
      if (timed && admission.threadWasFree && work > 0) this.estimate(waitedMs / work);
    }
  }

  /** How often each budget was used since start, and the recent waits' p99 and the longest wait, in ms. */
  use(): AiBudgetUse {
    const sorted = [...this.recentWaits].sort((a, b) => a - b);
    const p99 = sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
    return { budgets: { ...this.budgets }, waitMs: { p99: round(p99), max: round(this.longestWaitMs) } };
  }

  private counted(admission: Admission): Admission {
    this.budgets[admission.tier]++;
    return admission;
  }

  private estimate(wholeBudgetMs: number): void {
    this.wholeBudgetMs =
      this.wholeBudgetMs === 0
        ? wholeBudgetMs
        : this.wholeBudgetMs + ESTIMATE_WEIGHT * (wholeBudgetMs - this.wholeBudgetMs);
  }

  private keepWait(ms: number): void {
    if (this.recentWaits.length < WAITS_KEPT) this.recentWaits.push(ms);
    else this.recentWaits[this.nextWait] = ms;
    this.nextWait = (this.nextWait + 1) % WAITS_KEPT;
    this.longestWaitMs = Math.max(this.longestWaitMs, ms);
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/**
 * Whether a started thread is idle for a decision about to be run: otherwise the pool starts one (the threads stop
 * when idle), and the decision's time is the thread's start more than its budget.
 */
export function hasIdleThread(pool: { readonly threads: readonly unknown[] }, admission: AiAdmission): boolean {
  return pool.threads.length > admission.decisionsUnderWay;
}

/** The task a pool's `warm` runs: nothing, run by the workers' `warm` export. */
export type WarmTask = Record<string, never>;

/**
 * Starts a thread of `pool` if none runs, so the first decision does not wait for it (a thread's start, loading the
 * AI, takes up to seconds on a busy machine). Piscina adds the thread as the task is given, so a second call finds it.
 */
export function warmPool(
  pool: {
    readonly threads: readonly unknown[];
    run(task: WarmTask, options: { name: string }): Promise<unknown>;
  } | null,
): void {
  if (pool === null || pool.threads.length > 0) return;
  void pool.run({}, { name: "warm" }).catch(() => undefined);
}

/** How long a thread has to say what its heap holds; one that has not answered by then is left out. */
const HEAP_ANSWER_MS = 1_000;

/**
 * The heaps of a pool's running threads, added up (none while no thread runs). A thread answers between two steps of
 * its work, or at once while it sleeps between decisions; one that ends meanwhile, or does not answer within
 * HEAP_ANSWER_MS, is left out, so that a scrape never waits on a thread.
 */
export async function threadHeaps(pool: { readonly threads: readonly Worker[] } | null): Promise<AiThreadHeaps> {
  const heaps = await Promise.all(
    (pool?.threads ?? []).map((thread) => answerWithin(thread.getHeapStatistics(), HEAP_ANSWER_MS)),
  );
  const running = heaps.filter((heap) => heap !== null);
  return {
    threads: running.length,
    physicalBytes: running.reduce((total, heap) => total + heap.total_physical_size, 0),
    usedBytes: running.reduce((total, heap) => total + heap.used_heap_size, 0),
  };
}

/** The promise's value, or null if it fails or has not settled within `ms`. */
function answerWithin<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(resolve, ms, null)));
  return Promise.race([promise.catch(() => null), late]).finally(() => clearTimeout(timer));
}

/** What a decision's run on a thread came to: the thread's answer (undefined if the thread failed), and whether the limit passed first. */
export interface LimitedAnswer<T> {
  readonly answer: T | undefined;
  readonly overTime: boolean;
}

const OVER_TIME = Symbol("over time");

/**
 * A decision run on a thread, its answer awaited up to `limitMs`. Decisions are handed to the threads without an
 * abort signal: piscina gives a thread at most one task that can be aborted (aborting one stops its thread), but up
 * to THREAD_QUEUE tasks that cannot, so a thread goes from one decision to the next by itself instead of waiting,
 * after each answer, for a busy main thread to pick it up and hand it the next (at 8,000 clients those hand-overs,
 * one turn of the main thread's loop each, were most of a decision's wait). A decision over its limit
 * is therefore not stopped: its caller makes the fast move, and `stuck` is called, to replace the pool (a thread that
 * answers nothing in seconds is stuck in a loop, and the decisions queued on it with it: they fail, and fall back).
 */
export async function answerWithinLimit<T>(
  run: () => Promise<T>,
  limitMs: number,
  stuck: () => void,
): Promise<LimitedAnswer<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof OVER_TIME>((resolve) => (timer = setTimeout(resolve, limitMs, OVER_TIME)));
  try {
    const answer = await Promise.race([run().catch(() => undefined), late]);
    if (answer !== OVER_TIME) return { answer, overTime: false };
    stuck();
    return { answer: undefined, overTime: true };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How many decisions a thread may hold at once (piscina's `concurrentTasksPerWorker`): as many as admission control
 * lets be under way for it, so that no admitted decision waits on the main thread to reach its thread.
 */
export const THREAD_QUEUE = OVERLOAD_PER_THREAD;

type LoadBalancer = NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>["loadBalancer"]>;

/**
 * Which of a pool's threads takes a task (piscina's `loadBalancer`): an idle one; else, while the pool has fewer than
 * `threads` running, none, so that piscina starts another (the task then goes to whichever thread is free first);
 * else the least busy that holds fewer than THREAD_QUEUE. Piscina's own balancer gives a busy thread more tasks before
 * it starts a second one, which on a machine of many cores would leave them to one thread. A task that can be
 * aborted (a review) goes only to an idle thread, and no decision joins a thread running one: aborting it stops its
 * thread.
 */
export function threadBalancer(threads: number): LoadBalancer {
  return (task, workers) => {
    const idle = workers.find((worker) => worker.currentUsage === 0);
    if (idle !== undefined || task.isAbortable || workers.length < threads) return idle ?? null;
    let leastBusy: (typeof workers)[number] | null = null;
    for (const worker of workers) {
      if (worker.isRunningAbortableTask || worker.currentUsage >= THREAD_QUEUE) continue;
      if (leastBusy === null || worker.currentUsage < leastBusy.currentUsage) leastBusy = worker;
    }
    return leastBusy;
  };
}
