/**
 * One process in memory against two processes on Redis, side by side in one run: the same load test (the same
 * clients, mix and think time) against each layout in turn, `--rounds` times, so that a noisy host hits both alike.
 * Each layout is started fresh for each run (records off unless `--records`: then a new SQLite file a run, one file for
 * both processes as bin/cluster keeps it) and stopped after; with `--websocket-port` every process takes its clients'
 * WebSockets on a port of its own (WEBSOCKET_PORT), which its seat reservations name.
 * Prints, per run, joins a second, join latency p50/p99, move latency p99, the servers' CPU per move, their longest
 * event-loop stall before the teardown and their main threads' busy share after the ramp (the busier process's), and
 * their peak memory; never passes or fails. The load test runs as a process of its own, so that its `--nice` (on the
 * servers' own machine, the generator out of their way) lowers it alone, not the servers started after it.
 *
 *   npm run bench:cluster -- [--clients 1000] [--duration 15] [--ramp 2] [--think-ms 1000] [--workers 2] [--rounds 2] [--nice 10]
 *                            [--websocket-port] [--records]
 */
import type { ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Command } from "commander";
import { seconds, wholeNumber } from "../bin/src/lib/arguments";
import { freePort } from "../bin/src/lib/free-port";
import { RedisServer } from "../bin/src/lib/redis-server";
import { exited, HOST, listening, spawnServer } from "../bin/src/lib/server-child";
import { loadTestInChild } from "./loadtest/child";
import { kbPerTable } from "./loadtest/server-figures";
import type { LoadTestReport, ServerFigures } from "./loadtest/report-shape";

const THIS_ROOT = path.resolve(__dirname, "..", "..");

interface BenchOptions {
  clients: number;
  duration: number;
  ramp: number;
  thinkMs: number;
  workers: number;
  rounds: number;
  /** The load test's nice value (its --nice). */
  nice: number;
  /** Each process with a WebSocket port of its own. */
  websocketPort: boolean;
  /** Records on, in a new SQLite file a run. */
  records: boolean;
}

/** How every process of a run is started. */
interface ServerSettings {
  webSocketPorts: boolean;
  /** The run's data directory when records are on. */
  dataDir: string | null;
}

interface Layout {
  name: string;
  /** Starts the layout; resolves with its addresses and how to stop it. */
  start(settings: ServerSettings): Promise<{ urls: string[]; stop: () => Promise<void> }>;
}

/** One process's environment: records and its WebSocket port as the run says; a cluster's process announces where its clients connect. */
async function processEnv(
  port: number,
  env: Record<string, string>,
  settings: ServerSettings,
): Promise<Record<string, string>> {
  const webSocketPort = settings.webSocketPorts ? await freePort() : null;
  return {
    JOINS_PENDING_PER_ADDRESS: "0",
    ...(settings.dataDir ? { DATA_DIR: settings.dataDir } : { RECORDS: "off" }),
    ...(webSocketPort === null ? {} : { WEBSOCKET_PORT: String(webSocketPort) }),
    ...env,
    ...(env.REDIS_URL ? { PUBLIC_ADDRESS: `${HOST}:${webSocketPort ?? port}` } : {}),
  };
}

async function startServers(
  count: number,
  env: Record<string, string>,
  settings: ServerSettings,
): Promise<{ urls: string[]; children: ChildProcess[] }> {
  const ports: number[] = [];
  for (let index = 0; index < count; index++) ports.push(await freePort());
  // Processes started together on a new SQLite file take turns at its schema (the migrations run under its write lock).
  const children: ChildProcess[] = [];
  for (const port of ports)
    children.push(spawnServer(port, await processEnv(port, env, settings), ["ignore", "ignore", "inherit"]));
  await Promise.all(children.map((child, index) => listening(child, ports[index]!)));
  return { urls: ports.map((port) => `ws://${HOST}:${port}`), children };
}

async function stopServers(children: ChildProcess[]): Promise<void> {
  for (const child of children) child.kill("SIGTERM");
  await Promise.all(children.map(exited));
}

const ONE_IN_MEMORY: Layout = {
  name: "1 process, in memory",
  async start(settings) {
    const { urls, children } = await startServers(1, { DRAIN_TIMEOUT: "0" }, settings);
    return { urls, stop: () => stopServers(children) };
  },
};

const TWO_ON_REDIS: Layout = {
  name: "2 processes on Redis",
  async start(settings) {
    const redis = new RedisServer(await freePort());
    await redis.start();
    // Each process gets its share of the CPUs for the Fool AI, as bin/cluster gives it.
    const { urls, children } = await startServers(
      2,
      { DRAIN_TIMEOUT: "0", REDIS_URL: redis.url, FOOL_AI_THREADS: "1" },
      settings,
    );
    return {
      urls,
      stop: async () => {
        await stopServers(children);
        await redis.destroy();
      },
    };
  },
};

const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");

