/**
 * A server at capacity (BUSY_REFUSE_AT) as a person sees it in headless Chromium: the lobby still opens; a new
 * table says in words why it waits, counts the wait down, and opens by itself once the server takes joins again.
 * The server runs in this process so that the test says when its main thread is "busy" (the guard's samples are
 * given here; its sampler is tested in test/unit/busy-guard.test.ts).
 */
import type { Browser } from "playwright-core";
import { makeServer } from "../../server/app";
import { BusyGuard } from "../../server/capacity/busy-guard";
import { listeningTestServer, type RoomTestServer } from "../rooms/test-server";
import { takeConsole } from "../setup/console";
import { CHROMIUM, launchBrowser, openPage, type WatchedPage } from "./browser";

(CHROMIUM ? describe : describe.skip)("a server at capacity, in Chromium", () => {
  let colyseus: RoomTestServer;
  let guard: BusyGuard;
  let browser: Browser;
  let httpUrl: string;

  beforeAll(async () => {
    guard = new BusyGuard(0.9);
    colyseus = await listeningTestServer(makeServer({ gracefullyShutdown: false, busyGuard: guard }));
    httpUrl = colyseus.url.replace(/^ws:/, "http:");
    browser = await launchBrowser();
  }, 60_000);

  afterEach(() => colyseus.cleanup());

  afterAll(async () => {
    await browser?.close();
    await colyseus?.shutdown();
    expect(takeConsole(/shutting down/)).toHaveLength(1); // the server's own word as it stops, inside this block
  });

  /** The browser logs each refused request as a console error: those, and nothing else, are expected. */
  function expectOnlyRefusals(watched: WatchedPage): void {
    expect(watched.errors.length).toBeGreaterThan(0);
    for (const error of watched.errors) expect(error).toMatch(/status of 503/);
  }

  it("opens the lobby, and a new table waits in plain words, counting down, then opens by itself", async () => {
    guard.observe(0.97);
    guard.observe(0.99);
    const watched = await openPage(browser, { phone: true });
    const { page } = watched;
    try {
      await page.goto(`${httpUrl}/`);
      await page.locator("ul.rooms li").first().waitFor(); // drawn once the lobby room is joined
      expect(await page.getByRole("alert").count()).toBe(0);

      await page.goto(`${httpUrl}/play/evensteven?n=4`);
      const notice = page.getByRole("status").filter({ hasText: "This page could not open yet." });
      await notice.waitFor();
      expect(await notice.textContent()).toBe(
        "This page could not open yet. The server is at capacity and takes no new players for a moment, so that the games under way keep their pace.",
      );
      expect(await page.locator(".asking-again").textContent()).toMatch(
        /^This page asks again in ([1-9]|10) seconds?\.$/,
      ); // the server's 5 s, spread by up to as long again
      expect(await page.getByRole("link", { name: "Back to the lobby" }).isVisible()).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true); // nothing wider than a phone

      guard.observe(0.4); // a quiet second: the next try is taken
      await page.locator(".hand button.card:not([disabled])").first().waitFor({ timeout: 15_000 });
      expect(page.url()).toMatch(/\/play\/evensteven\?.*room=/);
      expectOnlyRefusals(watched);
    } finally {
      await watched.context.close();
    }
  }, 60_000);
});
