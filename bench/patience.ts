/**
 * Shuffling Patience benchmark: plays many uniformly shuffled deals and prints the simulator's speed and how
 * often the 4×4 grid overflows, with a 95% confidence interval. `npm run bench:patience -- --deals N --seed S`.
 */
import { Command, InvalidArgumentError } from "commander";
import { SingleBar, Presets } from "cli-progress";
import { seededRandom } from "../rooms/kit/random";
import { shuffledDeck } from "../rooms/patience/cards";
import { simulate } from "../rooms/patience/engine";
import { wilsonInterval } from "./stats";

const PROGRESS_EVERY = 10_000;

interface Tally {
  deals: number;
  overflows: number;
  overflowCardTotal: number;
  pileTotalWhenFinished: number;
}

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new InvalidArgumentError("expected a positive whole number");
  return value;
}

function play(deals: number, seed: string, onProgress: (done: number) => void): Tally {
  const random = seededRandom(seed);
  const tally: Tally = { deals, overflows: 0, overflowCardTotal: 0, pileTotalWhenFinished: 0 };
  for (let deal = 1; deal <= deals; deal++) {
    const outcome = simulate(shuffledDeck(random));
    if (outcome.kind === "overflowed") {
      tally.overflows++;
      tally.overflowCardTotal += outcome.cardNumber;
    } else {
      tally.pileTotalWhenFinished += outcome.pileSizes.length;
    }
    if (deal % PROGRESS_EVERY === 0) onProgress(deal);
  }
  return tally;
}

function percent(fraction: number): string {
  return (100 * fraction).toFixed(3) + "%";
}

function report(tally: Tally, seed: string, seconds: number): void {
  const { low, high } = wilsonInterval(tally.overflows, tally.deals);
  const finished = tally.deals - tally.overflows;
  const lines = [
    `deals:               ${tally.deals} (seed "${seed}", uniformly shuffled 52-card decks)`,
    `time:                ${seconds.toFixed(2)} s (shuffle + simulate, one core)`,
    `deals per second:    ${Math.round(tally.deals / seconds)}`,
    `overflow rate:       ${percent(tally.overflows / tally.deals)} (${tally.overflows} deals), ` +
      `95% CI ${percent(low)} – ${percent(high)} (Wilson)`,
    `mean overflow card:  ${tally.overflows > 0 ? (tally.overflowCardTotal / tally.overflows).toFixed(2) : "-"}`,
    `mean piles at end:   ${finished > 0 ? (tally.pileTotalWhenFinished / finished).toFixed(2) : "-"} (deals that finished)`,
  ];
  process.stdout.write(lines.join("\n") + "\n");
}

function main(): void {
  const options = new Command("bench-patience")
    .option("--deals <n>", "how many deals to play", positiveInteger, 1_000_000)
    .option("--seed <text>", "seed of the shuffles", "patience-bench")
    .parse(process.argv)
    .opts<{ deals: number; seed: string }>();

  const bar = process.stderr.isTTY ? new SingleBar({ etaBuffer: 50 }, Presets.shades_classic) : null;
  bar?.start(options.deals, 0);
  const started = process.hrtime.bigint();
  const tally = play(options.deals, options.seed, (done) => bar?.update(done));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  bar?.stop();
  report(tally, options.seed, seconds);
}

main();
