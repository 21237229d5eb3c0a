/**
 * npm run bench:compare -- --base <another build's root> [--clients 1500] [--think-ms 3000] [--duration 20] [--pairs 2] [--mix fool] [--nice 10] [--records] [--websocket-port [both]]
 *
 * Two builds' servers side by side in one run: runs in turn cannot tell builds apart on a shared host whose stolen
 * time swings from second to second, runs at the same time can. Each pair starts both servers
 * (records off, or with `--records` each in an SQLite file of its own), drives each with this build's load test at once, and swaps their ports every other pair. Per
 * build: the server's CPU per move, its memory per room ((RSS peak − RSS at the start) / rooms at the peak), the
 * latency, and what was lost. With `--websocket-port`, this build's server serves its clients' WebSockets on a port of
 * their own (WEBSOCKET_PORT, uWebSockets.js) and the base's on its main port: `--base .` compares the two ports of
 * one build; with `--websocket-port both`, each server has one. With `--generators`, one server of this build is driven by both builds' load tests
 * at once instead: what a scripted move costs each build's SDK and bots.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { kbPerTable, liveKbPerTable } from "./loadtest/server-figures";
import type { LoadTestReport } from "./loadtest/report-shape";
import { loadTestInChild } from "./loadtest/child";
import { freePort } from "../test/e2e/ports";
import { QUIET_SERVER, startServer as startProcess, stopServer } from "./server";

/**
 * A build's server: without records, or (`records`) keeping them in an SQLite file in a folder of its own; with its
 * clients' WebSockets on `webSocketPort` when one is given.
 */
function startServer(
  root: string,
  port: number,
  records: string | null,
  webSocketPort: number | null = null,
): ReturnType<typeof startProcess> {
  const { RECORDS: _off, ...quiet } = QUIET_SERVER;
  const env = records === null ? { ...QUIET_SERVER } : { ...quiet, DATA_DIR: records };
  return startProcess(root, port, webSocketPort === null ? env : { ...env, WEBSOCKET_PORT: String(webSocketPort) });
}

const THIS_ROOT = path.resolve(__dirname, "..", "..");

interface Options {
  base: string;
  clients: number;
  thinkMs: number;
  duration: number;
  ramp?: number;
  pairs: number;
  workers: number;
  generators: boolean;
  mix?: string;
  /** The load tests' --nice (left out at 0: a build from before it has no such option). */
  nice: number;
  /** Both servers keep records, each in its own SQLite file. */
  records: boolean;
  /** Which servers have a WebSocket port (WEBSOCKET_PORT): none (false), this build's (true), or "both". */
  websocketPort: boolean | "both";
}

/** One load test (the given build's) against a port; its JSON report. */
function loadTest(root: string, port: number, options: Options, json: string): Promise<LoadTestReport> {
  return loadTestInChild(root, [`ws://127.0.0.1:${port}`], options, json);
}

interface Row {
  build: string;
  serverMsPerMove: number;
  serverSteadyMsPerMove: number;
  generatorSteadyMsPerMove: number;
  generatorMsPerMove: number;
  kbPerRoom: number;
  /** The same without what the AI threads' heaps grew by (NaN from a build that does not report them). */
  kbPerRoomWithoutAiThreads: number;
  /** What a room holds live, from the heap the server's last major collection left (NaN when none fell in the run, or from a build that does not say). */
  liveKbPerRoom: number;
  rssMbPeak: number;
  rooms: number;
  movesPerSecond: number;
  p99: number;
  /** Each game's p99, and the server's longest event-loop stall, in ms. */
  p99ByGame: Record<string, number>;
  eventLoopMaxMs: number;
  /** The event loop's longest stall before the teardown (the load test's figure above includes it). */
  eventLoopMaxBeforeTeardownMs: number;
  /** The moves' p99 and the event loop's longest stall once every client sat (NaN from a build that does not say). */
  p99OnceSeated: number;
  eventLoopMaxOnceSeatedMs: number;
  /** The server's main thread's busy share after the ramp, in percent (NaN from a build that does not report it). */
  mainThreadBusyPercent: number;
  /** V8's major and minor collections after the ramp (NaN from a build that does not report them). */
  majorGcs: number;
  minorGcs: number;
  /** The collections' pauses after the ramp, in all (ms). */
  majorGcMs: number;
  minorGcMs: number;
  /** The server's stalls over 50 ms after the ramp, and those of them from a major collection (NaN from a build that does not say). */
  stalls: number;
  stallsFromMajorGc: number;
  /** The Fool AI's decisions given up for the greedy move, and (from a build that reports them) its waits' p99 and max. */
  aiAbandoned: number;
  aiWaitP99: number | null;
  aiWaitMax: number | null;
  lost: number;
  desyncs: number;
  failed: number;
  busyPercent: number | null;
  stolenPercent: number | null;
}

