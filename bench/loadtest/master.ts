/**
 * The load test: spreads N scripted players over several worker processes, shows progress, then measures the same
 * clients against a plain ws echo server as a baseline, and reports both with the server's CPU and memory.
 */
import { fork, type ChildProcess } from "child_process";
import * as path from "path";
import { MultiBar, Presets } from "cli-progress";
import { STALL_CAUSES, type AiBudgetUse, type ServerMetrics, type StallCause } from "../../server/telemetry/server-metrics";
import type { GameName } from "./games";
import type { TractorBotLevel } from "../../rooms/tractor/protocol";
import { emptyCounters, type Counters, type TablePlan, type WorkerDone, type WorkerMessage, type WorkerStart } from "./messages";
import { summarize, type LatencySummary } from "../stats";
import { lowerThisProcess } from "../../server/runtime/thread-priority";
import { machineLoadDuring, STEAL_BURST_PERCENT, type MachineLoad } from "./machine-load";
import { dealToWorkers, planTables } from "./plan";

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
  onceSeated: { fromMs: number; latency: LatencySummary; latencyByGame: Partial<Record<GameName, LatencySummary>> } | null;
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

const WORKER = path.join(__dirname, "worker.js");
const ECHO_SERVER = path.join(__dirname, "echo-server.js");

function httpUrl(wsUrl: string): string {
  return wsUrl.replace(/^ws/, "http").replace(/\/$/, "");
}

/** The server's /metrics.json (or /metrics from a server built before /metrics became Prometheus's text). */
async function fetchMetrics(url: string): Promise<ServerMetrics | null> {
  for (const route of ["/metrics.json", "/metrics"]) {
    try {
      const response = await fetch(`${httpUrl(url)}${route}`);
      if (response.ok && response.headers.get("content-type")?.startsWith("application/json")) return (await response.json()) as ServerMetrics;
    } catch {
      return null;
    }
  }
  return null;
}

function addCounters(total: Counters, part: Counters): void {
  for (const key of Object.keys(total) as Array<keyof Counters>) total[key] += part[key];
}

/** Runs one phase (cardhall or the baseline) across the workers; `onProgress` sees the summed counters. */
async function runPhase(url: string | null, tables: TablePlan[], options: LoadTestOptions, baseline: boolean, seconds: number, onProgress: (c: Counters) => void): Promise<PhaseResult> {
  const started = Date.now();
  const deadline = started + options.rampSeconds * 1000 + seconds * 1000;
  const workerCount = Math.max(1, Math.min(options.workers, tables.length));
  const machine = machineLoadDuring(deadline - seconds * 1000, deadline);
  const latest: Counters[] = Array.from({ length: workerCount }, emptyCounters);
  const results = await Promise.all(
    dealToWorkers(tables, workerCount).map((share, index) => {
      return runWorker({ type: "start", url: url ?? "", tables: share, deadline, rampMs: options.rampSeconds * 1000, thinkMs: options.thinkMs, baseline, tractorBots: options.tractorBots }, (counters) => {
        latest[index] = counters;
        const total = emptyCounters();
        latest.forEach((part) => addCounters(total, part));
        onProgress(total);
      });
    }),
  );
  const counters = emptyCounters();
  results.forEach((result) => addCounters(counters, result.counters));
  onProgress(counters);
  const byGame = latenciesSentFrom(results, -Infinity);
  const latencies = [...byGame.values()].flat();
  const elapsed = (Date.now() - started) / 1000;
  const windows = results.flatMap((result) => (result.joinWindow ? [result.joinWindow] : []));
  const lastJoinMs = windows.length ? Math.max(...windows.map((window) => window.until)) : null;
  const joinSeconds = windows.length ? (Math.max(...windows.map((w) => w.until)) - Math.min(...windows.map((w) => w.from))) / 1000 : 0;
  const generatorCpuSeconds = results.reduce((sum, result) => sum + result.cpuSeconds, 0);
  return {
    counters,
    tables: tables.length,
    latency: summarize(latencies),
    latencyByGame: summarizedByGame(byGame),
    onceSeated: lastJoinMs !== null && lastJoinMs < deadline ? onceSeated(results, lastJoinMs) : null,
    lastJoinMs,
    // Throughput over the steady window (after the ramp, before the deadline): the tail of games finishing is left out.
    movesPerSecond: results.reduce((sum, result) => sum + result.steadyMoves, 0) / Math.max(0.001, seconds),
    steady: { fromMs: deadline - seconds * 1000, untilMs: deadline, moves: results.reduce((sum, result) => sum + result.steadyMoves, 0) },
    lost: results.reduce((sum, result) => sum + result.lost, 0),
    samples: results.flatMap((result) => result.samples).slice(0, 10),
    rampSeconds: options.rampSeconds,
    steadySeconds: seconds,
    seconds: elapsed,
    joins: {
      perSecond: joinSeconds > 0 ? Math.round((counters.joined / joinSeconds) * 10) / 10 : NaN,
      latency: summarize(results.flatMap((result) => result.joinLatencies)),
    },
    generatorCpuPercent: Math.round((generatorCpuSeconds / elapsed) * 1000) / 10,
    generatorCpuMsPerMove: perMoveMs(generatorCpuSeconds, counters.moves),
    generatorSteadyCpuMsPerMove: perMoveMs(
      results.reduce((sum, result) => sum + result.steadyCpuSeconds, 0),
      results.reduce((sum, result) => sum + result.steadyMoves, 0),
    ),
    machine: await machine,
    generatorStalls: generatorStallFigures(results, { fromMs: deadline - seconds * 1000, untilMs: deadline }),
    generatorLagMs: {
      p50: Math.max(...results.map((result) => result.loopLagMs.p50)),
      p99: Math.max(...results.map((result) => result.loopLagMs.p99)),
      max: Math.max(...results.map((result) => result.loopLagMs.max)),
    },
  };
}

