/**
 * The strong Tractor AI off the room's event loop, on worker threads as the Fool AI's (fool-ai-pool.ts). A strong
 * decision searches for up to DEFAULT_SEARCH_BUDGET.timeMs; a queue would add its wait to every table's decision
 * time, so under overload the budget shrinks instead (server/ai/ai-admission.ts): with more decisions under way than
 * threads, each new one gets the threads' share of the time, and past OVERLOAD decisions per thread the heuristic's
 * play (or burial) is made at once (counted as `shrunk`); a thread that starts a decision late searches only the time
 * left before its answer is due (`answerBy`, server/ai/ai-admission.ts). A thread that fails, or a missing compiled worker (the sources run directly, as in the
 * room tests), decides in-process with the shortest budget; one over its limit is abandoned for the heuristic's play.
 * A strong seat's declaration while the cards are dealt (rooms/tractor/declaration-search.ts) is a decision of the
 * same kind, admitted the same way at its larger cost; at once, it is the seat bot's (botDeclaration).
 */
import * as os from "node:os";
import * as path from "node:path";
import type Piscina from "piscina";
import type { Card } from "../../rooms/tractor/cards";
import { decideAtOnce, decideInProcess, type TractorAiDecider, type TractorAiTask } from "../../rooms/tractor/levels";
import { BURIAL_TIME_FACTOR, DEFAULT_SEARCH_BUDGET } from "../../rooms/tractor/search";
import type { ReviewedRecord, TractorReview } from "../../rooms/tractor/review";
import type { Seat } from "../../rooms/tractor/scoring";
import { review as reviewInProcess, type ReviewTask } from "./tractor-ai-worker";
import {
  declareAtOnce,
  declareInProcess,
  DEFAULT_DECLARATION_BUDGET,
  type TractorDeclarationDecider,
  type TractorDeclarationTask,
} from "../../rooms/tractor/declaration-search";
import { log } from "../../rooms/kit/log";
import { AiAdmission, answerBy, answerWithinLimit, hasIdleThread, warmPool, type WarmTask } from "./ai-admission";
import { AiThreadPool } from "./ai-thread-pool";
import type { AiThreadHeaps } from "../telemetry/server-metrics";

export const TRACTOR_AI_WORKER_FILE = path.join(__dirname, "tractor-ai-worker.js");

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
/** A declaration searches this many times a play's time: it costs as much more. */
const DECLARATION_TIME_FACTOR = (DEFAULT_DECLARATION_BUDGET.timeMs ?? FULL_TIME_MS) / FULL_TIME_MS;

type ThreadTask = TractorAiTask | ReviewTask | TractorDeclarationTask | WarmTask;
/** What a thread answers: a play or burial, a declaration ([] for "not now"), or a review. */
type ThreadAnswer = Card[] | TractorReview;

/** How a decision is made when no thread makes it: at once (overload, over its limit), or in-process. */
interface Fallbacks<Answer> {
  readonly atOnce: () => Answer;
  readonly inProcess: () => Answer;
}

export class TractorAiThreads implements TractorAiDecider, TractorDeclarationDecider {
  /** Its threads (none before a decision needs one). */
  private readonly pool: AiThreadPool<ThreadTask, ThreadAnswer>;
  /** Decisions made on threads, in-process, at once with the heuristic under overload, and abandoned over the limit. */
  readonly decisions = { onThreads: 0, inProcess: 0, shrunk: 0, abandoned: 0 };
  /** The budgets the decisions were given, and their waits. */
  readonly admission: AiAdmission;

  constructor(
    workerFile: string | null = TRACTOR_AI_WORKER_FILE,
    threads = Math.max(1, os.availableParallelism() - 1),
    private readonly limitMs = TRACTOR_DECISION_LIMIT_MS,
  ) {
    this.pool = new AiThreadPool(workerFile, threads);
    this.admission = new AiAdmission(threads, LEAST_TIME_MS / FULL_TIME_MS, OVERLOAD);
  }

  async decide(task: Omit<TractorAiTask, "timeMs">): Promise<Card[]> {
    // A burial searches BURIAL_TIME_FACTOR times a play's time: it costs as much more.
    const cost = task.view.phase === "burying" ? BURIAL_TIME_FACTOR : 1;
    const fallbacks = { atOnce: () => decideAtOnce(task), inProcess: () => decideInProcess(task, LEAST_TIME_MS) };
    const due = answerBy();
    return this.admitted(cost, fallbacks, (pool, timeMs) =>
      this.onThread(pool, () => pool.run({ ...task, timeMs, answerBy: due }), fallbacks),
    );
  }

