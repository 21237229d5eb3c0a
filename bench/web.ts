/**
 * The web page's figures: its JavaScript (raw and gzipped), the time from opening /watch/<id> to the first drawn
 * table, and the page's time per update (one redraw after a state change) while following the fastest-paced
 * Tractor table there is: four bots with no delay between moves or rounds. Each figure comes from the page's own
 * performance timings (web/src/timings.ts), read with playwright-core in Debian's chromium.
 * `npm run bench:web -- --opens N --updates N`.
 */
import { readFileSync } from "fs";
import * as path from "path";
import { gzipSync } from "zlib";
import { Command, InvalidArgumentError } from "commander";
import type { Browser } from "playwright-core";
import { CardhallClient, TRACTOR_SEATS, type TractorSpectator } from "../client-sdk";
import { launchBrowser, runScript } from "../scripts/browser";
import { startServer } from "../scripts/server";
import { summarize, type LatencySummary } from "./stats";

const WEB = path.resolve(__dirname, "..", "web");
/** However slow the machine, a run stops: the updates are followed for at most this long. */
const FOLLOW_LIMIT_MS = 120_000;

/** What web/src/timings.ts keeps on the page's window. */
type TimedWindow = { cardhallTimings?: { updates: number[] } };

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new InvalidArgumentError("expected a positive whole number");
  return value;
}

function bundleSizes(): { raw: number; gzip: number } {
  const html = readFileSync(path.join(WEB, "index.html"), "utf8");
  const scripts = [...html.matchAll(/src="\/(assets\/[^"]+\.js)"/g)].map((match) => readFileSync(path.join(WEB, match[1])));
  return { raw: scripts.reduce((sum, bytes) => sum + bytes.length, 0), gzip: scripts.reduce((sum, bytes) => sum + gzipSync(bytes).length, 0) };
}

/**
 * The fastest-paced table worth following: four bots 10 ms apart (with no delay at all a whole match is played
 * between two of the room's patches, and the page draws it once), 0.5 s between rounds.
 */
const FASTEST = "trump=fixed&mainSuit=S&botDelayMs=10&startDelayMs=0&roundPauseMs=500";

function fastestTable(client: CardhallClient): Promise<TractorSpectator> {
  return client.watchTractor({ bots: [...TRACTOR_SEATS], trump: "fixed", mainSuit: "S", botDelayMs: 0, startDelayMs: 0, roundPauseMs: 0 });
}

/** Opens /watch/<id> `opens` times, each in a fresh context; the time of the "cardhall:first-table" mark each time. */
async function firstTable(browser: Browser, httpUrl: string, roomId: string, opens: number): Promise<number[]> {
  const times: number[] = [];
  for (let open = 0; open < opens; open++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${httpUrl}/watch/${roomId}`);
    await page.waitForFunction(() => performance.getEntriesByName("cardhall:first-table").length > 0);
    times.push(await page.evaluate(() => performance.getEntriesByName("cardhall:first-table")[0].startTime));
    await context.close();
  }
  return times;
}

/**
 * Has the page create the fastest table and follow it from its first deal until the match ends (or the time
 * limit passes), match after match, until `count` redraws were timed; their durations and the matches followed.
 */
async function updates(browser: Browser, httpUrl: string, count: number): Promise<{ durations: number[]; matches: number }> {
  const durations: number[] = [];
  const started = Date.now();
  let matches = 0;
  while (durations.length < count && Date.now() - started < FOLLOW_LIMIT_MS) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${httpUrl}/play/tractor?watch=bots&${FASTEST}`);
    await page.waitForFunction(() => /won the match/.test(document.querySelector(".status")?.textContent ?? ""), undefined, { timeout: FOLLOW_LIMIT_MS, polling: 250 });
    durations.push(...(await page.evaluate(() => (window as unknown as TimedWindow).cardhallTimings!.updates)));
    matches++;
    await context.close();
  }
  return { durations: durations.slice(0, count), matches };
}

async function main(): Promise<void> {
  const options = new Command()
    .option("--opens <n>", "times /watch/<id> is opened", positiveInteger, 20)
    .option("--updates <n>", "redraws timed while following the table", positiveInteger, 500)
    .parse()
    .opts<{ opens: number; updates: number }>();
  const sizes = bundleSizes();
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const client = new CardhallClient(server.url);
    const table = await fastestTable(client);
    const opens = summarize(await firstTable(browser, server.httpUrl, table.roomId, options.opens));
    await table.leave();
    const followed = await updates(browser, server.httpUrl, options.updates);
    const perUpdate = summarize(followed.durations);
    const ms = (value: number) => `${value.toFixed(2)} ms`;
    const figures = (summary: LatencySummary) => `median ${ms(summary.p50)}, p95 ${ms(summary.p95)}, p99 ${ms(summary.p99)}, max ${ms(summary.max)}`;
    process.stdout.write(
      [
        `JavaScript: ${(sizes.raw / 1024).toFixed(1)} KB, ${(sizes.gzip / 1024).toFixed(1)} KB gzipped`,
        `opening /watch/<id> to the first drawn table (${opens.count} opens): ${figures(opens)}`,
        `time per update following four bots 10 ms apart (${perUpdate.count} redraws over ${followed.matches} whole matches): ${figures(perUpdate)}`,
      ].join("\n") + "\n",
    );
  } finally {
    await browser.close();
    await server.stop();
  }
}

runScript("bench:web", main);