/** A move's broadcast read up to this long after its worker's stall ended was held by the stall (a tick of its watch, and the handlers run with it). */
const STALL_ARRIVAL_MARGIN_MS = 20;

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

export function generatorStallFigures(results: readonly Pick<WorkerDone, "stalls" | "latencies" | "latencySentAt">[], window: { fromMs: number; untilMs: number }): GeneratorStalls {
  const othersByGame = new Map<GameName, number[]>();
  let movesInThem = 0;
  for (const result of results) {
    const spans = result.stalls.recent.map((stall) => ({ fromMs: stall.at - stall.ms, untilMs: stall.at + STALL_ARRIVAL_MARGIN_MS }));
    for (const [game, latencies] of Object.entries(result.latencies) as Array<[GameName, number[]]>) {
      const sentAt = result.latencySentAt[game] ?? [];
      const others = othersByGame.get(game) ?? [];
      othersByGame.set(game, others);
      latencies.forEach((latency, index) => {
        const arrivedAt = sentAt[index]! + latency;
        if (spans.some((span) => arrivedAt >= span.fromMs && arrivedAt <= span.untilMs)) movesInThem++;
        else others.push(latency);
      });
    }
  }
  const stalls = results.flatMap((result) => result.stalls.recent).filter((stall) => stall.at >= window.fromMs && stall.at <= window.untilMs);
  const others = summarize([...othersByGame.values()].flat());
  return { overMs: results[0]?.stalls.overMs ?? NaN, stalls: stalls.sort((a, b) => a.at - b.at), movesInThem, others, othersByGame: summarizedByGame(othersByGame) };
}

/** What the load generator's own stalls added to the latencies. */
function generatorStallLines(figures: GeneratorStalls): string[] {
  const { movesInThem, others } = figures;
  return [
    ...stallLines("load generator", figures),
    `  moves read while their own worker stalled: ${movesInThem} of ${movesInThem + others.count}; the others p50 ${ms(others.p50)}, p99 ${ms(others.p99)}, max ${ms(others.max)}`,
    `    the others by game: ${byGameLine(figures.othersByGame)}`,
  ];
}

/** The workers' latencies by game, of the moves sent at `fromMs` or later (ms since the epoch). */
function latenciesSentFrom(results: readonly WorkerDone[], fromMs: number): Map<GameName, number[]> {
  const byGame = new Map<GameName, number[]>();
  for (const result of results) {
    for (const [game, values] of Object.entries(result.latencies) as Array<[GameName, number[]]>) {
      const sentAt = result.latencySentAt[game] ?? [];
      const kept = fromMs === -Infinity ? values : values.filter((_, index) => sentAt[index]! >= fromMs);
      byGame.set(game, [...(byGame.get(game) ?? []), ...kept]);
    }
  }
  return byGame;
}

function summarizedByGame(byGame: Map<GameName, number[]>): Partial<Record<GameName, LatencySummary>> {
  return Object.fromEntries([...byGame].sort(([a], [b]) => a.localeCompare(b)).map(([game, values]) => [game, summarize(values)]));
}

function onceSeated(results: readonly WorkerDone[], seatedAt: number): NonNullable<PhaseResult["onceSeated"]> {
  const byGame = latenciesSentFrom(results, seatedAt);
  return { fromMs: seatedAt, latency: summarize([...byGame.values()].flat()), latencyByGame: summarizedByGame(byGame) };
}

function perMoveMs(cpuSeconds: number, moves: number): number {
  return moves > 0 ? Math.round((cpuSeconds / moves) * 1e6) / 1e3 : NaN;
}

function runWorker(start: WorkerStart, onProgress: (counters: Counters) => void): Promise<WorkerDone> {
  return new Promise((resolve, reject) => {
    const worker: ChildProcess = fork(WORKER, [], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
    let done: WorkerDone | null = null;
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "progress") onProgress(message.counters);
      else done = message;
    });
    worker.on("exit", (code) => (done ? resolve(done) : reject(new Error(`a load-test worker exited (${code}) without its results`))));
    worker.send(start);
  });
}

function startEchoServer(port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const echo = fork(ECHO_SERVER, [String(port)], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
    echo.once("message", () => resolve(echo));
    echo.once("exit", (code) => reject(new Error(`the echo server exited (${code})`)));
  });
}

/** The longest the final sample waits for the server to have let every client go (its teardown). */
const TEARDOWN_WAIT_MS = 10_000;

/**
 * Samples the server's /metrics.json every second while a phase runs; the last sample once the server has no
 * clients left (or after TEARDOWN_WAIT_MS), so that its figures include the teardown: every client leaving at once.
 */
