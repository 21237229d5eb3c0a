/**
 * The load test: spreads N scripted players over several worker processes, shows progress, then measures the same
 * clients against a plain ws echo server as a baseline, and reports both with the server's CPU and memory.
 */
import { fork, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import { lowerThisProcess } from "../../server/runtime/thread-priority";
import { planTables } from "./plan";
import { runPhase } from "./phase";
import { progressReport } from "./progress";
import type { LoadTestOptions, LoadTestReport, PhaseResult } from "./report-shape";
import { addedUp, serverFigures } from "./server-figures";
import { answers, watchServer } from "./server-watch";

const ECHO_SERVER = path.join(__dirname, "echo-server.js");

function startEchoServer(port: number): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const echo = fork(ECHO_SERVER, [String(port)], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
    echo.once("message", () => resolve(echo));
    echo.once("exit", (code) => reject(new Error(`the echo server exited (${code})`)));
  });
}

export async function runLoadTest(options: LoadTestOptions): Promise<LoadTestReport> {
  // Before any worker is forked: each starts at the nice value of the thread that forks it.
  const nice = options.nice ?? 0;
  if (nice > 0) {
    const now = lowerThisProcess(nice);
    // A report that said "at nice N" of a generator still at the server's priority would mislead.
    if (now < nice)
      throw new Error(
        `could not lower the load test's priority to nice ${nice} (the system refused: it runs at ${now}); run it without --nice`,
      );
  }
  await Promise.all(options.urls.map(answers));
  const tables = planTables(options.clients, options.mix, options.urls, options.tractorBots);
  const target = tables.reduce((sum, table) => sum + table.players, 0);
  const bars = progressReport(options);
  const watchers = options.urls.map((url) => watchServer(url));
  const cardhall = await runPhase(null, tables, options, false, options.durationSeconds, (c) =>
    bars.update("cardhall", c, target),
  );
  const processes = await Promise.all(
    watchers.map(async (watcher, index) => ({
      url: options.urls[index],
      figures: serverFigures(
        await watcher.stop(),
        cardhall.counters.moves,
        cardhall.steady,
        cardhall.onceSeated?.fromMs ?? null,
      ),
    })),
  );
  const measured = processes.flatMap((process) => (process.figures ? [process.figures] : []));
  const server = measured.length === processes.length ? addedUp(measured) : null;
  let baseline: PhaseResult | null = null;
  if (options.baseline) {
    const echo = await startEchoServer(options.baselinePort);
    try {
      const echoTables = tables.map((table) => ({ ...table, url: `ws://127.0.0.1:${options.baselinePort}` }));
      baseline = await runPhase(
        `ws://127.0.0.1:${options.baselinePort}`,
        echoTables,
        options,
        true,
        options.baselineSeconds,
        (c) => bars.update("ws echo", c, target),
      );
    } finally {
      echo.disconnect();
    }
  }
  bars.stop();
  const ratio = baseline
    ? {
        p50: cardhall.latency.p50 / baseline.latency.p50,
        p95: cardhall.latency.p95 / baseline.latency.p95,
        p99: cardhall.latency.p99 / baseline.latency.p99,
      }
    : null;
  return { options, cardhall, server, processes, baseline, ratio };
}
