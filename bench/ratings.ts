/**
 * npm run bench:ratings -- [--runs N] [--seed S]
 *
 * How honest and how sharp the leaderboard's 95% intervals are, by simulation. Two players, the first winning each
 * game with a known chance p, play G games rated one by one, N times over, under OpenSkill's defaults and under the
 * options cardhall rates with (server/records/standings.ts, RATING_OPTIONS). For each p and G it prints:
 * - separated: how often the players' intervals (mu ± 1.96 sigma) no longer overlap, the first above;
 * - coverage: how often the gap's interval (mu₁ − mu₂ ± 1.96 √(sigma₁² + sigma₂²)) holds the true gap, which the
 *   model puts at c·ln(p / (1 − p)) with c = √2·beta (Plackett-Luce between two players whose sigmas are small);
 * - sigma: the mean sigma at the end.
 * At p = 0.5 "separated" is the rate of false separations: it should be 0. Figures only: nothing here passes or fails.
 */
import { Command, InvalidArgumentError } from "commander";
import { rate, rating, type Options, type Rating } from "openskill";
import { seededRandom, type Random } from "../rooms/kit/random";
import { RATING_OPTIONS } from "../server/records/standings";

const CHANCES = [0.5, 0.6, 0.655, 0.72, 0.85];
const GAME_COUNTS = [200, 400, 600, 1000];
const BETA = 25 / 6;

interface Outcome {
  separated: boolean;
  covered: boolean;
  sigma: number;
}

function playRated(chance: number, games: number, options: Options, random: Random): Outcome {
  let [first, second]: Rating[] = [rating(), rating()];
  for (let game = 0; game < games; game++) {
    const firstWins = random() < chance;
    const [[a], [b]] = rate([[first], [second]], { ...options, rank: firstWins ? [1, 2] : [2, 1] });
    [first, second] = [a, b];
  }
  const trueGap = Math.SQRT2 * BETA * Math.log(chance / (1 - chance));
  const gapHalfWidth = 1.96 * Math.hypot(first.sigma, second.sigma);
  return {
    separated: first.mu - 1.96 * first.sigma > second.mu + 1.96 * second.sigma,
    covered: Math.abs(first.mu - second.mu - trueGap) <= gapHalfWidth,
    sigma: (first.sigma + second.sigma) / 2,
  };
}

function percent(count: number, of: number): string {
  return `${((100 * count) / of).toFixed(1)}%`;
}

function simulate(label: string, options: Options, runs: number, seed: string): void {
  console.log(`\n${label}`);
  console.log("| p | games | separated | coverage | mean sigma |");
  console.log("|---|---|---|---|---|");
  for (const chance of CHANCES) {
    for (const games of GAME_COUNTS) {
      const random = seededRandom(`${seed}:${chance}:${games}`);
      const outcomes = Array.from({ length: runs }, () => playRated(chance, games, options, random));
      const separated = outcomes.filter((outcome) => outcome.separated).length;
      const covered = outcomes.filter((outcome) => outcome.covered).length;
      const sigma = outcomes.reduce((sum, outcome) => sum + outcome.sigma, 0) / runs;
      console.log(
        `| ${chance} | ${games} | ${percent(separated, runs)} | ${percent(covered, runs)} | ${sigma.toFixed(2)} |`,
      );
    }
  }
}

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new InvalidArgumentError("expected a positive whole number");
  return value;
}

function main(): void {
  const options = new Command()
    .name("bench:ratings")
    .option("--runs <n>", "simulated pairs of players for each chance and number of games", positiveInteger, 400)
    .option("--seed <seed>", "seed of the simulated results", "ratings-bench")
    .parse(process.argv)
    .opts<{ runs: number; seed: string }>();
  console.log(`runs ${options.runs} per line, seed "${options.seed}"`);
  simulate("OpenSkill's defaults (gamma = sigma / c, tau = 25/300)", {}, options.runs, options.seed);
  simulate("cardhall's options (gamma = 1, tau = 25/3000)", RATING_OPTIONS, options.runs, options.seed);
}

main();