function watchServer(url: string): { stop: () => Promise<ServerMetrics[]> } {
  const samples: ServerMetrics[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const metrics = await fetchMetrics(url);
      if (metrics) samples.push({ ...metrics, uptimeSeconds: Date.now() / 1000 });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      const until = Date.now() + TEARDOWN_WAIT_MS;
      let last = await fetchMetrics(url);
      while (last && last.clients > 0 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        last = await fetchMetrics(url);
      }
      if (last) samples.push({ ...last, uptimeSeconds: Date.now() / 1000 });
      return samples;
    },
  };
}

/** The server's samples taken inside the steady window (the sampler stamps each with the wall clock). */
function steadySamples(samples: ServerMetrics[], steady: PhaseResult["steady"]): ServerMetrics[] {
  return samples.filter((sample) => sample.uptimeSeconds * 1000 >= steady.fromMs && sample.uptimeSeconds * 1000 <= steady.untilMs);
}

/**
 * Server CPU per move over the steady window: the CPU between the first and the last sample inside it, over the
 * window's moves scaled to the span those samples cover.
 */
export function steadyMsPerMove(samples: ServerMetrics[], steady: PhaseResult["steady"]): number {
  const within = steadySamples(samples, steady);
  if (within.length < 2) return NaN;
  const [first, last] = [within[0], within[within.length - 1]];
  const cpuSeconds = (last.cpuUserMicros + last.cpuSystemMicros - first.cpuUserMicros - first.cpuSystemMicros) / 1e6;
  const spanMs = (last.uptimeSeconds - first.uptimeSeconds) * 1000;
  return perMoveMs(cpuSeconds, (steady.moves * spanMs) / Math.max(1, steady.untilMs - steady.fromMs));
}

/** The share of the steady window the server's main thread was running, in percent (see ServerFigures). */
export function steadyMainThreadBusy(samples: ServerMetrics[], steady: PhaseResult["steady"]): number {
  const within = steadySamples(samples, steady).filter((sample) => sample.mainThreadMs !== undefined);
  if (within.length < 2) return NaN;
  const [first, last] = [within[0].mainThreadMs!, within[within.length - 1].mainThreadMs!];
  const [active, idle] = [last.active - first.active, last.idle - first.idle];
  return active + idle > 0 ? Math.round((active / (active + idle)) * 1000) / 10 : NaN;
}

/** V8's collections over the steady window (see ServerFigures). */
export function steadyGarbageCollections(samples: ServerMetrics[], steady: PhaseResult["steady"]): ServerFigures["steadyGarbageCollections"] {
  const within = steadySamples(samples, steady).filter((sample) => sample.garbageCollections !== undefined);
  if (within.length < 2) return null;
  const [first, last] = [within[0].garbageCollections!, within[within.length - 1].garbageCollections!];
  return { major: last.major - first.major, majorMs: last.majorMs - first.majorMs, minor: last.minor - first.minor, minorMs: last.minorMs - first.minorMs };
}

type StallList = NonNullable<ServerMetrics["eventLoopStalls"]>["recent"];

/** The server's stalls that ended in the steady window (see ServerFigures): each sample lists the last few, so a stall is in several. */
export function steadyStalls(samples: readonly ServerMetrics[], steady: PhaseResult["steady"]): ServerFigures["steadyStalls"] {
  const reporting = samples.filter((sample) => sample.eventLoopStalls !== undefined);
  if (reporting.length === 0) return null;
  const seen = new Map<string, StallList[number]>();
  for (const sample of reporting) for (const stall of sample.eventLoopStalls!.recent) seen.set(`${stall.at}/${stall.ms}`, stall);
  const stalls = [...seen.values()].filter((stall) => stall.at >= steady.fromMs && stall.at <= steady.untilMs).sort((a, b) => a.at - b.at);
  return { overMs: reporting[0]!.eventLoopStalls!.overMs, stalls };
}

const maxOrNaN = (values: readonly number[]) => (values.length === 0 ? NaN : Math.max(...values));

/** The longest event-loop delay of the server's seconds that began at `fromMs` or later and ended by `untilMs`. */
export function eventLoopMaxBetween(samples: readonly ServerMetrics[], fromMs: number, untilMs: number): number {
  const seconds = new Map<number, number>(); // each sample repeats the last minute: a second counted once
  for (const sample of samples) for (const second of sample.eventLoopMaxBySecond ?? []) seconds.set(second.at, second.maxMs);
  const ends = [...seconds.keys()].sort((a, b) => a - b);
  // A second began where the one before it ended (a stall makes it longer than a second).
  const within = ends.filter((at, index) => (index > 0 ? ends[index - 1]! : at - 1000) >= fromMs && at <= untilMs);
  return maxOrNaN(within.map((at) => seconds.get(at)!));
}

/** Bytes in MB, to a tenth. */
const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

