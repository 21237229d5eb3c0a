/**
 * The Fool, Even-Steven and Patience tables as people meet them, in headless Chromium: two people at a Fool table
 * under their chosen names (each sees the other's name, and "Your turn" only on their own turn), a spectator who
 * never reads "You", each game's end dialog (Fool's both hands, Even-Steven's verdict explained with the cards
 * never dealt, Patience's end in words) and its Play again in the same seats, the clock's move said in words,
 * Back then Forward keeping the seat, a tab whose seat another took over, and the phone's width (the actions in
 * view, no card outside its seat). No alert ever shows a protocol code.
 */
import type { Page } from "playwright-core";
import { CardhallClient } from "../../client-sdk";
import { CHROMIUM, openPage, webSuite, type WatchedPage } from "./browser";

/** A protocol code as the rooms write them, in parentheses: "(NOT_YOUR_TURN)". */
const PROTOCOL_CODE = /\([A-Z][A-Z_]{2,}\)/;
const ACTIONABLE = ".hand button.card:not([disabled]), .moves button:not([disabled])";

(CHROMIUM ? describe : describe.skip)("the Fool, Even-Steven and Patience tables for people", () => {
  const suite = webSuite();
  const opened: WatchedPage[] = [];
  let client: CardhallClient;
  beforeAll(() => {
    client = new CardhallClient(suite.server.url);
  });
  afterEach(async () => {
    for (const watched of opened.splice(0)) {
      expect(watched.errors).toEqual([]);
      await watched.context.close();
    }
  });

  /** Opens `pathname` in a browser of its own whose person chose `name` in the lobby (kept in local storage). */
  async function openAs(
    name: string | null,
    pathname: string,
    options: { phone?: boolean; session?: Record<string, string> } = {},
  ): Promise<Page> {
    const watched = await openPage(suite.browser, { phone: options.phone });
    if (options.phone) await watched.page.setViewportSize({ width: 390, height: 844 });
    opened.push(watched);
    await watched.context.addInitScript(
      ({ chosen, session }) => {
        if (chosen !== null) localStorage.setItem("cardhall.name", chosen);
        for (const [key, value] of Object.entries(session)) sessionStorage.setItem(key, value);
      },
      { chosen: name, session: options.session ?? {} },
    );
    watched.page.on("dialog", (dialog) => void dialog.accept());
    await watched.page.goto(`${suite.server.httpUrl}${pathname}`);
    return watched.page;
  }

  const status = async (page: Page) => (await page.locator(".status").textContent()) ?? "";

  async function expectNoCodeInAlerts(...pages: Page[]): Promise<void> {
    for (const page of pages) {
      for (const text of await page.getByRole("alert").allTextContents()) expect(text).not.toMatch(PROTOCOL_CODE);
    }
  }

  /** Presses the next sensible control (a card laid several ways opens its choices: one is taken next). */
  async function act(page: Page): Promise<void> {
    const choices = page.locator(".choices button:not([disabled])");
    const target = (await choices.count()) > 0 ? choices.first() : page.locator(ACTIONABLE).first();
    const before = await page.locator(".table").textContent();
    await target.click({ timeout: 2_000 }).catch(() => undefined);
    await page
      .waitForFunction((was) => document.querySelector(".table")?.textContent !== was, before, { timeout: 5_000 })
      .catch(() => undefined);
  }

  it("seats two people at Fool under their names: each reads the other's name, and Your turn only on their own turn; a spectator reads no You; the end shows both hands and Play again keeps the seats", async () => {
    const ann = await openAs("Ann", "/play/fool?mode=two-players&maxMoves=60&turnTimeMs=60000");
    const share = ann.locator(".share");
    await share.waitFor();
    const link = new URL(/https?:\/\/\S+/.exec((await share.textContent())!)![0]);
    const bob = await openAs("Bob", link.pathname + link.search);
    const people = [
      { page: ann, me: "Ann", other: "Bob" },
      { page: bob, me: "Bob", other: "Ann" },
    ];
    for (const { page } of people) await page.locator(".status", { hasText: /Your turn|to move/ }).waitFor();
    for (const { page, me, other } of people) {
      expect(await page.locator(".seat.mine .seat-name").textContent()).toBe(`${me} · You`);
      expect(await page.locator(".seat:not(.mine) .seat-name").textContent()).toBe(other);
      expect(await page.locator(".table").textContent()).not.toMatch(/You's|Friend/);
    }
    const roomId = link.searchParams.get("room")!;
    const watcher = await openAs("Carl", `/watch/${roomId}`);
    await watcher.locator(".status", { hasText: /(Ann|Bob) to move/ }).waitFor();
    expect(await watcher.locator(".seat .seat-name").allTextContents()).toEqual(["Ann", "Bob"]);
    await ann.locator(".table-facts", { hasText: "1 watching" }).waitFor();
    // Every page, the spectator's too, shows the same seal of the deal in play, and nothing of its seed yet.
    const sealed = (
      await Promise.all([ann, bob, watcher].map((page) => page.locator(".table-seal").textContent()))
    ).map((text) => text ?? "");
    expect(sealed[0]).toMatch(/^Deal sealed: [0-9a-f]{8}…$/);
    expect(sealed).toEqual([sealed[0], sealed[0], sealed[0]]);

    // Play the game out, each on their own turn: exactly one page says "Your turn", the other names its mover.
    let turnsSeen = 0;
    for (let turn = 0; turn < 400; turn++) {
      if ((await ann.getByRole("dialog").count()) > 0 && (await bob.getByRole("dialog").count()) > 0) break;
      const lines = await Promise.all(people.map(({ page }) => status(page)));
      if (lines.some((line) => /over/.test(line))) {
        await Promise.all(people.map(({ page }) => page.getByRole("dialog").waitFor()));
        break;
      }
      const movers = lines.flatMap((line, index) => (/Your turn/.test(line) ? [index] : []));
      // Between two pages' updates both may read the same turn for a moment: look again.
      if (movers.length !== 1 || !lines[1 - movers[0]!]!.includes(`${people[movers[0]!]!.me} to move`)) {
        await ann.waitForTimeout(50);
        continue;
      }
      const mover = movers[0]!;
      turnsSeen++;
      expect(await watcher.locator(".table").textContent()).not.toMatch(/\bYou(r)?\b/);
      await act(people[mover]!.page);
    }
    expect(turnsSeen).toBeGreaterThan(0);
    for (const { page, me, other } of people) {
      const ending = page.getByRole("dialog");
      await ending.waitFor();
      expect(await ending.getByRole("heading").first().textContent()).toMatch(
        /^(You are the Fool|You won|No Fool this time)$/,
      );
      // Both hands as they ended: one's own and the other's, by name.
      expect(await ending.getByRole("heading", { name: "Your hand" }).count()).toBe(1);
      expect(await ending.getByRole("heading", { name: `${other}'s hand` }).count()).toBe(1);
      expect(await ending.textContent()).not.toContain(`${me} is the Fool`);
    }
    // The deal is over: its seed is revealed beside the seal that was shown from its start.
    for (const page of [ann, bob, watcher])
      await page.locator(".table-seal", { hasText: new RegExp(`^${sealed[0]} · revealed: seed \\d+$`) }).waitFor();
    // A spectator never reads "You", not at the end either (its page shows no dialog of its own).
    expect(await watcher.locator("main").textContent()).not.toMatch(/\bYou(r)?\b/);
    await expectNoCodeInAlerts(ann, bob, watcher);

    // Play again: the next game, in the same seats, for both (Bob closed his dialog to look at the table: its New game waits there).
    await bob.getByRole("dialog").getByRole("button", { name: "Close" }).click();
    expect(await bob.locator(".action-bar").getByRole("button", { name: "New game" }).isEnabled()).toBe(true);
    await ann.getByRole("dialog").getByRole("button", { name: "Play again" }).click();
    for (const { page, me, other } of people) {
      await page.locator(".status", { hasText: /^Game 2 / }).waitFor();
      await page.getByRole("dialog").waitFor({ state: "detached" });
      expect(await page.locator(".seat.mine .seat-name").textContent()).toBe(`${me} · You`);
      expect(await page.locator(".seat:not(.mine) .seat-name").textContent()).toBe(other);
    }
  }, 120_000);

  it("says when the clock played for the person, and names the computer as Computer", async () => {
    const page = await openAs("Dora", "/play/fool?aiDelayMs=10&turnTimeMs=600");
    await page.getByRole("status").filter({ hasText: "The clock played for you" }).waitFor({ timeout: 20_000 });
    expect(await page.locator(".seat:not(.mine) .seat-name").textContent()).toBe("Computer");
    expect(await page.getByRole("list", { name: "Moves" }).textContent()).toContain(
      "your time ran out: the computer moved for you",
    );
    expect(await page.locator("main").textContent()).not.toMatch(/AI \(ai\)|draw 0|draws 0/);
  }, 60_000);

  it("keeps sound off until the person turns it on; then the game's cues are played, made in the page", async () => {
    // Seed 1 deals the person the first turn.
    const { page } = await suite.open("/play/fool?aiDelayMs=50&seed=1");
    // Count the tones the page makes (Web Audio oscillators); nothing is fetched for sound.
    await page.evaluate(() => {
      const counted = window as unknown as { tones: number };
      counted.tones = 0;
      const original = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function (this: AudioContext) {
        counted.tones++;
        return original.call(this);
      };
    });
    const toggle = page.getByRole("button", { name: "Sound" });
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    await page.locator(".hand button.card").first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { tones: number }).tones)).toBe(0);
    await toggle.click();
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    expect(await page.evaluate(() => localStorage.getItem("cardhall.sound"))).toBe("on");
    const afterToggle = await page.evaluate(() => (window as unknown as { tones: number }).tones);
    expect(afterToggle).toBeGreaterThan(0);
    // The person moves until the computer's answer (its card, or the person's next turn) is heard: a few moves at most.
    // A card is laid (or its way chosen) before Pass, and Pass before Draw: drawing keeps the turn and makes no sound.
    const tones = () => page.evaluate(() => (window as unknown as { tones: number }).tones);
    const controls = [
      page.locator(".choices button:not([disabled])"),
      page.locator(".hand button.card:not([disabled])"),
      page.locator(".moves").getByRole("button", { name: "Pass", disabled: false }),
      page.locator(".moves").getByRole("button", { name: "Draw", disabled: false }),
    ];
    for (let move = 0; move < 10 && (await tones()) === afterToggle; move++) {
      for (const control of controls) {
        if ((await control.count()) === 0) continue;
        await control.first().click();
        break;
      }
      await page
        .waitForFunction((before) => (window as unknown as { tones: number }).tones > before, afterToggle, {
          timeout: 3_000,
        })
        .catch(() => undefined);
    }
    expect(await tones()).toBeGreaterThan(afterToggle);
    await toggle.click();
    expect(await page.evaluate(() => localStorage.getItem("cardhall.sound"))).toBeNull();
  }, 60_000);

  it("explains an Even-Steven loss that was necessary, shows the cards never dealt, and plays again with the same hand size", async () => {
    // The statement's first sample: 4h 2d Qs Jc against 8c Qc 9s 6s cannot win whatever the order.
    const page = await openAs("Eve", "/play/evensteven?n=4&seed=876390176");
    await page.locator(".status", { hasText: /Your turn/ }).waitFor();
    const ending = page.getByRole("dialog");
    for (let card = 0; card < 4 && (await ending.count()) === 0; card++) await act(page);
    await ending.waitFor();
    expect(await ending.getByRole("heading").first().textContent()).toBe("You lost — necessarily");
    expect(await ending.textContent()).toMatch(/no order of play could have won with this hand/);
    const never = ending.getByRole("group", { name: "Never dealt" }).getByRole("img");
    expect(await never.count()).toBeGreaterThan(0);
    expect(
      (await never.evaluateAll((cards) => cards.map((card) => card.getAttribute("aria-label")!.split(",")[0]))).every(
        (card) => ["Qc", "9s", "6s"].includes(card),
      ),
    ).toBe(true);
    expect(await ending.getByRole("group", { name: "The hand as dealt" }).getByRole("img").count()).toBe(4);
    await ending.getByRole("button", { name: "Play again" }).click();
    await page.locator(".status", { hasText: /^Game 2 · card 1 of 4/ }).waitFor();
    await ending.waitFor({ state: "detached" });
    expect(await page.locator(".hand button.card").count()).toBe(4);
    await expectNoCodeInAlerts(page);
  }, 60_000);

  it("shows the order of play that would have won an Even-Steven game lost unnecessarily", async () => {
    // The second sample (Kd 8c As 5s against 3s 6h Kh 5c) wins played well; the highest cards first lose.
    const page = await openAs("Fay", "/play/evensteven?n=4&seed=653723903");
    const ending = page.getByRole("dialog");
    for (let card = 0; card < 4 && (await ending.count()) === 0; card++) {
      await page.locator(".hand button.card:not([disabled])").first().waitFor();
      const before = await page.locator(".covers").textContent();
      await page.locator(".hand button.card:not([disabled])").last().click();
      await page.waitForFunction((was) => document.querySelector(".covers")?.textContent !== was, before);
    }
    await ending.waitFor();
    expect(await ending.getByRole("heading").first().textContent()).toBe("You lost — unnecessarily");
    const order = ending.getByRole("list", { name: "The order that would have won" }).getByRole("listitem");
    expect(await order.count()).toBe(4);
  }, 60_000);

  it("ends a Patience deal in words with its piles, and deals again from the dialog", async () => {
    const page = await openAs("Gus", "/play/patience?paceMs=0");
    const ending = page.getByRole("dialog");
    await ending.waitFor({ timeout: 60_000 });
    const title = (await ending.getByRole("heading").first().textContent())!;
    expect(title).toMatch(/^(Finished: all 52 cards dealt|Overflowed at card \d+)$/);
    expect(await ending.textContent()).toMatch(/piles? (is|are) left, holding|had nowhere to go/);
    expect(await ending.getByRole("group", { name: "Piles at the end" }).count()).toBe(1);
    await ending.getByRole("button", { name: "Deal again" }).click();
    await page.locator(".status", { hasText: /^Deal 2 / }).waitFor();
    expect(await page.locator(".status").textContent()).toContain("owner: You");
  }, 90_000);

  it("says a refusal in a sentence without its code, and clears it with the next action", async () => {
    const page = await openAs("Kim", "/play/patience?paceMs=200&paused=true");
    await page.getByRole("button", { name: "Step" }).waitFor();
    await page.getByLabel("Pace (ms)").fill("999999");
    await page.getByRole("button", { name: "Set pace" }).click();
    const refusal = page.locator(".notice");
    await page.waitForFunction(() => (document.querySelector(".notice")?.textContent ?? "") !== "");
    const said = (await refusal.textContent())!;
    expect(said).toMatch(/^[A-Z].*\.$/);
    expect(said).not.toMatch(PROTOCOL_CODE);
    expect(said).not.toMatch(/\b[A-Z]{2,}_[A-Z_]+\b/);
    expect(said).toBe("The pace is a whole number of milliseconds from 0 to 10,000.");
    await page.getByRole("button", { name: "Step" }).click();
    await page.waitForFunction(() => (document.querySelector(".notice")?.textContent ?? "") === "");
  }, 60_000);

  it("keeps the Fool seat through Back then Forward", async () => {
    const page = await openAs("Hal", "/");
    // Into the table by a link of the page's own, as the lobby's are.
    await page.evaluate(() => {
      const link = Object.assign(document.createElement("a"), {
        href: "/play/fool?aiDelayMs=50&turnTimeMs=60000",
        textContent: "Play",
      });
      link.dataset.link = "";
      document.body.append(link);
      link.click();
    });
    await page.locator(".hand button.card").first().waitFor();
    await page.waitForURL(/\/play\/fool\?room=/);
    const table = page.url();
    const hand = async () =>
      (
        await page
          .locator(".seat.mine .hand")
          .getByRole("button")
          .evaluateAll((cards) => cards.map((card) => card.getAttribute("aria-label")))
      ).sort();
    await page.locator(".status", { hasText: /Your turn/ }).waitFor({ timeout: 20_000 });
    const held = await hand();
    // Back asks first: staying keeps the table and its address (the room's, for a reload).
    page.removeAllListeners("dialog");
    page.once("dialog", (dialog) => void dialog.dismiss());
    await page.goBack();
    await page.waitForURL(table);
    expect(await page.locator(".hand button.card").count()).toBe(held.length);
    page.on("dialog", (dialog) => void dialog.accept());
    await page.goBack(); // asked again and accepted: the page leaves the seat held
    await page
      .getByRole("button", { name: "Play Fool against the AI" })
      .or(page.locator(".page-lobby"))
      .first()
      .waitFor();
    await page.goForward();
    await page.locator(".hand button.card").first().waitFor();
    expect(page.url()).toBe(table);
    expect(await page.locator(".status").textContent()).toMatch(/^Game 1 · Your turn/);
    expect(await hand()).toEqual(held);
    expect(await page.locator(".seat.mine .seat-name").textContent()).toBe("Hal · You");
    await expectNoCodeInAlerts(page);
  }, 60_000);

  it.each([
    ["Even-Steven", "evensteven", "n=6"],
    ["Fool", "fool", "aiDelayMs=50&turnTimeMs=60000"],
  ])(
    "says so in the old tab when another tab takes its %s seat over, and offers nothing to press there",
    async (_title, game, options) => {
      const first = await openAs("Ivy", `/play/${game}?${options}`);
      await first.locator(".hand button.card").first().waitFor();
      await first.waitForURL(/\?room=/);
      const roomId = new URL(first.url()).searchParams.get("room")!;
      const token = await first.evaluate((id) => sessionStorage.getItem(`cardhall.seat.${id}`), roomId);
      const second = await openAs("Ivy", `/play/${game}?room=${roomId}`, {
        session: { [`cardhall.seat.${roomId}`]: token! },
      });
      await second.locator(".hand button.card").first().waitFor();
      await first
        .getByRole("alert")
        .filter({ hasText: "This seat is now played from another tab or window" })
        .waitFor();
      expect(await first.locator(".table button:not([disabled])").count()).toBe(0);
      expect(await second.locator(".seat.mine .seat-name, .hand h2").first().textContent()).toMatch(/You|Your hand/);
      await expectNoCodeInAlerts(first, second);
    },
    60_000,
  );

  it("fits a phone: the hand and the actions in view, no card outside its seat", async () => {
    const watcher = await client.watchFoolAiGame({ aiDelayMs: 100 });
    const pages = [
      await openAs("Jo", "/play/fool?aiDelayMs=50&seed=11", { phone: true }),
      await openAs("Jo", `/watch/${watcher.roomId}`, { phone: true }),
      await openAs("Jo", "/play/evensteven?n=13", { phone: true }),
      // A deal that finishes with all sixteen piles: its ending's line, as the original program prints it, is long.
      await openAs("Jo", "/play/patience?paceMs=20&seed=98", { phone: true }),
    ];
    await pages[0]!.locator(".hand button.card").first().waitFor();
    await pages[1]!.locator(".seat .backs").first().waitFor();
    await pages[2]!.locator(".hand button.card").first().waitFor();
    await pages[3]!.getByRole("status", { name: "Deal over" }).waitFor({ timeout: 20_000 });
    for (const page of pages) {
      const layout = await page.evaluate(() => {
        const inside = (inner: DOMRect, outer: DOMRect) =>
          inner.left >= outer.left - 0.5 &&
          inner.right <= outer.right + 0.5 &&
          inner.top >= outer.top - 0.5 &&
          inner.bottom <= outer.bottom + 0.5;
        const overflowing = Array.from(document.querySelectorAll(".seat, .pile, .hand, .action-bar")).flatMap((box) =>
          Array.from(box.querySelectorAll(".card"))
            .filter((card) => !inside(card.getBoundingClientRect(), box.getBoundingClientRect()))
            .map((card) => card.getAttribute("aria-label") ?? "a back"),
        );
        const bar = document.querySelector(".action-bar")?.getBoundingClientRect();
        return {
          overflowing,
          pageWidth: document.documentElement.scrollWidth,
          bar: bar && { top: bar.top, bottom: bar.bottom },
        };
      });
      expect(layout.overflowing).toEqual([]);
      expect(layout.pageWidth).toBeLessThanOrEqual(390);
      if (layout.bar) {
        expect(layout.bar.top).toBeGreaterThanOrEqual(0);
        expect(layout.bar.bottom).toBeLessThanOrEqual(844);
      }
    }
    // The person's controls are in the bar: Fool's hand and Draw, Even-Steven's hand, Patience's owner's buttons.
    expect(await pages[0]!.locator(".action-bar").getByRole("button", { name: "Draw" }).count()).toBe(1);
    expect(await pages[2]!.locator(".action-bar .hand button.card").count()).toBe(13);
    expect(
      await pages[3]!
        .locator(".action-bar")
        .getByRole("button", { name: /Pause|Resume/ })
        .count(),
    ).toBe(1);
    await watcher.leave();
  }, 60_000);
});
