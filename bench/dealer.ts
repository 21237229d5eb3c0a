/**
 * Even-Steven CLI throughput: 10,000 games through `bin/dealer bin/evensteven`, timed end to end (both processes'
 * start-up included), and the start-up alone (one game) for comparison. Prints figures; never passes or fails.
 */
import { spawnSync } from "node:child_process";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");
const GAMES = Number(process.env.GAMES ?? 10_000);
const RUNS = 3;

function gameLines(count: number): string {
  return (
    Array.from({ length: count }, (_, i) => `${(i % 13) + 1} ${((i * 2654435761) % 2147483646) + 1}`).join("\n") + "\n"
  );
}

function timeDealer(input: string): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(path.join(ROOT, "bin", "dealer"), [path.join(ROOT, "bin", "evensteven")], {
    input,
    maxBuffer: 64 << 20,
  });
  if (run.status !== 0) throw new Error(`dealer failed: ${run.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const startup = median(Array.from({ length: RUNS }, () => timeDealer(gameLines(1))));
const full = median(Array.from({ length: RUNS }, () => timeDealer(gameLines(GAMES))));
console.log(`bin/dealer bin/evensteven, median of ${RUNS} runs`);
console.log(`  1 game (start-up of both programs): ${(startup * 1000).toFixed(0)} ms`);
console.log(
  `  ${GAMES} games: ${full.toFixed(2)} s = ${Math.round(GAMES / full)} games/s (${Math.round(GAMES / (full - startup))} games/s after start-up)`,
);
