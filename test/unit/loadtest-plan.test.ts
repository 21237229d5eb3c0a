import {
  addedUp,
  steadyStalls,
  eventLoopMaxBetween,
  kbPerTable,
  liveHeapBetween,
  liveKbPerTable,
  steadyGarbageCollections,
  steadyMainThreadBusy,
  steadyMsPerMove,
} from "../../bench/loadtest/server-figures";
import { generatorStallFigures } from "../../bench/loadtest/phase-figures";
import { stallLines, onceSeatedLines, memoryLines } from "../../bench/loadtest/report-text";
import type { PhaseResult, ServerFigures } from "../../bench/loadtest/report-shape";
import { dealToWorkers, planTables } from "../../bench/loadtest/plan";
import { machineLoadOver, type CpuTicks } from "../../bench/loadtest/machine-load";
import type { ServerMetrics, StallCause } from "../../server/telemetry/server-metrics";
import type { TablePlan } from "../../bench/loadtest/messages";

const EVEN_MIX = { evensteven: 1, fool: 1, patience: 1, tractor: 1 };

function countByGame(tables: readonly TablePlan[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table.game] = (counts[table.game] ?? 0) + 1;
  return counts;
}

test("the plan seats each game's share of the clients in whole tables, the games mixed along the ramp", () => {
  const tables = planTables(2000, EVEN_MIX);
  expect(countByGame(tables)).toEqual({ evensteven: 500, fool: 500, patience: 500, tractor: 125 });
  expect(tables.slice(0, 4).map((table) => table.game)).toEqual(["evensteven", "fool", "patience", "tractor"]);
});

const seatsOf = (tables: readonly TablePlan[]) => tables.reduce((sum, table) => sum + table.players, 0);

test.each([
  [40, EVEN_MIX],
  [1, { evensteven: 1 }],
  [7, EVEN_MIX],
  [24, EVEN_MIX],
  [101, { evensteven: 2, tractor: 1 }],
  [999, { fool: 1, patience: 3, tractor: 2 }],
  [4, { tractor: 1, fool: 1 }],
])("seats exactly the %i clients asked for (mix %j)", (clients, mix) => {
  expect(seatsOf(planTables(clients, mix))).toBe(clients);
});

test("40 clients of the even mix: three Tractor tables, the rest shared by the one-seat games", () => {
  expect(countByGame(planTables(40, EVEN_MIX))).toEqual({ evensteven: 10, fool: 9, patience: 9, tractor: 3 });
});

test("refuses a count that tables of four seats alone cannot seat", () => {
  expect(() => planTables(10, { tractor: 1 })).toThrow(
    "10 clients cannot all be seated: the mix has only tables of 4 (tractor) seats",
  );
  expect(seatsOf(planTables(12, { tractor: 1 }))).toBe(12);
});

test.each([1, 2, 3, 4, 5, 8])(
  "dealt to %i workers, every table goes to one worker and each gets an even share of every game",
  (workers) => {
    const tables = planTables(2000, EVEN_MIX);
    const shares = dealToWorkers(tables, workers);
    expect(shares).toHaveLength(workers);
    expect(shares.flat()).toHaveLength(tables.length);
    for (const game of Object.keys(EVEN_MIX)) {
      const perWorker = shares.map((share) => countByGame(share)[game] ?? 0);
      expect(Math.max(...perWorker) - Math.min(...perWorker)).toBeLessThanOrEqual(1);
    }
    // Each worker's own ramp still opens the games in turn.
    for (const share of shares) expect(new Set(share.slice(0, 4).map((table) => table.game)).size).toBe(4);
  },
);

test("odd tables of several games spread over the workers instead of piling on the first", () => {
  const tables = planTables(4 + 1 + 1 + 4, EVEN_MIX); // a few tables of each game
  const shares = dealToWorkers(tables, 4);
  const sizes = shares.map((share) => share.length);
  expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
});

