/**
 * Runs in the Tractor AI's worker threads (tractor-ai-pool.ts): one strong decision (a play, a burial or a
 * declaration) per task, from the seat's view alone, within the task's time and before its answer is due.
 */
import type { Card } from "../../rooms/tractor/cards";
import { decideAtOnce, decideInProcess, type TractorAiTask } from "../../rooms/tractor/levels";
import { BURIAL_TIME_FACTOR } from "../../rooms/tractor/search";
import { timeLeft } from "./ai-admission";
import { REVIEW_BUDGET, reviewTractor, type ReviewedRecord, type TractorReview } from "../../rooms/tractor/review";
import type { Seat } from "../../rooms/tractor/scoring";
import { declareAtOnce, declareInProcess, type TractorDeclarationTask } from "../../rooms/tractor/declaration-search";
import { scheduleAiThread } from "./ai-thread-scheduling";

// As the thread starts: its hand-overs never take a core from the main thread (server/ai/ai-thread-scheduling.ts).
scheduleAiThread();

/**
 * A play or burial within what is left of its time when the thread starts it (a burial searches BURIAL_TIME_FACTOR
 * times its time, so its share of what is left is that much smaller); the heuristic's, at once, if nothing is left.
 */
export default function decide(task: TractorAiTask): Card[] {
  const factor = task.view.phase === "burying" ? BURIAL_TIME_FACTOR : 1;
  const timeMs = Math.floor(timeLeft(task.timeMs * factor, task.answerBy) / factor);
  return timeMs > 0 ? decideInProcess(task, timeMs) : decideAtOnce(task);
}

/** A strong seat's declaration while the cards are dealt (the pool's `declaration`): [] for "not now". */
export function declaration(task: TractorDeclarationTask): Card[] {
  const timeMs = Math.floor(timeLeft(task.timeMs, task.answerBy));
  return (timeMs > 0 ? declareInProcess(task, timeMs) : declareAtOnce(task)) ?? [];
}

export interface ReviewTask {
  readonly record: ReviewedRecord;
  readonly seat: Seat;
  readonly timeMs: number;
}

/** A recorded game's review for one seat (the pool's `review`), stopped where `timeMs` runs out. */
export function review(task: ReviewTask): TractorReview {
  return reviewTractor(task.record, task.seat, REVIEW_BUDGET, () => performance.now(), task.timeMs);
}

/** The pool's `warm`: nothing to do; running it starts the thread and loads this module and the AI it imports. */
export function warm(): void {}
