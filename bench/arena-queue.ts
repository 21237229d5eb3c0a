/**
 * The rated queues' pairing and pace (docs/arena.md): PLAYERS bots with tokens, each queueing for rated Fool again
 * as soon as its game ends, for SECONDS; then TRACTOR_PLAYERS bots queueing for Tractor tables, each leaving as
 * soon as it is seated (a match is long; the pairing is what is measured); then one bot alone in each queue,
 * HOUSE_ROUNDS times, which the house's bots fill after HOUSE_AFTER_MS (docs/arena.md, "House bots"). Reports games
 * a minute and the time from joining the queue to the seat (p50/p95/max). A server of this build with its records in a scratch
 * directory; the bots play the greedy policy through the SDK. Prints figures, never passes or fails.
 *
 *   npm run bench:arena-queue       (PLAYERS, DURATION_S, TRACTOR_PLAYERS, TRACTOR_ROUNDS change the counts)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CardhallClient } from "../client-sdk";
import { playFoolGame } from "../client-sdk/bots/fool";
import { greedyPolicy } from "../rooms/fool/bots";
import { seededRandom } from "../rooms/kit/random";
import { registerBot } from "../test/e2e/identities";
import { freePort } from "../test/e2e/ports";
import { startServer, stopServer } from "./server";
import { summarize, type LatencySummary } from "./stats";

const ROOT = path.resolve(__dirname, "..", "..");
const PLAYERS = Number(process.env.PLAYERS ?? 16);
const SECONDS = Number(process.env.DURATION_S ?? 60);
const TRACTOR_PLAYERS = Number(process.env.TRACTOR_PLAYERS ?? 16);
const TRACTOR_ROUNDS = Number(process.env.TRACTOR_ROUNDS ?? 5);
const HOUSE_ROUNDS = Number(process.env.HOUSE_ROUNDS ?? 3);
const HOUSE_AFTER_MS = process.env.HOUSE_AFTER_MS ?? "10000";

async function bots(httpUrl: string, url: string, count: number, prefix: string): Promise<CardhallClient[]> {
  const tokens: string[] = [];
  for (let index = 0; index < count; index++)
    tokens.push(await registerBot(httpUrl, `${prefix} Owner ${index}`, `${prefix} Bot ${index}`));
  return tokens.map((token) => new CardhallClient(url, { token }));
}

/** Each Fool bot queues, plays its game to the end and queues again until the time is up. */
async function foolRun(clients: CardhallClient[]): Promise<{ games: number; pairMs: number[]; ms: number }> {
  const pairMs: number[] = [];
  let seatsPlayed = 0;
  const started = Date.now();
  const until = started + SECONDS * 1000;
  await Promise.all(
    clients.map(async (client, index) => {
      const random = seededRandom(index + 1);
      while (Date.now() < until) {
        const asked = Date.now();
        const player = await client.playRatedFool({ waitMs: 60_000 });
        pairMs.push(Date.now() - asked);
        await playFoolGame(player, greedyPolicy, random, { timeoutMs: 60_000 });
        seatsPlayed++;
        await player.leave();
      }
    }),
  );
  return { games: seatsPlayed / 2, pairMs, ms: Date.now() - started };
}

/** Tractor bots queue in waves; each is seated, then leaves: the time to form a table of four. */
async function tractorRun(clients: CardhallClient[]): Promise<number[]> {
  const pairMs: number[] = [];
  for (let round = 0; round < TRACTOR_ROUNDS; round++) {
    await Promise.all(
      clients.map(async (client) => {
        const asked = Date.now();
        const player = await client.playRatedTractor({ waitMs: 60_000 });
        pairMs.push(Date.now() - asked);
        await player.leave();
      }),
    );
  }
  return pairMs;
}

/** A lone bot queues, is seated against the house, and leaves: the time the house takes to fill its table. */
async function houseRun(client: CardhallClient, game: "fool" | "tractor"): Promise<number[]> {
  const pairMs: number[] = [];
  for (let round = 0; round < HOUSE_ROUNDS; round++) {
    const asked = Date.now();
    const player =
      game === "fool"
        ? await client.playRatedFool({ waitMs: 60_000 })
        : await client.playRatedTractor({ waitMs: 60_000 });
    pairMs.push(Date.now() - asked);
    await player.leave();
  }
  return pairMs;
}

const ms = (summary: LatencySummary) =>
  `p50 ${summary.p50.toFixed(0)} ms, p95 ${summary.p95.toFixed(0)} ms, max ${summary.max.toFixed(0)} ms`;

async function main(): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cardhall-queue-bench-"));
  const port = await freePort();
  const server = await startServer(ROOT, port, {
    DATA_DIR: scratch,
    LOG_LEVEL: "warn",
    SIGNUPS_PER_HOUR: "0",
    TOKENS_PER_HOUR: "0",
    JOINS_PENDING_PER_ADDRESS: "0",
    HOUSE_AFTER_MS,
  });
  const httpUrl = `http://127.0.0.1:${port}`;
  const url = `ws://127.0.0.1:${port}`;
  try {
    const fool = await foolRun(await bots(httpUrl, url, PLAYERS, "Fool"));
    const foolPairs = summarize(fool.pairMs);
    console.log(
      `rated Fool, ${PLAYERS} bots queueing again after each game for ${SECONDS} s: ${fool.games} games, ${((fool.games * 60_000) / fool.ms).toFixed(1)} games a minute; time to pair (${foolPairs.count} pairings): ${ms(foolPairs)}`,
    );
    const tractor = summarize(await tractorRun(await bots(httpUrl, url, TRACTOR_PLAYERS, "Tractor")));
    console.log(
      `rated Tractor, ${TRACTOR_PLAYERS} bots queueing at once, ${TRACTOR_ROUNDS} waves: time to a table of four (${tractor.count} seats): ${ms(tractor)}`,
    );
    const [lone] = await bots(httpUrl, url, 1, "Lone");
    for (const game of ["fool", "tractor"] as const) {
      const house = summarize(await houseRun(lone, game));
      console.log(
        `rated ${game}, one bot alone (HOUSE_AFTER_MS ${HOUSE_AFTER_MS}), ${HOUSE_ROUNDS} times: time to a table with the house's bots: ${ms(house)}`,
      );
    }
  } finally {
    await stopServer(server);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
