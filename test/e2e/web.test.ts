/**
 * The web page (web/, served by the server at /) in headless Chromium: the bundle holds the SDK and no server
 * code; the lobby lists live tables as they come and go; Even-Steven played to the end by clicking and by keyboard.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { gzipSync } from "node:zlib";
import { CardhallClient } from "../../client-sdk";
import { CHROMIUM, tabTo, webSuite } from "./browser";

const WEB = path.resolve(__dirname, "..", "..", "dist", "web");

describe("the web page's bundle", () => {
  const modules = JSON.parse(readFileSync(path.join(WEB, "modules.json"), "utf8")) as string[];

  it("holds the SDK and the protocols, never server code", () => {
    expect(modules).toContain("client-sdk/index.ts");
    expect(modules).toContain("node_modules/@colyseus/sdk/build/index.mjs");
    const serverSide = modules.filter(
      (file) =>
        /^server\//.test(file) ||
        /^rooms\/[^/]+\/(room|state)\.ts$/.test(file) ||
        /^rooms\/kit\/(table|room-kit|seats|log|record)\.ts$/.test(file) ||
        /node_modules\/(@colyseus\/(core|ws-transport|testing|tools)|express|pino|kysely|pg|piscina)\//.test(file),
    );
    expect(serverSide).toEqual([]);
  });

  it("is under 150 KB of JavaScript gzipped", () => {
    const html = readFileSync(path.join(WEB, "index.html"), "utf8");
    const scripts = [...html.matchAll(/src="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]);
    expect(scripts).toHaveLength(1);
    expect(gzipSync(readFileSync(path.join(WEB, scripts[0]))).length).toBeLessThan(150 * 1024);
  });
});

(CHROMIUM ? describe : describe.skip)("the web page in Chromium", () => {
  const suite = webSuite();
  const open = (pathname: string, options?: { phone?: boolean }) => suite.open(pathname, options);
  let client: CardhallClient;
  beforeAll(() => {
    client = new CardhallClient(suite.server.url);
  });

  it("serves the page at / and at every table's address", async () => {
    for (const pathname of ["/", "/watch/abc", "/play/tractor", "/replay/x"]) {
      const response = await fetch(`${suite.server.httpUrl}${pathname}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(/<main id="app"/);
    }
  });

  it("lists a room a script creates, and drops it when it closes", async () => {
    const { page } = await open("/");
    await page.getByRole("button", { name: "Play Even-Steven" }).waitFor();
    const session = await client.playEvenSteven({ name: "scripted" });
    const item = page.locator(`li[data-room="${session.roomId}"]`);
    await item.waitFor();
    expect(await item.textContent()).toMatch(/Even-Steven.*scripted/);
    await page.getByRole("button", { name: "Fool", exact: true }).click();
    await item.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Even-Steven", exact: true }).click();
    await item.waitFor();
    await session.leave();
    await item.waitFor({ state: "detached" });
  });

  async function playEvenSteven(byKeyboard: boolean, phone: boolean): Promise<void> {
    const { page } = await open("/play/evensteven?n=4", { phone });
    const verdict = page.getByRole("status", { name: "Verdict" });
    for (let card = 1; card <= 4; card++) {
      const playable = page.locator(".hand button.card:not([disabled])");
      await playable.first().waitFor();
      await expect(page.getByRole("timer", { name: "Turn clock" }).textContent()).resolves.toMatch(/Your time: \d+ s/);
      // Only playable cards are enabled buttons, and each is named by its notation first.
      expect(await playable.first().getAttribute("aria-label")).toMatch(
        /^(10|[2-9JQKA])[cdhs], (two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of (clubs|diamonds|hearts|spades)$/,
      );
      const before = await page.locator(".covers li").count();
      if (byKeyboard) {
        await tabTo(page, ".hand button.card:not([disabled])");
        await page.keyboard.press("Enter");
      } else {
        await playable.first().click();
      }
      await page.waitForFunction(
        (count) =>
          document.querySelectorAll(".covers li").length > count ||
          document.querySelector('[aria-label="Verdict"]') !== null,
        before,
      );
      if (await verdict.count()) break;
    }
    await verdict.waitFor();
    // The verdict in words (web/src/tables/evensteven.ts): won, lost necessarily or not, or out of time; and the seed.
    expect(await verdict.textContent()).toMatch(
      /^You (won: every card covered|lost — necessarily|lost — unnecessarily|ran out of time).*Seed \d+$/,
    );
    expect(await verdict.textContent()).not.toMatch(/held only none|\b1 of the cards/);
  }

  it("plays Even-Steven to its verdict by clicking", () => playEvenSteven(false, false), 60_000);

  it("plays Even-Steven to its verdict by keyboard, at phone width", () => playEvenSteven(true, true), 60_000);
});