function row(build: string, report: LoadTestReport): Row {
  const { server, cardhall } = report;
  return {
    eventLoopMaxBeforeTeardownMs: server?.eventLoopMaxBeforeTeardownMs ?? NaN,
    p99OnceSeated: cardhall.onceSeated?.latency.p99 ?? NaN,
    eventLoopMaxOnceSeatedMs: server?.eventLoopMaxOnceSeatedMs ?? NaN,
    mainThreadBusyPercent: server?.steadyMainThreadBusyPercent ?? NaN,
    majorGcs: server?.steadyGarbageCollections?.major ?? NaN,
    minorGcs: server?.steadyGarbageCollections?.minor ?? NaN,
    majorGcMs: server?.steadyGarbageCollections?.majorMs ?? NaN,
    minorGcMs: server?.steadyGarbageCollections?.minorMs ?? NaN,
    stalls: server?.steadyStalls?.stalls.length ?? NaN,
    stallsFromMajorGc: server?.steadyStalls?.stalls.filter((stall) => stall.cause === "majorGc").length ?? NaN,
    build,
    serverMsPerMove: server?.cpuMsPerMove ?? NaN,
    serverSteadyMsPerMove: server?.steadyCpuMsPerMove ?? NaN,
    generatorMsPerMove: cardhall.generatorCpuMsPerMove,
    generatorSteadyMsPerMove: cardhall.generatorSteadyCpuMsPerMove,
    kbPerRoom: server ? kbPerTable(server) : NaN,
    kbPerRoomWithoutAiThreads: server ? kbPerTable(server, "without AI threads") : NaN,
    liveKbPerRoom: server ? liveKbPerTable(server.liveHeap) : NaN,
    rssMbPeak: server?.rssMbPeak ?? NaN,
    rooms: server?.roomsPeak ?? 0,
    movesPerSecond: cardhall.movesPerSecond,
    p99: cardhall.latency.p99,
    p99ByGame: Object.fromEntries(
      Object.entries(cardhall.latencyByGame).map(([game, latency]) => [game, latency!.p99]),
    ),
    eventLoopMaxMs: server?.eventLoopLagMs.max ?? NaN,
    aiAbandoned: server?.foolAiDecisions?.abandoned ?? NaN,
    aiWaitP99: server?.aiBudgets?.fool?.waitMs.p99 ?? null,
    aiWaitMax: server?.aiBudgets?.fool?.waitMs.max ?? null,
    lost: cardhall.lost,
    desyncs: cardhall.counters.desyncs,
    failed: cardhall.counters.failed,
    busyPercent: cardhall.machine?.busyPercent ?? null,
    stolenPercent: cardhall.machine?.stealPercent ?? null,
  };
}

/** Servers of both builds at once, each driven by this build's load test. */
async function serverPair(options: Options, pair: number, dir: string): Promise<Row[]> {
  const [first, second] = [await freePort(), await freePort()];
  const ports = pair % 2 === 0 ? { base: first, this: second } : { base: second, this: first };
  const records = (build: string) => (options.records ? path.join(dir, `records-${build}-${pair}`) : null);
  const webSocketPorts = {
    base: options.websocketPort === "both" ? await freePort() : null,
    this: options.websocketPort !== false ? await freePort() : null,
  };
  const servers = await Promise.all([
    startServer(options.base, ports.base, records("base"), webSocketPorts.base),
    startServer(THIS_ROOT, ports.this, records("this"), webSocketPorts.this),
  ]);
  try {
    const [base, current] = await Promise.all([
      loadTest(THIS_ROOT, ports.base, options, path.join(dir, `base-${pair}.json`)),
      loadTest(THIS_ROOT, ports.this, options, path.join(dir, `this-${pair}.json`)),
    ]);
    return [row("base", base), row("this", current)];
  } finally {
    await Promise.all(servers.map(stopServer));
  }
}