describe("the machine's load", () => {
  /** Counters a second apart, each second 100 ticks split as given. */
  function readings(seconds: Array<{ busy: number; steal: number }>): CpuTicks[] {
    const ticks: CpuTicks[] = [{ busy: 1000, idle: 5000, steal: 50 }];
    for (const { busy, steal } of seconds) {
      const last = ticks[ticks.length - 1]!;
      ticks.push({ busy: last.busy + busy, steal: last.steal + steal, idle: last.idle + 100 - busy - steal });
    }
    return ticks;
  }

  it("gives the shares over the whole window and the worst second of theft, which the average hides", () => {
    const load = machineLoadOver(
      readings([
        { busy: 60, steal: 0 },
        { busy: 50, steal: 30 },
        { busy: 60, steal: 2 },
        { busy: 70, steal: 12 },
      ]),
    );
    expect(load).toEqual({ busyPercent: 60, stealPercent: 11, stealWorstSecondPercent: 30, stealBurstSeconds: 2 });
  });

  it("is unknown without counters to read", () => {
    expect(machineLoadOver([null, null])).toBeNull();
    expect(machineLoadOver(readings([]))).toBeNull();
  });
});

test("several addresses: the tables matchmake through each in turn, every game's tables shared among them", () => {
  const urls = ["ws://127.0.0.1:1", "ws://127.0.0.1:2"];
  const tables = planTables(400, EVEN_MIX, urls);
  expect(tables.slice(0, 4).map((table) => table.url)).toEqual([urls[0], urls[1], urls[0], urls[1]]); // the ramp alternates
  for (const url of urls) {
    const through = countByGame(tables.filter((table) => table.url === url));
    for (const [game, count] of Object.entries(countByGame(tables)))
      expect(Math.abs(through[game] * 2 - count)).toBeLessThanOrEqual(1);
  }
});

test("with the room's bots in two Tractor seats, a Tractor table seats two scripted players", () => {
  expect(countByGame(planTables(12, { tractor: 1 }, [""], "strong"))).toEqual({ tractor: 6 });
  expect(planTables(12, { tractor: 1 }, [""], "strong").every((table) => table.players === 2)).toBe(true);
  expect(() => planTables(11, { tractor: 1 }, [""], "strong")).toThrow(
    "11 clients cannot all be seated: the mix has only tables of 2 (tractor) seats",
  );
  expect(seatsOf(planTables(40, EVEN_MIX, [""], "normal"))).toBe(40);
});

test("several processes' figures add up to one server's: CPU, memory, rooms, clients, collections, refused joins and AI budgets summed, the worst lag, wait and main thread", () => {
  const figures = (cpu: number, lag: number, joinsRefusedBusy: number | null = cpu / 10): ServerFigures => ({
    cpuPercent: cpu,
    cpuMsPerMove: cpu / 100,
    steadyCpuMsPerMove: cpu / 200,
    steadyMainThreadBusyPercent: cpu * 2,
    steadyGarbageCollections: { major: 1, majorMs: lag, minor: cpu, minorMs: 2 * cpu },
    steadyStalls: { overMs: 50, stalls: [{ at: cpu * 1000, ms: lag * 100, cause: "majorGc" }] },
    joinsRefusedBusy,
    rssMbStart: 100,
    rssMbPeak: 150,
    aiThreadsMbStart: 0,
    aiThreadsMbAtPeak: lag * 10,
    heapMbEnd: 50,
    liveHeap: { mbAtStart: 40, mbAfterMajor: 40 + cpu, rooms: 10 },
    heapGrowth: 50,
    roomsPeak: 10,
    clientsPeak: 20,
    eventLoopLagMs: { p50: lag, p99: lag * 2, max: lag * 3 },
    eventLoopMaxBeforeTeardownMs: lag * 2.5,
    eventLoopMaxOnceSeatedMs: lag * 1.5,
    foolAiDecisions: { immediate: 1, onThreads: 2, inProcess: 0, abandoned: 0 },
    aiBudgets: {
      fool: { budgets: { full: cpu, reduced: 1, least: 0, atOnce: 0 }, waitMs: { p99: lag, max: lag * 5 } },
      tractor: null,
    },
  });
  expect(addedUp([figures(30, 1), figures(10, 4)])).toEqual({
    cpuPercent: 40,
    cpuMsPerMove: 0.4,
    steadyCpuMsPerMove: 0.2,
    steadyMainThreadBusyPercent: 60,
    steadyGarbageCollections: { major: 2, majorMs: 5, minor: 40, minorMs: 80 },
    steadyStalls: {
      overMs: 50,
      stalls: [
        { at: 10_000, ms: 400, cause: "majorGc" },
        { at: 30_000, ms: 100, cause: "majorGc" },
      ],
    },
    joinsRefusedBusy: 4,
    rssMbStart: 200,
    rssMbPeak: 300,
    aiThreadsMbStart: 0,
    aiThreadsMbAtPeak: 50,
    heapMbEnd: 100,
    liveHeap: { mbAtStart: 80, mbAfterMajor: 120, rooms: 20 },
    heapGrowth: 50,
    roomsPeak: 20,
    clientsPeak: 40,
    eventLoopLagMs: { p50: 4, p99: 8, max: 12 },
    eventLoopMaxBeforeTeardownMs: 10,
    eventLoopMaxOnceSeatedMs: 6,
    foolAiDecisions: { immediate: 2, onThreads: 4, inProcess: 0, abandoned: 0 },
    aiBudgets: {
      fool: { budgets: { full: 40, reduced: 2, least: 0, atOnce: 0 }, waitMs: { p99: 4, max: 20 } },
      tractor: null,
    },
  });
  // A process without the guard says nothing of refusals, and neither do the processes together.
  expect(addedUp([figures(30, 1), figures(10, 4, null)])?.joinsRefusedBusy).toBeNull();
  // Nor of its AI threads' heaps.
  expect(
    addedUp([figures(30, 1), { ...figures(10, 4), aiThreadsMbStart: null, aiThreadsMbAtPeak: null }]),
  ).toMatchObject({ aiThreadsMbStart: null, aiThreadsMbAtPeak: null });
  // Nor of its stalls (a server from before they were reported).
  expect(addedUp([figures(30, 1), { ...figures(10, 4), steadyStalls: null }])?.steadyStalls).toBeNull();
  // Nor of its live heap (no major collection fell in its window).
  expect(addedUp([figures(30, 1), { ...figures(10, 4), liveHeap: null }])?.liveHeap).toBeNull();
  // Nor of how far its heap grows, when the processes were set apart.
  expect(addedUp([figures(30, 1), { ...figures(10, 4), heapGrowth: "v8" }])?.heapGrowth).toBeNull();
  expect(addedUp([])).toBeNull();
});

