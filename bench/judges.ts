/**
 * npm run bench:judges -- [--rounds N] [--decks N] [--runs N] [--seed S] [--base DIR]
 *
 * Runs the command-line judges as whole processes (through bin/, on the project's Node) on large seeded inputs
 * and prints, per judge, the median wall time, the time per case and the peak memory (from /usr/bin/time).
 * bin/fool-solve is timed on the search's hardest known position against a bare `node -e 0`.
 * With --base, a second checkout (built) is run too, alternating with this one run by run, and the two outputs
 * are compared byte for byte. Figures only: nothing here passes or fails on time.
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Command } from "commander";
import { performance } from "node:perf_hooks";
import { wholeNumber } from "../bin/src/lib/arguments";
import { writePatienceInput, writeTractorInput } from "./judge-inputs";

const ROOT = path.resolve(__dirname, "..", "..");
/** The hardest position of `npm run bench:fool`'s search. */
const HARDEST_FOOL_POSITION = "7D AH 7C 8S AS 7S 6D 7H AC *\nTD\n";

interface Measure {
  seconds: number;
  peakKiB: number;
}

const positiveInteger = wholeNumber(1);

interface Build {
  name: string;
  root: string;
}

/** One whole process: `command args < input > output`, timed by /usr/bin/time (wall seconds, peak RSS). */
function timedRun(command: string, args: readonly string[], input: string, output: string): Measure {
  const stdin = openSync(input, "r");
  const stdout = openSync(output, "w");
  try {
    // Wall time from here (/usr/bin/time's own is in 10 ms steps, too coarse for a start-up); peak RSS from it.
    const start = performance.now();
    const result = spawnSync("/usr/bin/time", ["-f", "%M", command, ...args], {
      stdio: [stdin, stdout, "pipe"],
      encoding: "utf8",
    });
    const seconds = (performance.now() - start) / 1000;
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr}`);
    return { seconds, peakKiB: Number(result.stderr.trim().split("\n").at(-1)) };
  } finally {
    closeSync(stdin);
    closeSync(stdout);
  }
}

function median(values: readonly number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Runs each build `runs` times on the input, alternating builds, and reports medians per build. */
function compareBuilds(
  label: string,
  judge: string,
  cases: number,
  input: string,
  builds: readonly Build[],
  runs: number,
  folder: string,
): void {
  const times = builds.map(() => [] as Measure[]);
  for (let run = 0; run < runs; run++) {
    builds.forEach((build, index) => {
      times[index].push(
        timedRun(path.join(build.root, "bin", judge), [], input, path.join(folder, `${judge}.${index}.out`)),
      );
    });
  }
  builds.forEach((build, index) => {
    const seconds = median(times[index].map((measure) => measure.seconds));
    const peakMiB = Math.max(...times[index].map((measure) => measure.peakKiB)) / 1024;
    const perCase = ((seconds * 1e6) / cases).toFixed(1);
    console.log(
      `${label} [${build.name}]: ${seconds.toFixed(2)} s median of ${runs} = ${perCase} µs a case; peak ${peakMiB.toFixed(0)} MiB`,
    );
  });
  if (builds.length > 1) {
    const same = builds.every((_, index) =>
      readFileSync(path.join(folder, `${judge}.${index}.out`)).equals(
        readFileSync(path.join(folder, `${judge}.0.out`)),
      ),
    );
    console.log(`${label}: outputs ${same ? "byte-identical" : "DIFFER"} across builds`);
  }
}

/** Start-up: a bare `node -e 0`, then bin/fool-solve on the hardest position, alternating, medians. */
function compareStartUp(builds: readonly Build[], runs: number, folder: string): void {
  const input = path.join(folder, "fool.in");
  writeFileSync(input, HARDEST_FOOL_POSITION);
  const node = path.join(ROOT, "node_modules", ".bin", "node");
  const bare: number[] = [];
  const solves = builds.map(() => [] as number[]);
  for (let run = 0; run < runs; run++) {
    bare.push(timedRun(node, ["-e", "0"], input, "/dev/null").seconds);
    builds.forEach((build, index) =>
      solves[index].push(timedRun(path.join(build.root, "bin", "fool-solve"), [], input, "/dev/null").seconds),
    );
  }
  console.log(`node -e 0: ${(median(bare) * 1000).toFixed(1)} ms median of ${runs}`);
  builds.forEach((build, index) => {
    const ms = median(solves[index]) * 1000;
    console.log(
      `fool-solve hardest position [${build.name}]: ${ms.toFixed(1)} ms median (${(ms - median(bare) * 1000).toFixed(1)} ms beyond node -e 0)`,
    );
  });
}

function generate(file: string, write: (fd: number) => void): string {
  const fd = openSync(file, "w");
  try {
    write(fd);
  } finally {
    closeSync(fd);
  }
  return file;
}

function main(): void {
  const options = new Command("bench-judges")
    .option("--rounds <n>", "Tractor rounds in the tractor-sim input", positiveInteger, 100_000)
    .option("--decks <n>", "decks in the patience input", positiveInteger, 100_000)
    .option("--runs <n>", "whole-process runs per build (medians are reported)", positiveInteger, 5)
    .option("--seed <text>", "seed of the generated inputs", "judges")
    .option("--base <dir>", "another built checkout to compare with, run alternately")
    .parse(process.argv)
    .opts<{ rounds: number; decks: number; runs: number; seed: string; base?: string }>();
  const builds: Build[] = [{ name: "this", root: ROOT }];
  if (options.base) builds.push({ name: "base", root: path.resolve(options.base) });
  const folder = mkdtempSync(path.join(tmpdir(), "judges-bench-"));
  try {
    const tractorInput = generate(path.join(folder, "tractor.in"), (fd) =>
      writeTractorInput(fd, options.rounds, options.seed),
    );
    const patienceInput = generate(path.join(folder, "patience.in"), (fd) =>
      writePatienceInput(fd, options.decks, options.seed),
    );
    compareBuilds(
      `tractor-sim, ${options.rounds} rounds`,
      "tractor-sim",
      options.rounds,
      tractorInput,
      builds,
      options.runs,
      folder,
    );
    compareBuilds(
      `patience, ${options.decks} decks`,
      "patience",
      options.decks,
      patienceInput,
      builds,
      options.runs,
      folder,
    );
    compareStartUp(builds, Math.max(options.runs, 25), folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main();
