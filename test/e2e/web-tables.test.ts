/**
 * Every game's table in headless Chromium, played by a person (clicking and by keyboard) and watched: Fool against
 * the AI, a Tractor round beside three bots, a spectator following four bots (its defenders' points equal to the
 * room's after every trick, and no hidden card in its page or its WebSocket frames), a Patience deal paused,
 * stepped and finished, and a reload that takes the seat back.
 */
import type { Page } from "playwright-core";
import { CardhallClient, TRACTOR_SEATS, type TractorTrickEvent } from "../../client-sdk";
import { cardName, parseCard } from "../../rooms/tractor/cards";
import { legalPlays } from "../../rooms/tractor/legality";
import { cardOrdering } from "../../rooms/tractor/order";
import { sleep } from "../helpers";
import { CHROMIUM, tabTo, webSuite, wireString } from "./browser";

const TRACTOR_CARDS = [..."HSCD"]
  .flatMap((suit) => [..."23456789TJQKA"].map((rank) => suit + rank))
  .concat(["BJ", "RJ"]);

(CHROMIUM ? describe : describe.skip)("the tables in Chromium", () => {
  const suite = webSuite();
  let client: CardhallClient;
  beforeAll(() => {
    client = new CardhallClient(suite.server.url);
  });

  /** Waits until `read` returns something other than `before` (or `limitMs` passes: the room may have refused). */
  async function changed(page: Page, before: string, limitMs = 5_000): Promise<void> {
    await page
      .waitForFunction((was) => (document.querySelector(".table")?.textContent ?? "") !== was, before, {
        timeout: limitMs,
      })
      .catch(() => undefined);
  }

  async function playFool(byKeyboard: boolean): Promise<void> {
    // Seed 1 deals the first turn to the person: a deal at random may, rarely, end before the person's first turn
    // (the AI going out first), and the game would be over with nothing played here.
    const { page } = await suite.open("/play/fool?aiDelayMs=10&maxMoves=120&seed=1");
    // The deal's face-up card in words (with its code, as every card in the list), never the statement's notation
    // alone. Read now: the list keeps the newest lines, and a long game pushes this one out.
    const dealt = page.getByRole("list", { name: "Moves" }).getByText(/^Game 1 dealt/);
    expect(await dealt.textContent()).toMatch(
      /^Game 1 dealt: (\*|[2-9TJQKA][SHDC]), [a-z ]+( as [a-z ]+)?(, naming [a-z]+)? face up; (your turn|Computer to move)$/,
    );
    const over = page.getByRole("status", { name: "Game over" });
    const actionable = ".choices button, .hand button.card:not([disabled]), .moves button:not([disabled])";
    // A card laid several ways opens its choices: take one of them next.
    const next = async () => ((await page.locator(".choices button").count()) > 0 ? ".choices button" : actionable);
    let moves = 0;
    for (let turn = 0; turn < 400; turn++) {
      await page.waitForSelector(`${actionable}, [aria-label="Game over"]`);
      if (await over.count()) break;
      const before = (await page.locator(".table").textContent()) ?? "";
      if (byKeyboard) {
        await tabTo(page, await next());
        await page.keyboard.press("Enter");
      } else {
        await page
          .locator(await next())
          .first()
          .click({ timeout: 2_000 })
          .catch(() => undefined);
      }
      moves++;
      await changed(page, before);
    }
    await over.waitFor();
    expect(moves).toBeGreaterThan(0);
    expect(await over.textContent()).toMatch(
      /Game over: (you are the Fool|you won, Computer is the Fool|no Fool \(move limit\))Seed \d+/,
    );
    // The end dialog names the result and offers the next game.
    expect(await page.getByRole("dialog").getByRole("button", { name: "Play again" }).count()).toBe(1);
    expect(await page.getByRole("list", { name: "Moves" }).textContent()).toMatch(/laid/);
  }

  it("plays Fool against the AI to the end by clicking", () => playFool(false), 120_000);

  it("plays Fool against the AI to the end by keyboard", () => playFool(true), 120_000);

  it("plays a Tractor round beside three bots: burial, a refused play in words when the room judges, plays of the hint's cards", async () => {
    // A hint cut at one play leaves the judging to the room (the page says so), which refuses an illegal play in words.
    const { page, framesReceived } = await suite.open(
      "/play/tractor?trump=fixed&mainSuit=H&botDelayMs=0&startDelayMs=200&roundPauseMs=60000&hintLimit=1",
    );
    const result = page.getByRole("status", { name: "Round result" });
    let buried = false;
    let refused = false;
    let plays = 0;
    for (let turn = 0; turn < 60; turn++) {
      await page.waitForSelector('button:text-is("Play"), button:text-is("Bury"), [aria-label="Round result"]');
      if (await result.count()) break;
      // While a bot is to play, none of the person's cards may be played.
      if ((await page.locator('.seat.active[aria-label^="Alice"]').count()) === 0)
        expect(await page.locator(".hand button.card:not([disabled])").count()).toBe(0);
      if (await page.getByRole("button", { name: "Bury", exact: true }).count()) {
        await page.getByRole("button", { name: "Suggest" }).click();
        expect(await page.locator(".hand button.card[aria-pressed=true]").count()).toBe(8);
        await page.getByRole("button", { name: "Bury", exact: true }).click();
        await page.getByRole("button", { name: "Bury", exact: true }).waitFor({ state: "detached" });
        buried = true;
        continue;
      }
      // The first lead: the highest and the lowest card together is no play; the room says why, in words.
      const enabled = page.locator(".hand button.card:not([disabled])");
      await enabled.first().waitFor();
      if (!refused) {
        expect(await page.locator(".judging").textContent()).toMatch(/the room judges the play/);
        await enabled.first().click();
        await enabled.last().click();
        await page.getByRole("button", { name: "Play", exact: true }).click();
        // Said in a sentence, without the protocol's code.
        await page.locator(".tractor-page > .notice").filter({ hasText: /\w/ }).waitFor();
        expect(await page.locator(".tractor-page > .notice").textContent()).not.toMatch(/ILLEGAL_PLAY/);
        refused = true;
      }
      await page.getByRole("button", { name: "Suggest" }).click();
      const chosen = await page.locator(".hand button.card[aria-pressed=true]").count();
      expect(chosen).toBeGreaterThan(0);
      const before = (await page.locator(".table").textContent()) ?? "";
      await page.getByRole("button", { name: "Play", exact: true }).click();
      plays++;
      await changed(page, before);
    }
    await result.waitFor();
    expect(buried).toBe(true);
    expect(refused).toBe(true);
    expect(plays).toBeGreaterThan(0);
    expect(await page.locator(".hand button.card").count()).toBe(0); // every card played
    expect(await result.textContent()).toMatch(/defenders scored \d+ \(bonus \d+ from the buried cards\)/);
    expect(await page.getByRole("group", { name: "Buried cards" }).getByRole("img").count()).toBe(8);
    // The detector of the spectator test finds the cards a player's own page was sent.
    expect(framesReceived.some((frame) => TRACTOR_CARDS.some((card) => frame.includes(wireString(card))))).toBe(true);
  }, 120_000);

  it("plays pairs at Tractor by keyboard: the cards that can join the choice are enabled, Play only for a legal play", async () => {
    // Charles deals and leads: Alice follows the bots' leads (a lead's list is often cut: every sub-multiset of a suit).
    const { page } = await suite.open(
      "/play/tractor?trump=fixed&mainSuit=H&seed=5&dealer=Charles&botDelayMs=0&startDelayMs=200&roundPauseMs=60000",
    );
    const result = page.getByRole("status", { name: "Round result" });
    const cards = page.locator(".hand button.card");
    const play = page.getByRole("button", { name: "Play", exact: true });
    let pairs = 0;
    let illegalChoices = 0;
    let checked = 0;
    for (let turn = 0; turn < 60; turn++) {
      await page.waitForSelector('button:text-is("Play"), button:text-is("Bury"), [aria-label="Round result"]');
      if (await result.count()) break;
      if (await page.getByRole("button", { name: "Bury", exact: true }).count()) {
        await page.getByRole("button", { name: "Suggest" }).click();
        await page.getByRole("button", { name: "Bury", exact: true }).click();
        await page.getByRole("button", { name: "Bury", exact: true }).waitFor({ state: "detached" });
        continue;
      }
      await page.locator(".judging").waitFor();
      const hand = await cards.evaluateAll((buttons) =>
        buttons.map((button) => button.getAttribute("aria-label")!.split(",")[0]),
      );
      const legal = await legalPlaysShown(page, hand);
      if (!legal.complete) {
        expect(await page.locator(".judging").textContent()).toMatch(/the room judges the play/);
        await page.getByRole("button", { name: "Suggest" }).click();
      } else {
        // The engine's own list of legal plays, against what the page enables after each card chosen by keyboard.
        const target = legal.plays.filter(hasPair).sort((a, b) => a.length - b.length)[0] ?? legal.plays[0];
        const places = placesOf(target, hand);
        const chosen: number[] = [];
        expect(await enabledPlaces(page)).toEqual(expectedEnabled(hand, chosen, legal.plays));
        for (const place of places) {
          await tabTo(page, `.hand button.card[data-key="card:${place}:${hand[place]}"]`, 120);
          await page.keyboard.press("Enter");
          chosen.push(place);
          await page
            .locator(`.hand button.card[data-key="card:${place}:${hand[place]}"][aria-pressed="true"]`)
            .waitFor();
          expect(await enabledPlaces(page)).toEqual(expectedEnabled(hand, chosen, legal.plays));
          const whole = legal.plays.some((cardsOfPlay) =>
            sameCards(
              cardsOfPlay,
              chosen.map((at) => hand[at]),
            ),
          );
          expect(await play.isDisabled()).toBe(!whole);
          if (!whole) illegalChoices++;
          checked++;
        }
        if (hasPair(target)) pairs++;
      }
      const before = await cards.count();
      await tabTo(page, '.actions button[data-key="button:Play"]', 120);
      await page.keyboard.press("Enter");
      await page.waitForFunction(
        (was) =>
          document.querySelectorAll(".hand button.card").length < was ||
          document.querySelector('[aria-label="Round result"]') !== null,
        before,
      );
    }
    await result.waitFor();
    expect(checked).toBeGreaterThan(0);
    expect(pairs).toBeGreaterThan(0);
    expect(illegalChoices).toBeGreaterThan(0);
    expect(await page.locator(".tractor-page > .notice").textContent()).toBe("");
  }, 180_000);

  it("declares trumps at Tractor while the cards are dealt", async () => {
    const { page } = await suite.open(
      "/play/tractor?seed=7&dealDelayMs=40&declareWindowMs=3000&botDelayMs=0&startDelayMs=0&roundPauseMs=60000",
    );
    // A current-rank card (or a pair of jokers) in the hand makes it a declaration the hint allows: its card is enabled.
    const declarable = page.locator(".hand button.card:not([disabled])");
    await declarable.first().waitFor({ timeout: 20_000 });
    const card = (await declarable.first().getAttribute("aria-label"))!.split(",")[0];
    await declarable.first().click();
    await page.getByRole("button", { name: "Declare", exact: true }).click();
    // The room takes it (the table names Alice's declaration) or refuses it in words (a bot declared more strongly first).
    await page
      .locator(`.trumps:has-text("declared by you"), .tractor-page > .notice:has-text("declar")`)
      .first()
      .waitFor();
    if (await page.locator('.trumps:has-text("declared by you")').count()) {
      expect(
        await page.getByRole("group", { name: "Declaration" }).getByRole("img").first().getAttribute("aria-label"),
      ).toMatch(new RegExp(`^${card},`));
    }
  }, 60_000);

  it("seats a friend at Fool by the page's link", async () => {
    const first = await suite.open("/play/fool?mode=two-players&aiDelayMs=10");
    const share = first.page.locator(".share");
    await share.waitFor();
    const link = /https?:\/\/\S+/.exec((await share.textContent())!)![0];
    expect(link).toMatch(/\/play\/fool\?room=/);
    const friend = await suite.open(new URL(link).pathname + new URL(link).search);
    for (const { page } of [first, friend]) await page.locator(".status", { hasText: /to move|Your turn/ }).waitFor();
    expect(await friend.page.locator(".hand button.card").count()).toBeGreaterThan(0);
    expect(await first.page.locator(".hand button.card").count()).toBeGreaterThan(0);
  }, 60_000);

  it("seats a friend at Tractor in a bot's place by the page's link", async () => {
    const first = await suite.open("/play/tractor?trump=fixed&mainSuit=D&botDelayMs=500&startDelayMs=0");
    const share = first.page.locator(".share");
    await share.waitFor();
    const link = new URL(/https?:\/\/\S+/.exec((await share.textContent())!)![0]);
    // The friend chose a name in the lobby: both pages show it on Bob's seat, "You" only on the friend's own.
    const friend = await suite.open("/");
    await friend.page.evaluate(() => localStorage.setItem("cardhall.name", "Ann"));
    await friend.page.goto(link.href);
    await friend.page.locator(".hand button.card").first().waitFor();
    await first.page.getByRole("region", { name: /^Bob/ }).filter({ hasText: "Ann" }).waitFor();
    expect(await friend.page.locator(".seat.pos-south .seat-name").textContent()).toMatch(/^Bob · You/);
  }, 60_000);

  it("replays a finished game from the lobby's list", async () => {
    const player = await client.playEvenSteven({ name: "replayed", n: 1 });
    const turn = await player.nextTurn(1, 1);
    if (turn.kind === "deal") await player.play(turn.hand[0]);
    await player.nextTurn(1, 2);
    await player.leave();
    // The records are written a moment after the game ends (bounded: 10 s at most).
    for (let tries = 0; tries < 100 && (await client.games({ game: "evensteven" })).games.length === 0; tries++)
      await sleep(100);
    const { page } = await suite.open("/");
    const link = page.getByRole("link", { name: /Even-Steven · / }).first();
    await link.click();
    await page.getByRole("heading", { name: /Replay of Even-Steven/ }).waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    expect(await page.getByRole("list", { name: "What happened" }).textContent()).toMatch(/played/);
    expect(await page.getByText(/step 1 of \d+/).count()).toBe(1);
    // The page draws Even-Steven's own table (web-replay.test.ts replays every game in full).
    expect(await page.getByRole("region", { name: "Covers" }).getByRole("img").count()).toBeGreaterThan(0);
  }, 60_000);

  it("follows four bots at Tractor: the defenders' points equal the room's after every trick, and no hidden card reaches the page", async () => {
    const watcher = await client.watchTractor({
      bots: [...TRACTOR_SEATS],
      trump: "fixed",
      mainSuit: "S",
      botDelayMs: 40,
      startDelayMs: 2_500,
      roundPauseMs: 60_000,
    });
    const tricks: TractorTrickEvent[] = [];
    watcher.on("trick", (event) => tricks.push(event));
    const { page, framesReceived } = await suite.open(`/watch/${watcher.roomId}`, { phone: true });
    const result = page.getByRole("status", { name: "Round result" });
    await result.waitFor({ timeout: 60_000 });
    const shown = await page
      .locator(".past-trick")
      .evaluateAll((rows) => rows.map((row) => Number((row as HTMLElement).dataset.defenders)));
    expect(tricks.length).toBeGreaterThan(0);
    expect(shown).toEqual(tricks.filter((trick) => trick.round === 1).map((trick) => trick.defenderPoints));
    // No hand on a spectator's page, and before the first card is played no card at all in what it received.
    expect(await page.locator(".hand").count()).toBe(0);
    const firstPlay = framesReceived.findIndex((frame) => frame.includes(wireString("played")));
    expect(firstPlay).toBeGreaterThan(0);
    const beforePlay = framesReceived.slice(0, firstPlay);
    expect(TRACTOR_CARDS.filter((card) => beforePlay.some((frame) => frame.includes(wireString(card))))).toEqual([]);
    await watcher.leave();
  }, 120_000);

  it("pauses, steps and finishes a Patience deal", async () => {
    const { page } = await suite.open("/play/patience?paceMs=300");
    const status = page.locator(".status");
    await page.getByRole("button", { name: "Pause" }).click();
    await page.getByRole("button", { name: "Step" }).waitFor();
    const steps = async () => Number(/step (\d+)/.exec((await status.textContent()) ?? "")![1]);
    const paused = await steps();
    for (let step = 1; step <= 3; step++) {
      await page.getByRole("button", { name: "Step" }).click();
      await page.waitForFunction(
        (want) => new RegExp(`step ${want} `).test(document.querySelector(".status")?.textContent ?? ""),
        paused + step,
      );
    }
    expect(await page.getByRole("group", { name: "Piles" }).getByRole("img").count()).toBeGreaterThan(0);
    await page.getByLabel("Pace (ms)").fill("0");
    await page.getByRole("button", { name: "Set pace" }).click();
    await page.waitForFunction(() => /pace 0 ms/.test(document.querySelector(".status")?.textContent ?? ""));
    await page.getByRole("button", { name: "Resume" }).click();
    const over = page.getByRole("status", { name: "Deal over" });
    await over.waitFor({ timeout: 60_000 });
    expect(await over.textContent()).toMatch(/(Finished|Overflowed at card \d+)/);
    expect(await page.locator(".final-line").textContent()).toMatch(/\d/);
    // The end dialog deals again.
    await page.getByRole("dialog").getByRole("button", { name: "Deal again" }).click();
    await page.waitForFunction(() => /Deal 2 /.test(document.querySelector(".status")?.textContent ?? ""));
  }, 90_000);

  it("takes the seat back after a reload", async () => {
    const { page } = await suite.open("/play/evensteven?n=5");
    await page.locator(".hand button.card:not([disabled])").first().click();
    // The card dealt and the card that answered it, side by side.
    await page.waitForFunction(() => document.querySelectorAll(".covers li .card").length >= 2);
    const url = page.url();
    expect(url).toMatch(/\/play\/evensteven\?room=/);
    const hand = await page.locator(".hand button.card").count();
    await page.reload();
    await page.locator(".hand button.card").first().waitFor();
    expect(page.url()).toBe(url);
    expect(await page.locator(".hand button.card").count()).toBe(hand);
    expect(await page.locator(".covers li .card").count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator(".status").textContent()).toMatch(/Game 1 /);
  }, 60_000);
});