test("the memory a table took is said with and without what the AI threads' heaps grew by", () => {
  const figures = {
    rssMbStart: 150,
    rssMbPeak: 350,
    roomsPeak: 2_000,
    liveHeap: null,
    heapGrowth: null,
  } as ServerFigures;
  expect(memoryLines("server", { ...figures, aiThreadsMbStart: 10, aiThreadsMbAtPeak: 50 })).toEqual([
    "  server memory: 102 KB a table (peak RSS above the start, over the peak tables); the AI threads' heaps 10 MB at the start, 50 MB at the peak: 82 KB a table without them",
  ]);
  // A server that does not report its threads: the one figure.
  expect(memoryLines("server", { ...figures, aiThreadsMbStart: null, aiThreadsMbAtPeak: null })).toEqual([
    "  server memory: 102 KB a table (peak RSS above the start, over the peak tables)",
  ]);
  expect(memoryLines("server", { ...figures, roomsPeak: 0, aiThreadsMbStart: null, aiThreadsMbAtPeak: null })).toEqual(
    [],
  );
  // How far the server let its heap grow past what is live, which the RSS follows.
  expect(
    memoryLines("server", { ...figures, heapGrowth: 50, aiThreadsMbStart: null, aiThreadsMbAtPeak: null }),
  ).toEqual([
    "  server memory: 102 KB a table (peak RSS above the start, over the peak tables; the heap let grow 50% past what is live)",
  ]);
  expect(
    memoryLines("server", { ...figures, heapGrowth: "v8", aiThreadsMbStart: null, aiThreadsMbAtPeak: null }),
  ).toEqual([
    "  server memory: 102 KB a table (peak RSS above the start, over the peak tables; V8 chose how far the heap grew)",
  ]);
  // bench:compare's figures are the same.
  expect(kbPerTable({ ...figures, aiThreadsMbStart: 10, aiThreadsMbAtPeak: 50 })).toBe(102);
  expect(kbPerTable({ ...figures, aiThreadsMbStart: 10, aiThreadsMbAtPeak: 50 }, "without AI threads")).toBe(82);
  expect(kbPerTable({ ...figures, aiThreadsMbStart: null, aiThreadsMbAtPeak: null }, "without AI threads")).toBeNaN();
});

