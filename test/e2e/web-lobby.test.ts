/**
 * The lobby in headless Chromium: the "Your name" box (kept in the browser, the name a table joins with), each
 * game's table options (the address a start opens, and the options the room is created with), the live tables in
 * plain words (people's names, "Computer", phases, Tractor's throw rule, spectators), and the finished games with
 * their players and results, a newly finished one appearing without a reload; today's ladder leaders.
 */
import type { Page } from "playwright-core";
import { CardhallClient, TRACTOR_SEATS } from "../../client-sdk";
import { playEvenStevenBot } from "../../client-sdk/bots/evensteven";
import { CHROMIUM, webSuite } from "./browser";
import { botClient } from "./identities";
import { optimalPlay } from "../../rooms/evensteven/strategy";
import { readUntil } from "../helpers";

(CHROMIUM ? describe : describe.skip)("the lobby in Chromium", () => {
  const suite = webSuite();
  let client: CardhallClient;
  beforeAll(() => {
    client = new CardhallClient(suite.server.url);
  });

  /** Every address the page goes to by its own links and buttons (history.pushState), in order. */
  async function watchAddresses(page: Page): Promise<() => Promise<string[]>> {
    await page.evaluate(() => {
      const seen: string[] = ((window as unknown as { seenAddresses: string[] }).seenAddresses = []);
      const push = history.pushState.bind(history);
      history.pushState = (data, unused, url) => (seen.push(String(url)), push(data, unused, url));
    });
    return () => page.evaluate(() => (window as unknown as { seenAddresses: string[] }).seenAddresses);
  }

  /** The options of the room the page creates next (the matchmaker's create request). */
  function nextCreate(page: Page, game: string): Promise<Record<string, unknown>> {
    return page
      .waitForRequest((request) => request.method() === "POST" && request.url().includes(`/matchmake/create/${game}`))
      .then((request) => JSON.parse(request.postData() ?? "{}") as Record<string, unknown>);
  }

  async function lobby(page: Page): Promise<void> {
    await page
      .getByRole("textbox", { name: "Your name" })
      .waitFor()
      .catch(async (error: Error) => {
        throw new Error(
          `${error.message}\nthe page at ${page.url()} shows: ${await page.locator("#app").textContent()}`,
        );
      });
    await page.locator("ul.rooms li").first().waitFor();
  }

  it("keeps the name typed in the Your name box, and a table joins with it", async () => {
    const { page } = await suite.open("/");
    await lobby(page);
    const box = page.getByRole("textbox", { name: "Your name" });
    expect(await box.inputValue()).toBe("");
    await box.fill("Ann Example");
    await page.reload();
    await lobby(page);
    expect(await box.inputValue()).toBe("Ann Example");
    const created = nextCreate(page, "fool");
    await page.getByRole("button", { name: "Play Fool against the AI" }).click();
    expect((await created).name).toBe("Ann Example");
    await page.waitForURL(/\/play\/fool\?room=/);
    const roomId = new URL(page.url()).searchParams.get("room")!;
    const listed = (await client.listRooms()).find((room) => room.roomId === roomId);
    expect((listed!.metadata as { players: Array<{ name: string }> }).players.map((seat) => seat.name)).toContain(
      "Ann Example",
    );
  }, 60_000);

  it("starts each game with its table options, and with none at all when none is changed", async () => {
    const { page } = await suite.open("/");
    // Going back from a game under way asks first (web/src/leaving.ts): the person agrees to leave each table.
    page.on("dialog", (dialog) => void dialog.accept());
    await lobby(page);
    const addresses = await watchAddresses(page);
    const game = (name: string) => page.getByRole("region", { name, exact: true });

    // No option changed: the plain address (Tractor always says its rules: checked throws for people's tables).
    await page.getByRole("button", { name: "Play Even-Steven" }).click();
    await page.waitForURL(/\/play\/evensteven\?room=/);
    await page.goBack();
    await lobby(page);

    await game("Even-Steven").getByText("Table options").click();
    await game("Even-Steven").getByLabel("Cards in your hand").selectOption("4");
    const evenSteven = nextCreate(page, "evensteven");
    await page.getByRole("button", { name: "Play Even-Steven" }).click();
    expect((await evenSteven).n).toBe(4);
    await page.locator(".hand button.card").nth(3).waitFor();
    expect(await page.locator(".hand button.card").count()).toBe(4);
    await page.goBack();
    await lobby(page);

    await game("Fool").getByText("Table options").click();
    await game("Fool")
      .getByLabel("Computer opponent")
      .selectOption({ label: "The greedy player (lays the card that hurts most now)" });
    await game("Fool").getByLabel("Time for each move").selectOption("15000");
    const fool = nextCreate(page, "fool");
    await page.getByRole("button", { name: "Play Fool against the AI" }).click();
    expect(await fool).toMatchObject({ ai: "greedy", turnTimeMs: 15_000 });
    await page.waitForURL(/\/play\/fool\?room=/);
    await page.goBack();
    await lobby(page);

    await game("Tractor").getByText("Table options").click();
    expect(await game("Tractor").getByLabel("Rules", { exact: true }).inputValue()).toBe("check-other-hands");
    await game("Tractor").getByLabel("Rules", { exact: true }).selectOption("always-accept");
    await game("Tractor").getByLabel("Starting ranks").selectOption("10,10");
    await game("Tractor").getByLabel("Computer players' speed").selectOption("300");
    const tractor = nextCreate(page, "tractor");
    await page.getByRole("button", { name: "Watch four bots play Tractor" }).click();
    expect(await tractor).toMatchObject({ botDelayMs: 300 });
    await page.waitForURL(/\/watch\//);
    await page.goBack();
    await lobby(page);

    await game("Patience").getByText("Table options").click();
    await game("Patience").getByLabel("Dealing pace").selectOption("1500");
    const patience = nextCreate(page, "patience");
    await page.getByRole("button", { name: "Deal a Patience" }).click();
    expect(await patience).toMatchObject({ paceMs: 1500 });

    expect((await addresses()).filter((address) => address.startsWith("/play/"))).toEqual([
      "/play/evensteven",
      "/play/evensteven?n=4",
      "/play/fool?ai=greedy&turnTimeMs=15000",
      "/play/tractor?watch=bots&throws=always-accept&startRanks=10,10&botDelayMs=300",
      "/play/patience?paceMs=1500",
    ]);
  }, 90_000);

  it("offers the computers' levels: a strong Tractor table and a strong Fool AI, each said on its table", async () => {
    const { page } = await suite.open("/");
    await lobby(page);
    const game = (name: string) => page.getByRole("region", { name, exact: true });
    await game("Tractor").getByText("Table options").click();
    await game("Tractor").getByLabel("Computer players' level").selectOption("strong");
    const tractor = nextCreate(page, "tractor");
    await page.getByRole("button", { name: "Play Tractor beside three bots" }).click();
    expect((await tractor).botLevels).toEqual({ Alice: "strong", Bob: "strong", Charles: "strong", David: "strong" });
    await page.locator(".seat-name", { hasText: "Bob · Computer (strong)" }).waitFor();
    expect(await page.locator(".table-facts").textContent()).toContain("strong computer players");
    await page.goto(`${suite.server.httpUrl}/`);
    await lobby(page);
    await game("Fool").getByText("Table options").click();
    await game("Fool").getByLabel("The AI's level").selectOption("strong");
    const fool = nextCreate(page, "fool");
    await page.getByRole("button", { name: "Play Fool against the AI" }).click();
    expect(await fool).toMatchObject({ aiLevel: "strong" });
    await page.locator(".seat-name", { hasText: "Computer (strong)" }).waitFor();
  }, 90_000);

  it("lists live tables in plain words: names, Computer, phases, the throw rule and who watches", async () => {
    const { page } = await suite.open("/");
    await lobby(page);
    const fool = await client.playFool({ name: "Zed" });
    const tractor = await client.watchTractor({
      bots: [...TRACTOR_SEATS],
      throws: "check-other-hands",
      botDelayMs: 60_000,
      startDelayMs: 0,
    });
    const foolItem = page.locator(`li[data-room="${fool.roomId}"]`);
    await foolItem.filter({ hasText: "Zed against Computer" }).waitFor();
    expect(await foolItem.textContent()).toMatch(/playing/);
    const tractorItem = page.locator(`li[data-room="${tractor.roomId}"]`);
    await tractorItem.filter({ hasText: "1 watching" }).waitFor();
    const facts = (await tractorItem.locator(".room-facts").textContent()) ?? "";
    expect(facts).toContain("Computer, Computer, Computer, Computer");
    expect(facts).toContain("checked throws");
    const second = await client.spectateTractor(tractor.roomId);
    await tractorItem.filter({ hasText: "2 watching" }).waitFor();
    for (const item of [foolItem, tractorItem])
      expect(await item.textContent()).not.toMatch(/\b(ai|bot|roundOver|matchOver|check-other-hands)\b/);
    await second.leave();
    await tractorItem.filter({ hasText: "1 watching" }).waitFor();
    await Promise.all([fool.leave(), tractor.leave()]);
    await foolItem.waitFor({ state: "detached" });
  }, 60_000);

  it("shows finished games with their players and results, a new one appearing without a reload", async () => {
    const { page } = await suite.open("/");
    await lobby(page);
    await page.getByRole("heading", { name: "Finished games" }).waitFor();
    const { roomId } = await playEvenStevenBot(client, { games: 1, n: 3, seed: 5, name: "Finisher" });
    const record = (await client.games({ game: "evensteven", limit: 20 })).games.find(
      (summary) => summary.roomId === roomId,
    );
    const id = record?.id ?? (await waitForRecord(roomId));
    const item = page.locator(`li[data-record="${id}"]`);
    await item.waitFor({ timeout: 20_000 });
    const text = (await item.textContent()) ?? "";
    expect(text).toContain("Finisher");
    expect(text).toMatch(
      /Finisher (won|lost: no way of playing that hand could have won|lost: the hand could have won)/,
    );
    expect(text).not.toMatch(/LOSE|WIN/);
    await item.getByRole("link", { name: /^Replay of Even-Steven · game · Finisher · ended/ }).click();
    await page.waitForURL(new RegExp(`/replay/${id}$`));
    await page.getByRole("slider", { name: "Step" }).waitFor();
  }, 60_000);

  it("shows today's ladder leaders, and a ladder deal of today without its replay, at a phone's width", async () => {
    const bot = await botClient(suite.server, "Lea", "Lea Bot");
    const player = await bot.playLadder("evensteven");
    for (let index = 1; ; index++) {
      const turn = await player.nextTurn(1, index);
      if (turn.kind === "over") break;
      await player.play(optimalPlay(turn.hand, turn.card));
    }
    await player.leave();
    await readUntil(
      () => bot.ladder("evensteven"),
      (ladder) => ladder.standings.some((standing) => standing.finished === 1),
    );
    const { page } = await suite.open("/", { phone: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await lobby(page);
    const leaders = page.getByRole("list", { name: "Even-Steven ladder" });
    await leaders.getByText(/^1\. Lea Bot \(Lea's bot\): [01] of 10 won$/).waitFor();
    const deal = page.locator("li.finished-game").filter({ hasText: "Lea Bot" });
    await deal.getByText("replay once the ladder's period is over").waitFor();
    expect(await deal.getByRole("link").count()).toBe(0);
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.view);
  }, 60_000);

  async function waitForRecord(roomId: string): Promise<string> {
    for (let tries = 0; tries < 100; tries++) {
      const found = (await client.games({ game: "evensteven", limit: 20 })).games.find(
        (summary) => summary.roomId === roomId,
      );
      if (found) return found.id;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no record of room ${roomId}`);
  }

  it("fits a phone's width with the options open", async () => {
    const { page } = await suite.open("/", { phone: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await lobby(page);
    for (const summary of await page.getByText("Table options").all()) await summary.click();
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.view);
    const clipped = await page.locator(".game-starts select, .game-starts button, .your-name input").evaluateAll(
      (elements) =>
        elements.filter((element) => {
          const box = element.getBoundingClientRect();
          return box.left < 0 || box.right > window.innerWidth;
        }).length,
    );
    expect(clipped).toBe(0);
  }, 60_000);
});
