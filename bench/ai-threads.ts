/**
 * npm run bench:ai-threads [-- --rounds N] [ROOT ...]
 *
 * What an AI thread costs before it decides anything: for each build given (a project root with a compiled dist/;
 * this one by default) and each AI worker (the Fool AI's, the strong Tractor bots'), a fresh Node process starts a
 * pool of one thread as the server does (server/ai/ai-admission.ts's limits) and runs the worker's `warm` task, which
 * starts the thread and loads the worker and what it imports. It reports the time to the warm task's answer and the
 * process's RSS it added, at the answer and half a second later, medians over the rounds; the builds take turns in each round, so a noisy host slows both.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import * as path from "node:path";
import { Command, InvalidArgumentError } from "commander";

const WORKERS = { fool: "fool-ai-worker.js", tractor: "tractor-ai-worker.js" } as const;
type WorkerName = keyof typeof WORKERS;
const HERE = path.resolve(__dirname, "..", "..");

interface Started {
  readonly startMs: number;
  /** The RSS added when the warm task answered (the worker just loaded) and half a second later (settled). */
  readonly loadedRssMb: number;
  readonly settledRssMb: number;
}

/** In the child: one pool of one thread over `workerFile`, its warm task timed, the RSS it added measured. */
async function startOne(root: string, workerFile: string): Promise<Started> {
  // The AI's modules are in dist/server/ai; a build from before server/ had folders has them in dist/server.
  const grouped = path.join(root, "dist", "server", "ai");
  const built = existsSync(path.join(grouped, workerFile)) ? grouped : path.join(root, "dist", "server");
  const Piscina = require(require.resolve("piscina", { paths: [built] })) as typeof import("piscina").default;
  const { AI_THREAD_LIMITS } = require(path.join(built, "ai-admission")) as typeof import("../server/ai/ai-admission");
  const before = process.memoryUsage().rss;
  const pool = new Piscina({
    filename: path.join(built, workerFile),
    minThreads: 0,
    maxThreads: 1,
    resourceLimits: AI_THREAD_LIMITS,
  });
  const started = performance.now();
  await pool.run({}, { name: "warm" });
  const startMs = performance.now() - started;
  const added = () => (process.memoryUsage().rss - before) / 2 ** 20;
  const loadedRssMb = added();
  // What loading took is given back within moments: measured again as a server's thread sits between decisions.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const settledRssMb = added();
  await pool.destroy();
  return { startMs, loadedRssMb, settledRssMb };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new InvalidArgumentError("expected a positive whole number");
  return value;
}

/** Each round runs every build's every worker once, each in a process of its own. */
function measure(roots: readonly string[], rounds: number): void {
  const results = new Map<string, Started[]>();
  for (let round = 0; round < rounds; round++) {
    for (const root of roots) {
      for (const [worker, file] of Object.entries(WORKERS) as [WorkerName, string][]) {
        const output = execFileSync(process.execPath, [__filename, "--child", root, file], { encoding: "utf8" });
        const key = `${root}\t${worker}`;
        results.set(key, [...(results.get(key) ?? []), JSON.parse(output) as Started]);
      }
    }
  }
  console.log(`An AI thread started and its worker loaded, medians of ${rounds} rounds (each in a fresh process):`);
  for (const [key, runs] of results) {
    const [root, worker] = key.split("\t");
    const [startMs, loadedMb, settledMb] = [
      median(runs.map((run) => run.startMs)),
      median(runs.map((run) => run.loadedRssMb)),
      median(runs.map((run) => run.settledRssMb)),
    ];
    console.log(
      `  ${path.relative(process.cwd(), root) || "."}  ${worker.padEnd(8)} start ${startMs.toFixed(1).padStart(6)} ms   RSS +${loadedMb.toFixed(1)} MB when loaded, +${settledMb.toFixed(1)} MB settled`,
    );
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === "--child") {
    const [root, workerFile] = process.argv.slice(3);
    process.stdout.write(JSON.stringify(await startOne(root, workerFile)));
    return;
  }
  const program = new Command("bench:ai-threads")
    .argument("[roots...]", "project roots with a compiled dist/ (this one by default)")
    .option("--rounds <n>", "rounds, each starting every build's every worker once", positiveInteger, 9)
    .parse();
  const roots = program.args.length > 0 ? program.args.map((root) => path.resolve(root)) : [HERE];
  measure(roots, program.opts<{ rounds: number }>().rounds);
}

void main();