test("the live heap a table holds is what the last major collection before the window's end left, over the tables open then", () => {
  const sample = (
    uptimeSeconds: number,
    major: number,
    lastMajor: { heapBytes: number; rooms: number } | null,
    heapUsedBytes = 90 * 1048576,
  ) =>
    ({
      uptimeSeconds,
      heapUsedBytes,
      garbageCollections: { major, majorMs: 0, minor: 0, minorMs: 0, lastMajor },
    }) as ServerMetrics;
  const MB = 1048576;
  const samples = [
    sample(10, 2, { heapBytes: 40 * MB, rooms: 0 }),
    sample(20, 3, { heapBytes: 140 * MB, rooms: 1_000 }),
    sample(30, 4, { heapBytes: 240 * MB, rooms: 2_000 }),
    sample(40, 5, { heapBytes: 60 * MB, rooms: 10 }),
  ];
  // The window ends at 35 s: the collection the teardown brought (at 40 s) is not the tables'.
  expect(liveHeapBetween(samples, 35_000)).toEqual({ mbAtStart: 40, mbAfterMajor: 240, rooms: 2_000 });
  expect(
    memoryLines("server", {
      rssMbStart: 150,
      rssMbPeak: 750,
      roomsPeak: 2_000,
      aiThreadsMbStart: null,
      aiThreadsMbAtPeak: null,
      liveHeap: liveHeapBetween(samples, 35_000),
      heapGrowth: null,
    } as ServerFigures),
  ).toEqual([
    "  server memory: 307 KB a table (peak RSS above the start, over the peak tables)",
    "  server live heap: 240 MB after its last major collection, with 2000 tables open (40 MB before the load): 102 KB a table",
  ]);
  // bench:compare's figure is the same.
  expect(liveKbPerTable(liveHeapBetween(samples, 35_000))).toBe(102);
  expect(liveKbPerTable(null)).toBeNaN();
  // No major collection since the first sample: nothing to say. A server that had none before the load: its heap then.
  expect(liveHeapBetween([samples[1]!, { ...samples[1]!, uptimeSeconds: 25 }], 35_000)).toBeNull();
  expect(liveHeapBetween([sample(10, 0, null, 50 * MB), samples[2]!], 35_000)).toEqual({
    mbAtStart: 50,
    mbAfterMajor: 240,
    rooms: 2_000,
  });
  // A server that does not say.
  expect(
    liveHeapBetween([{ uptimeSeconds: 10 } as ServerMetrics, { uptimeSeconds: 20 } as ServerMetrics], 35_000),
  ).toBeNull();
});

test("the event loop's longest delay once every client sat reads the server's seconds that began then, each counted once", () => {
  // The server's seconds end at 1,001 … 1,010 s (one stalled second ends late, at 1,007.4 s); each has its longest delay.
  const ends = [
    1_001_000, 1_002_000, 1_003_000, 1_004_000, 1_005_000, 1_006_000, 1_007_400, 1_008_000, 1_009_000, 1_010_000,
  ];
  const maxima = [400, 300, 5, 8, 6, 12, 90, 7, 9, 450];
  const seconds = ends.map((at, index) => ({ at, maxMs: maxima[index]! }));
  // Samples each second repeat the last minute's seconds, as the server gives them.
  const samples = ends.map(
    (at, index) => ({ uptimeSeconds: at / 1000, eventLoopMaxBySecond: seconds.slice(0, index + 1) }) as ServerMetrics,
  );
  expect(eventLoopMaxBetween(samples, 1_002_000, 1_009_000)).toBe(90); // not the joins' seconds before, nor the teardown's after
  expect(eventLoopMaxBetween(samples, 1_006_500, 1_009_000)).toBe(9); // the stalled second began before: it is not counted
  expect(eventLoopMaxBetween(samples, 1_002_500, 1_003_000)).toBeNaN(); // no whole second in the window
  expect(eventLoopMaxBetween([{ uptimeSeconds: 1000 } as ServerMetrics], 0, 2_000_000)).toBeNaN(); // a server that does not say
});