function serverFigures(samples: ServerMetrics[], moves: number, steady: PhaseResult["steady"], seatedAt: number | null): ServerFigures | null {
  if (samples.length < 2) return null;
  const first = samples[0];
  const last = samples[samples.length - 1];
  const cpuSeconds = (last.cpuUserMicros + last.cpuSystemMicros - first.cpuUserMicros - first.cpuSystemMicros) / 1e6;
  const wallSeconds = last.uptimeSeconds - first.uptimeSeconds;
  const peak = samples.reduce((highest, sample) => (sample.rssBytes > highest.rssBytes ? sample : highest));
  return {
    cpuPercent: Math.round((cpuSeconds / Math.max(0.001, wallSeconds)) * 1000) / 10,
    cpuMsPerMove: perMoveMs(cpuSeconds, moves),
    steadyCpuMsPerMove: steadyMsPerMove(samples, steady),
    steadyMainThreadBusyPercent: steadyMainThreadBusy(samples, steady),
    steadyGarbageCollections: steadyGarbageCollections(samples, steady),
    steadyStalls: steadyStalls(samples, steady),
    joinsRefusedBusy: first.busyGuard && last.busyGuard ? last.busyGuard.refused - first.busyGuard.refused : null,
    rssMbStart: mb(first.rssBytes),
    rssMbPeak: mb(peak.rssBytes),
    aiThreadsMbStart: aiThreadsBytes(first) === null ? null : mb(aiThreadsBytes(first)!),
    aiThreadsMbAtPeak: aiThreadsBytes(peak) === null ? null : mb(aiThreadsBytes(peak)!),
    heapMbEnd: mb(last.heapUsedBytes),
    liveHeap: liveHeapBetween(samples, steady.untilMs),
    heapGrowth: last.heapGrowthPercent === undefined ? null : (last.heapGrowthPercent ?? "v8"),
    roomsPeak: Math.max(...samples.map((s) => s.rooms)),
    clientsPeak: Math.max(...samples.map((s) => s.clients)),
    eventLoopLagMs: last.eventLoopLagMs,
    eventLoopMaxBeforeTeardownMs: maxOrNaN(samples.filter((sample) => sample.uptimeSeconds * 1000 <= steady.untilMs).map((sample) => sample.eventLoopLagMs.max)),
    eventLoopMaxOnceSeatedMs: seatedAt === null ? NaN : eventLoopMaxBetween(samples, seatedAt, steady.untilMs),
    foolAiDecisions: decisionsBetween(first.foolAiDecisions, last.foolAiDecisions),
    tractorAiDecisions: decisionsBetween(first.tractorAiDecisions, last.tractorAiDecisions),
    aiBudgets: { fool: budgetsBetween(first.foolAiBudgets, last.foolAiBudgets), tractor: budgetsBetween(first.tractorAiBudgets, last.tractorAiBudgets) },
  };
}

/** The live heap the samples up to `untilMs` tell (see ServerFigures). */
export function liveHeapBetween(samples: readonly ServerMetrics[], untilMs: number): ServerFigures["liveHeap"] {
  const first = samples[0]?.garbageCollections;
  const last = samples.filter((sample) => sample.uptimeSeconds * 1000 <= untilMs).at(-1)?.garbageCollections;
  const afterMajor = last?.lastMajor;
  if (!first || !last || !afterMajor || last.major === first.major || afterMajor.rooms === 0) return null;
  return { mbAtStart: mb(first.lastMajor?.heapBytes ?? samples[0]!.heapUsedBytes), mbAfterMajor: mb(afterMajor.heapBytes), rooms: afterMajor.rooms };
}

/** The AI threads' heaps in a sample, all pools added up (null from a server that does not report them). */
function aiThreadsBytes(sample: ServerMetrics): number | null {
  const heaps = sample.aiThreadHeaps;
  return heaps === undefined ? null : heaps.fool.physicalBytes + heaps.tractor.physicalBytes;
}

/** The budgets given between two samples; the waits as the last sample saw them (recent p99, longest since start). */
function budgetsBetween(first: AiBudgetUse | undefined, last: AiBudgetUse | undefined): AiBudgetUse | null {
  if (!first || !last) return null;
  const between = (tier: keyof AiBudgetUse["budgets"]) => last.budgets[tier] - first.budgets[tier];
  return { budgets: { full: between("full"), reduced: between("reduced"), least: between("least"), atOnce: between("atOnce") }, waitMs: last.waitMs };
}

/** Several processes' figures, when every one of them says (a process from an older build may not): else null. */
function everyOneSays<T>(figures: ReadonlyArray<T | null>): T[] | null {
  return figures.some((figure) => figure === null) ? null : (figures as T[]);
}

/** Several processes' budgets added up, their worst waits. */
function budgetsAddedUp(uses: ReadonlyArray<AiBudgetUse | null>): AiBudgetUse | null {
  const all = everyOneSays(uses);
  if (all === null) return null;
  const sum = (tier: keyof AiBudgetUse["budgets"]) => all.reduce((total, use) => total + use.budgets[tier], 0);
  return {
    budgets: { full: sum("full"), reduced: sum("reduced"), least: sum("least"), atOnce: sum("atOnce") },
    waitMs: { p99: Math.max(...all.map((use) => use.waitMs.p99)), max: Math.max(...all.map((use) => use.waitMs.max)) },
  };
}

/** Several processes' live heaps added up: null unless each says. */
function liveHeapsAddedUp(heaps: ReadonlyArray<ServerFigures["liveHeap"]>): ServerFigures["liveHeap"] {
  const all = everyOneSays(heaps);
  if (all === null) return null;
  const sum = (pick: (heap: NonNullable<ServerFigures["liveHeap"]>) => number) => Math.round(all.reduce((total, heap) => total + pick(heap), 0) * 10) / 10;
  return { mbAtStart: sum((h) => h.mbAtStart), mbAfterMajor: sum((h) => h.mbAfterMajor), rooms: sum((h) => h.rooms) };
}

