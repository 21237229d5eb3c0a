/**
 * Admission control for the AI threads (the Fool AI's and the strong Tractor bots'). A decision's budget is sized
 * when it is asked for, from how many decisions are already under way, so that the threads never build a queue:
 * - while a thread is free, the level's whole budget (`full`);
 * - past that, the threads' share of it: with `u` decisions under way on `t` threads, a new one gets t / (u + 1) of
 *   the budget (`reduced`), down to the least budget worth a search (`least`). A decision's time then shrinks as the
 *   queue grows, and the wait of the last one in line stays about one full decision's time, whatever the load;
 * - past `overloadPerThread` decisions per thread, none is searched: the level's fast move is made at once on the
 *   calling thread (`atOnce`), in microseconds.
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

export class AiAdmission {
  private underWay = 0;
  private readonly budgets: Record<AiBudgetTier, number> = { full: 0, reduced: 0, least: 0, atOnce: 0 };
  private readonly recentWaits: number[] = [];
  private nextWait = 0;
  private longestWaitMs = 0;

  /** `leastShare`: the smallest share worth a search (below it the tier is `least` at that share). */
  constructor(
    private readonly threads: number,
    private readonly leastShare: number,
    private readonly overloadPerThread = OVERLOAD_PER_THREAD,
  ) {}

  /** The budget a decision asked for now may use. */
  admit(): Admission {
    if (this.underWay >= this.overloadPerThread * this.threads) return this.counted({ tier: "atOnce", share: 0 });
    if (this.underWay < this.threads) return this.counted({ tier: "full", share: 1 });
    const share = this.threads / (this.underWay + 1);
    return this.counted(share > this.leastShare ? { tier: "reduced", share } : { tier: "least", share: this.leastShare });
  }

  /** Runs a searched decision, counting it under way and keeping its wait. */
  async run<T>(decide: () => Promise<T>): Promise<T> {
    const askedAt = performance.now();
    this.underWay++;
    try {
      return await decide();
    } finally {
      this.underWay--;
      this.keepWait(performance.now() - askedAt);
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
