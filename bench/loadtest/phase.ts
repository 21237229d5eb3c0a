/** One phase of the load test (cardhall or the baseline): its tables dealt to worker processes, their results added up. */
import { fork, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import {
  emptyCounters,
  type Counters,
  type TablePlan,
  type WorkerDone,
  type WorkerMessage,
  type WorkerStart,
} from "./messages";
import { summarize } from "../stats";
import { machineLoadDuring } from "./machine-load";
import { dealToWorkers } from "./plan";
import { generatorStallFigures, latenciesSentFrom, onceSeated, perMoveMs, summarizedByGame } from "./phase-figures";
import type { LoadTestOptions, PhaseResult } from "./report-shape";

const WORKER = path.join(__dirname, "worker.js");

function addCounters(total: Counters, part: Counters): void {
  for (const key of Object.keys(total) as Array<keyof Counters>) total[key] += part[key];
}

/** Runs one phase (cardhall or the baseline) across the workers; `onProgress` sees the summed counters. */
export async function runPhase(
  url: string | null,
  tables: TablePlan[],
  options: LoadTestOptions,
  baseline: boolean,
  seconds: number,
  onProgress: (c: Counters) => void,
): Promise<PhaseResult> {
  const started = Date.now();
  const deadline = started + options.rampSeconds * 1000 + seconds * 1000;
  const workerCount = Math.max(1, Math.min(options.workers, tables.length));
  const machine = machineLoadDuring(deadline - seconds * 1000, deadline);
  const latest: Counters[] = Array.from({ length: workerCount }, emptyCounters);
  const results = await Promise.all(
    dealToWorkers(tables, workerCount).map((share, index) => {
      return runWorker(
        {
          type: "start",
          url: url ?? "",
          tables: share,
          deadline,
          rampMs: options.rampSeconds * 1000,
          thinkMs: options.thinkMs,
          baseline,
          tractorBots: options.tractorBots,
        },
        (counters) => {
          latest[index] = counters;
          const total = emptyCounters();
          latest.forEach((part) => addCounters(total, part));
          onProgress(total);
        },
      );
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
  const joinSeconds = windows.length
    ? (Math.max(...windows.map((w) => w.until)) - Math.min(...windows.map((w) => w.from))) / 1000
    : 0;
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
    steady: {
      fromMs: deadline - seconds * 1000,
      untilMs: deadline,
      moves: results.reduce((sum, result) => sum + result.steadyMoves, 0),
    },
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

function runWorker(start: WorkerStart, onProgress: (counters: Counters) => void): Promise<WorkerDone> {
  return new Promise((resolve, reject) => {
    const worker: ChildProcess = fork(WORKER, [], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
    let done: WorkerDone | null = null;
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "progress") onProgress(message.counters);
      else done = message;
    });
    worker.on("exit", (code) =>
      done ? resolve(done) : reject(new Error(`a load-test worker exited (${code}) without its results`)),
    );
    worker.send(start);
  });
}