/** One server of this build, driven by both builds' load tests at once. */
async function generatorPair(options: Options, pair: number, dir: string): Promise<Row[]> {
  const port = await freePort();
  const server = await startServer(THIS_ROOT, port, options.records ? path.join(dir, `records-${pair}`) : null);
  try {
    const [base, current] = await Promise.all([
      loadTest(options.base, port, options, path.join(dir, `base-generator-${pair}.json`)),
      loadTest(THIS_ROOT, port, options, path.join(dir, `this-generator-${pair}.json`)),
    ]);
    return [row("base", base), row("this", current)];
  } finally {
    await stopServer(server);
  }
}

async function main(options: Options): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cardhall-compare-"));
  const rows: Row[] = [];
  for (let pair = 0; pair < options.pairs; pair++) {
    const pairRows = options.generators
      ? await generatorPair(options, pair, dir)
      : await serverPair(options, pair, dir);
    for (const result of pairRows) console.log(JSON.stringify({ pair: pair + 1, ...result }));
    rows.push(...pairRows);
  }
  for (const build of ["base", "this"]) {
    const mine = rows.filter((result) => result.build === build);
    const mean = (pick: (result: Row) => number) =>
      Math.round((mine.reduce((sum, result) => sum + pick(result), 0) / mine.length) * 1000) / 1000;
    console.log(
      `${build}: server ${mean((r) => r.serverMsPerMove)} ms a move (${mean((r) => r.serverSteadyMsPerMove)} after the ramp), generator ${mean((r) => r.generatorMsPerMove)} ms a move (${mean((r) => r.generatorSteadyMsPerMove)} after the ramp), ${mean((r) => r.kbPerRoom)} KB a room (${mean((r) => r.kbPerRoomWithoutAiThreads)} without the AI threads' heaps; ${mean((r) => r.liveKbPerRoom)} live), p99 ${mean((r) => r.p99)} ms (${mean((r) => r.p99OnceSeated)} once every client sat), event loop's longest stall ${mean((r) => r.eventLoopMaxMs)} ms (${mean((r) => r.eventLoopMaxBeforeTeardownMs)} before the teardown, ${mean((r) => r.eventLoopMaxOnceSeatedMs)} once every client sat), main thread busy ${mean((r) => r.mainThreadBusyPercent)}% after the ramp, major collections ${mean((r) => r.majorGcs)} (${mean((r) => r.majorGcMs)} ms) and minor ${mean((r) => r.minorGcs)} (${mean((r) => r.minorGcMs)} ms) after the ramp, stalls over 50 ms after the ramp ${mean((r) => r.stalls)} (${mean((r) => r.stallsFromMajorGc)} from a major collection), Fool AI decisions abandoned ${mean((r) => r.aiAbandoned)} (means of ${mine.length})`,
    );
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

new Command("compare-builds")
  .description("Two builds side by side: their servers (or with --generators their load tests) at the same time.")
  .requiredOption("--base <dir>", "the other build's root (with dist/ and node_modules/)")
  .option("--clients <n>", "clients per load test", (text) => Number(text), 1500)
  .option("--think-ms <ms>", "mean think time", (text) => Number(text), 3000)
  .option("--duration <seconds>", "steady window", (text) => Number(text), 20)
  .option("--ramp <seconds>", "the load test's ramp (its --ramp; its own default when not given)", (text) =>
    Number(text),
  )
  .option("--pairs <n>", "pairs of runs", (text) => Number(text), 2)
  .option("--workers <n>", "workers per load test", (text) => Number(text), 2)
  .option("--generators", "compare the builds' load tests against one server instead", false)
  .option("--mix <games>", "the load test's games and weights (its --mix), e.g. fool")
  .option("--nice <n>", "the load tests' nice value (their --nice)", (text) => Number(text), 0)
  .option("--records", "both servers keep records (each its own SQLite file), as `npm start` does", false)
  .option(
    "--websocket-port [both]",
    "this build's server (or with `both` each server) serves its clients' WebSockets on a port of its own (WEBSOCKET_PORT)",
    (text: string): Options["websocketPort"] => {
      if (text !== "both") throw new InvalidArgumentError("give `both`, or nothing for this build's server alone");
      return "both";
    },
    false as Options["websocketPort"],
  )
  .action((raw: Options) => main({ ...raw, base: path.resolve(raw.base) }))
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    console.error(`compare-builds: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
