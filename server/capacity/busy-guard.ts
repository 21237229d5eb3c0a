/**
 * New tables and spectators refused while this process's main thread is saturated (BUSY_REFUSE_AT, off by default).
 *
 * Every table of a process shares one main thread. Past the load it can carry, each new player's moves and
 * patches queue behind everyone's: the moves of every game slow down together, by hundreds of milliseconds. With
 * the guard on, once the main thread has run at least `refuseAt` of each of the
 * last BUSY_SAMPLES_TO_REFUSE seconds, matchmaking for a new table or a spectator is refused with 503, a sentence
 * and `Retry-After`, until a second runs BUSY_RELEASE_MARGIN below the share (server/matchmaking.ts). The games
 * under way keep their pace; a seat at a table already open is still taken (a table waiting for its players would
 * otherwise never start), and a player whose connection dropped still takes their seat back. In a cluster
 * (busy-placement.ts) a busy process's new tables go to one that is not, and are refused only when none would take
 * them; a spectator is refused when the table's own process is busy.
 */
import { performance, type EventLoopUtilization } from "node:perf_hooks";
import type { BusyGuardMetrics } from "../telemetry/server-metrics";

/** How often the main thread's busy share is read. */
export const BUSY_SAMPLE_MS = 1_000;
/** How many samples in a row at or over the share make the process refuse joins (one busy second may be a burst). */
export const BUSY_SAMPLES_TO_REFUSE = 2;
/** How far under its share a busy main thread must run for a second before joins are taken again (half the share at most). */
export const BUSY_RELEASE_MARGIN = 0.1;

export class BusyGuard {
  /** Samples in a row at or over the bar: the share, or once busy the share less the release margin. */
  private samplesAtOrOver = 0;
  private refusedJoins = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly sampleListeners: Array<() => void> = [];
  /** What the cluster's other processes said after this one's last sample (busy-placement.ts); alone, nothing. */
  private cluster: { busyProcessIds: ReadonlySet<string>; anotherTakesTables: boolean } = {
    busyProcessIds: new Set(),
    anotherTakesTables: false,
  };

  /** `refuseAt`: the main thread's busy share (over 0, at most 1) from which joins are refused. */
  constructor(readonly refuseAt: number) {
    if (!(refuseAt > 0 && refuseAt <= 1)) throw new Error(`a busy share must be over 0 and at most 1, got ${refuseAt}`);
  }

  /** One sample of the main thread's busy share (0 to 1) since the last. */
  observe(share: number): void {
    // Once busy, a second just under the share is not room enough: the clients refused meanwhile come back, and
    // taking them at the first such second held the main thread at its share.
    const under = this.busy ? this.refuseAt - Math.min(BUSY_RELEASE_MARGIN, this.refuseAt / 2) : this.refuseAt;
    this.samplesAtOrOver = share >= under ? this.samplesAtOrOver + 1 : 0;
  }

  /** Whether this process's main thread is busy past its share now (so its tables take no new spectators). */
  get busy(): boolean {
    return this.samplesAtOrOver >= BUSY_SAMPLES_TO_REFUSE;
  }

  /** Whether new tables are refused now: this process is busy, and no other process of its cluster takes them. */
  get refusing(): boolean {
    return this.busy && !this.cluster.anotherTakesTables;
  }

  /** Whether the cluster's process with this id said after its last sample that it is busy. */
  saidBusy(processId: string): boolean {
    return this.cluster.busyProcessIds.has(processId);
  }

  /** Whether any other process of the cluster said it is busy. */
  get anyOtherBusy(): boolean {
    return this.cluster.busyProcessIds.size > 0;
  }

  /** What the cluster's other processes said: which are busy, and whether one of them takes new tables. */
  learnCluster(busyProcessIds: ReadonlySet<string>, anotherTakesTables: boolean): void {
    this.cluster = { busyProcessIds, anotherTakesTables };
  }

  /** Calls `listener` after each sample the guard takes of the main thread. */
  onSample(listener: () => void): void {
    this.sampleListeners.push(listener);
  }

  /** Counts a refused join (for the metrics). */
  countRefusal(): void {
    this.refusedJoins++;
  }

  /** What /metrics.json says of the guard. */
  state(): BusyGuardMetrics {
    return { refuseAt: this.refuseAt, busy: this.busy, refusing: this.refusing, refused: this.refusedJoins };
  }

  /** Samples the main thread every BUSY_SAMPLE_MS (its timer does not keep the process alive) until stop(). */
  watchMainThread(): void {
    if (this.timer !== undefined) return;
    let last: EventLoopUtilization = performance.eventLoopUtilization();
    this.timer = setInterval(() => {
      const now = performance.eventLoopUtilization();
      this.observe(performance.eventLoopUtilization(now, last).utilization);
      last = now;
      for (const listener of this.sampleListeners) listener();
    }, BUSY_SAMPLE_MS).unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** The guard BUSY_REFUSE_AT asks for (a share over 0 and at most 1), or none when it is unset or 0. */
export function busyGuardFromEnvironment(env: NodeJS.ProcessEnv): BusyGuard | null {
  const text = env.BUSY_REFUSE_AT;
  if (text === undefined || text.trim() === "" || Number(text) === 0) return null;
  const share = Number(text);
  if (!Number.isFinite(share) || share < 0 || share > 1)
    throw new Error(
      `BUSY_REFUSE_AT must be a share of the main thread over 0 and at most 1 (0.9 for 90%), or 0 for none, got "${text}"`,
    );
  return new BusyGuard(share);
}
