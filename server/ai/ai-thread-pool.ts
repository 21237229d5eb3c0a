/**
 * The AI pools' threads, made and held one way for both AIs (server/ai/fool-ai-pool.ts, server/ai/tractor-ai-pool.ts).
 * Apart from ai-admission.ts, which the workers themselves import: a thread loads no thread pool.
 */
import * as fs from "node:fs";
import Piscina from "piscina";
import { AI_THREAD_LIMITS, THREAD_QUEUE, threadBalancer, threadHeaps } from "./ai-admission";
import type { AiThreadHeaps } from "../telemetry/server-metrics";

/** A thread idle this long stops (a later decision starts it again). */
export const IDLE_THREAD_MS = 60_000;

/**
 * An AI's pool of up to `threads` threads over its compiled worker, as both AIs run them: made with the first task
 * that needs it (none without the compiled worker: the sources run directly, as in the room tests, and the AI
 * decides in-process), its threads started as tasks come, each holding up to THREAD_QUEUE decisions
 * (`answerWithinLimit`), given them by `threadBalancer`, stopped when idle for IDLE_THREAD_MS, its young generation
 * held to AI_THREAD_LIMITS; made again after a stuck one is stopped.
 */
export class AiThreadPool<Task, Answer> {
  private pool: Piscina<Task, Answer> | null = null;
  private workerFound: boolean | undefined;

  /** `workerFile`: the compiled worker; null, or a file that does not exist, makes no pool. */
  constructor(
    private readonly workerFile: string | null,
    private readonly threads: number,
  ) {}

  /** The pool, made if none is held; null without the compiled worker. */
  get(): Piscina<Task, Answer> | null {
    this.workerFound ??= this.workerFile !== null && fs.existsSync(this.workerFile);
    if (this.pool === null && this.workerFound && this.workerFile !== null) {
      this.pool = new Piscina<Task, Answer>({
        filename: this.workerFile,
        minThreads: 0,
        maxThreads: this.threads,
        concurrentTasksPerWorker: THREAD_QUEUE,
        loadBalancer: threadBalancer(this.threads),
        idleTimeout: IDLE_THREAD_MS,
        resourceLimits: AI_THREAD_LIMITS,
      });
    }
    return this.pool;
  }

  /** Stops `pool`, whose thread is stuck: the decisions it holds fail, and fall back; the next task makes another. */
  replaceStuck(pool: Piscina<Task, Answer>): void {
    if (this.pool === pool) this.pool = null;
    void pool.destroy().catch(() => undefined);
  }

  /** The running threads' heaps (server/ai/ai-admission.ts `threadHeaps`), for the metrics. */
  heaps(): Promise<AiThreadHeaps> {
    return threadHeaps(this.pool);
  }

  /** Stops the threads (a later task makes the pool again). */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.destroy();
  }
}
