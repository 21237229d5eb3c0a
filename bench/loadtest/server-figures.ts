/** The server's figures from its samples: CPU per move, the steady window's collections and stalls, memory per table; several processes added up. */
import type { AiBudgetUse, ServerMetrics } from "../../server/telemetry/server-metrics";
import { perMoveMs } from "./phase-figures";
import type { PhaseResult, ServerFigures, StallList } from "./report-shape";

/** The server's samples taken inside the steady window (the sampler stamps each with the wall clock). */
function steadySamples(samples: ServerMetrics[], steady: PhaseResult["steady"]): ServerMetrics[] {
  return samples.filter(
    (sample) => sample.uptimeSeconds * 1000 >= steady.fromMs && sample.uptimeSeconds * 1000 <= steady.untilMs,
  );
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
export function steadyGarbageCollections(
  samples: ServerMetrics[],
  steady: PhaseResult["steady"],
): ServerFigures["steadyGarbageCollections"] {
  const within = steadySamples(samples, steady).filter((sample) => sample.garbageCollections !== undefined);
  if (within.length < 2) return null;
  const [first, last] = [within[0].garbageCollections!, within[within.length - 1].garbageCollections!];
  return {
    major: last.major - first.major,
    majorMs: last.majorMs - first.majorMs,
    minor: last.minor - first.minor,
    minorMs: last.minorMs - first.minorMs,
  };
}

/** The server's stalls that ended in the steady window (see ServerFigures): each sample lists the last few, so a stall is in several. */
export function steadyStalls(
  samples: readonly ServerMetrics[],
  steady: PhaseResult["steady"],
): ServerFigures["steadyStalls"] {
  const reporting = samples.filter((sample) => sample.eventLoopStalls !== undefined);
  if (reporting.length === 0) return null;
  const seen = new Map<string, StallList[number]>();
  for (const sample of reporting)
    for (const stall of sample.eventLoopStalls!.recent) seen.set(`${stall.at}/${stall.ms}`, stall);
  const stalls = [...seen.values()]
    .filter((stall) => stall.at >= steady.fromMs && stall.at <= steady.untilMs)
    .sort((a, b) => a.at - b.at);
  return { overMs: reporting[0]!.eventLoopStalls!.overMs, stalls };
}

const maxOrNaN = (values: readonly number[]) => (values.length === 0 ? NaN : Math.max(...values));

/** The longest event-loop delay of the server's seconds that began at `fromMs` or later and ended by `untilMs`. */
export function eventLoopMaxBetween(samples: readonly ServerMetrics[], fromMs: number, untilMs: number): number {
  const seconds = new Map<number, number>(); // each sample repeats the last minute: a second counted once
  for (const sample of samples)
    for (const second of sample.eventLoopMaxBySecond ?? []) seconds.set(second.at, second.maxMs);
  const ends = [...seconds.keys()].sort((a, b) => a - b);
  // A second began where the one before it ended (a stall makes it longer than a second).
  const within = ends.filter((at, index) => (index > 0 ? ends[index - 1]! : at - 1000) >= fromMs && at <= untilMs);
  return maxOrNaN(within.map((at) => seconds.get(at)!));
}

/** Bytes in MB, to a tenth. */
const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

export function serverFigures(
  samples: ServerMetrics[],
  moves: number,
  steady: PhaseResult["steady"],
  seatedAt: number | null,
): ServerFigures | null {
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
    eventLoopMaxBeforeTeardownMs: maxOrNaN(
      samples
        .filter((sample) => sample.uptimeSeconds * 1000 <= steady.untilMs)
        .map((sample) => sample.eventLoopLagMs.max),
    ),
    eventLoopMaxOnceSeatedMs: seatedAt === null ? NaN : eventLoopMaxBetween(samples, seatedAt, steady.untilMs),
    foolAiDecisions: decisionsBetween(first.foolAiDecisions, last.foolAiDecisions),
    tractorAiDecisions: decisionsBetween(first.tractorAiDecisions, last.tractorAiDecisions),
    aiBudgets: {
      fool: budgetsBetween(first.foolAiBudgets, last.foolAiBudgets),
      tractor: budgetsBetween(first.tractorAiBudgets, last.tractorAiBudgets),
    },
  };
}

