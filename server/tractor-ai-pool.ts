/**
 * The strong Tractor AI off the room's event loop, on worker threads as the Fool AI's (fool-ai-pool.ts). A strong
 * decision searches for up to DEFAULT_SEARCH_BUDGET.timeMs; a queue would add its wait to every table's decision
 * time, so under overload the budget shrinks instead (server/ai-admission.ts): with more decisions under way than
 * threads, each new one gets the threads' share of the time, and past OVERLOAD decisions per thread the heuristic's
 * play (or burial) is made at once (counted as `shrunk`). A thread that fails, or a missing compiled worker (the sources run directly, as in the
 * room tests), decides in-process with the shortest budget; one over its limit is abandoned for the heuristic's play.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import Piscina from "piscina";
import type { Card } from "../rooms/tractor/cards";
import { decideAtOnce, decideInProcess, type TractorAiDecider, type TractorAiTask } from "../rooms/tractor/levels";
import { BURIAL_TIME_FACTOR, DEFAULT_SEARCH_BUDGET } from "../rooms/tractor/search";
import type { ReviewedRecord, TractorReview } from "../rooms/tractor/review";
import type { Seat } from "../rooms/tractor/scoring";
import { review as reviewInProcess, type ReviewTask } from "./tractor-ai-worker";
import { log } from "../rooms/kit/log";
import { AI_THREAD_LIMITS, AiAdmission, hasIdleThread } from "./ai-admission";

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
/** The default budget's time. */
const FULL_TIME_MS = DEFAULT_SEARCH_BUDGET.timeMs ?? 100;

export class TractorAiThreads implements TractorAiDecider {
  private pool: Piscina<TractorAiTask | ReviewTask, Card[] | TractorReview> | null = null;
  private workerFound: boolean | undefined;
  /** Decisions made on threads, in-process, at once with the heuristic under overload, and abandoned over the limit. */
  readonly decisions = { onThreads: 0, inProcess: 0, shrunk: 0, abandoned: 0 };
  /** The budgets the decisions were given, and their waits. */
  readonly admission: AiAdmission;

  constructor(
    private readonly workerFile: string | null = TRACTOR_AI_WORKER_FILE,
    private readonly threads = Math.max(1, os.availableParallelism() - 1),
    private readonly limitMs = TRACTOR_DECISION_LIMIT_MS,
  ) {
    this.admission = new AiAdmission(threads, LEAST_TIME_MS / FULL_TIME_MS, OVERLOAD);
  }

  async decide(task: Omit<TractorAiTask, "timeMs">): Promise<Card[]> {
    const pool = this.threadPool();
    if (pool === null) {
      this.decisions.inProcess++;
      return decideInProcess(task, LEAST_TIME_MS);
    }
    // A burial searches BURIAL_TIME_FACTOR times a play's time: it costs as much more.
    const admission = this.admission.admit(task.view.phase === "burying" ? BURIAL_TIME_FACTOR : 1);
    if (admission.tier === "atOnce") {
      this.decisions.shrunk++;
      return decideAtOnce(task);
    }
    const timeMs = Math.max(LEAST_TIME_MS, Math.floor(FULL_TIME_MS * admission.share));
    return this.admission.run(admission, () => this.decideOnThread(pool, task, timeMs), hasIdleThread(pool, this.admission));
  }

  private async decideOnThread(pool: Piscina<TractorAiTask | ReviewTask, Card[] | TractorReview>, task: Omit<TractorAiTask, "timeMs">, timeMs: number): Promise<Card[]> {
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
      this.pool = new Piscina({ filename: this.workerFile, minThreads: 0, maxThreads: this.threads, idleTimeout: IDLE_THREAD_MS, resourceLimits: AI_THREAD_LIMITS });
    }
    return this.pool;
  }
}
