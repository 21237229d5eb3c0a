import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { LoadTestReport, PhaseResult } from "../../bench/loadtest/report-shape";
import { freePort, ServerProcess } from "./server-process";
import { scratchDirectory } from "../setup/scratch";

/** How far apart the server's two event-loop samplers may see one delay: their resolution (server/app.ts). */
const SAMPLERS_APART_MS = 10;

let server: ServerProcess;
const ROOT = path.resolve(__dirname, "..", "..");

beforeAll(async () => {
  // One client in two gets state checks: every one it receives must pass (a failed one counts as a desync).
  server = new ServerProcess(await freePort(), { STATE_CHECK_EVERY: "2" });
  await server.start();
});
afterAll(() => server.stop());

function expectConsistent(phase: PhaseResult, clients: number): void {
  expect(phase.counters.joined).toBe(clients);
  expect(phase.counters.failed).toBe(0);
  expect(phase.counters.connected).toBe(0); // everyone left at the end
  expect(phase.counters.moves).toBeGreaterThan(0);
  expect(phase.counters.desyncs).toBe(0);
  // Latencies count the moves sent after the ramp; every move is counted.
  expect(phase.latency.count).toBeGreaterThan(0);
  expect(phase.latency.count).toBeLessThanOrEqual(phase.counters.moves);
  expect(phase.latency.p50).toBeLessThanOrEqual(phase.latency.p95);
  expect(phase.latency.p95).toBeLessThanOrEqual(phase.latency.p99);
  expect(phase.latency.p99).toBeLessThanOrEqual(phase.latency.max);
  expect(phase.movesPerSecond).toBeGreaterThan(0);
  // Every game of the mix reports its own figures, and together they are all the latencies.
  const byGame = Object.values(phase.latencyByGame);
  expect(Object.keys(phase.latencyByGame).sort()).toEqual(["evensteven", "fool", "patience", "tractor"]);
  expect(byGame.reduce((sum, game) => sum + game.count, 0)).toBe(phase.latency.count);
  expect(Math.max(...byGame.map((game) => game.max))).toBe(phase.latency.max);
  expect(phase.generatorCpuMsPerMove).toBeGreaterThan(0);
  // Every timed move is either read in its worker's own stall or among the others.
  expect(phase.generatorStalls.movesInThem + phase.generatorStalls.others.count).toBe(phase.latency.count);
  expect(phase.generatorStalls.overMs).toBe(50);
  if (process.platform === "linux") {
    // Each is rounded to a tenth on its own: on a saturated machine their sum may show 100.1.
    expect(phase.machine!.busyPercent + phase.machine!.stealPercent).toBeLessThanOrEqual(100.1);
    expect(phase.machine!.stealPercent).toBeGreaterThanOrEqual(0);
    // The whole window's theft is an average of its seconds', so no more than the worst of them (0.1: rounding).
    expect(phase.machine!.stealWorstSecondPercent + 0.1).toBeGreaterThanOrEqual(phase.machine!.stealPercent);
    expect(Number.isInteger(phase.machine!.stealBurstSeconds)).toBe(true);
  }
}

/** Progress without a terminal: a plain line now and then per phase, never a bar's control codes. */
const PROGRESS_LINE = /^(cardhall|ws echo): \d+\/30 connected \| \d+ moves \| \d+ failed \| \d+ errors \| \d+ desyncs$/;

