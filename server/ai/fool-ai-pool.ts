/**
 * The Fool AI off the room's event loop. A decision plays hundreds of moves out on sampled worlds and takes from
 * a millisecond to tens of them; on the main thread it holds up every other room's messages for that long (under
 * load, when it ran there, the AI was a quarter of the server's busy time and the cause of its longest stalls).
 * Only decisions with something to weigh leave the main thread: a forced draw or pass, a forced win or a single
 * candidate is found in microseconds, where waking a sleeping thread costs the main thread 0.1–0.5 ms on this
 * project's virtual machines, more than the decision itself. The others go to a pool of worker threads, one per CPU but the
 * main thread's; piscina queues the tasks and replaces a thread that dies, rejecting its task. When the compiled
 * worker is not at hand (the TypeScript sources run directly, as in the room tests) or a thread fails, the AI
 * decides in-process instead: the same decision either way, since it depends on the seat's view and memory alone.
 * Under load the threads build no queue: each decision's play-out budget is sized when it is asked for, from how
 * many are under way (server/ai/ai-admission.ts), down to none (the greedy bot's move at once) far past the threads'
 * capacity, and its play-outs stop sampling worlds once its answer is due (`answerBy`). A thread holds the decisions
 * admitted for it (server/ai/ai-admission.ts `answerWithinLimit`) and goes from one to the next without the main thread.
 * A decision that still takes longer than its limit (a thread stuck in a loop) is abandoned, its pool stopped, and
 * the greedy bot's move played instead: deciding in-process then could hang the whole server; the decisions the
 * stuck thread held fail with it, and those already due make the greedy move too.
 *
 * The server makes one pool (server/app.ts), hands it to the Fool rooms, reads its counters for /metrics and closes
 * it on shutdown. Making a pool starts nothing: its threads start with the first decision that needs one.
 */
import * as os from "node:os";
import * as path from "node:path";
import type Piscina from "piscina";
import { immediateMove, STRONG_BUDGET, type FoolAiDecider, type FoolAiStrength } from "../../rooms/fool/ai";
import { DEFAULT_BUDGET, type PlayoutBudget } from "../../rooms/fool/ai-playouts";
import { AiAdmission, answerBy, answerWithinLimit, hasIdleThread, warmPool, type WarmTask } from "./ai-admission";
import { AiThreadPool } from "./ai-thread-pool";
import type { FoolMemory } from "../../rooms/fool/ai-memory";
import type { AiThreadHeaps, ServerMetrics } from "../telemetry/server-metrics";
import { seededRandom } from "../../rooms/kit/random";
import { greedyPolicy } from "../../rooms/fool/bots";
import { legalMovesInView, type FoolMove, type FoolView } from "../../rooms/fool/rules";
import decideInProcess, { review as reviewInProcess, type AiTask, type FoolReviewTask } from "./fool-ai-worker";
import type { FoolReview, ReviewedFoolRecord } from "../../rooms/fool/review";
import { log } from "../../rooms/kit/log";
import { REVIEW_TIME_MS } from "./tractor-ai-pool";

/** The compiled worker beside this module (absent when the sources run directly). */
export const AI_WORKER_FILE = path.join(__dirname, "fool-ai-worker.js");

/** A decision takes milliseconds (its play-outs are capped); one that takes this long is not coming. */
export const DECISION_LIMIT_MS = 5_000;

/** The least search given (exported for tests that make their own admission): a quarter of the level's budget (two worlds for the normal level). */
export const LEAST_SHARE = 1 / 4;

export class AiThreads implements FoolAiDecider {
  /** Its threads (none before a decision needs one). */
  private readonly pool: AiThreadPool<AiTask | FoolReviewTask | WarmTask, FoolMove | FoolReview>;
  /**
   * How many decisions needed no weighing (made at once), how many the threads made, how many were made
   * in-process (no worker, or a thread failed), and how many were abandoned for the greedy bot's move (over the
   * time limit).
   */
  readonly decisions: ServerMetrics["foolAiDecisions"] = { immediate: 0, onThreads: 0, inProcess: 0, abandoned: 0 };
  /** The budgets the searched decisions were given, and their waits. */
  readonly admission: AiAdmission;

  /** `workerFile`: the compiled fool-ai-worker; null, or a file that does not exist, decides in-process. */
  constructor(
    workerFile: string | null = AI_WORKER_FILE,
    threads = Math.max(1, os.availableParallelism() - 1),
    private readonly limitMs = DECISION_LIMIT_MS,
    admission?: AiAdmission,
  ) {
    this.pool = new AiThreadPool(workerFile, threads);
    this.admission = admission ?? new AiAdmission(threads, LEAST_SHARE);
  }

