/** The load test's report as text: each phase, the server's figures (each process's too), the overhead over the baseline. */
import { STALL_CAUSES, type AiBudgetUse, type StallCause } from "../../server/telemetry/server-metrics";
import { STEAL_BURST_PERCENT } from "./machine-load";
import type { GeneratorStalls, LoadTestReport, PhaseResult, ServerFigures } from "./report-shape";
import { kbPerTable, liveKbPerTable } from "./server-figures";

/** What the load generator's own stalls added to the latencies. */
function generatorStallLines(figures: GeneratorStalls): string[] {
  const { movesInThem, others } = figures;
  return [
    ...stallLines("load generator", figures),
    `  moves read while their own worker stalled: ${movesInThem} of ${movesInThem + others.count}; the others p50 ${ms(others.p50)}, p99 ${ms(others.p99)}, max ${ms(others.max)}`,
    `    the others by game: ${byGameLine(figures.othersByGame)}`,
  ];
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
    return [
      `  once every client sat: never in the window (the last join ${((phase.lastJoinMs - phase.steady.untilMs) / 1000).toFixed(1)} s after its end)`,
    ];
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
    ...(s.joinsRefusedBusy === null
      ? []
      : [`  ${name} refused ${s.joinsRefusedBusy} joins at capacity (its main thread busy past BUSY_REFUSE_AT)`]),
    ...(ai
      ? [
          `  ${name} Fool AI: ${ai.immediate} decisions made at once (nothing to weigh), ${ai.onThreads} on its threads, ${ai.inProcess} in-process, ${ai.abandoned} abandoned over the time limit`,
        ]
      : []),
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
  return [
    `${line}; the AI threads' heaps ${s.aiThreadsMbStart} MB at the start, ${s.aiThreadsMbAtPeak} MB at the peak: ${kbPerTable(s, "without AI threads")} KB a table without them`,
    ...live,
  ];
}

function heapGrowthWords(growth: ServerFigures["heapGrowth"]): string {
  if (growth === null) return "";
  return growth === "v8" ? "; V8 chose how far the heap grew" : `; the heap let grow ${growth}% past what is live`;
}

function liveHeapLines(name: string, live: ServerFigures["liveHeap"]): string[] {
  if (live === null) return [];
  return [
    `  ${name} live heap: ${live.mbAfterMajor} MB after its last major collection, with ${live.rooms} tables open (${live.mbAtStart} MB before the load): ${liveKbPerTable(live)} KB a table`,
  ];
}

function gcLines(name: string, gc: ServerFigures["steadyGarbageCollections"]): string[] {
  if (gc === null) return [];
  return [
    `  ${name} garbage collections after the ramp: ${gc.major} major (pauses ${gc.majorMs} ms in all, their marking before them not counted), ${gc.minor} minor (${gc.minorMs} ms)`,
  ];
}

const STALL_CAUSE_WORDS: Record<StallCause, string> = {
  majorGc: "from a major collection",
  minorGc: "from minor collections",
  noCore: "waiting for a core",
  work: "from the program's own work",
};
/** The most stalls of one cause a report lists by their length. */
const STALLS_LISTED = 6;

/** The stalls after the ramp, by what held the loop, the longest of each cause listed. */
export function stallLines(name: string, figures: ServerFigures["steadyStalls"]): string[] {
  if (figures === null) return [];
  const { overMs, stalls } = figures;
  if (stalls.length === 0) return [`  ${name} stalls over ${overMs} ms after the ramp: none`];
  const byCause = STALL_CAUSES.map((cause) => {
    const lengths = stalls
      .filter((stall) => stall.cause === cause)
      .map((stall) => stall.ms)
      .sort((a, b) => b - a);
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
  return [
    `  ${name} Tractor AI: ${onThreads} decisions on its threads, ${inProcess} in-process, ${shrunk} the heuristic's at once (overload), ${abandoned} abandoned over the time limit`,
  ];
}

function budgetLines(name: string, use: AiBudgetUse | null): string[] {
  if (use === null) return [];
  const { full, reduced, least, atOnce } = use.budgets;
  if (full + reduced + least + atOnce === 0) return [];
  return [
    `  ${name} budgets: ${full} whole, ${reduced} reduced, ${least} least, ${atOnce} none (the fast move at once); waits p99 ${ms(use.waitMs.p99)}, max ${ms(use.waitMs.max)}`,
  ];
}

export function formatReport(report: LoadTestReport): string {
  const lines = [
    "",
    `cardhall load test — ${report.options.urls.join(", ")}: ${report.options.clients} clients, mix ${JSON.stringify(report.options.mix)}, think ${report.options.thinkMs} ms, ${report.options.workers} workers${report.options.nice ? ` at nice ${report.options.nice}` : ""}`,
  ];
  lines.push(...phaseLines("cardhall", report.cardhall));
  if (report.server)
    lines.push(
      ...serverLines(
        report.processes.length > 1 ? `server (${report.processes.length} processes added up)` : "server",
        report.server,
      ),
    );
  else lines.push("  server: /metrics.json not reachable, no CPU or memory figures");
  if (report.processes.length > 1) {
    for (const { url, figures } of report.processes)
      lines.push(
        ...(figures ? serverLines(`process ${url}`, figures) : [`  process ${url}: /metrics.json not reachable`]),
      );
  }
  if (report.baseline) lines.push(...phaseLines("ws echo baseline", report.baseline));
  if (report.ratio)
    lines.push(
      `overhead vs ws echo: p50 ×${report.ratio.p50.toFixed(2)}, p95 ×${report.ratio.p95.toFixed(2)}, p99 ×${report.ratio.p99.toFixed(2)}`,
    );
  return lines.join("\n");
}