test("the moves once every client sat are said apart when the last join came after the ramp, and a window no one saw seated is said", () => {
  const latency = { count: 90, mean: 12, p50: 10, p95: 30, p99: 40, max: 55 };
  const steady = { fromMs: 1_010_000, untilMs: 1_030_000, moves: 100 };
  const phase = (lastJoinMs: number | null): PhaseResult =>
    ({
      steady,
      lastJoinMs,
      onceSeated:
        lastJoinMs !== null && lastJoinMs < steady.untilMs
          ? { fromMs: lastJoinMs, latency, latencyByGame: { fool: latency } }
          : null,
    }) as PhaseResult;
  expect(onceSeatedLines(phase(1_014_500))).toEqual([
    "  once every client sat (the last join 4.5 s after the ramp, 15.5 s of the window left): 90 moves, p50 10.00 ms, p99 40.00 ms, max 55.00 ms",
    "    by game: fool 90 moves p50 10.00 ms p99 40.00 ms",
  ]);
  expect(onceSeatedLines(phase(1_009_000))).toEqual([]); // every client sat in the ramp: the window's figures are theirs
  expect(onceSeatedLines(phase(1_038_000))).toEqual([
    "  once every client sat: never in the window (the last join 8.0 s after its end)",
  ]);
  expect(onceSeatedLines(phase(null))).toEqual([]); // the echo baseline: no join
});

test("the server's CPU per move after the ramp counts only the samples inside the steady window", () => {
  // A server that spends 100 ms of CPU each second for ten seconds; the steady window is its last five seconds.
  const samples = Array.from(
    { length: 11 },
    (_, second) =>
      ({ uptimeSeconds: 1000 + second, cpuUserMicros: second * 100_000, cpuSystemMicros: 0 }) as ServerMetrics,
  );
  const window = { fromMs: 1_005_000, untilMs: 1_010_000, moves: 50 };
  expect(steadyMsPerMove(samples, window)).toBe(10); // 0.5 s of CPU for 50 moves
  // Samples covering only part of the window count that part's share of its moves: 0.2 s for 20 moves.
  expect(steadyMsPerMove(samples.slice(0, 8), window)).toBe(10);
  expect(steadyMsPerMove(samples.slice(0, 6), window)).toBeNaN(); // one sample inside: nothing to tell
});

test("the main thread's busy share after the ramp is its running time over its time inside the steady window", () => {
  // A main thread running 300 ms of each second for five seconds, then 900 ms of each: the window is the last five.
  const samples = Array.from({ length: 11 }, (_, second) => {
    const active = second <= 5 ? second * 300 : 1500 + (second - 5) * 900;
    return { uptimeSeconds: 1000 + second, mainThreadMs: { active, idle: second * 1000 - active } } as ServerMetrics;
  });
  const window = { fromMs: 1_005_000, untilMs: 1_010_000, moves: 50 };
  expect(steadyMainThreadBusy(samples, window)).toBe(90);
  expect(steadyMainThreadBusy(samples.slice(0, 6), window)).toBeNaN(); // one sample inside: nothing to tell
  // A server from before the figure was reported says nothing.
  expect(
    steadyMainThreadBusy(
      samples.map(({ uptimeSeconds }) => ({ uptimeSeconds }) as ServerMetrics),
      window,
    ),
  ).toBeNaN();
});

test("the garbage collections after the ramp are those counted between the first and the last sample inside the steady window", () => {
  // A collection of each kind every second, the major ones 30 ms each, the minor 2 ms: the window is the last five seconds.
  const samples = Array.from(
    { length: 11 },
    (_, second) =>
      ({
        uptimeSeconds: 1000 + second,
        garbageCollections: { major: second, majorMs: second * 30, minor: second * 10, minorMs: second * 20 },
      }) as ServerMetrics,
  );
  const window = { fromMs: 1_005_000, untilMs: 1_010_000, moves: 50 };
  expect(steadyGarbageCollections(samples, window)).toEqual({ major: 5, majorMs: 150, minor: 50, minorMs: 100 });
  expect(steadyGarbageCollections(samples.slice(0, 6), window)).toBeNull(); // one sample inside: nothing to tell
  // A server from before the figure was reported says nothing.
  expect(
    steadyGarbageCollections(
      samples.map(({ uptimeSeconds }) => ({ uptimeSeconds }) as ServerMetrics),
      window,
    ),
  ).toBeNull();
});

