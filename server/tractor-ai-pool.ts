/**
 * The strong Tractor AI off the room's event loop, on worker threads as the Fool AI's (fool-ai-pool.ts). A strong
 * decision searches for up to DEFAULT_SEARCH_BUDGET.timeMs; a queue would add its wait to every table's decision
 * time, so under overload the budget shrinks instead: with more decisions under way than threads, each new one
 * gets the threads' share of the time, and past OVERLOAD decisions per thread the heuristic's play is made at once
 * (counted as `shrunk`). A thread that fails, or a missing compiled worker (the sources run directly, as in the
 * room tests), decides in-process with the shortest budget; one over its limit is abandoned for the heuristic's play.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import Piscina from "piscina";
import type { Card } from "../rooms/tractor/cards";
import { decideAtOnce, decideInProcess, type TractorAiDecider, type TractorAiTask } from "../rooms/tractor/levels";
import { DEFAULT_SEARCH_BUDGET } from "../rooms/tractor/search";
import type { ReviewedRecord, TractorReview } from "../rooms/tractor/review";
import type { Seat } from "../rooms/tractor/scoring";
import { review as reviewInProcess, type ReviewTask } from "./tractor-ai-worker";
import { log } from "../rooms/kit/log";

export const TRACTOR_AI_WORKER_FILE = path.join(__dirname, "tractor-ai-worker.js");

const IDLE_THREAD_MS = 60_000;
/** A decision's time budget is a tenth of a second; one that takes this long is not coming. */
export const TRACTOR_DECISION_LIMIT_MS = 2_000;
/** Past this many decisions under way per thread, the heuristic plays at once. */
const OVERLOAD = 4;
/** The most search time one review takes (a long match is reviewed up to where it runs out). */
export const REVIEW_TIME_MS = 10_000;
/** The least time a decision that is searched at all gets. */
const LEAST_TIME_MS = 10;

export class TractorAiThreads implements TractorAiDecider {
  private pool: Piscina<TractorAiTask | ReviewTask, Card[] | TractorReview> | null = null;
  private workerFound: boolean | undefined;
  private underWay = 0;
  /** Decisions made on threads, in-process, at once with the heuristic under overload, and abandoned over the limit. */
  readonly decisions = { onThreads: 0, inProcess: 0, shrunk: 0, abandoned: 0 };

  constructor(
    private readonly workerFile: string | null = TRACTOR_AI_WORKER_FILE,
    private readonly threads = Math.max(1, os.availableParallelism() - 1),
    private readonly limitMs = TRACTOR_DECISION_LIMIT_MS,
  ) {}

  /** The time a new decision may take with `underWay` others running: the whole budget while threads are free. */
  budgetMs(underWay: number): number {
    const full = DEFAULT_SEARCH_BUDGET.timeMs ?? 100;
    if (underWay < this.threads) return full;
    return Math.max(LEAST_TIME_MS, Math.floor((full * this.threads) / (underWay + 1)));
  }

  async decide(task: Omit<TractorAiTask, "timeMs">): Promise<Card[]> {
    if (this.underWay >= OVERLOAD * this.threads) {
      this.decisions.shrunk++;
      return decideAtOnce(task);
    }
    const timeMs = this.budgetMs(this.underWay);
    const pool = this.threadPool();
    if (pool === null) {
      this.decisions.inProcess++;
      return decideInProcess(task, LEAST_TIME_MS);
    }
    this.underWay++;
    const limit = new AbortController();
    const timer = setTimeout(() => limit.abort(), this.limitMs);
    try {
      const cards = (await pool.run({ ...task, timeMs }, { signal: limit.signal }).catch(() => undefined)) as Card[] | undefined;
      if (Array.isArray(cards)) {
        this.decisions.onThreads++;
        return cards;
      }
      if (limit.signal.aborted) {
        this.decisions.abandoned++;
        log.warn({ event: "tractor_ai_decision_abandoned", limitMs: this.limitMs }, `a Tractor AI decision took over ${this.limitMs} ms: the heuristic's play is made`);
        return decideAtOnce(task);
      }
      log.warn({ event: "tractor_ai_thread_failed" }, "a Tractor AI thread failed: the decision is made in-process");
      this.decisions.inProcess++;
      return decideInProcess(task, LEAST_TIME_MS);
    } finally {
      clearTimeout(timer);
      this.underWay--;
    }
  }

  /**
   * A recorded game's review for one seat, on a thread (in-process only when there is no compiled worker), within
   * REVIEW_TIME_MS of search: what is left past it is marked not reviewed.
   */
  async review(record: ReviewedRecord, seat: Seat): Promise<TractorReview> {
    const task: ReviewTask = { record, seat, timeMs: REVIEW_TIME_MS };
    const pool = this.threadPool();
    if (pool === null) return reviewInProcess(task);
    return (await pool.run(task, { name: "review", signal: AbortSignal.timeout(REVIEW_TIME_MS + this.limitMs) })) as TractorReview;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }

  private threadPool(): Piscina<TractorAiTask | ReviewTask, Card[] | TractorReview> | null {
    this.workerFound ??= this.workerFile !== null && fs.existsSync(this.workerFile);
    if (this.pool === null && this.workerFound) {
      this.pool = new Piscina({ filename: this.workerFile, minThreads: 0, maxThreads: this.threads, idleTimeout: IDLE_THREAD_MS });
    }
    return this.pool;
  }
}