/** The stalls after the ramp, every process's together, and how many a major collection made. */
function stallsCell(figures: ServerFigures["steadyStalls"]): string {
  if (figures === null) return "n/a";
  return `${figures.stalls.length} (${figures.stalls.filter((stall) => stall.cause === "majorGc").length})`;
}

function row(layout: string, round: number, report: LoadTestReport): string {
  const phase = report.cardhall;
  const server = report.server;
  const cells = [
    layout,
    String(round),
    `${phase.counters.joined}/${phase.counters.failed}`,
    fixed(phase.joins.perSecond, 0),
    fixed(phase.joins.latency.p50),
    fixed(phase.joins.latency.p99),
    fixed(phase.movesPerSecond, 0),
    fixed(phase.latency.p50),
    fixed(phase.latency.p99),
    phase.onceSeated ? fixed(phase.onceSeated.latency.p99) : "n/a",
    `${phase.generatorStalls.movesInThem}: ${fixed(phase.generatorStalls.others.p99)}`,
    `${phase.lost}/${phase.counters.errors}/${phase.counters.desyncs}`,
    server ? fixed(server.cpuMsPerMove, 3) : "n/a",
    server ? `${server.cpuPercent}` : "n/a",
    server ? fixed(server.eventLoopMaxBeforeTeardownMs, 0) : "n/a",
    server ? fixed(server.eventLoopMaxOnceSeatedMs, 0) : "n/a",
    stallsCell(server?.steadyStalls ?? null),
    server ? fixed(server.steadyMainThreadBusyPercent, 1) : "n/a",
    server ? `${server.rssMbPeak}` : "n/a",
    server ? `${kbPerTable(server)}` : "n/a",
    phase.machine ? `${phase.machine.busyPercent}/${phase.machine.stealPercent}` : "n/a",
  ];
  return `| ${cells.join(" | ")} |`;
}

async function bench(options: BenchOptions): Promise<void> {
  const layouts = [ONE_IN_MEMORY, TWO_ON_REDIS];
  const settings = [
    options.records ? "records on" : "records off",
    ...(options.websocketPort ? ["each process's clients on its WebSocket port"] : []),
  ].join(", ");
  console.log(
    `cluster bench: ${options.clients} clients (the load test's even mix), think ${options.thinkMs} ms, ramp ${options.ramp} s, ${options.duration} s steady, ${options.workers} load workers${options.nice > 0 ? ` at nice ${options.nice}` : ""}, ${options.rounds} round(s); ${settings}`,
  );
  console.log(
    "| layout | round | joined/failed | joins/s | join p50 ms | join p99 ms | moves/s | move p50 ms | move p99 ms | move p99 once seated | moves read in a generator's stall: the others' p99 ms | lost/errors/desyncs | server CPU ms/move | server CPU % | loop max ms | loop max once seated | stalls over 50 ms after the ramp (from major collections) | main thread busy % | server RSS peak MB | KB a table | machine busy/steal % |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  const reports = fs.mkdtempSync(path.join(os.tmpdir(), "cardhall-cluster-"));
  const run = {
    clients: options.clients,
    thinkMs: options.thinkMs,
    duration: options.duration,
    ramp: options.ramp,
    workers: options.workers,
    nice: options.nice,
  };
  try {
    for (let round = 1; round <= options.rounds; round++) {
      for (const layout of layouts) {
        const dataDir = options.records ? fs.mkdtempSync(path.join(reports, "data-")) : null;
        const running = await layout.start({ webSocketPorts: options.websocketPort, dataDir });
        try {
          const report = await loadTestInChild(
            THIS_ROOT,
            running.urls,
            run,
            path.join(reports, `${round}-${layout.name.split(" ")[0]}.json`),
          );
          console.log(row(layout.name, round, report));
        } finally {
          await running.stop();
        }
      }
    }
  } finally {
    fs.rmSync(reports, { recursive: true, force: true });
  }
}

new Command("bench:cluster")
  .description("One process in memory against two processes on Redis, under the same load test, in turn.")
  .option("--clients <n>", "scripted players", wholeNumber(1), 1000)
  .option("--duration <seconds>", "steady seconds after the ramp", seconds(3600), 15)
  .option(
    "--ramp <seconds>",
    "seconds over which the tables open (joins/s is measured over it)",
    seconds(3600, true),
    2,
  )
  .option("--think-ms <ms>", "mean think time before each move", wholeNumber(0), 1000)
  .option("--workers <n>", "load-test worker processes", wholeNumber(1, 64), 2)
  .option("--rounds <n>", "times each layout is measured, in turn", wholeNumber(1, 20), 2)
  .option(
    "--nice <n>",
    "the load test's nice value (its --nice): on the servers' machine, out of their way",
    wholeNumber(0, 19),
    0,
  )
  .option(
    "--websocket-port",
    "every process takes its clients' WebSockets on a port of its own (WEBSOCKET_PORT)",
    false,
  )
  .option("--records", "records on, in a new SQLite file a run (both processes share it, as bin/cluster's do)", false)
  .action(bench)
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    console.error(`bench:cluster: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
