/**
 * The load test as a process of its own (a build's `dist/bin/src/loadtest.js`), its JSON report read back. The
 * benchmarks that start servers between load tests run it this way: a load test lowers its own process's priority
 * with `--nice` (bench/loadtest/master.ts), and a server started after that from the same process would inherit the
 * lower priority too.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { LoadTestReport } from "./report-shape";

export interface LoadTestRun {
  clients: number;
  thinkMs: number;
  duration: number;
  workers: number;
  /** Its --ramp (the load test's own default when absent). */
  ramp?: number;
  /** Its --mix (the even mix when absent). */
  mix?: string;
  /** Its --nice, left out at 0: a build from before the option has no such option. */
  nice: number;
}

/** Runs `root`'s load test against `urls` (one process, or a cluster's), writing its report to `json`. */
export function loadTestInChild(
  root: string,
  urls: readonly string[],
  run: LoadTestRun,
  json: string,
): Promise<LoadTestReport> {
  const args = [
    path.join(root, "dist", "bin", "src", "loadtest.js"),
    ...["--url", urls.join(","), "--clients", String(run.clients), "--think-ms", String(run.thinkMs)],
    ...["--duration", String(run.duration), "--workers", String(run.workers)],
    ...(run.mix === undefined ? [] : ["--mix", run.mix]),
    ...(run.ramp === undefined ? [] : ["--ramp", String(run.ramp)]),
    ...(run.nice > 0 ? ["--nice", String(run.nice)] : []),
    ...["--no-baseline", "--quiet", "--json", json],
  ];
  const child = spawn(path.join(root, "node_modules", ".bin", "node"), args, {
    stdio: ["ignore", "ignore", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(fs.readFileSync(json, "utf8")) as LoadTestReport)
        : reject(new Error(`load test exited ${code}`)),
    );
  });
}