/** The live heap the samples up to `untilMs` tell (see ServerFigures). */
export function liveHeapBetween(samples: readonly ServerMetrics[], untilMs: number): ServerFigures["liveHeap"] {
  const first = samples[0]?.garbageCollections;
  const last = samples.filter((sample) => sample.uptimeSeconds * 1000 <= untilMs).at(-1)?.garbageCollections;
  const afterMajor = last?.lastMajor;
  if (!first || !last || !afterMajor || last.major === first.major || afterMajor.rooms === 0) return null;
  return {
    mbAtStart: mb(first.lastMajor?.heapBytes ?? samples[0]!.heapUsedBytes),
    mbAfterMajor: mb(afterMajor.heapBytes),
    rooms: afterMajor.rooms,
  };
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
  return {
    budgets: { full: between("full"), reduced: between("reduced"), least: between("least"), atOnce: between("atOnce") },
    waitMs: last.waitMs,
  };
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
  const sum = (pick: (heap: NonNullable<ServerFigures["liveHeap"]>) => number) =>
    Math.round(all.reduce((total, heap) => total + pick(heap), 0) * 10) / 10;
  return { mbAtStart: sum((h) => h.mbAtStart), mbAfterMajor: sum((h) => h.mbAfterMajor), rooms: sum((h) => h.rooms) };
}

/** Several processes' collections added up (each process has its own heap). */
function collectionsAddedUp(
  counts: ReadonlyArray<ServerFigures["steadyGarbageCollections"]>,
): ServerFigures["steadyGarbageCollections"] {
  const all = everyOneSays(counts);
  if (all === null) return null;
  const sum = (pick: (count: NonNullable<ServerFigures["steadyGarbageCollections"]>) => number) =>
    all.reduce((total, count) => total + pick(count), 0);
  return {
    major: sum((c) => c.major),
    majorMs: sum((c) => c.majorMs),
    minor: sum((c) => c.minor),
    minorMs: sum((c) => c.minorMs),
  };
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
  const sum = (pick: (f: ServerFigures) => number) =>
    Math.round(figures.reduce((total, f) => total + pick(f), 0) * 1000) / 1000;
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
    aiBudgets: {
      fool: budgetsAddedUp(figures.map((f) => f.aiBudgets.fool)),
      tractor: budgetsAddedUp(figures.map((f) => f.aiBudgets.tractor)),
    },
  };
}

/** Counts made during the phase: each of the last sample's counts less the first's. */
function decisionsBetween<T extends Record<string, number>>(first: T | undefined, last: T | undefined): T | null {
  if (!first || !last) return null;
  return Object.fromEntries(Object.keys(last).map((key) => [key, last[key] - (first[key] ?? 0)])) as T;
}

/** What a table holds live, in KB: the heap the last major collection left above the heap before the load, over the tables open then (NaN when not known). */
export function liveKbPerTable(live: ServerFigures["liveHeap"]): number {
  return live === null ? NaN : Math.round(((live.mbAfterMajor - live.mbAtStart) * 1024) / live.rooms);
}

/** The RSS peak above the start over the peak tables, in KB; NaN without tables, or without the threads' heaps when asked to leave them out. */
export function kbPerTable(s: ServerFigures, which: "all" | "without AI threads" = "all"): number {
  const threadsGrew =
    which === "all"
      ? 0
      : s.aiThreadsMbAtPeak === null || s.aiThreadsMbStart === null
        ? NaN
        : s.aiThreadsMbAtPeak - s.aiThreadsMbStart;
  return s.roomsPeak === 0 ? NaN : Math.round(((s.rssMbPeak - s.rssMbStart - threadsGrew) * 1024) / s.roomsPeak);
}