  /** A strong seat's declaration (undefined for "not now"), admitted as a decision DECLARATION_TIME_FACTOR times a play's cost. */
  async declaration(task: Omit<TractorDeclarationTask, "timeMs">): Promise<Card[] | undefined> {
    const fallbacks = {
      atOnce: () => declareAtOnce(task) ?? [],
      inProcess: () => declareInProcess(task, LEAST_TIME_MS) ?? [],
    };
    const timeFor = (timeMs: number) => Math.floor(timeMs * DECLARATION_TIME_FACTOR);
    const due = answerBy();
    const cards = await this.admitted(DECLARATION_TIME_FACTOR, fallbacks, (pool, timeMs) =>
      this.onThread(
        pool,
        () => pool.run({ ...task, timeMs: timeFor(timeMs), answerBy: due }, { name: "declaration" }),
        fallbacks,
      ),
    );
    return cards.length === 0 ? undefined : cards;
  }

  /** A decision as admitted: on a thread with the time its share allows, at once under overload, in-process without threads. */
  private async admitted(
    cost: number,
    fallbacks: Fallbacks<Card[]>,
    onThread: (pool: Piscina<ThreadTask, ThreadAnswer>, timeMs: number) => Promise<Card[]>,
  ): Promise<Card[]> {
    const pool = this.threadPool();
    if (pool === null) {
      this.decisions.inProcess++;
      return fallbacks.inProcess();
    }
    const admission = this.admission.admit(cost);
    if (admission.tier === "atOnce") {
      this.decisions.shrunk++;
      return fallbacks.atOnce();
    }
    const timeMs = Math.max(LEAST_TIME_MS, Math.floor(FULL_TIME_MS * admission.share));
    return this.admission.run(admission, () => onThread(pool, timeMs), hasIdleThread(pool, this.admission));
  }

  /** A decision run on a thread (the pool replaced if it answers nothing within the limit); a thread that fails or is too slow falls back. */
  private async onThread(
    pool: Piscina<ThreadTask, ThreadAnswer>,
    run: () => Promise<ThreadAnswer>,
    fallbacks: Fallbacks<Card[]>,
  ): Promise<Card[]> {
    const { answer, overTime } = await answerWithinLimit(run, this.limitMs, () => this.pool.replaceStuck(pool));
    if (Array.isArray(answer)) {
      this.decisions.onThreads++;
      return answer;
    }
    if (overTime) {
      this.decisions.abandoned++;
      log.warn(
        { event: "tractor_ai_decision_abandoned", limitMs: this.limitMs },
        `a Tractor AI decision took over ${this.limitMs} ms: its thread is stopped and the heuristic's play is made`,
      );
      return fallbacks.atOnce();
    }
    log.warn({ event: "tractor_ai_thread_failed" }, "a Tractor AI thread failed: the decision is made in-process");
    this.decisions.inProcess++;
    return fallbacks.inProcess();
  }

  /**
   * A recorded game's review for one seat, on a thread (in-process only when there is no compiled worker), within
   * REVIEW_TIME_MS of search: what is left past it is marked not reviewed.
   */
  async review(record: ReviewedRecord, seat: Seat): Promise<TractorReview> {
    const task: ReviewTask = { record, seat, timeMs: REVIEW_TIME_MS };
    const pool = this.threadPool();
    if (pool === null) return reviewInProcess(task);
    return (await pool.run(task, {
      name: "review",
      signal: AbortSignal.timeout(REVIEW_TIME_MS + this.limitMs),
    })) as TractorReview;
  }

  /**
   * Starts a thread if none runs, so the first decision does not wait for it (a thread's start, loading the AI, takes
   * up to seconds on a busy machine: the longest waits measured under load). A table that will need the AI calls it
   * when it opens; an idle thread still stops after IDLE_THREAD_MS (ai-thread-pool.ts).
   */
  warm(): void {
    warmPool(this.threadPool());
  }

  /** The running threads' heaps (server/ai/ai-admission.ts `threadHeaps`), for the metrics. */
  heaps(): Promise<AiThreadHeaps> {
    return this.pool.heaps();
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private threadPool(): Piscina<ThreadTask, ThreadAnswer> | null {
    return this.pool.get();
  }
}