test("a small bounded load run seats exactly the clients asked for and reports consistent figures", async () => {
  const jsonFile = path.join(scratchDirectory("cardhall-loadtest-"), "report.json");
  // A steady window long enough for every client to sit and move in it on a busy two-core machine (the suite's
  // other test file beside this one): the figures below need moves after the ramp.
  const run = spawnSync(
    path.join(ROOT, "bin", "loadtest"),
    [
      "--url",
      server.url,
      "--clients",
      "30",
      "--workers",
      "2",
      "--duration",
      "8",
      "--ramp",
      "1",
      "--think-ms",
      "50",
      "--baseline-port",
      String(await freePort()),
      "--baseline-duration",
      "2",
      "--json",
      jsonFile,
    ],
    { encoding: "utf8", timeout: 90_000 },
  );
  expect(run.status).toBe(0);
  const progress = run.stderr.trimEnd().split("\n");
  for (const line of progress) expect(line).toMatch(PROGRESS_LINE);
  // The last lines are each phase's end: everyone left.
  expect(progress.slice(-2).map((line) => line.split(" | ")[0])).toEqual([
    "cardhall: 0/30 connected",
    "ws echo: 0/30 connected",
  ]);
  expect(run.stdout).toMatch(
    /move-to-broadcast latency \(\d+ moves after the ramp\): p50 [\d.]+ ms, p95 [\d.]+ ms, p99 [\d.]+ ms/,
  );
  expect(run.stdout).toMatch(/overhead vs ws echo: p50 ×[\d.]+/);
  expect(run.stdout).toMatch(/by game: evensteven \d+ moves p50 [\d.]+ ms p99 [\d.]+ ms; fool/);
  expect(run.stdout).toMatch(/load generator stalls over 50 ms after the ramp: (none|\d+ — )/);
  expect(run.stdout).toMatch(
    /moves read while their own worker stalled: \d+ of \d+; the others p50 [\d.]+ ms, p99 [\d.]+ ms/,
  );
  expect(run.stdout).toMatch(/ {4}the others by game: evensteven \d+ moves p50 [\d.]+ ms p99 [\d.]+ ms; fool/);
  const report = JSON.parse(fs.readFileSync(jsonFile, "utf8")) as LoadTestReport;
  const clients = 30;
  expect(report.cardhall.tables).toBe(24); // two Tractor tables of four, the 22 other clients at one-seat tables
  expect(report.cardhall.counters.stateChecks).toBeGreaterThan(0);
  expectConsistent(report.cardhall, clients);
  expect(report.cardhall.counters.errors).toBe(0);
  expect(report.cardhall.counters.desyncs).toBe(0);
  expect(report.cardhall.lost).toBe(0);
  expectConsistent(report.baseline!, clients);
  expect(report.server).not.toBeNull();
  expect(report.server!.clientsPeak).toBeGreaterThan(0);
  expect(report.server!.cpuPercent).toBeGreaterThan(0);
  expect(report.server!.cpuMsPerMove).toBeGreaterThan(0);
  // After the ramp: a figure when the server's one-second samples fell twice in the steady window, else said so.
  const steady = report.server!.steadyCpuMsPerMove;
  expect(Number.isNaN(steady) || steady > 0).toBe(true);
  expect(run.stdout).toMatch(
    /ms per move, joins included; ([\d.]+ ms per move after the ramp|too short a window after the ramp to say)\)/,
  );
  expect(report.server!.eventLoopLagMs.p99).toBeGreaterThanOrEqual(report.server!.eventLoopLagMs.p50);
  // The whole run's longest stall includes the teardown's, so it is at least the longest before it.
  expect(report.server!.eventLoopLagMs.max).toBeGreaterThanOrEqual(report.server!.eventLoopMaxBeforeTeardownMs);
  expect(run.stdout).toMatch(
    /event-loop lag: .*max [\d.]+ ms \(before the teardown [\d.]+ ms(, once every client sat [\d.]+ ms)?\); (main thread busy [\d.]+% after the ramp|main thread's busy share after the ramp not known)/,
  );
  // The moves sent once every client sat: those of the steady window from the last join on, said apart when it came
  // after the ramp; the server's longest delay in its seconds since then, at most the whole run's.
  const seated = report.cardhall.onceSeated!;
  expect(seated.fromMs).toBe(report.cardhall.lastJoinMs);
  expect(report.baseline!.lastJoinMs).toBeNull(); // the echo clients join nothing
  expect(seated.fromMs).toBeLessThan(report.cardhall.steady.untilMs);
  expect(seated.latency.count).toBeLessThanOrEqual(report.cardhall.latency.count);
  expect(Object.values(seated.latencyByGame).reduce((sum, game) => sum + game!.count, 0)).toBe(seated.latency.count);
  if (seated.fromMs <= report.cardhall.steady.fromMs) expect(seated.latency.count).toBe(report.cardhall.latency.count);
  else
    expect(run.stdout).toMatch(
      /once every client sat \(the last join [\d.]+ s after the ramp, [\d.]+ s of the window left\): \d+ moves, p50 /,
    );
  const seatedLoop = report.server!.eventLoopMaxOnceSeatedMs as number | null;
  // The seconds' maxima come from a sampler of their own (server/app.ts): two samplers of the same loop, each timed
  // every 10 ms at its own phase, see one stall up to that much apart (and the seconds' are rounded to 0.1 ms).
  if (seatedLoop !== null && Number.isFinite(seatedLoop))
    expect(seatedLoop).toBeLessThanOrEqual(report.server!.eventLoopLagMs.max + SAMPLERS_APART_MS);
  // Like the CPU after the ramp: a share when two samples fell in the steady window, else said so.
  const busy = report.server!.steadyMainThreadBusyPercent;
  expect(Number.isNaN(busy) || (busy > 0 && busy <= 100)).toBe(true);
  expect(Number.isNaN(busy)).toBe(Number.isNaN(steady));
  // The Fool tables play the room's AI: its decisions ran on the server's threads, none given up.
  expect(report.server!.foolAiDecisions!.onThreads).toBeGreaterThan(0);
  expect(report.server!.foolAiDecisions).toMatchObject({ inProcess: 0, abandoned: 0 });
  // Admission control gave each searched decision a budget, and the report says which and how long they waited.
  const foolBudgets = report.server!.aiBudgets.fool!;
  expect(Object.values(foolBudgets.budgets).reduce((total, count) => total + count, 0)).toBeGreaterThanOrEqual(
    report.server!.foolAiDecisions!.onThreads,
  );
  expect(foolBudgets.waitMs.max).toBeGreaterThanOrEqual(foolBudgets.waitMs.p99);
  expect(run.stdout).toMatch(/Fool AI budgets: \d+ whole, \d+ reduced, \d+ least, \d+ none/);
  expect(run.stdout).toMatch(/KB a table/);
  expect(report.cardhall.generatorCpuPercent).toBeGreaterThan(0);
  expect(report.ratio!.p99).toBeCloseTo(report.cardhall.latency.p99 / report.baseline!.latency.p99, 6);
});