  /** The AI's move for the seat whose view and memory these are. */
  async decide(view: FoolView, memory: FoolMemory, level: FoolAiStrength = "normal"): Promise<FoolMove> {
    const immediate = immediateMove(view, memory);
    if (immediate !== null) {
      this.decisions.immediate++;
      return immediate;
    }
    const pool = this.threadPool();
    if (pool !== null) {
      const cost = levelCost(level);
      const admission = this.admission.admit(cost);
      if (admission.tier === "atOnce") return greedyMove(view);
      const { share } = admission;
      const due = answerBy();
      const task: AiTask = {
        view,
        memory,
        answerBy: due,
        ...(level === "strong" ? { level } : {}),
        ...(share < 1 ? { budget: sharedBudget(level, share) } : {}),
      };
      const { move, overTime } = await this.admission.run(
        admission,
        () => this.runWithinLimit(pool, task),
        hasIdleThread(pool, this.admission),
      );
      if (isLegalIn(view, move)) {
        this.decisions.onThreads++;
        return move;
      }
      if (overTime) {
        this.decisions.abandoned++;
        log.warn(
          { event: "ai_decision_abandoned", limitMs: this.limitMs },
          `a Fool AI decision took over ${this.limitMs} ms: its thread is stopped and the greedy move played`,
        );
        return greedyMove(view);
      }
      if (Date.now() > due) {
        // Its thread failed after the answer was due (one stuck, stopped with the decisions it held): a search now,
        // on the main thread and for each of them, would keep the players waiting longer still.
        this.decisions.abandoned++;
        log.warn(
          { event: "ai_thread_failed", late: true },
          "a Fool AI thread failed after the decision was due: the greedy move is played",
        );
        return greedyMove(view);
      }
      log.warn(
        { event: "ai_thread_failed", answered: move !== undefined },
        "a Fool AI thread failed or answered an illegal move: the decision is made in-process",
      );
    }
    this.decisions.inProcess++;
    return decideInProcess(level === "strong" ? { view, memory, level } : { view, memory });
  }

  /** The thread's answer (undefined if it failed), and whether the limit passed first (the pool is then replaced). */
  private async runWithinLimit(
    pool: Piscina<AiTask | FoolReviewTask | WarmTask, FoolMove | FoolReview>,
    task: AiTask,
  ): Promise<{ move: FoolMove | undefined; overTime: boolean }> {
    const { answer, overTime } = await answerWithinLimit(
      () => pool.run(task),
      this.limitMs,
      () => this.pool.replaceStuck(pool),
    );
    return { move: answer as FoolMove | undefined, overTime };
  }

  /**
   * A recorded game's review for one seat, on a thread (in-process only when there is no compiled worker), within
   * REVIEW_TIME_MS: what is left past it is marked not reviewed.
   */
  async review(record: ReviewedFoolRecord, seat: number): Promise<FoolReview> {
    const task: FoolReviewTask = { record, seat, timeMs: REVIEW_TIME_MS };
    const pool = this.threadPool();
    if (pool === null) return reviewInProcess(task);
    return (await pool.run(task, {
      name: "review",
      signal: AbortSignal.timeout(REVIEW_TIME_MS + this.limitMs),
    })) as FoolReview;
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

  /** Stops the threads (a later decision starts them again). */
  close(): Promise<void> {
    return this.pool.close();
  }

  private threadPool(): Piscina<AiTask | FoolReviewTask | WarmTask, FoolMove | FoolReview> | null {
    return this.pool.get();
  }
}

/** The greedy bot's move: what the AI falls back on when it cannot think (its dice drawn from the hand, so repeatable). */
function greedyMove(view: FoolView): FoolMove {
  return greedyPolicy(view, seededRandom(view.hand.join(" ")));
}

/** How much more the level's whole budget takes than the normal level's: its play-out moves. */
function levelCost(level: FoolAiStrength): number {
  return level === "strong" ? STRONG_BUDGET.maxMoves / DEFAULT_BUDGET.maxMoves : 1;
}

/** A share of the level's play-out budget: fewer worlds and fewer moves, the play-outs as long. */
function sharedBudget(level: FoolAiStrength, share: number): PlayoutBudget {
  const whole = level === "strong" ? STRONG_BUDGET : DEFAULT_BUDGET;
  return {
    ...whole,
    worlds: Math.max(1, Math.round(whole.worlds * share)),
    maxMoves: Math.max(whole.horizon, Math.floor(whole.maxMoves * share)),
  };
}

/** A thread's answer is used only if it is one of the seat's legal moves. */
function isLegalIn(view: FoolView, answer: unknown): answer is FoolMove {
  const key = moveKey(answer as FoolMove);
  return legalMovesInView(view).some((move) => moveKey(move) === key);
}

function moveKey(move: FoolMove): string {
  if (typeof move !== "object" || move === null) return "";
  return move.kind === "play" ? `play ${move.card} ${move.as ?? move.card} ${move.namedSuit ?? ""}` : String(move.kind);
}