/** Several processes' collections added up (each process has its own heap). */
function collectionsAddedUp(counts: ReadonlyArray<ServerFigures["steadyGarbageCollections"]>): ServerFigures["steadyGarbageCollections"] {
  const all = everyOneSays(counts);
  if (all === null) return null;
  const sum = (pick: (count: NonNullable<ServerFigures["steadyGarbageCollections"]>) => number) => all.reduce((total, count) => total + pick(count), 0);
  return { major: sum((c) => c.major), majorMs: sum((c) => c.majorMs), minor: sum((c) => c.minor), minorMs: sum((c) => c.minorMs) };
}

/** Several processes' stalls in one list, in order (null when one does not say). */
function stallsAddedUp(each: ReadonlyArray<ServerFigures["steadyStalls"]>): ServerFigures["steadyStalls"] {
  const all = everyOneSays(each);
  if (all === null) return null;
  return { overMs: all[0]!.overMs, stalls: all.flatMap((one) => one.stalls).sort((a, b) => a.at - b.at) };
}

/** Several processes as one server: their CPU, memory, rooms and clients added up, the worst event-loop lag. */
export function addedUp(figures: readonly ServerFigures[]): ServerFigures | null {
  if (figures.length === 0) return null;
  if (figures.length === 1) return figures[0];
  const sum = (pick: (f: ServerFigures) => number) => Math.round(figures.reduce((total, f) => total + pick(f), 0) * 1000) / 1000;
  const decisions = figures.map((f) => f.foolAiDecisions);
  return {
    cpuPercent: sum((f) => f.cpuPercent),
    cpuMsPerMove: sum((f) => f.cpuMsPerMove),
    steadyCpuMsPerMove: sum((f) => f.steadyCpuMsPerMove),
    steadyMainThreadBusyPercent: maxOrNaN(figures.map((f) => f.steadyMainThreadBusyPercent)),
    steadyGarbageCollections: collectionsAddedUp(figures.map((f) => f.steadyGarbageCollections)),
    steadyStalls: stallsAddedUp(figures.map((f) => f.steadyStalls)),
    joinsRefusedBusy: figures.some((f) => f.joinsRefusedBusy === null) ? null : sum((f) => f.joinsRefusedBusy ?? 0),
    rssMbStart: sum((f) => f.rssMbStart),
    rssMbPeak: sum((f) => f.rssMbPeak),
    aiThreadsMbStart: figures.some((f) => f.aiThreadsMbStart === null) ? null : sum((f) => f.aiThreadsMbStart ?? 0),
    aiThreadsMbAtPeak: figures.some((f) => f.aiThreadsMbAtPeak === null) ? null : sum((f) => f.aiThreadsMbAtPeak ?? 0),
    heapMbEnd: sum((f) => f.heapMbEnd),
    liveHeap: liveHeapsAddedUp(figures.map((f) => f.liveHeap)),
    heapGrowth: figures.every((f) => f.heapGrowth === figures[0].heapGrowth) ? figures[0].heapGrowth : null,
    roomsPeak: sum((f) => f.roomsPeak),
    clientsPeak: sum((f) => f.clientsPeak),
    eventLoopLagMs: {
      p50: Math.max(...figures.map((f) => f.eventLoopLagMs.p50)),
      p99: Math.max(...figures.map((f) => f.eventLoopLagMs.p99)),
      max: Math.max(...figures.map((f) => f.eventLoopLagMs.max)),
    },
    eventLoopMaxBeforeTeardownMs: maxOrNaN(figures.map((f) => f.eventLoopMaxBeforeTeardownMs)),
    eventLoopMaxOnceSeatedMs: maxOrNaN(figures.map((f) => f.eventLoopMaxOnceSeatedMs)),
    foolAiDecisions: decisions.some((d) => d === null)
      ? null
      : {
          immediate: decisions.reduce((total, d) => total + d!.immediate, 0),
          onThreads: decisions.reduce((total, d) => total + d!.onThreads, 0),
          inProcess: decisions.reduce((total, d) => total + d!.inProcess, 0),
          abandoned: decisions.reduce((total, d) => total + d!.abandoned, 0),
        },
    aiBudgets: { fool: budgetsAddedUp(figures.map((f) => f.aiBudgets.fool)), tractor: budgetsAddedUp(figures.map((f) => f.aiBudgets.tractor)) },
  };
}

/** Counts made during the phase: each of the last sample's counts less the first's. */
function decisionsBetween<T extends Record<string, number>>(first: T | undefined, last: T | undefined): T | null {
  if (!first || !last) return null;
  return Object.fromEntries(Object.keys(last).map((key) => [key, last[key] - (first[key] ?? 0)])) as T;
}

interface Progress {
  update: (label: string, counters: Counters, target: number) => void;
  stop: () => void;
}

/** How often the plain progress lines come when nobody watches a terminal. */
const PLAIN_PROGRESS_MS = 5_000;

/** A progress bar per phase on a terminal; elsewhere (a log, a pipe, CI) a plain line now and then, and at the end. */
function progressReport(options: LoadTestOptions): Progress {
  if (options.quiet) return { update: () => undefined, stop: () => undefined };
  return process.stderr.isTTY ? progressBars() : progressLines();
}

function progressSummary(counters: Counters): string {
  return `${counters.moves} moves | ${counters.failed} failed | ${counters.errors} errors | ${counters.desyncs} desyncs`;
}

