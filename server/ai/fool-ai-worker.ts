/**
 * Runs in the AI's worker threads (fool-ai-pool.ts): one decision per task, from the seat's view and memory alone,
 * exactly as the AI decides in-process.
 */
import {
  aiPolicy,
  DEFAULT_WEIGHTS,
  makeAiPolicy,
  STRONG_BUDGET,
  strongAiPolicy,
  type FoolAiStrength,
} from "../../rooms/fool/ai";
import type { FoolMemory } from "../../rooms/fool/ai-memory";
import { DEFAULT_BUDGET, type PlayoutBudget } from "../../rooms/fool/ai-playouts";
import type { FoolMove, FoolView } from "../../rooms/fool/rules";
import { FOOL_REVIEW_WORLDS, reviewFool, type FoolReview, type ReviewedFoolRecord } from "../../rooms/fool/review";
import { scheduleAiThread } from "./ai-thread-scheduling";

// As the thread starts: its hand-overs never take a core from the main thread (server/ai/ai-thread-scheduling.ts).
scheduleAiThread();

export interface AiTask {
  readonly view: FoolView;
  readonly memory: FoolMemory;
  /** "normal" when absent. */
  readonly level?: FoolAiStrength;
  /** A smaller play-out budget than the level's, given under load (fool-ai-pool.ts); the level's when absent. */
  readonly budget?: PlayoutBudget;
  /** When the answer is due (server/ai/ai-admission.ts): the play-outs stop sampling worlds then. */
  readonly answerBy?: number;
}

/** The AI's Random is not used (its moves depend only on the view and the memory), so none crosses the thread. */
function unused(): number {
  throw new Error("the AI draws no random numbers of its own");
}

export default function decide(task: AiTask): FoolMove {
  if (task.budget === undefined && task.answerBy === undefined)
    return (task.level === "strong" ? strongAiPolicy : aiPolicy)(task.view, unused, task.memory);
  const budget = task.budget ?? (task.level === "strong" ? STRONG_BUDGET : DEFAULT_BUDGET);
  return makeAiPolicy(DEFAULT_WEIGHTS, { ...budget, answerBy: task.answerBy })(task.view, unused, task.memory);
}

export interface FoolReviewTask {
  readonly record: ReviewedFoolRecord;
  readonly seat: number;
  readonly timeMs: number;
}

/** A recorded game's review for one seat (the pool's `review`), stopped where `timeMs` runs out. */
export function review(task: FoolReviewTask): FoolReview {
  return reviewFool(task.record, task.seat, FOOL_REVIEW_WORLDS, () => performance.now(), task.timeMs);
}

/** The pool's `warm`: nothing to do; running it starts the thread and loads this module and the AI it imports. */
export function warm(): void {}
