/**
 * Tractor benchmark: plays whole random rounds through the round engine (deal, bury, every play validated,
 * every trick judged, the round settled), then replays the recorded rounds the way bin/tractor-sim does.
 * Prints rounds per second; it never passes or fails on time.
 *
 *   npm run bench:tractor -- --rounds 100000 --seed 1
 */
import { Command } from "commander";
import { seededRandom } from "../rooms/kit/random";
import { playRandomRound, randomSetup } from "../rooms/tractor/generate";
import { type RecordedRound, replayRound } from "../rooms/tractor/scoring";

interface Options {
  rounds: number;
  seed: string;
}

function timed<T>(work: () => T): [T, number] {
  const start = process.hrtime.bigint();
  const value = work();
  return [value, Number(process.hrtime.bigint() - start) / 1e9];
}

function main(): void {
  const options = new Command("bench-tractor")
    .option("--rounds <n>", "rounds to simulate", (text) => Number.parseInt(text, 10), 100_000)
    .option("--seed <seed>", "seed of the random rounds", "1")
    .parse(process.argv)
    .opts<Options>();
  const random = seededRandom(options.seed);
  const records: RecordedRound[] = [];
  let tricks = 0;
  const [, playSeconds] = timed(() => {
    for (let round = 0; round < options.rounds; round++) {
      const { record } = playRandomRound(randomSetup(random), random);
      tricks += record.tricks.length;
      records.push(record);
    }
  });
  const [winners, replaySeconds] = timed(
    () => records.filter((record) => replayRound(record).matchWinner !== undefined).length,
  );
  const rate = (seconds: number) => Math.round(options.rounds / seconds).toLocaleString("en-US");
  console.log(`rounds: ${options.rounds} (seed ${options.seed}), tricks: ${tricks}, rounds won past Ace: ${winners}`);
  console.log(`play through the round engine: ${playSeconds.toFixed(2)} s, ${rate(playSeconds)} rounds/s`);
  console.log(`replay as tractor-sim does:    ${replaySeconds.toFixed(2)} s, ${rate(replaySeconds)} rounds/s`);
}

main();
