/**
 * The AI pools' threads, made one way for both AIs (server/fool-ai-pool.ts, server/tractor-ai-pool.ts). Apart from
 * ai-admission.ts, which the workers themselves import: a thread loads no thread pool.
 */
import Piscina from "piscina";
import { AI_THREAD_LIMITS, THREAD_QUEUE, threadBalancer } from "./ai-admission";

/** A thread idle this long stops (a later decision starts it again). */
export const IDLE_THREAD_MS = 60_000;

/**
 * An AI pool of up to `threads` threads over `workerFile`, as both AIs run them: none started before the first
 * task, each holding up to THREAD_QUEUE decisions (`answerWithinLimit`), given them by `threadBalancer`, stopped when
 * idle for IDLE_THREAD_MS, its young generation held to AI_THREAD_LIMITS.
 */
export function aiThreadPool<Task, Answer>(workerFile: string, threads: number): Piscina<Task, Answer> {
  return new Piscina<Task, Answer>({
    filename: workerFile,
    minThreads: 0,
    maxThreads: threads,
    concurrentTasksPerWorker: THREAD_QUEUE,
    loadBalancer: threadBalancer(threads),
    idleTimeout: IDLE_THREAD_MS,
    resourceLimits: AI_THREAD_LIMITS,
  });
}

/** Stops a pool whose thread is stuck: the decisions it holds fail, and fall back. */
export function stopStuckPool(pool: { destroy(): Promise<void> }): void {
  void pool.destroy().catch(() => undefined);
}