function progressBars(): Progress {
  const bars = new MultiBar({ format: "{label} |{bar}| {value}/{total} connected | {summary}", hideCursor: true }, Presets.shades_classic);
  const perLabel = new Map<string, ReturnType<MultiBar["create"]>>();
  return {
    update: (label, counters, target) => {
      let bar = perLabel.get(label);
      if (!bar) perLabel.set(label, (bar = bars.create(target, 0, { label })));
      bar.update(counters.connected, { label, summary: progressSummary(counters) });
    },
    stop: () => bars.stop(),
  };
}

function progressLines(): Progress {
  const lastWritten = new Map<string, number>();
  const latest = new Map<string, string>();
  const write = (line: string) => process.stderr.write(`${line}\n`);
  return {
    update: (label, counters, target) => {
      const line = `${label}: ${counters.connected}/${target} connected | ${progressSummary(counters)}`;
      latest.set(label, line);
      const now = Date.now();
      if (now - (lastWritten.get(label) ?? 0) < PLAIN_PROGRESS_MS) return;
      lastWritten.set(label, now);
      write(line);
    },
    stop: () => latest.forEach(write),
  };
}

/** Throws, naming the address, when a server does not answer GET /health: a load test against nothing has failed. */
async function answers(url: string): Promise<void> {
  try {
    const response = await fetch(`${httpUrl(url)}/health`);
    if (!response.ok) throw new Error(`GET /health answered ${response.status}`);
  } catch (error) {
    throw new Error(`cannot reach ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function runLoadTest(options: LoadTestOptions): Promise<LoadTestReport> {
  // Before any worker is forked: each starts at the nice value of the thread that forks it.
  const nice = options.nice ?? 0;
  if (nice > 0) {
    const now = lowerThisProcess(nice);
    // A report that said "at nice N" of a generator still at the server's priority would mislead.
    if (now < nice) throw new Error(`could not lower the load test's priority to nice ${nice} (the system refused: it runs at ${now}); run it without --nice`);
  }
  await Promise.all(options.urls.map(answers));
  const tables = planTables(options.clients, options.mix, options.urls, options.tractorBots);
  const target = tables.reduce((sum, table) => sum + table.players, 0);
  const bars = progressReport(options);
  const watchers = options.urls.map((url) => watchServer(url));
  const cardhall = await runPhase(null, tables, options, false, options.durationSeconds, (c) => bars.update("cardhall", c, target));
  const processes = await Promise.all(
    watchers.map(async (watcher, index) => ({ url: options.urls[index], figures: serverFigures(await watcher.stop(), cardhall.counters.moves, cardhall.steady, cardhall.onceSeated?.fromMs ?? null) })),
  );
  const measured = processes.flatMap((process) => (process.figures ? [process.figures] : []));
  const server = measured.length === processes.length ? addedUp(measured) : null;
  let baseline: PhaseResult | null = null;
  if (options.baseline) {
    const echo = await startEchoServer(options.baselinePort);
    try {
      const echoTables = tables.map((table) => ({ ...table, url: `ws://127.0.0.1:${options.baselinePort}` }));
      baseline = await runPhase(`ws://127.0.0.1:${options.baselinePort}`, echoTables, options, true, options.baselineSeconds, (c) => bars.update("ws echo", c, target));
    } finally {
      echo.disconnect();
    }
  }
  bars.stop();
  const ratio = baseline
    ? { p50: cardhall.latency.p50 / baseline.latency.p50, p95: cardhall.latency.p95 / baseline.latency.p95, p99: cardhall.latency.p99 / baseline.latency.p99 }
    : null;
  return { options, cardhall, server, processes, baseline, ratio };
}

const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)} ms` : "n/a");

function phaseLines(name: string, phase: PhaseResult): string[] {
  const c = phase.counters;
  return [
    `${name}: ${phase.tables} tables, ${c.joined} clients connected, ${c.failed} failed${c.askedAgain > 0 ? ` (${c.askedAgain} tables refused at capacity asked again, ${c.seatedLater} of them seated)` : ""}; ${phase.rampSeconds} s ramp, ${phase.steadySeconds} s steady, every table stopped at ${phase.seconds.toFixed(1)} s`,
    `  moves: ${c.moves} (${phase.movesPerSecond.toFixed(0)}/s), lost: ${phase.lost}, errors: ${c.errors}, desyncs: ${c.desyncs} (state checks: ${c.stateChecks})`,
    `  move-to-broadcast latency (${phase.latency.count} moves after the ramp): p50 ${ms(phase.latency.p50)}, p95 ${ms(phase.latency.p95)}, p99 ${ms(phase.latency.p99)}, max ${ms(phase.latency.max)}`,
    `  joins: ${Number.isFinite(phase.joins.perSecond) ? `${phase.joins.perSecond}/s` : "none"}, each p50 ${ms(phase.joins.latency.p50)}, p99 ${ms(phase.joins.latency.p99)} (from its table's start or the previous seat's join to its state)`,
    `  by game: ${byGameLine(phase.latencyByGame)}`,
    ...onceSeatedLines(phase),
    `  load generator: CPU ${phase.generatorCpuPercent}% of one core (all workers, ${phase.generatorCpuMsPerMove} ms per move, joins included; ${ms(phase.generatorSteadyCpuMsPerMove)} per move after the ramp), event-loop lag of the busiest worker p50 ${ms(phase.generatorLagMs.p50)}, p99 ${ms(phase.generatorLagMs.p99)}, max ${ms(phase.generatorLagMs.max)}`,
    ...generatorStallLines(phase.generatorStalls),
    phase.machine
      ? `  machine: ${phase.machine.busyPercent}% busy, ${phase.machine.stealPercent}% stolen by the hypervisor (worst second ${phase.machine.stealWorstSecondPercent}%, ${phase.machine.stealBurstSeconds} s over ${STEAL_BURST_PERCENT}%${phase.machine.stealPercent >= 5 || phase.machine.stealBurstSeconds > 0 ? ": latencies are inflated" : ""})`
      : "  machine: no /proc/stat, no machine-wide figures",
    ...phase.samples.map((sample) => `  sample: ${sample}`),
    ...(phase.samples.some(isPerAddressRefusal) ? [PER_ADDRESS_HINT] : []),
  ];
}

function byGameLine(byGame: PhaseResult["latencyByGame"]): string {
  return Object.entries(byGame)
    .map(([game, l]) => `${game} ${l.count} moves p50 ${ms(l.p50)} p99 ${ms(l.p99)}`)
    .join("; ");
}

/** The moves sent once every client sat, when the last join came after the ramp (else they are the lines above). */
export function onceSeatedLines(phase: PhaseResult): string[] {
  const seated = phase.onceSeated;
  if (seated === null && phase.lastJoinMs !== null) {
    return [`  once every client sat: never in the window (the last join ${((phase.lastJoinMs - phase.steady.untilMs) / 1000).toFixed(1)} s after its end)`];
  }
  if (seated === null || seated.fromMs <= phase.steady.fromMs) return [];
  const after = ((seated.fromMs - phase.steady.fromMs) / 1000).toFixed(1);
  const left = ((phase.steady.untilMs - seated.fromMs) / 1000).toFixed(1);
  return [
    `  once every client sat (the last join ${after} s after the ramp, ${left} s of the window left): ${seated.latency.count} moves, p50 ${ms(seated.latency.p50)}, p99 ${ms(seated.latency.p99)}, max ${ms(seated.latency.max)}`,
    `    by game: ${byGameLine(seated.latencyByGame)}`,
  ];
}

/** The server's refusal of a join over its bound on one address's joins waiting for their connections. */
function isPerAddressRefusal(sample: string): boolean {
  return sample.includes("joins from your address are waiting");
}

const PER_ADDRESS_HINT =
  "  hint: every scripted player joins from this machine's address, which the server bounds (64 joins waiting at once by default): load-test a server started with JOINS_PENDING_PER_ADDRESS=0";

function serverLines(name: string, s: ServerFigures): string[] {
  const lag = s.eventLoopLagMs;
  const ai = s.foolAiDecisions;
  return [
    `  ${name}: CPU ${s.cpuPercent}% of one core (${s.cpuMsPerMove} ms per move, joins included; ${Number.isFinite(s.steadyCpuMsPerMove) ? `${s.steadyCpuMsPerMove} ms per move after the ramp` : "too short a window after the ramp to say"}), RSS ${s.rssMbStart} → peak ${s.rssMbPeak} MB, heap ${s.heapMbEnd} MB, peak ${s.roomsPeak} rooms / ${s.clientsPeak} clients`,
    `  ${name} event-loop lag: p50 ${ms(lag.p50)}, p99 ${ms(lag.p99)}, max ${ms(lag.max)} (before the teardown ${ms(s.eventLoopMaxBeforeTeardownMs)}${Number.isFinite(s.eventLoopMaxOnceSeatedMs) ? `, once every client sat ${ms(s.eventLoopMaxOnceSeatedMs)}` : ""}); ${Number.isFinite(s.steadyMainThreadBusyPercent) ? `main thread busy ${s.steadyMainThreadBusyPercent}% after the ramp` : "main thread's busy share after the ramp not known"}`,
    ...gcLines(name, s.steadyGarbageCollections),
    ...stallLines(name, s.steadyStalls),
    ...(s.joinsRefusedBusy === null ? [] : [`  ${name} refused ${s.joinsRefusedBusy} joins at capacity (its main thread busy past BUSY_REFUSE_AT)`]),
    ...(ai ? [`  ${name} Fool AI: ${ai.immediate} decisions made at once (nothing to weigh), ${ai.onThreads} on its threads, ${ai.inProcess} in-process, ${ai.abandoned} abandoned over the time limit`] : []),
    ...budgetLines(`${name} Fool AI`, s.aiBudgets.fool),
    ...tractorDecisionLines(name, s.tractorAiDecisions),
    ...budgetLines(`${name} Tractor AI`, s.aiBudgets.tractor),
    ...memoryLines(name, s),
  ];
}

/**
 * The memory a table took: the RSS peak above the start, over the peak tables; and, where the server reports its AI
 * threads' heaps, the same without what they grew by (a thread starts with the first decision that needs one, so its
 * memory counts in the peak and not in the start, but it is the process's, not the tables').
 */
export function memoryLines(name: string, s: ServerFigures): string[] {
  if (s.roomsPeak === 0) return [];
  const line = `  ${name} memory: ${kbPerTable(s)} KB a table (peak RSS above the start, over the peak tables${heapGrowthWords(s.heapGrowth)})`;
  const live = liveHeapLines(name, s.liveHeap);
  if (s.aiThreadsMbStart === null || s.aiThreadsMbAtPeak === null) return [line, ...live];
  return [`${line}; the AI threads' heaps ${s.aiThreadsMbStart} MB at the start, ${s.aiThreadsMbAtPeak} MB at the peak: ${kbPerTable(s, "without AI threads")} KB a table without them`, ...live];
}