/** The Tractor page's trick under way and trump rank, and the engine's legal plays of `hand` from them (as the room lists them). */
async function legalPlaysShown(page: Page, hand: string[]): Promise<{ plays: string[][]; complete: boolean }> {
  const currentRank = Number(await page.locator(".trumps").getAttribute("data-current-rank"));
  const trick = page.getByRole("group", { name: "Trick under way", exact: true });
  const lead =
    (await trick.count()) === 0
      ? undefined
      : await trick
          .locator(".play")
          .first()
          .getByRole("img")
          .evaluateAll((shown) => shown.map((card) => card.getAttribute("aria-label")!.split(",")[0]));
  const parse = (codes: string[]) => codes.map((code) => parseCard(code)!);
  const legal = legalPlays(
    parse(hand),
    lead && parse(lead),
    cardOrdering({ mainSuit: "H", currentRank }),
    TRACTOR_PAGE_HINT_LIMIT,
  );
  return { plays: legal.plays.map((cards) => cards.map(cardName)), complete: legal.complete };
}

/** The page asks the room for this many plays (web/src/tables/tractor.ts). */
const TRACTOR_PAGE_HINT_LIMIT = 2_000;

async function enabledPlaces(page: Page): Promise<number[]> {
  const enabled = await page
    .locator(".hand button.card")
    .evaluateAll((buttons) => buttons.map((button) => !(button as HTMLButtonElement).disabled));
  return enabled.flatMap((on, place) => (on ? [place] : []));
}

