/**
 * Screenshots of the web page's lobby and every table, into docs/screenshots/ (the README shows them):
 * `npm run screenshots`. It starts a server in this process (keeping its records in a scratch directory, for a
 * replay) and Debian's chromium, plays a little at each table and takes the picture.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Page } from "playwright-core";
import { CardhallClient, TRACTOR_SEATS } from "../client-sdk";
import { playFoolBot } from "../client-sdk/bots/fool";
import { registerBot } from "../test/e2e/identities";
import { launchBrowser, runScript } from "./browser";
import { startServer } from "./server";

const OUT = path.resolve(__dirname, "..", "..", "docs", "screenshots");
/** The password of the pictured account (a scratch server's, gone when the script ends). */
const SCREENSHOT_PASSWORD = "a long password";

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const scratch = mkdtempSync(path.join(os.tmpdir(), "cardhall-screenshots-"));
  const server = await startServer({ recordsIn: scratch });
  const browser = await launchBrowser();
  const client = new CardhallClient(server.url);
  // A phone's picture is its screen; a desktop's the whole page, unless `fullPage` is false (a table whose hand bar
  // is held at the bottom of the window is pictured as the window shows it).
  // `npm run screenshots -- fool patience` takes only the shots whose names begin with those words.
  const only = process.argv.slice(2);
  const wanted = (name: string) => only.length === 0 || only.some((word) => name.startsWith(word));
  const shoot = async (
    name: string,
    pathname: string,
    ready: (page: Page) => Promise<void>,
    phone = false,
    fullPage = !phone,
  ) => {
    if (!wanted(name)) return null;
    const context = await browser.newContext({
      viewport: phone ? { width: 390, height: 844 } : { width: 1100, height: 820 },
    });
    const page = await context.newPage();
    await page.goto(`${server.httpUrl}${pathname}`);
    await ready(page);
    await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage });
    process.stdout.write(`docs/screenshots/${name}.png\n`);
    return context;
  };
  try {
    const bots = await client.watchTractor({ bots: [...TRACTOR_SEATS], botDelayMs: 400, startDelayMs: 0 });
    const fool = await client.watchFoolAiGame({ aiDelayMs: 800 });
    const open = [
      await shoot("lobby", "/", (page) => page.locator("li.room").nth(1).waitFor()),
      await shoot("evensteven", "/play/evensteven?n=7", async (page) => {
        await page.locator(".hand button.card:not([disabled])").first().click();
        await page.waitForFunction(() => document.querySelectorAll(".covers li .card").length >= 2);
      }),
      await shoot("fool", "/play/fool?aiDelayMs=300&seed=11", async (page) => {
        await page.locator(".hand button.card:not([disabled]), .moves button:not([disabled])").first().click();
        // A joker or a Queen opens its ways to be played: take the first.
        if (await page.locator(".choices button").count()) await page.locator(".choices button").first().click();
        // The computer's answer (the list's third line, after the deal's and the person's). The deal is seeded: on
        // some deals the person's move left the turn with them, and no third line came.
        await page.getByRole("list", { name: "Moves" }).locator("li").nth(2).waitFor();
      }),
      await shoot(
        "tractor",
        "/play/tractor?trump=fixed&mainSuit=H&botDelayMs=300&startDelayMs=0",
        async (page) => {
          await page.getByRole("button", { name: "Suggest" }).click();
          await page.getByRole("button", { name: "Bury", exact: true }).click();
          await page.getByRole("button", { name: "Play", exact: true }).waitFor({ timeout: 30_000 });
          await page.getByRole("button", { name: "Suggest" }).click();
          await page.getByRole("button", { name: "Play", exact: true }).click();
          await page.locator(".past-trick").first().waitFor({ timeout: 30_000 });
          await page.getByRole("button", { name: "Play", exact: true }).waitFor({ timeout: 30_000 });
          await page.getByRole("button", { name: "Suggest" }).click();
        },
        false,
        false,
      ),
      // A phone mid-trick: Charles deals and leads, so the person follows with the trick in view above the hand.
      await shoot(
        "tractor-phone",
        "/play/tractor?trump=fixed&mainSuit=H&dealer=Charles&botDelayMs=300&startDelayMs=0",
        async (page) => {
          await page.getByRole("group", { name: "Trick under way" }).waitFor({ timeout: 30_000 });
          await page.getByRole("button", { name: "Play", exact: true }).waitFor({ timeout: 30_000 });
          await page.getByRole("button", { name: "Suggest" }).click();
          await page.waitForTimeout(400); // the last card played has come to rest
        },
        true,
      ),
      await shoot(
        "tractor-watch-phone",
        `/watch/${bots.roomId}`,
        (page) => page.locator(".past-trick").first().waitFor({ timeout: 60_000 }),
        true,
      ),
      await shoot(
        "patience",
        "/play/patience?paceMs=120",
        async (page) =>
          void (await page.waitForFunction(() =>
            /step (2\d|[3-9]\d)/.test(document.querySelector(".status")?.textContent ?? ""),
          )),
      ),
      // The phone's width, and each game's end dialog (Fool's and Even-Steven's played to the end by clicking).
      await shoot(
        "fool-phone",
        "/play/fool?aiDelayMs=300&seed=7",
        (page) => page.locator(".hand button.card").first().waitFor(),
        true,
      ),
      await shoot(
        "fool-watch-phone",
        `/watch/${fool.roomId}`,
        (page) => page.getByRole("list", { name: "Moves" }).locator("li").nth(1).waitFor(),
        true,
      ),
      await shoot("fool-end", "/play/fool?aiDelayMs=0&maxMoves=300", (page) =>
        playToTheEnd(page, ".hand button.card:not([disabled]), .moves button:not([disabled])"),
      ),
      await shoot(
        "evensteven-phone",
        "/play/evensteven?n=7&seed=876390176",
        (page) => page.locator(".hand button.card").first().waitFor(),
        true,
      ),
      await shoot("evensteven-end", "/play/evensteven?n=7&seed=653723903", (page) =>
        playToTheEnd(page, ".hand button.card:not([disabled])"),
      ),
      await shoot(
        "patience-phone",
        "/play/patience?paceMs=200",
        (page) => page.locator(".pile .card").nth(6).waitFor(),
        true,
      ),
      await shoot("patience-end", "/play/patience?paceMs=0", (page) =>
        page.getByRole("dialog").waitFor({ timeout: 60_000 }),
      ),
    ];
    if (wanted("replay-tractor"))
      open.push(
        await shoot("replay-tractor", `/replay/${await finishedTractorRound(client)}`, async (page) => {
          // Part-way through the round's tricks: every hand shown, a trick under way, the history so far.
          await page.locator(".step-count").waitFor();
          const last = Number(/of (\d+)/.exec((await page.locator(".step-count").textContent()) ?? "")?.[1] ?? 0);
          const shown = Math.floor((last * 2) / 3);
          for (let step = 0; step < shown; step++) await page.keyboard.press("ArrowRight");
          await page.locator(".step-count", { hasText: `step ${shown} of` }).waitFor();
        }),
      );
    // The lobby at a phone's width with Tractor's table options open, and Tractor's rules page.
    if (wanted("lobby-options-phone"))
      open.push(
        await shoot(
          "lobby-options-phone",
          "/",
          async (page) => {
            await page.getByRole("region", { name: "Tractor", exact: true }).getByText("Table options").click();
            await page
              .getByRole("region", { name: "Tractor", exact: true })
              .getByLabel("Starting ranks")
              .scrollIntoViewIfNeeded();
          },
          true,
        ),
      );
    // A bot's player page after some rated games against the AI, and its owner's account page (a phone's width)
    // with a new token shown once.
    if (wanted("player") || wanted("account-phone")) {
      const token = await registerBot(server.httpUrl, "Ann", "Ann Bot", SCREENSHOT_PASSWORD);
      await playFoolBot(new CardhallClient(server.url, { token }), { policy: "greedy", games: 8, aiDelayMs: 0 });
    }
    if (wanted("player"))
      open.push(await shoot("player", "/players/Ann%20Bot", (page) => page.locator("svg.rating-chart").waitFor()));
    if (wanted("account-phone"))
      open.push(
        await shoot(
          "account-phone",
          "/account",
          async (page) => {
            const logIn = page.getByRole("form", { name: "Log in" });
            await logIn.getByLabel("Name").fill("Ann");
            await logIn.getByLabel("Password").fill(SCREENSHOT_PASSWORD);
            await logIn.getByRole("button", { name: "Log in" }).click();
            const bot = page.locator("[data-bot='Ann Bot']");
            await bot.getByLabel("Label for a new token").fill("laptop");
            await bot.getByRole("button", { name: "Make a token" }).click();
            await bot.locator(".token-value").waitFor();
            await bot.locator(".token-warning").scrollIntoViewIfNeeded();
          },
          true,
        ),
      );
    if (wanted("rules-tractor-phone"))
      open.push(
        await shoot(
          "rules-tractor-phone",
          "/rules/tractor",
          (page) =>
            page.getByRole("heading", { name: "Throws: the two rules a table can play" }).scrollIntoViewIfNeeded(),
          true,
        ),
      );
    await Promise.all(open.map((context) => context?.close()));
    await bots.leave();
    await fool.leave();
  } finally {
    await browser.close();
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Presses the first control matching `actionable` until the end dialog opens (bounded). */
async function playToTheEnd(page: Page, actionable: string): Promise<void> {
  const ending = page.getByRole("dialog");
  for (let turn = 0; turn < 600 && (await ending.count()) === 0; turn++) {
    await page.locator(`${actionable}, dialog`).first().waitFor({ timeout: 10_000 });
    if (await ending.count()) break;
    // A card laid several ways opens its choices: take one of them next.
    const choices = page.locator(".choices button:not([disabled])");
    await ((await choices.count()) > 0 ? choices : page.locator(actionable))
      .first()
      .click({ timeout: 2_000 })
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  await ending.waitFor();
}

/** The record id of a Tractor round four bots play at full speed (its record is written a moment after it ends). */
async function finishedTractorRound(client: CardhallClient): Promise<string> {
  const bots = await client.watchTractor({
    bots: [...TRACTOR_SEATS],
    trump: "fixed",
    mainSuit: "S",
    botDelayMs: 0,
    startDelayMs: 0,
    roundPauseMs: 60_000,
  });
  await bots.waitForView((view) => view.result !== undefined, 60_000);
  await bots.leave();
  for (let tries = 0; tries < 100; tries++) {
    const round = (await client.games({ game: "tractor" })).games.find(
      (game) => game.roomId === bots.roomId && game.part === "round",
    );
    if (round) return round.id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the Tractor round was not recorded within 10 s");
}

runScript("screenshots", main);