function heapGrowthWords(growth: ServerFigures["heapGrowth"]): string {
  if (growth === null) return "";
  return growth === "v8" ? "; V8 chose how far the heap grew" : `; the heap let grow ${growth}% past what is live`;
}

/** What a table holds live, in KB: the heap the last major collection left above the heap before the load, over the tables open then (NaN when not known). */
export function liveKbPerTable(live: ServerFigures["liveHeap"]): number {
  return live === null ? NaN : Math.round(((live.mbAfterMajor - live.mbAtStart) * 1024) / live.rooms);
}

function liveHeapLines(name: string, live: ServerFigures["liveHeap"]): string[] {
  if (live === null) return [];
  return [`  ${name} live heap: ${live.mbAfterMajor} MB after its last major collection, with ${live.rooms} tables open (${live.mbAtStart} MB before the load): ${liveKbPerTable(live)} KB a table`];
}

/** The RSS peak above the start over the peak tables, in KB; NaN without tables, or without the threads' heaps when asked to leave them out. */
export function kbPerTable(s: ServerFigures, which: "all" | "without AI threads" = "all"): number {
  const threadsGrew = which === "all" ? 0 : s.aiThreadsMbAtPeak === null || s.aiThreadsMbStart === null ? NaN : s.aiThreadsMbAtPeak - s.aiThreadsMbStart;
  return s.roomsPeak === 0 ? NaN : Math.round(((s.rssMbPeak - s.rssMbStart - threadsGrew) * 1024) / s.roomsPeak);
}