const sorted = (cards: readonly string[]) => [...cards].sort().join(" ");
const sameCards = (a: readonly string[], b: readonly string[]) => sorted(a) === sorted(b);
const hasPair = (cards: readonly string[]) => new Set(cards).size < cards.length;

/** Whether `play` holds every card of `cards`, copies counted. */
function holdsAll(play: readonly string[], cards: readonly string[]): boolean {
  const left = [...play];
  return cards.every((card) => {
    const at = left.indexOf(card);
    return at >= 0 && left.splice(at, 1).length === 1;
  });
}

/** The places a person may click: those chosen, and each other whose card some legal play holds with the chosen ones. */
function expectedEnabled(hand: readonly string[], chosen: readonly number[], plays: readonly string[][]): number[] {
  const chosenCards = chosen.map((place) => hand[place]);
  return hand.flatMap((card, place) =>
    chosen.includes(place) || plays.some((play) => holdsAll(play, [...chosenCards, card])) ? [place] : [],
  );
}

/** The hand's places of a play's cards (a pair takes both copies). */
function placesOf(play: readonly string[], hand: readonly string[]): number[] {
  const taken: number[] = [];
  for (const card of play) taken.push(hand.findIndex((held, place) => held === card && !taken.includes(place)));
  return taken.sort((a, b) => a - b);
}
