/**
 * The web page's figures: its JavaScript (raw and gzipped), the time from opening /watch/<id> to the first drawn
 * table, and the page's time per update (one redraw after a state change) while following the fastest-paced
 * Tractor table there is: four bots with no delay between moves or rounds. Each figure comes from the page's own
 * performance timings (web/src/timings.ts), read with playwright-core in Debian's chromium.
 * `npm run bench:web -- --opens N --updates N [--base <another build's root>]`: with a base, both builds' servers
 * run as processes of their own and are measured in turns, a batch each, in one run (a shared host's noise swings
 * from second to second; turns taken within a minute see the same machine).
 */
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import { Command, InvalidArgumentError } from "commander";
import type { Browser } from "playwright-core";
import { CardhallClient, TRACTOR_SEATS, type TractorSpectator } from "../client-sdk";
import { launchBrowser, runScript } from "../scripts/browser";
import { freePort } from "../test/e2e/ports";
import { QUIET_SERVER, startServer, stopServer } from "./server";
import { summarize, type LatencySummary } from "./stats";

const THIS_ROOT = path.resolve(__dirname, "..", "..");
/** Each turn of a side-by-side run opens the page this many times and follows one whole match. */
const OPENS_PER_TURN = 5;
/** However slow the machine, a run stops: the updates are followed for at most this long. */
const FOLLOW_LIMIT_MS = 120_000;

/** What web/src/timings.ts keeps on the page's window. */
type TimedWindow = { cardhallTimings?: { updates: number[] } };

function positiveInteger(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new InvalidArgumentError("expected a positive whole number");
  return value;
}

function bundleSizes(root: string): { raw: number; gzip: number } {
  const web = path.join(root, "dist", "web");
  const html = readFileSync(path.join(web, "index.html"), "utf8");
  const scripts = [...html.matchAll(/src="\/(assets\/[^"]+\.js)"/g)].map((match) =>
    readFileSync(path.join(web, match[1])),
  );
  return {
    raw: scripts.reduce((sum, bytes) => sum + bytes.length, 0),
    gzip: scripts.reduce((sum, bytes) => sum + gzipSync(bytes).length, 0),
  };
}

/**
 * The fastest-paced table worth following: four bots 10 ms apart (with no delay at all a whole match is played
 * between two of the room's patches, and the page draws it once), 0.5 s between rounds.
 */
const FASTEST = "trump=fixed&mainSuit=S&botDelayMs=10&startDelayMs=0&roundPauseMs=500";

function fastestTable(client: CardhallClient): Promise<TractorSpectator> {
  return client.watchTractor({
    bots: [...TRACTOR_SEATS],
    trump: "fixed",
    mainSuit: "S",
    botDelayMs: 0,
    startDelayMs: 0,
    roundPauseMs: 0,
  });
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
 * Has the page create the fastest table and follow it from its first deal until the match ends (the benchmark
 * watches the same table through the SDK, so no build's wording is relied on), or the time limit passes; the
 * page's redraw durations.
 */
async function followOneMatch(browser: Browser, httpUrl: string, url: string): Promise<number[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${httpUrl}/play/tractor?watch=bots&${FASTEST}`);
    await page.waitForURL(/\/watch\//, { timeout: 20_000 });
    const roomId = new URL(page.url()).pathname.split("/").pop()!;
    const watcher = await new CardhallClient(url).spectateTractor(roomId);
    await watcher.waitForView((view) => view.phase === "matchOver", FOLLOW_LIMIT_MS).finally(() => watcher.leave());
    return await page.evaluate(() => (window as unknown as TimedWindow).cardhallTimings!.updates);
  } finally {
    await context.close();
  }
}

interface Build {
  name: string;
  root: string;
  port: number;
  server?: ChildProcess;
  opens: number[];
  updates: number[];
  matches: number;
}

/** One turn of a build: a batch of opens of a live table's /watch page, then one whole match followed. */
async function turn(browser: Browser, build: Build, opens: number, updates: number): Promise<void> {
  const httpUrl = `http://127.0.0.1:${build.port}`;
  const url = `ws://127.0.0.1:${build.port}`;
  if (build.opens.length < opens) {
    const table = await fastestTable(new CardhallClient(url));
    build.opens.push(
      ...(await firstTable(browser, httpUrl, table.roomId, Math.min(OPENS_PER_TURN, opens - build.opens.length))),
    );
    await table.leave();
  }
  if (build.updates.length < updates) {
    build.updates.push(...(await followOneMatch(browser, httpUrl, url)));
    build.matches++;
  }
}

async function main(): Promise<void> {
  const options = new Command()
    .option("--opens <n>", "times /watch/<id> is opened", positiveInteger, 20)
    .option("--updates <n>", "redraws timed while following the table", positiveInteger, 500)
    .option("--base <root>", "another build's project root (with its dist/) to measure beside this one")
    .parse()
    .opts<{ opens: number; updates: number; base?: string }>();
  const roots = options.base
    ? [
        { name: "base", root: path.resolve(options.base) },
        { name: "this build", root: THIS_ROOT },
      ]
    : [{ name: "this build", root: THIS_ROOT }];
  const builds: Build[] = [];
  for (const { name, root } of roots)
    builds.push({ name, root, port: await freePort(), opens: [], updates: [], matches: 0 });
  const browser = await launchBrowser();
  try {
    for (const build of builds) build.server = await startServer(build.root, build.port, QUIET_SERVER);
    const started = Date.now();
    for (
      let round = 0;
      builds.some((build) => build.opens.length < options.opens || build.updates.length < options.updates);
      round++
    ) {
      if (Date.now() - started > FOLLOW_LIMIT_MS * 4 * builds.length) break; // however slow the machine, a run stops
      const order = round % 2 === 0 ? builds : [...builds].reverse();
      for (const build of order) await turn(browser, build, options.opens, options.updates);
    }
    for (const build of builds) process.stdout.write(report(build, options.updates));
  } finally {
    await browser.close();
    await Promise.all(builds.map((build) => (build.server ? stopServer(build.server) : undefined)));
  }
}

function report(build: Build, updates: number): string {
  const sizes = bundleSizes(build.root);
  const opens = summarize(build.opens);
  const perUpdate = summarize(build.updates.slice(0, updates));
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const figures = (summary: LatencySummary) =>
    `median ${ms(summary.p50)}, p95 ${ms(summary.p95)}, p99 ${ms(summary.p99)}, max ${ms(summary.max)}`;
  return (
    [
      `${build.name} (${path.relative(process.cwd(), build.root) || "."}):`,
      `  JavaScript: ${(sizes.raw / 1024).toFixed(1)} KB, ${(sizes.gzip / 1024).toFixed(1)} KB gzipped`,
      `  opening /watch/<id> to the first drawn table (${opens.count} opens): ${figures(opens)}`,
      `  time per update following four bots 10 ms apart (${perUpdate.count} redraws over ${build.matches} whole matches): ${figures(perUpdate)}`,
    ].join("\n") + "\n"
  );
}

runScript("bench:web", main);