function gcLines(name: string, gc: ServerFigures["steadyGarbageCollections"]): string[] {
  if (gc === null) return [];
  return [`  ${name} garbage collections after the ramp: ${gc.major} major (pauses ${gc.majorMs} ms in all, their marking before them not counted), ${gc.minor} minor (${gc.minorMs} ms)`];
}

const STALL_CAUSE_WORDS: Record<StallCause, string> = { majorGc: "from a major collection", minorGc: "from minor collections", noCore: "waiting for a core", work: "from the program's own work" };
/** The most stalls of one cause a report lists by their length. */
const STALLS_LISTED = 6;

/** The stalls after the ramp, by what held the loop, the longest of each cause listed. */
export function stallLines(name: string, figures: ServerFigures["steadyStalls"]): string[] {
  if (figures === null) return [];
  const { overMs, stalls } = figures;
  if (stalls.length === 0) return [`  ${name} stalls over ${overMs} ms after the ramp: none`];
  const byCause = STALL_CAUSES.map((cause) => {
    const lengths = stalls.filter((stall) => stall.cause === cause).map((stall) => stall.ms).sort((a, b) => b - a);
    const listed = lengths.slice(0, STALLS_LISTED).join(", ") + (lengths.length > STALLS_LISTED ? ", …" : "");
    return `${lengths.length} ${STALL_CAUSE_WORDS[cause]}${lengths.length > 0 ? ` (${listed} ms)` : ""}`;
  });
  return [`  ${name} stalls over ${overMs} ms after the ramp: ${stalls.length} — ${byCause.join(", ")}`];
}

/** The strong Tractor bots' decisions, when the room's bots made any (`--tractor-bots strong`). */
function tractorDecisionLines(name: string, decisions: ServerFigures["tractorAiDecisions"]): string[] {
  if (!decisions) return [];
  const { onThreads, inProcess, shrunk, abandoned } = decisions;
  if (onThreads + inProcess + shrunk + abandoned === 0) return [];
  return [`  ${name} Tractor AI: ${onThreads} decisions on its threads, ${inProcess} in-process, ${shrunk} the heuristic's at once (overload), ${abandoned} abandoned over the time limit`];
}

function budgetLines(name: string, use: AiBudgetUse | null): string[] {
  if (use === null) return [];
  const { full, reduced, least, atOnce } = use.budgets;
  if (full + reduced + least + atOnce === 0) return [];
  return [`  ${name} budgets: ${full} whole, ${reduced} reduced, ${least} least, ${atOnce} none (the fast move at once); waits p99 ${ms(use.waitMs.p99)}, max ${ms(use.waitMs.max)}`];
}

export function formatReport(report: LoadTestReport): string {
  const lines = ["", `cardhall load test — ${report.options.urls.join(", ")}: ${report.options.clients} clients, mix ${JSON.stringify(report.options.mix)}, think ${report.options.thinkMs} ms, ${report.options.workers} workers${report.options.nice ? ` at nice ${report.options.nice}` : ""}`];
  lines.push(...phaseLines("cardhall", report.cardhall));
  if (report.server) lines.push(...serverLines(report.processes.length > 1 ? `server (${report.processes.length} processes added up)` : "server", report.server));
  else lines.push("  server: /metrics.json not reachable, no CPU or memory figures");
  if (report.processes.length > 1) {
    for (const { url, figures } of report.processes) lines.push(...(figures ? serverLines(`process ${url}`, figures) : [`  process ${url}: /metrics.json not reachable`]));
  }
  if (report.baseline) lines.push(...phaseLines("ws echo baseline", report.baseline));
  if (report.ratio) lines.push(`overhead vs ws echo: p50 ×${report.ratio.p50.toFixed(2)}, p95 ×${report.ratio.p95.toFixed(2)}, p99 ×${report.ratio.p99.toFixed(2)}`);
  return lines.join("\n");
}
