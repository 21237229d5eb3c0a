/**
 * Admission control for the AI threads (the Fool AI's and the strong Tractor bots'). A decision's budget is sized
 * when it is asked for, from how many decisions are already under way, so that the threads never build a queue:
 * - while a thread is free, the level's whole budget (`full`);
 * - past that, the threads' share of it: with `u` decisions under way on `t` threads, a new one gets t / (u + 1) of
 *   the budget (`reduced`), down to the least budget worth a search (`least`). A decision's time then shrinks as the
 *   queue grows, and the wait of the last one in line stays about one full decision's time, whatever the load;
 * - past `overloadPerThread` decisions per thread, none is searched: the level's fast move is made at once on the
 *   calling thread (`atOnce`), in microseconds.
 * Counting is not enough when the threads get less CPU than they expect (other processes on the cores, a slower
 * machine): the decisions' own times then tell. Each searched decision's time from being asked for to its answer,
 * over the share and the cost it was given, keeps a moving estimate of what a whole budget takes now; a new
 * decision's share is also held to what fits in TARGET_MS by that estimate.
 * Each tier is counted (the /metrics say how often each budget was used), and each decision's wait, from being
 * asked for to its answer, is kept over the last WAITS_KEPT decisions for its p99 and its maximum.
 */
import type { AiBudgetUse } from "../rooms/kit/protocol";

export type AiBudgetTier = keyof AiBudgetUse["budgets"];

/** A decision's admission: its tier, and the share of the level's budget it may use (1 for the whole). */
export interface Admission {
  readonly tier: AiBudgetTier;
  readonly share: number;
}

/** Past this many decisions under way per thread, the fast move is made at once. */
export const OVERLOAD_PER_THREAD = 8;
/** Enough recent waits for a p99 that moves with the load, and little memory. */
const WAITS_KEPT = 2_048;
/** What a searched decision should take at most, by the current estimate: a quarter of the one-second bound. */
export const TARGET_MS = 250;
/** The weight of the latest decision in the moving estimate of a whole budget's time. */
const ESTIMATE_WEIGHT = 0.1;

export class AiAdmission {
  private underWay = 0;
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
    if (this.underWay >= this.overloadPerThread * this.threads) return this.counted({ tier: "atOnce", share: 0 });
    const byCount = this.underWay < this.threads ? 1 : this.threads / (this.underWay + 1);
    const byTime = this.wholeBudgetMs === 0 ? 1 : TARGET_MS / (this.wholeBudgetMs * cost);
    const share = Math.min(byCount, byTime);
    if (share >= 1) return this.counted({ tier: "full", share: 1 });
    return this.counted(share > this.leastShare ? { tier: "reduced", share } : { tier: "least", share: this.leastShare });
  }

  /** Runs a searched decision given `admission` (at `cost`), counting it under way and timing it. */
  async run<T>(admission: Admission, decide: () => Promise<T>, cost = 1): Promise<T> {
    const askedAt = this.now();
    this.underWay++;
    try {
      return await decide();
    } finally {
      this.underWay--;
      const waitedMs = this.now() - askedAt;
      this.keepWait(waitedMs);
      this.estimate(waitedMs / (Math.max(admission.share, this.leastShare) * cost));
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
    this.wholeBudgetMs = this.wholeBudgetMs === 0 ? wholeBudgetMs : this.wholeBudgetMs + ESTIMATE_WEIGHT * (wholeBudgetMs - this.wholeBudgetMs);
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
