/**
 * Runs in the Tractor AI's worker threads (tractor-ai-pool.ts): one strong decision per task, from the seat's view
 * alone, within the task's time.
 */
import type { Card } from "../rooms/tractor/cards";
import { decideInProcess, type TractorAiTask } from "../rooms/tractor/levels";

export default function decide(task: TractorAiTask): Card[] {
  return decideInProcess(task, task.timeMs);
}