test("with --tractor-bots strong, Tractor tables seat two scripted players beside the room's strong bots, whose decisions the report counts (the generator at --nice 5)", async () => {
  const jsonFile = path.join(scratchDirectory("cardhall-loadtest-"), "report.json");
  const run = spawnSync(
    path.join(ROOT, "bin", "loadtest"),
    [
      "--url",
      server.url,
      "--clients",
      "4",
      "--mix",
      "tractor=1",
      "--tractor-bots",
      "strong",
      "--workers",
      "1",
      "--duration",
      "8",
      "--ramp",
      "1",
      "--think-ms",
      "50",
      "--no-baseline",
      "--quiet",
      "--nice",
      "5",
      "--json",
      jsonFile,
    ],
    { encoding: "utf8", timeout: 90_000 },
  );
  expect(run.status).toBe(0);
  const report = JSON.parse(fs.readFileSync(jsonFile, "utf8")) as LoadTestReport;
  expect(report.cardhall.tables).toBe(2); // two tables of two scripted players each
  expect(report.cardhall.counters).toMatchObject({ joined: 4, failed: 0, errors: 0, desyncs: 0 });
  expect(report.cardhall.counters.moves).toBeGreaterThan(0);
  const tractorAi = report.server!.tractorAiDecisions!;
  expect(tractorAi.onThreads + tractorAi.inProcess + tractorAi.shrunk).toBeGreaterThan(0);
  expect(tractorAi.abandoned).toBe(0);
  expect(run.stdout).toMatch(
    /server Tractor AI: \d+ decisions on its threads, \d+ in-process, \d+ the heuristic's at once \(overload\), 0 abandoned/,
  );
  expect(report.options.nice).toBe(5);
  expect(run.stdout).toMatch(/, 1 workers at nice 5\n/);

  const refused = spawnSync(
    path.join(ROOT, "bin", "loadtest"),
    ["--url", server.url, "--tractor-bots", "grandmaster"],
    { encoding: "utf8", timeout: 30_000 },
  );
  expect(refused.status).not.toBe(0);
  expect(refused.stderr).toMatch(/expected one of easy, normal, strong/);
  const tooNice = spawnSync(path.join(ROOT, "bin", "loadtest"), ["--url", server.url, "--nice", "20"], {
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(tooNice.status).not.toBe(0);
  expect(tooNice.stderr).toMatch(/--nice/);
});
