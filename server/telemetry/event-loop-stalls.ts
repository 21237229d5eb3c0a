/**
 * The event loop's stalls, each with what held it: every time the loop ran a timer more than 50 ms late, how long
 * it waited, and whether a major garbage collection, minor collections, no core (others had them) or the program's
 * own work took the time.
 *
 * The cause decides the fix. A major collection's stall follows the live heap: V8 marks it in steps the main thread
 * takes as the program allocates, and ends with the collection's pause, so such a stall ends with that pause (at
 * 8,000 clients on two cores the main thread did most of the marking of 270 MB live whatever the number of V8's
 * helper threads, and the stall was the marking's wall time, about 0.3 s); fewer live objects shorten it. Minor collections'
 * pauses follow what survives them. A stall right after another is the backlog the first left, and has its cause.
 * A main thread that hardly ran through a stall waited for a core: the machine's other work had them.
 * Anything else is code: a burst of joins, a teardown, a slow handler, to profile.
 * The histogram of delays (server/app.ts) says how long; this says why, without a profiler attached.
 */
import { performance, PerformanceObserver } from "node:perf_hooks";
import { collectionKind } from "./gc-counts";
import { STALL_CAUSES, type EventLoopStalls, type StallCause } from "./server-metrics";

/** A stall is a timer run later than this. */
export const STALL_OVER_MS = 50;
/** How often the watch's own timer runs: the finest lateness it can see. */
const TICK_MS = 10;
/** A major collection's pause this soon after a stall's end still counts as its cause (its marking held the loop). */
const MAJOR_PAUSE_GRACE_MS = 50;
/** A stall that begins this soon after another ended is the queue the first left: the messages that came meanwhile. */
const BACKLOG_WITHIN_MS = 2 * TICK_MS;
/** Stalls are judged once this long has passed since their end: V8 reports a collection a turn of the loop later. */
const JUDGED_AFTER_MS = 250;
/** The stalls /metrics.json lists: at one sample a second, more than a second's worth. */
const RECENT_KEPT = 32;

/** One stall: when it ended (ms since the epoch), how long the loop waited, and what held it. */
type Stall = EventLoopStalls["recent"][number];

/** A collection's pause on the monotonic clock (`performance.now()`). */
export interface GcPause {
  startMs: number;
  endMs: number;
  major: boolean;
}

/** The stall judged before, if any: when it ended and what held it. */
export interface PreviousStall {
  toMs: number;
  cause: StallCause;
}

/** A stall as the watch saw it: its span on the monotonic clock, and the CPU time the main thread had in it (null: not known). */
export interface SeenStall {
  fromMs: number;
  toMs: number;
  cpuMs: number | null;
}

/**
 * What held the loop in a stall: a major collection whose pause began inside the stall or just after it; else minor
 * collections, if their pauses fill at least half of it; else, for a stall that began as the one before it ended,
 * that one's cause (the loop was working off the messages that stall held back); else no core, if the main thread
 * ran for less than half of it (other processes or threads had the machine's cores); else the program's own work.
 */
export function stallCause(
  { fromMs, toMs, cpuMs }: SeenStall,
  pauses: readonly GcPause[],
  previous: PreviousStall | null = null,
): StallCause {
  if (pauses.some((pause) => pause.major && pause.startMs >= fromMs && pause.startMs <= toMs + MAJOR_PAUSE_GRACE_MS))
    return "majorGc";
  const minorMs = pauses
    .filter((pause) => !pause.major)
    .reduce((total, pause) => total + Math.max(0, Math.min(toMs, pause.endMs) - Math.max(fromMs, pause.startMs)), 0);
  if (minorMs * 2 >= toMs - fromMs) return "minorGc";
  if (previous !== null && fromMs - previous.toMs <= BACKLOG_WITHIN_MS) return previous.cause;
  return cpuMs !== null && cpuMs * 2 < toMs - fromMs ? "noCore" : "work";
}

/** The main thread's CPU time so far in ms, where Node can tell it (process.threadCpuUsage; null on a Node without it). */
function mainThreadCpuMs(): number | null {
  const usage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.();
  return usage === undefined ? null : (usage.user + usage.system) / 1000;
}

export class StallWatch {
  private readonly counts: EventLoopStalls = {
    overMs: STALL_OVER_MS,
    byCause: Object.fromEntries(
      STALL_CAUSES.map((cause) => [cause, { count: 0, totalMs: 0, longestMs: 0 }]),
    ) as EventLoopStalls["byCause"],
    recent: [],
  };
  private readonly unjudged: SeenStall[] = [];
  private previous: PreviousStall | null = null;
  private pauses: GcPause[] = [];
  private lastTickMs = performance.now();
  private lastTickCpuMs = mainThreadCpuMs();
  private readonly timer: NodeJS.Timeout;
  private readonly observer: PerformanceObserver;

  /** `kept`: how many of the last stalls `read` lists (a load generator's worker keeps every one of its run). */
  constructor(private readonly kept = RECENT_KEPT) {
    this.observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const kind = collectionKind(entry);
        if (kind !== null)
          this.pauses.push({
            startMs: entry.startTime,
            endMs: entry.startTime + entry.duration,
            major: kind === "major",
          });
      }
    });
    this.observer.observe({ entryTypes: ["gc"] });
    this.timer = setInterval(() => this.tick(), TICK_MS).unref();
  }

  /** The counts so far (stalls still waiting for their collections' reports are not in them yet). */
  read(): EventLoopStalls {
    return {
      overMs: this.counts.overMs,
      byCause: structuredClone(this.counts.byCause),
      recent: [...this.counts.recent],
    };
  }

  stop(): void {
    clearInterval(this.timer);
    this.observer.disconnect();
  }

  private tick(): void {
    const now = performance.now();
    const cpuMs = mainThreadCpuMs();
    const lateMs = now - this.lastTickMs - TICK_MS;
    if (lateMs > STALL_OVER_MS)
      this.unjudged.push({
        fromMs: now - lateMs,
        toMs: now,
        cpuMs: cpuMs === null || this.lastTickCpuMs === null ? null : cpuMs - this.lastTickCpuMs,
      });
    this.lastTickMs = now;
    this.lastTickCpuMs = cpuMs;
    this.judge(now);
  }

  /** Judges the stalls whose collections have been reported by now, and forgets the pauses no stall can need. */
  private judge(now: number): void {
    while (this.unjudged.length > 0 && now - this.unjudged[0]!.toMs >= JUDGED_AFTER_MS) {
      const seen = this.unjudged.shift()!;
      const cause = stallCause(seen, this.pauses, this.previous);
      this.previous = { toMs: seen.toMs, cause };
      this.count({
        at: Math.round(performance.timeOrigin + seen.toMs),
        ms: Math.round(seen.toMs - seen.fromMs),
        cause,
      });
    }
    const oldestNeeded = this.unjudged[0]?.fromMs ?? now - JUDGED_AFTER_MS;
    if (this.pauses.length > 0 && this.pauses[0]!.endMs < oldestNeeded)
      this.pauses = this.pauses.filter((pause) => pause.endMs >= oldestNeeded);
  }

  private count(stall: Stall): void {
    const tally = this.counts.byCause[stall.cause];
    tally.count++;
    tally.totalMs += stall.ms;
    tally.longestMs = Math.max(tally.longestMs, stall.ms);
    this.counts.recent.push(stall);
    if (this.counts.recent.length > this.kept) this.counts.recent.shift();
  }
}

let watch: StallWatch | null = null;

/** The process's one watch, started by the first call (the server starts it as it is made). */
export function eventLoopStalls(): StallWatch {
  watch ??= new StallWatch();
  return watch;
}
