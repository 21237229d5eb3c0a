/** What a load test reports (the JSON `--json` writes): the options it ran with, each phase's figures, the server's. */
import type { AiBudgetUse, ServerMetrics } from "../../server/telemetry/server-metrics";
import type { GameName } from "./games";
import type { TractorBotLevel } from "../../rooms/tractor/protocol";
import type { Counters } from "./messages";
import type { LatencySummary } from "../stats";
import type { MachineLoad } from "./machine-load";

export interface LoadTestOptions {
  /** The server's addresses: one process, or several processes of a cluster (tables are dealt round them). */
  urls: string[];
  clients: number;
  workers: number;
  durationSeconds: number;
  rampSeconds: number;
  thinkMs: number;
  mix: Partial<Record<GameName, number>>;
  /** Tractor tables seat two scripted players and the room's bots at this level (their AI runs on the server). */
  tractorBots?: TractorBotLevel;
  baseline: boolean;
  baselinePort: number;
  baselineSeconds: number;
  quiet: boolean;
  /**
   * The generator's nice value (0 when absent): on the server's machine, a generator at the server's priority takes
   * a core's share from the server it measures whenever a write wakes it.
   */
  nice?: number;
}

export interface PhaseResult {
  counters: Counters;
  tables: number;
  latency: LatencySummary;
  /** The same figures for each game's tables. */
  latencyByGame: Partial<Record<GameName, LatencySummary>>;
  movesPerSecond: number;
  /** The steady window (after the ramp, up to the deadline) as wall-clock times, and the moves made in it. */
  steady: { fromMs: number; untilMs: number; moves: number };
  /**
   * The moves of the steady window sent once every client had sat down (the last join answered, ms since the epoch):
   * on a server the ramp's joins saturate, the first seconds after the ramp still queue behind them. Null without a
   * join, or when the last one came at or after the deadline.
   */
  onceSeated: {
    fromMs: number;
    latency: LatencySummary;
    latencyByGame: Partial<Record<GameName, LatencySummary>>;
  } | null;
  /** When the last join was answered (ms since the epoch), null without a join: after the deadline, no move of the
   * window was made with every client seated. */
  lastJoinMs: number | null;
  lost: number;
  samples: string[];
  /** The ramp and the steady window after it (`--duration`), as asked. */
  rampSeconds: number;
  steadySeconds: number;
  /** From the phase's start until its last table stopped: ramp, steady window, and the games' moves then under way. */
  seconds: number;
  /** The busiest worker's event-loop lag: when it nears the latencies, the load generator is measuring itself. */
  generatorLagMs: { p50: number; p99: number; max: number };
  /** The workers' own stalls in the steady window, and the moves that arrived in one (generatorStallFigures). */
  generatorStalls: GeneratorStalls;
  /** Every seat's join: how many a second (from the first table's start to the last join), and how long each took. */
  joins: { perSecond: number; latency: LatencySummary };
  /** The workers' CPU, all together, in % of one core over the phase. */
  generatorCpuPercent: number;
  /** The workers' CPU per move made, in ms: what one scripted move costs the load generator (joins included). */
  generatorCpuMsPerMove: number;
  /** The same over the steady window alone: the workers' CPU after the ramp over the moves made then. */
  generatorSteadyCpuMsPerMove: number;
  /** The whole machine over the steady window (Linux only): how busy its cores were, and what the hypervisor took. */
  machine: MachineLoad | null;
}

