/**
 * Runs in the Tractor AI's worker threads (tractor-ai-pool.ts): one strong decision (a play, a burial or a
 * declaration) per task, from the seat's view alone, within the task's time.
 */
import type { Card } from "../rooms/tractor/cards";
import { decideInProcess, type TractorAiTask } from "../rooms/tractor/levels";
import { REVIEW_BUDGET, reviewTractor, type ReviewedRecord, type TractorReview } from "../rooms/tractor/review";
import type { Seat } from "../rooms/tractor/scoring";
import { declareInProcess, type TractorDeclarationTask } from "../rooms/tractor/declaration-search";

export default function decide(task: TractorAiTask): Card[] {
  return decideInProcess(task, task.timeMs);
}

/** A strong seat's declaration while the cards are dealt (the pool's `declaration`): [] for "not now". */
export function declaration(task: TractorDeclarationTask): Card[] {
  return declareInProcess(task, task.timeMs) ?? [];
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
