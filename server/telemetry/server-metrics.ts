/**
 * GET /metrics.json: what a server process reports of itself, which the load test, the benchmarks and the tests
 * read (Prometheus's /metrics is server/telemetry/metrics.ts). These are the server's own figures, not the
 * protocol the SDK and the page share (rooms/kit/protocol.ts), so they live beside the code that counts them. Types
 * and one list, with no import of anything that runs: a load generator reads them without loading the server.
 */
import type { RecordWriterMetrics } from "../records/writer";

/** GET /metrics.json: the server process's resource use and load. */
export interface ServerMetrics {
  pid: number;
  cpuUserMicros: number;
  cpuSystemMicros: number;
  rssBytes: number;
  heapUsedBytes: number;
  rooms: number;
  clients: number;
  uptimeSeconds: number;
  /** The event loop's lateness since metrics were first read, in ms: how long a message may wait before it is handled. */
  eventLoopLagMs: { p50: number; p99: number; max: number };
  /** The event loop's longest delay in each of the last 60 seconds, in ms (`at`: the second's end, ms since the
   * epoch): where in a run its stalls fell. Absent from servers before it was reported. */
  eventLoopMaxBySecond?: Array<{ at: number; maxMs: number }>;
  /** The main thread's time since start, in ms: running callbacks (`active`) and waiting for work (`idle`), as
   * `performance.eventLoopUtilization()` counts them. Absent from servers before it was reported. */
  mainThreadMs?: { active: number; idle: number };
  /** V8's garbage collections since metrics were first read: how many major and minor ones, and their pauses in ms
   * (a major one's marking, done in steps before its pause, is not in it); and the heap in use just after the last
   * major one with the tables open then (null before one; absent from servers before it was reported): the live heap,
   * where the heap at any other moment is mostly garbage. Absent from servers before it was reported. */
  garbageCollections?: {
    major: number;
    majorMs: number;
    minor: number;
    minorMs: number;
    lastMajor?: { heapBytes: number; rooms: number } | null;
  };
  /** The event loop's stalls (a timer run over `overMs` late) since the server started, by what held the loop: a major
   * garbage collection (its marking and pause), minor collections (their pauses fill half the stall or more), no core
   * (the main thread ran for less than half of it), or the program's own work; and the last few, each with its end (`at`, ms since the epoch). Absent from servers before it
   * was reported. */
  eventLoopStalls?: EventLoopStalls;
  /** How far the server lets V8's heap grow past what a major collection leaves, in percent of it
   * (`HEAP_GROWTH_PERCENT`), or null when V8 chooses (up to four times the live heap). Absent from servers before it
   * was reported. */
  heapGrowthPercent?: number | null;
  /** The Fool AI's decisions since start: made at once (nothing to weigh), on its threads, in-process (no worker,
   * or a thread failed), and abandoned for the greedy bot's move (over the time limit, or its thread failed after
   * the answer was due). */
  foolAiDecisions: { immediate: number; onThreads: number; inProcess: number; abandoned: number };
  /** The strong Tractor bots' decisions since start: on the threads, in-process, the heuristic's at once under
   * overload (`shrunk`), and abandoned over the time limit. Absent from servers before bot levels. */
  tractorAiDecisions?: { onThreads: number; inProcess: number; shrunk: number; abandoned: number };
  /** The budgets the Fool AI's searched decisions were given, and how long they waited (server/ai/ai-admission.ts).
   * Absent from servers before the AI's admission control. */
  foolAiBudgets?: AiBudgetUse;
  /** The same for the strong Tractor bots. */
  tractorAiBudgets?: AiBudgetUse;
  /** The AI threads' heaps, by pool: memory the process holds apart from its main thread's heap. Absent from
   * servers before it was reported. */
  aiThreadHeaps?: { fool: AiThreadHeaps; tractor: AiThreadHeaps };
  /** The records' queue to the database; null when the server keeps no records. */
  records: RecordWriterMetrics | null;
  /** Clients' leaves since start: run at once, deferred to a later turn of the event loop (many left together),
   * and waiting now (server/transport/leave-pacer.ts). Absent from servers before leaves were paced. */
  leaves?: { atOnce: number; deferred: number; waiting: number };
  /** The guard that refuses new tables and spectators while the main thread is saturated (BUSY_REFUSE_AT;
   * server/capacity/busy-guard.ts): the busy share it refuses from, whether it refuses now, and the joins it refused since
   * start. Absent when it is off. */
  busyGuard?: BusyGuardMetrics;
}

/** What held the event loop in a stall: a major garbage collection, minor collections, no core (the main thread
 * hardly ran: the machine's other work had the cores), or the program's own work. */
export type StallCause = "majorGc" | "minorGc" | "noCore" | "work";
export const STALL_CAUSES: readonly StallCause[] = ["majorGc", "minorGc", "noCore", "work"];

/** The event loop's stalls, by cause, and the last few (ServerMetrics.eventLoopStalls). */
export interface EventLoopStalls {
  overMs: number;
  byCause: Record<StallCause, { count: number; totalMs: number; longestMs: number }>;
  recent: Array<{ at: number; ms: number; cause: StallCause }>;
}

/** What the busy guard says of itself: the main thread's busy share it refuses from, whether the main thread is busy
 * past it now, whether new tables are refused now (busy, and no other process of the cluster takes them), and the
 * joins it refused since start (server/capacity/busy-guard.ts). */
export interface BusyGuardMetrics {
  refuseAt: number;
  busy: boolean;
  refusing: boolean;
  refused: number;
}

/**
 * How the AI threads' admission control sized the decisions since start: the whole budget (`full`), a share of it
 * (`reduced`), the least worth a search (`least`), or none, the fast move made at once (`atOnce`); and the decisions'
 * waits, from being asked for to their answer, in ms (p99 over the recent ones, the longest since start).
 */
export interface AiBudgetUse {
  budgets: { full: number; reduced: number; least: number; atOnce: number };
  waitMs: { p99: number; max: number };
}

/**
 * An AI pool's running threads and their V8 heaps, added up: the memory each heap holds (`physicalBytes`, V8's
 * `total_physical_size`) and what of it is in use (`usedBytes`). A thread's other memory (its stack, Node's own
 * structures, a few megabytes) is not in it.
 */
export interface AiThreadHeaps {
  threads: number;
  physicalBytes: number;
  usedBytes: number;
}
