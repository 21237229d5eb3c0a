/**
 * The tables' records go through a bounded queue to the database, so that play never waits for a write: a table
 * hands over a finished game and goes on at once. The queue is written in batches, each in one transaction, off
 * the move's path (on the next turn of the event loop). When the database is down or locked, the batch stays at
 * the head of the queue and is tried again with a growing pause; the queue keeps filling meanwhile, up to its
 * bound, past which the newest games are dropped and counted (memory stays bounded whatever the outage).
 */
import type { FinishedGame, RecordSink } from "../../rooms/kit/record";
import type { RecordStore } from "./store";
import { log } from "../../rooms/kit/log";

/**
 * What a log line may say of a database's error: its kind and code, never its message (a refused row's message
 * may quote the row, and a record holds every hand).
 */
function errorKind(error: unknown): { kind: string; code?: string } {
  const { name, code } = (typeof error === "object" && error !== null ? error : {}) as {
    name?: unknown;
    code?: unknown;
  };
  return { kind: typeof name === "string" ? name : typeof error, ...(typeof code === "string" ? { code } : {}) };
}

/** What /metrics.json shows of the records' queue to the database. */
export interface RecordWriterMetrics {
  /** Finished games waiting to be written, and the most the queue holds. */
  queued: number;
  capacity: number;
  written: number;
  /** Games not kept because the queue was full (the database away for long). */
  dropped: number;
  /** Batches the database refused (each tried again later). */
  failedWrites: number;
  lastError: string | null;
}

export interface RecordWriterOptions {
  /** The most games held while waiting to be written. */
  capacity?: number;
  /** The most games written in one transaction. */
  batchSize?: number;
  /** How long the first game of a batch waits for others to join it: fewer, fuller transactions. */
  lingerMs?: number;
  /** The first pause after a failed write, doubled up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
}

export class RecordWriter implements RecordSink {
  private readonly queue: FinishedGame[] = [];
  private readonly capacity: number;
  private readonly batchSize: number;
  private readonly lingerMs: number;
  private readonly retryMs: number;
  private readonly maxRetryMs: number;
  private written = 0;
  private dropped = 0;
  private failedWrites = 0;
  private lastError: string | null = null;
  private writing: Promise<void> | null = null;
  private scheduled: NodeJS.Immediate | NodeJS.Timeout | null = null;
  private nextRetryMs: number;
  private closed = false;
  /** Failed attempts in a row: an outage is logged as it starts, at each retry and as it ends. */
  private failuresInARow = 0;
  /** Set while games are being dropped (the queue full): the first drop of a run is logged, not each one. */
  private dropping = false;

  constructor(
    private readonly store: RecordStore,
    options: RecordWriterOptions = {},
  ) {
    this.capacity = options.capacity ?? 10_000;
    this.batchSize = options.batchSize ?? 200;
    this.lingerMs = options.lingerMs ?? 250;
    this.retryMs = options.retryMs ?? 250;
    this.maxRetryMs = options.maxRetryMs ?? 10_000;
    this.nextRetryMs = this.retryMs;
  }

  /** Queues a finished game; never throws, never waits. */
  submit(game: FinishedGame): void {
    if (this.closed || this.queue.length >= this.capacity) {
      this.dropped++;
      if (!this.dropping)
        log.error(
          { event: "records_dropped", closed: this.closed, capacity: this.capacity },
          this.closed
            ? "a finished game came after the records closed: it is not kept"
            : "the records' queue is full: finished games are dropped until the database catches up",
        );
      this.dropping = true;
      return;
    }
    this.dropping = false;
    this.queue.push(game);
    if (this.writing !== null) return; // the write under way schedules the next
    if (this.scheduled === null) this.schedule(this.lingerMs);
    else if (this.queue.length === this.batchSize) {
      // A full batch waits no longer (still on a later turn of the event loop, never inside the caller's).
      this.cancelSchedule();
      this.schedule(0);
    }
  }

  metrics(): RecordWriterMetrics {
    const { capacity, written, dropped, failedWrites, lastError } = this;
    return { queued: this.queue.length, capacity, written, dropped, failedWrites, lastError };
  }

  /** Resolves once everything queued so far is written (or `timeoutMs` has passed); for shutdown and tests. */
  async flush(timeoutMs = 10_000): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    while (this.queue.length > 0 || this.writing !== null) {
      if (Date.now() > until) return false;
      if (this.writing === null && this.scheduled !== null) this.runNow();
      await (this.writing ?? new Promise((resolve) => setTimeout(resolve, 10)));
    }
    return true;
  }

  /** Writes what is queued (within `timeoutMs`), then takes no more. Returns whether everything was written. */
  async close(timeoutMs = 10_000): Promise<boolean> {
    const flushed = await this.flush(timeoutMs);
    if (!flushed)
      log.error(
        { event: "records_unwritten_at_close", queued: this.queue.length },
        "the records closed with finished games not written (the database did not take them in time)",
      );
    this.closed = true;
    this.cancelSchedule();
    return flushed;
  }

  private schedule(delayMs: number): void {
    this.scheduled = delayMs === 0 ? setImmediate(() => this.runNow()) : setTimeout(() => this.runNow(), delayMs);
    // A pending retry must not keep a finished process alive.
    this.scheduled.unref?.();
  }

  private cancelSchedule(): void {
    if (this.scheduled === null) return;
    clearTimeout(this.scheduled as NodeJS.Timeout);
    clearImmediate(this.scheduled as NodeJS.Immediate);
    this.scheduled = null;
  }

  private runNow(): void {
    this.cancelSchedule();
    if (this.writing !== null || this.queue.length === 0) return;
    this.writing = this.writeBatch().finally(() => {
      this.writing = null;
    });
  }

  private async writeBatch(): Promise<void> {
    const batch = this.queue.slice(0, this.batchSize);
    try {
      await this.store.saveBatch(batch);
      this.queue.splice(0, batch.length);
      this.written += batch.length;
      if (this.failuresInARow > 0)
        log.info(
          { event: "records_write_recovered", failedAttempts: this.failuresInARow, queued: this.queue.length },
          "the database takes records again",
        );
      this.failuresInARow = 0;
      this.nextRetryMs = this.retryMs;
      if (this.queue.length > 0) this.schedule(0);
    } catch (error) {
      this.failedWrites++;
      this.lastError = error instanceof Error ? error.message : String(error);
      this.failuresInARow++;
      log.warn(
        {
          event: "records_write_failed",
          ...errorKind(error),
          attempt: this.failuresInARow,
          queued: this.queue.length,
          retryInMs: this.nextRetryMs,
        },
        "the database refused a batch of records; it will be tried again",
      );
      this.schedule(this.nextRetryMs);
      this.nextRetryMs = Math.min(this.nextRetryMs * 2, this.maxRetryMs);
    }
  }
}