test("the stalls after the ramp are those that ended inside the steady window, each counted once, said by what held the loop", () => {
  const stall = (at: number, ms: number, cause: StallCause) => ({ at, ms, cause });
  const joins = stall(1_003_000, 180, "work"); // in the ramp
  const marking = stall(1_006_000, 328, "majorGc");
  const scavenges = stall(1_007_000, 62, "minorGc");
  const teardown = stall(1_011_000, 900, "work"); // after the window
  // Each sample lists the last few stalls, as the server gives them: the same stall in several samples.
  const byCause = {
    majorGc: { count: 1, totalMs: 328, longestMs: 328 },
    minorGc: { count: 1, totalMs: 62, longestMs: 62 },
    noCore: { count: 0, totalMs: 0, longestMs: 0 },
    work: { count: 2, totalMs: 1080, longestMs: 900 },
  };
  const sample = (second: number, recent: ReturnType<typeof stall>[]) =>
    ({ uptimeSeconds: 1000 + second, eventLoopStalls: { overMs: 50, byCause, recent } }) as ServerMetrics;
  const samples = [
    sample(4, [joins]),
    sample(6, [joins, marking]),
    sample(8, [joins, marking, scavenges]),
    sample(12, [marking, scavenges, teardown]),
  ];
  const window = { fromMs: 1_005_000, untilMs: 1_010_000, moves: 50 };
  const figures = steadyStalls(samples, window);
  expect(figures).toEqual({ overMs: 50, stalls: [marking, scavenges] });
  expect(stallLines("server", figures)).toEqual([
    "  server stalls over 50 ms after the ramp: 2 — 1 from a major collection (328 ms), 1 from minor collections (62 ms), 0 waiting for a core, 0 from the program's own work",
  ]);
  expect(stallLines("server", { overMs: 50, stalls: [] })).toEqual(["  server stalls over 50 ms after the ramp: none"]);
  // Many of one cause: the longest few, in order.
  const many = [410, 120, 380, 95, 300, 77, 260].map((ms, index) => stall(1_005_100 + index, ms, "majorGc"));
  expect(stallLines("server", { overMs: 50, stalls: many })).toEqual([
    "  server stalls over 50 ms after the ramp: 7 — 7 from a major collection (410, 380, 300, 260, 120, 95, … ms), 0 from minor collections, 0 waiting for a core, 0 from the program's own work",
  ]);
  // A server from before they were reported says nothing.
  expect(
    steadyStalls(
      samples.map(({ uptimeSeconds }) => ({ uptimeSeconds }) as ServerMetrics),
      window,
    ),
  ).toBeNull();
  expect(stallLines("server", null)).toEqual([]);
});

test("the moves a worker read while it stalled itself are counted apart, and the others' latencies said without them", () => {
  const noCause = {
    majorGc: { count: 0, totalMs: 0, longestMs: 0 },
    minorGc: { count: 0, totalMs: 0, longestMs: 0 },
    noCore: { count: 0, totalMs: 0, longestMs: 0 },
    work: { count: 0, totalMs: 0, longestMs: 0 },
  };
  const starved = { at: 1_006_300, ms: 250, cause: "noCore" as const }; // the worker waited 1_006_050 to 1_006_300
  const teardown = { at: 1_011_000, ms: 400, cause: "work" as const }; // after the window: not listed
  const first = {
    stalls: { overMs: 50, byCause: noCause, recent: [starved, teardown] },
    // Sent at 1_006_000: read at 1_006_280 (in the stall), 1_006_315 (within a tick after it), 1_006_400 (after).
    latencies: { fool: [280, 315, 400], evensteven: [2] },
    latencySentAt: { fool: [1_006_000, 1_006_000, 1_006_000], evensteven: [1_006_100] },
  };
  // Another worker's move read at the same moment: that worker did not stall, so the move is its own measure.
  const second = {
    stalls: { overMs: 50, byCause: noCause, recent: [] },
    latencies: { fool: [290] },
    latencySentAt: { fool: [1_005_990] },
  };
  const figures = generatorStallFigures([first, second], { fromMs: 1_005_000, untilMs: 1_010_000 });
  expect(figures.stalls).toEqual([starved]);
  expect(figures.movesInThem).toBe(3);
  expect(figures.others).toMatchObject({ count: 2, max: 400 });
  expect(figures.othersByGame).toEqual({
    evensteven: expect.objectContaining({ count: 0 }),
    fool: expect.objectContaining({ count: 2, max: 400 }),
  });
});
