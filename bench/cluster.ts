/**
 * One process in memory against two processes on Redis, side by side in one run: the same load test (the same
 * clients, mix and think time) against each layout in turn, `--rounds` times, so that a noisy host hits both alike.
 * Each layout is started fresh for each run (records off: the database is not what is compared) and stopped after.
 * Prints, per run, joins a second, join latency p50/p99, move latency p99, the servers' CPU per move and their
 * peak memory; never passes or fails.
 *
 *   npm run bench:cluster -- [--clients 1000] [--duration 15] [--ramp 2] [--think-ms 1000] [--workers 2] [--rounds 2]
 */
import type { ChildProcess } from "child_process";
import { Command } from "commander";
import { seconds, wholeNumber } from "../bin/src/lib/arguments";
import { freePort } from "../bin/src/lib/free-port";
import { RedisServer } from "../bin/src/lib/redis-server";
import { exited, HOST, listening, spawnServer } from "../bin/src/lib/server-child";
import { runLoadTest, type LoadTestReport } from "./loadtest/master";

interface BenchOptions {
  clients: number;
  duration: number;
  ramp: number;
  thinkMs: number;
  workers: number;
  rounds: number;
}

interface Layout {
  name: string;
  /** Starts the layout; resolves with its addresses and how to stop it. */
  start(): Promise<{ urls: string[]; stop: () => Promise<void> }>;
}

async function startServers(count: number, env: Record<string, string>): Promise<{ urls: string[]; children: ChildProcess[] }> {
  const ports: number[] = [];
  for (let index = 0; index < count; index++) ports.push(await freePort());
  const children = ports.map((port) => spawnServer(port, { RECORDS: "off", JOINS_PENDING_PER_ADDRESS: "0", ...env, ...(env.REDIS_URL ? { PUBLIC_ADDRESS: `${HOST}:${port}` } : {}) }, ["ignore", "ignore", "inherit"]));
  await Promise.all(children.map((child, index) => listening(child, ports[index])));
  return { urls: ports.map((port) => `ws://${HOST}:${port}`), children };
}

async function stopServers(children: ChildProcess[]): Promise<void> {
  for (const child of children) child.kill("SIGTERM");
  await Promise.all(children.map(exited));
}

const ONE_IN_MEMORY: Layout = {
  name: "1 process, in memory",
  async start() {
    const { urls, children } = await startServers(1, { DRAIN_TIMEOUT: "0" });
    return { urls, stop: () => stopServers(children) };
  },
};

const TWO_ON_REDIS: Layout = {
  name: "2 processes on Redis",
  async start() {
    const redis = new RedisServer(await freePort());
    await redis.start();
    // Each process gets its share of the CPUs for the Fool AI, as bin/cluster gives it.
    const { urls, children } = await startServers(2, { DRAIN_TIMEOUT: "0", REDIS_URL: redis.url, FOOL_AI_THREADS: "1" });
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
    `${phase.lost}/${phase.counters.errors}/${phase.counters.desyncs}`,
    server ? fixed(server.cpuMsPerMove, 3) : "n/a",
    server ? `${server.cpuPercent}` : "n/a",
    server ? `${server.rssMbPeak}` : "n/a",
    phase.machine ? `${phase.machine.busyPercent}/${phase.machine.stealPercent}` : "n/a",
  ];
  return `| ${cells.join(" | ")} |`;
}

async function bench(options: BenchOptions): Promise<void> {
  const layouts = [ONE_IN_MEMORY, TWO_ON_REDIS];
  console.log(`cluster bench: ${options.clients} clients (the load test's even mix), think ${options.thinkMs} ms, ramp ${options.ramp} s, ${options.duration} s steady, ${options.workers} load workers, ${options.rounds} round(s)`);
  console.log("| layout | round | joined/failed | joins/s | join p50 ms | join p99 ms | moves/s | move p50 ms | move p99 ms | lost/errors/desyncs | server CPU ms/move | server CPU % | server RSS peak MB | machine busy/steal % |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (let round = 1; round <= options.rounds; round++) {
    for (const layout of layouts) {
      const running = await layout.start();
      try {
        const report = await runLoadTest({
          urls: running.urls,
          clients: options.clients,
          workers: options.workers,
          durationSeconds: options.duration,
          rampSeconds: options.ramp,
          thinkMs: options.thinkMs,
          mix: { evensteven: 1, fool: 1, patience: 1, tractor: 1 },
          baseline: false,
          baselinePort: 0,
          baselineSeconds: 0,
          quiet: true,
        });
        console.log(row(layout.name, round, report));
      } finally {
        await running.stop();
      }
    }
  }
}

new Command("bench:cluster")
  .description("One process in memory against two processes on Redis, under the same load test, in turn.")
  .option("--clients <n>", "scripted players", wholeNumber(1), 1000)
  .option("--duration <seconds>", "steady seconds after the ramp", seconds(3600), 15)
  .option("--ramp <seconds>", "seconds over which the tables open (joins/s is measured over it)", seconds(3600, true), 2)
  .option("--think-ms <ms>", "mean think time before each move", wholeNumber(0), 1000)
  .option("--workers <n>", "load-test worker processes", wholeNumber(1, 64), 2)
  .option("--rounds <n>", "times each layout is measured, in turn", wholeNumber(1, 20), 2)
  .action(bench)
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    console.error(`bench:cluster: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
