/**
 * Leaves, paced so that a mass disconnect does not stall the event loop.
 *
 * When thousands of clients drop in the same second (a load test ending, a proxy restarting, a network blip), every
 * socket's close arrives in one or two turns of the event loop, and each runs its room's leave: the kit's onLeave,
 * a last patch to the others, and for the last one out the room's disposal. At 8,000 clients that was 1.2–2.6 s of
 * the main thread in one stretch, during which no move, timer or HTTP request was served.
 *
 * A pacer runs such work at once while the current turn of the loop has spent less than a slice of time on it, and
 * queues the rest in arrival order, to run a slice per later turn (`setImmediate`), so timers and I/O get their turns
 * between slices. Nothing is dropped and the order is kept; with no burst, nothing waits.
 */
import { log } from "../../rooms/kit/log";

/** How long one turn of the event loop may spend on paced work before the rest waits for a later turn. */
export const LEAVE_SLICE_MS = 8;

/**
 * How many waiting tasks a turn may start at most. Each starts in its own callback of the loop's check phase, so
 * what it continues with (a leave's awaits: the room's after-leave and disposal) runs, and is timed, before the
 * next one starts.
 */
export const RUNNERS_PER_TURN = 32;

export interface PacerCounts {
  /** Tasks run in the turn they arrived in. */
  readonly atOnce: number;
  /** Tasks that waited for a later turn. */
  readonly deferred: number;
  /** Tasks waiting now. */
  readonly waiting: number;
}

export class Pacer {
  private readonly queue: (() => void)[] = [];
  private head = 0;
  /** When this turn's slice began, or undefined before the turn's first task. */
  private sliceStartedAt: number | undefined;
  private turnScheduled = false;
  private atOnce = 0;
  private deferred = 0;

  constructor(
    private readonly sliceMs: number = LEAVE_SLICE_MS,
    private readonly now: () => number = () => performance.now(),
    /** Runs a callback in the next turn of the loop; callbacks queued by one turn run in order in the next. */
    private readonly nextTurn: (callback: () => void) => void = (callback) => setImmediate(callback),
  ) {}

  /** Runs `task` now if this turn's slice has time left and nothing waits before it; else queues it. */
  run(task: () => void): void {
    if (this.waiting() === 0 && this.sliceHasTime()) {
      this.atOnce++;
      runSafely(task);
      return;
    }
    this.deferred++;
    this.queue.push(task);
    this.scheduleTurn();
  }

  counts(): PacerCounts {
    return { atOnce: this.atOnce, deferred: this.deferred, waiting: this.waiting() };
  }

  private waiting(): number {
    return this.queue.length - this.head;
  }

  /** True while this turn has spent less than a slice; the first call of a turn starts its slice. */
  private sliceHasTime(): boolean {
    if (this.sliceStartedAt === undefined) {
      this.sliceStartedAt = this.now();
      this.nextTurn(() => (this.sliceStartedAt = undefined));
      return true;
    }
    return this.now() - this.sliceStartedAt < this.sliceMs;
  }

  /** The next turn's runners, then a look at whether another turn is needed. */
  private scheduleTurn(): void {
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    for (let runner = 0; runner < RUNNERS_PER_TURN; runner++) this.nextTurn(() => this.runNext());
    this.nextTurn(() => {
      this.turnScheduled = false;
      if (this.waiting() > 0) this.scheduleTurn();
    });
  }

  /** The oldest waiting task, if this turn's slice has time (a turn's first runner always does: its slice is new). */
  private runNext(): void {
    if (this.waiting() === 0 || !this.sliceHasTime()) return;
    const task = this.queue[this.head++];
    if (this.waiting() === 0) this.queue.length = this.head = 0;
    runSafely(task);
  }
}

/** A task that throws is logged, and the others still run (a listener's error must not strand later leaves). */
function runSafely(task: () => void): void {
  try {
    task();
  } catch (error) {
    log.error(
      { event: "paced_task_failed", kind: error instanceof Error ? error.name : typeof error },
      "a paced leave failed",
    );
  }
}

/** The server's pacer for clients' leaves (one per process: the event loop is one per process). */
export const leavePacer = new Pacer();