export type ServerFigures = {
  cpuPercent: number;
  /** The server's CPU per move the scripted players made, in ms (joins and idle rooms included). */
  cpuMsPerMove: number;
  /**
   * The same over the steady window only (after the ramp, when the joins are mostly done): what a move costs a
   * seated table. NaN when fewer than two of the server's samples fall in the window.
   */
  steadyCpuMsPerMove: number;
  /**
   * How much of the steady window the server's main thread spent running, in percent (NaN when fewer than two
   * samples fall in it, or from a server that does not say). Near 100, moves queue behind it whatever each costs.
   */
  steadyMainThreadBusyPercent: number;
  /** V8's collections over the steady window: major ones (each marks the whole live heap) and minor ones, with their
   * pauses' totals in ms. Null when fewer than two samples fall in it, or from a server that does not say. */
  steadyGarbageCollections: { major: number; majorMs: number; minor: number; minorMs: number } | null;
  /** The event loop's stalls (a timer run over `overMs` late) that ended in the steady window, in order, each with
   * what held the loop (server/telemetry/event-loop-stalls.ts). Null from a server that does not say. */
  steadyStalls: { overMs: number; stalls: StallList } | null;
  /** Joins the server refused at capacity in the run (its BUSY_REFUSE_AT guard); null from a server without one. */
  joinsRefusedBusy: number | null;
  rssMbStart: number;
  rssMbPeak: number;
  /** The AI threads' heaps (all pools) at the first sample and at the sample of the RSS peak, in MB: RSS the
   * process holds apart from its tables. Null from a server that does not report them. */
  aiThreadsMbStart: number | null;
  aiThreadsMbAtPeak: number | null;
  heapMbEnd: number;
  /**
   * The live heap: what the server's last major collection before the end of the window left (V8's heap at any other
   * moment is mostly garbage: it grows to several times what is live), with the tables open then, and the heap
   * before the load (what its last major collection before the first sample left, else its heap then), in MB. Null
   * when no major collection fell in between, or from a server that does not say.
   */
  liveHeap: { mbAtStart: number; mbAfterMajor: number; rooms: number } | null;
  /** How far the server let V8's heap grow past the live heap, in percent ("v8": V8's own choice, up to 300%);
   * null from a server that does not say, or from processes that differ. */
  heapGrowth: number | "v8" | null;
  roomsPeak: number;
  clientsPeak: number;
  /** The event loop's lag over the whole phase, the teardown included (every client leaving at once). */
  eventLoopLagMs: ServerMetrics["eventLoopLagMs"];
  /** The longest stall up to the end of the steady window, before any client left (NaN with no sample there). */
  eventLoopMaxBeforeTeardownMs: number;
  /** The longest stall in the seconds that began once every client had sat down, up to the end of the steady
   * window (NaN when unknown: no such second, or a server that does not give its seconds). */
  eventLoopMaxOnceSeatedMs: number;
  /** The Fool AI's decisions during the phase (null from a server that does not report them). */
  foolAiDecisions: ServerMetrics["foolAiDecisions"] | null;
  /** The strong Tractor bots' decisions during the phase (absent without the room's bots: `--tractor-bots`). */
  tractorAiDecisions?: NonNullable<ServerMetrics["tractorAiDecisions"]> | null;
  /** The budgets the AIs' searched decisions were given during the phase, and their waits (absent from servers without admission control). */
  aiBudgets: { fool: AiBudgetUse | null; tractor: AiBudgetUse | null };
};

export interface LoadTestReport {
  options: LoadTestOptions;
  cardhall: PhaseResult;
  /** The server's figures: with several addresses, the processes' added up (CPU, memory, rooms; the worst lag). */
  server: ServerFigures | null;
  /** Each address's own figures, in the order given (null where /metrics did not answer). */
  processes: Array<{ url: string; figures: ServerFigures | null }>;
  baseline: PhaseResult | null;
  /** cardhall's latency over the echo server's, per percentile. */
  ratio: { p50: number; p95: number; p99: number } | null;
}

/**
 * The load generator's own stalls over the window, and the moves whose broadcast its worker read in one: on the
 * server's own cores, at a lower priority, a worker waits for a core while the server is busiest (its major
 * collections' marking threads take both), and every move it reads then counts that wait. The others' latencies
 * are the figure without it.
 */
export interface GeneratorStalls {
  overMs: number;
  /** Every worker's stalls that ended in the window, in order. */
  stalls: StallList;
  /** Moves whose broadcast arrived while their own worker stalled. */
  movesInThem: number;
  /** The latencies of every other move, and by game. */
  others: LatencySummary;
  othersByGame: Partial<Record<GameName, LatencySummary>>;
}

export type StallList = NonNullable<ServerMetrics["eventLoopStalls"]>["recent"];
