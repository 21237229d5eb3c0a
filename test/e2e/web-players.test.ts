/**
 * Accounts and player pages as people meet them, in headless Chromium: signing up on the page (a refusal said in
 * place), "Playing as Ann" in the lobby, a table joined from the page seated under the account (the login cookie
 * goes with the Colyseus client's matchmaking request: the record names the account), logging out and in, a bot
 * and a token made on the page (shown once, with Copy and a warning), the token playing, then revoked and
 * refused; the leaderboard's names linking to the player pages (identity, rating chart, games, opponents), names
 * matched by their key, a guest's page missing in a sentence; a rated Fool table from the lobby's queue button;
 * the account and player pages at a phone's width.
 */
import type { Page } from "playwright-core";
import { CardhallClient } from "../../client-sdk";
import { playFoolBot } from "../../client-sdk/bots/fool";
import { readUntil } from "../helpers";
import { registerBot } from "./identities";
import { CHROMIUM, openPage, webSuite, type WatchedPage } from "./browser";

const PASSWORD = "a long password";

(CHROMIUM ? describe : describe.skip)("accounts and player pages on the page", () => {
  const suite = webSuite();
  /** One browser for the whole story: its login cookie carries from test to test. */
  let ann: WatchedPage;
  let page: Page;
  let token = "";
  let client: CardhallClient;

  beforeAll(async () => {
    client = new CardhallClient(suite.server.url);
    ann = await openPage(suite.browser);
    await ann.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: suite.server.httpUrl });
    page = ann.page;
    // Leaving a seat mid-game asks first (docs/web.md): the person agrees.
    page.on("dialog", (dialog) => void dialog.accept());
  });
  afterAll(async () => {
    // The browser logs the refusals the tests ask for (a short password, a wrong one, a guest's page), and nothing else.
    expect(ann.errors).toEqual([400, 401, 404].map((status) => expect.stringContaining(`status of ${status}`)));
    await ann.context.close();
  });

  const goto = (path: string) => page.goto(`${suite.server.httpUrl}${path}`);

  it('signs up (a refusal said in the form), says "Playing as Ann", and a table joined from the page seats the account', async () => {
    await goto("/account");
    const signUp = page.getByRole("form", { name: "Sign up" });
    await signUp.getByLabel("Name").fill("Ann");
    await signUp.getByLabel(/Password/).fill("short");
    await signUp.getByRole("button", { name: "Sign up" }).click();
    await page.waitForFunction(
      () => document.querySelector("form[aria-label='Sign up'] [role=alert]")?.textContent !== "",
    );
    expect(await signUp.getByRole("alert").textContent()).toBe("A password has 8 to 200 characters.");
    await signUp.getByLabel(/Password/).fill(PASSWORD);
    await signUp.getByRole("button", { name: "Sign up" }).click();
    await page.getByText("Playing as").waitFor();
    expect(await page.locator(".playing-as").textContent()).toMatch(/^Playing as Ann/);

    await page.locator("a.brand").click();
    await page.locator(".your-name .playing-as").waitFor();
    expect(await page.locator(".your-name").textContent()).toMatch(/Playing as Ann/);
    expect(await page.locator("#your-name").count()).toBe(0);

    // The table's clock ends the game at once; the record says whose seat it was.
    await goto("/play/evensteven?cardTimeLimitMs=100");
    const games = await readUntil(
      () => client.games({ game: "evensteven", player: "Ann" }),
      (found) => found.games.length > 0,
    );
    const record = await client.game(games.games[0].id);
    expect(record.seats[0]).toMatchObject({ name: "Ann", kind: "person", identity: { kind: "account", name: "Ann" } });
  }, 60_000);

  it("logs out and in again; a wrong password is said in place", async () => {
    await goto("/account");
    await page.getByRole("button", { name: "Log out" }).click();
    const logIn = page.getByRole("form", { name: "Log in" });
    await logIn.getByLabel("Name").fill("ann");
    await logIn.getByLabel("Password").fill("not the password");
    await logIn.getByRole("button", { name: "Log in" }).click();
    await page.waitForFunction(
      () => document.querySelector("form[aria-label='Log in'] [role=alert]")?.textContent !== "",
    );
    expect(await logIn.getByRole("alert").textContent()).toBe("That name and password do not match an account.");
    await logIn.getByLabel("Password").fill(PASSWORD);
    await logIn.getByRole("button", { name: "Log in" }).click();
    await page.locator(".playing-as").waitFor();
    expect(await page.locator(".playing-as").textContent()).toMatch(/^Playing as Ann/);
  }, 30_000);

  it("makes a bot and a token (shown once, with Copy and a warning); the token plays, then is revoked and refused", async () => {
    await page.getByLabel("Bot's name").fill("Ann Bot");
    await page.getByRole("button", { name: "Make the bot" }).click();
    const bot = page.locator("[data-bot='Ann Bot']");
    await bot.waitFor();
    await bot.getByLabel("Label for a new token").fill("laptop");
    await bot.getByRole("button", { name: "Make a token" }).click();
    await bot.locator(".token-value").waitFor();
    token = (await bot.locator(".token-value").textContent()) ?? "";
    expect(token).toMatch(/^cht_/);
    expect(await bot.locator(".token-warning").textContent()).toMatch(/shown only now/);
    await bot.getByRole("button", { name: "Copy" }).click();
    await bot.getByText("Copied.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    // The bot plays two games against the AI with it: rated, so its page has a chart.
    const played = await playFoolBot(new CardhallClient(suite.server.url, { token }), {
      policy: "greedy",
      games: 2,
      aiDelayMs: 0,
    });
    expect(played.results).toHaveLength(2);

    await page.reload();
    await page.locator("[data-bot='Ann Bot'] .token").waitFor();
    expect(await page.content()).not.toContain(token);
    await page.getByRole("button", { name: "Revoke the token laptop of Ann Bot" }).click();
    await page.locator("[data-bot='Ann Bot'] .token-revoked").waitFor();
    const refused = await new CardhallClient(suite.server.url, { token }).playFool({ aiDelayMs: 0 }).then(
      () => "joined",
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/token is not valid/);
  }, 60_000);

  it("links the leaderboard's names to player pages: identity, rating chart, games, opponents; names fold; a guest has none", async () => {
    await readUntil(
      () => client.leaderboard("fool"),
      (players) => players.some((standing) => standing.name === "Ann Bot" && standing.games === 2),
    );
    await goto("/");
    const fool = page.getByRole("region", { name: "Fool leaderboard" });
    await fool.getByRole("link", { name: "Ann Bot" }).click();
    await page.getByRole("heading", { name: "Ann Bot", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/players/Ann%20Bot");
    expect(await page.locator(".player-identity").textContent()).toBe("Bot of Ann");
    expect(await page.locator("[data-game='fool'] svg.rating-chart").getAttribute("aria-label")).toMatch(
      /^Rating at Fool: after each of 2 rated games, from -?\d+\.\d to -?\d+\.\d/,
    );
    expect(await page.locator(".finished-game a", { hasText: "Replay" }).count()).toBe(2);
    const opponents = page.getByRole("table", { name: "Against each opponent" });
    expect(await opponents.locator("tbody tr").count()).toBe(1);
    expect(await opponents.locator("tbody td").nth(1).textContent()).toBe("Computer (normal)");
    expect(await opponents.locator("tbody td.number").first().textContent()).toBe("2");
    // The house's AI reads as at the tables, its page under the name the records keep.
    await opponents.getByRole("link", { name: "Computer (normal)" }).click();
    await page.getByRole("heading", { name: "Computer (normal)", level: 1 }).waitFor();
    expect(decodeURIComponent(new URL(page.url()).pathname)).toBe("/players/AI (ai)");
    expect(await page.locator(".player-identity").textContent()).toBe(
      "One of the house's computer players, rated like everyone",
    );
    await page.goBack();
    await page.getByRole("heading", { name: "Ann Bot", level: 1 }).waitFor();

    await page.locator(".player-identity").getByRole("link", { name: "Ann" }).click();
    await page.getByRole("heading", { name: "Ann", level: 1 }).waitFor();
    expect(await page.locator(".player-identity").textContent()).toBe("Account");
    expect(await page.getByRole("table", { name: "Standings" }).textContent()).toContain("Even-Steven");

    await goto("/players/a-n-n");
    await page.getByRole("heading", { name: "Ann", level: 1 }).waitFor();
    await goto(`/players/${encodeURIComponent("Some Guest")}`);
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toBe(
      "This page could not open: Some Guest has no player page: the name is not registered and stands in no game's standings (guests have no page).",
    );
  }, 60_000);

  it("queues a person logged in for rated Fool from the lobby, and seats them against a bot that queued", async () => {
    await goto("/");
    await page.getByRole("button", { name: "Play Fool rated" }).click();
    await page.getByText(/Waiting in the rated queue/).waitFor();
    const rivalToken = await registerBot(suite.server.httpUrl, "Ann", "Rival", PASSWORD);
    const rival = await new CardhallClient(suite.server.url, { token: rivalToken }).playRatedFool();
    try {
      await page.waitForURL((url) => url.searchParams.get("room") === rival.roomId);
      await page.locator(".table", { hasText: "Rival" }).waitFor();
      expect(
        rival
          .view()
          ?.seats.map((seat) => seat.name)
          .sort(),
      ).toEqual(["Ann", "Rival"]);
    } finally {
      await rival.leave();
    }
  }, 60_000);

  it("fits a phone's width: the account page with its bots and the player page", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ["/account", "/players/Ann%20Bot", "/"]) {
      await goto(path);
      await page.locator("main h1").first().waitFor();
      await page.waitForLoadState("networkidle");
      const layout = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        view: window.innerWidth,
        clipped: Array.from(document.querySelectorAll("main *"))
          .filter((element) => {
            const box = element.getBoundingClientRect();
            return box.width > 0 && (box.left < 0 || box.right > window.innerWidth);
          })
          .map((element) => element.outerHTML.slice(0, 80)),
      }));
      expect({ path, ...layout }).toEqual({ path, page: layout.view, view: layout.view, clipped: [] });
    }
  }, 60_000);
});
