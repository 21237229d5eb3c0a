/**
 * The replay page in headless Chromium: for each of the four games, a game finished by bots against the test
 * server (records on) is opened at /replay/<id>; the page draws that game's table (every hand shown, cards named
 * by their notation), Previous / Next / the arrow keys / Play step through it, each step is said in words, and the
 * last step shows the result the record holds.
 */
import * as path from "node:path";
import type { Page } from "playwright-core";
import { CardhallClient, TRACTOR_SEATS, type GameSummary } from "../../client-sdk";
import type { RecordedGame } from "../../rooms/kit/record";
import { playEvenStevenBot } from "../../client-sdk/bots/evensteven";
import { playFoolBot } from "../../client-sdk/bots/fool";
import { watchPatienceDeal } from "../../client-sdk/bots/patience";
import type { EvenStevenResult } from "../../rooms/evensteven/match";
import type { FoolResult } from "../../rooms/fool/match";
import type { PatienceResult } from "../../rooms/patience/match";
import type { TractorResult } from "../../rooms/tractor/protocol";
import { sleep } from "../helpers";
import { CHROMIUM, webSuite } from "./browser";

(CHROMIUM ? describe : describe.skip)("the replay page in Chromium", () => {
  const suite = webSuite();
  let client: CardhallClient;
  beforeAll(() => {
    client = new CardhallClient(suite.server.url);
  });

  /** The record of a room's game (written a moment after the game ends: 10 s at most). */
  async function recordOf(game: RecordedGame, roomId: string, part: GameSummary["part"]): Promise<GameSummary> {
    for (let tries = 0; tries < 100; tries++) {
      const found = (await client.games({ game, limit: 50 })).games.find(
        (summary) => summary.roomId === roomId && summary.part === part,
      );
      if (found) return found;
      await sleep(100);
    }
    throw new Error(`no ${part} of room ${roomId} was recorded`);
  }

  /** The notations of the cards (role img, named "QS, queen of spades") in an element. */
  async function cardsIn(page: Page, group: string): Promise<string[]> {
    const names = await page
      .getByRole("group", { name: group, exact: true })
      .getByRole("img")
      .evaluateAll((cards) => cards.map((card) => card.getAttribute("aria-label") ?? ""));
    return names.map((name) => name.split(",")[0]);
  }

  const counter = (page: Page) => page.locator(".step-count");
  async function atStep(page: Page, step: number, last: number): Promise<void> {
    await page.locator(".step-count", { hasText: `step ${step} of ${last}` }).waitFor();
  }

  /** Opens the replay and steps it by buttons and keys; ends on the last step. Returns the number of the last step. */
  async function openAndStep(id: string, title: string): Promise<{ page: Page; last: number }> {
    const { page } = await suite.open(`/replay/${id}`);
    await page.locator(".page h1, .page .notice").first().waitFor();
    expect(await page.locator(".page").textContent()).toMatch(new RegExp(`^Replay of ${title} ${id}`));
    // The page checks the deal itself (Web Crypto): the revealed seed and salt hash to the commitment.
    await page.locator(".deal-check.verified").waitFor();
    expect(await page.locator(".deal-check").textContent()).toMatch(
      /^Deal verified: its seed \d+ and the salt [0-9a-f]{32} revealed at its end hash to the commitment [0-9a-f]{64} published when it started, and the deal follows from the seed\.$/,
    );
    const last = Number(/of (\d+)/.exec((await counter(page).textContent()) ?? "")![1]);
    expect(last).toBeGreaterThan(1);
    await atStep(page, 0, last);
    expect(await page.getByRole("button", { name: "Previous", exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole("list", { name: "What happened" }).textContent()).not.toMatch(/[{}[\]]/);
    await page.getByRole("button", { name: "Next", exact: true }).click();
    await atStep(page, 1, last);
    await page.keyboard.press("ArrowRight");
    await atStep(page, 2, last);
    await page.keyboard.press("ArrowLeft");
    await atStep(page, 1, last);
    await page.getByRole("button", { name: "Previous", exact: true }).click();
    await atStep(page, 0, last);
    // Each step's action is said in words, never as JSON.
    await page.keyboard.press("ArrowRight");
    const said = (await page.getByRole("list", { name: "What happened" }).textContent()) ?? "";
    expect(said).not.toMatch(/[{}[\]"]/);
    expect(said.length).toBeGreaterThan(5);
    await page.keyboard.press("End");
    await atStep(page, last, last);
    expect(await page.getByRole("button", { name: "Next", exact: true }).isDisabled()).toBe(true);
    return { page, last };
  }

  it("replays an Even-Steven game: the hand, the covers, the verdict", async () => {
    const { roomId } = await playEvenStevenBot(client, { games: 1, n: 4, seed: 21 });
    const summary = await recordOf("evensteven", roomId, "game");
    const result = summary.result as EvenStevenResult;
    const { page } = await openAndStep(summary.id, "Even-Steven");
    const verdict = page.getByRole("status", { name: "Verdict" });
    // The verdict in words, and the cards dealt as they were played.
    const words: Record<string, string> = {
      WIN: "won: every card covered",
      "LOSE NECESSARILY": "lost — necessarily",
      "LOSE UNNECESSARILY": "lost — unnecessarily",
      "TIME OUT": "ran out of time",
    };
    expect(await verdict.textContent()).toContain(words[result.outcome]);
    expect(await verdict.textContent()).toContain(`Seed ${result.seed}`);
    const dealt = await page
      .getByRole("list", { name: "Covers" })
      .getByRole("listitem")
      .evaluateAll((items) =>
        items.map((item) => item.querySelector("[role=img]")!.getAttribute("aria-label")!.split(",")[0]),
      );
    expect(dealt).toEqual(result.dealt);
    // At the start the whole hand is shown (a replay shows every card): the cards the player went on to play.
    await page.keyboard.press("Home");
    await page.locator(".step-count", { hasText: "step 0 of" }).waitFor();
    const hand = await page
      .getByRole("region", { name: "Hand" })
      .getByRole("img")
      .evaluateAll((cards) => cards.map((card) => (card.getAttribute("aria-label") ?? "").split(",")[0]));
    expect([...hand].sort()).toEqual([...result.played].sort());
    expect(await page.getByRole("status", { name: "Verdict" }).count()).toBe(0);
  }, 60_000);

  it("replays a Fool game: both hands face up, the moves in words, the Fool and the seed", async () => {
    const { roomId } = await playFoolBot(client, { policy: "greedy", games: 1, seed: 8, aiDelayMs: 0, name: "Greedy" });
    const summary = await recordOf("fool", roomId, "game");
    const result = summary.result as FoolResult;
    const { page } = await openAndStep(summary.id, "Fool");
    const over = page.getByRole("status", { name: "Game over" });
    expect(await over.textContent()).toContain(`Seed ${result.seed}`);
    // The room's AI reads "Computer" (its seat is named after its policy, "AI (ai)").
    const names = summary.seats.map((seat, index) =>
      seat.kind === "ai" && /^AI \(/.test(seat.name) ? "Computer" : seat.name || `seat ${index}`,
    );
    if (result.outcome === "fool") expect(await over.textContent()).toContain(`${names[result.fool!]} is the Fool`);
    else expect(await over.textContent()).toContain("no Fool");
    await page.keyboard.press("Home");
    await page.locator(".step-count", { hasText: "step 0 of" }).waitFor();
    for (const name of names) expect((await cardsIn(page, `${name}'s hand`)).length).toBeGreaterThan(0);
    expect(await page.getByRole("img", { name: /'s hand: \d+ cards/ }).count()).toBe(0); // no backs: every hand face up
    await page.keyboard.press("ArrowRight");
    expect(await page.getByRole("list", { name: "What happened" }).textContent()).toMatch(/(laid|drew|passed)/);
  }, 60_000);

  it("reviews a Fool seat beside the steps: a summary, and at the seat's moves the AI's choice in words", async () => {
    const { roomId } = await playFoolBot(client, { policy: "greedy", games: 1, seed: 9, aiDelayMs: 0, name: "Greedy" });
    const summary = await recordOf("fool", roomId, "game");
    const person = summary.seats.find((seat) => seat.name === "Greedy")!;
    const { page } = await openAndStep(summary.id, "Fool");
    await page.getByLabel("Seat to review").selectOption(String(person.seat));
    await page.getByRole("button", { name: "Review", exact: true }).click();
    const status = page.locator(".review-status", { hasText: "The AI agrees with" });
    await status.waitFor({ timeout: 30_000 });
    expect(await status.textContent()).toMatch(
      /^The AI agrees with \d+ of Seat \d \(Greedy\)'s \d+ moves\. Given up in all: -?\d+ percent of a win\.$/,
    );
    const first = await firstMoveOf(page, person.seat);
    expect(first).toBeGreaterThan(0);
    const here = (await page.locator(".review-here").textContent()) ?? "";
    expect(here).toMatch(/^Here Seat \d \(Greedy\) played (the|draw|pass)/);
    expect(here).not.toMatch(/[{}[\]"*]/);
  }, 90_000);

  /** Steps the replay from its start to the reviewed seat's first move (bounded); returns that step. */
  async function firstMoveOf(page: Page, seat: number): Promise<number> {
    await page.keyboard.press("Home");
    for (let step = 1; step <= 12; step++) {
      await page.keyboard.press("ArrowRight");
      await page.locator(".step-count", { hasText: `step ${step} of` }).waitFor();
      if (/^Here /.test((await page.locator(".review-here").textContent()) ?? "")) return step;
    }
    throw new Error(`seat ${seat} made no move in the first 12 steps`);
  }

  it("replays a Patience deal: the piles step by step and the final line", async () => {
    const dealt = await watchPatienceDeal(client, { seed: 31, paceMs: 0 });
    const summary = await recordOf("patience", dealt.roomId, "game");
    const result = summary.result as PatienceResult;
    const { page } = await openAndStep(summary.id, "Patience");
    const over = page.getByRole("status", { name: "Deal over" });
    expect(await over.textContent()).toMatch(
      result.outcome.kind === "finished" ? /Finished/ : /Overflowed at card \d+/,
    );
    expect((await page.locator(".final-line").textContent())?.trim()).toBe(result.line.trim());
    expect(await page.getByRole("group", { name: "Piles" }).getByRole("img").count()).toBeGreaterThan(0);
    expect(await page.getByRole("list", { name: "What happened" }).textContent()).toMatch(
      /Deal \d+ over after \d+ steps/,
    );
  }, 60_000);

  it("replays a Tractor round of four bots: every hand, the tricks, the buried cards and the score", async () => {
    const watcher = await client.watchTractor({
      bots: [...TRACTOR_SEATS],
      trump: "fixed",
      mainSuit: "S",
      botDelayMs: 0,
      startDelayMs: 0,
      roundPauseMs: 60_000,
    });
    await watcher.waitForView((view) => view.result !== undefined, 60_000);
    const summary = await recordOf("tractor", watcher.roomId, "round");
    await watcher.leave();
    const result = summary.result as TractorResult;
    const { page } = await openAndStep(summary.id, "Tractor");
    const verdict = page.getByRole("status", { name: "Round result" });
    expect(await verdict.textContent()).toContain(
      `defenders scored ${result.defenderPoints} (bonus ${result.hiddenBonus} from the buried cards)`,
    );
    expect(await cardsIn(page, "Buried cards")).toEqual(result.hiddenCards);
    // Every card of the four hands (25 each once the 8 are buried) was played in some trick of the history.
    expect(
      await page.getByRole("list", { name: "Trick history" }).locator(".past-trick").getByRole("img").count(),
    ).toBe(100);
    // At the start every seat's hand is shown: 108 cards in all, none of them a back.
    await page.keyboard.press("Home");
    await page.locator(".step-count", { hasText: "step 0 of" }).waitFor();
    let cards = 0;
    for (const seat of TRACTOR_SEATS) cards += (await cardsIn(page, `${seat}'s hand`)).length;
    expect(cards).toBe(108);
    // Play steps on its own (at a person's pace) until paused.
    await page.getByRole("button", { name: "Play" }).click();
    await page.locator(".step-count", { hasText: /step [2-9]\d* of/ }).waitFor({ timeout: 20_000 });
    await page.getByRole("button", { name: "Pause" }).click();
    const paused = await counter(page).textContent();
    await page.getByRole("button", { name: "Play" }).waitFor();
    expect(await page.getByRole("list", { name: "What happened" }).textContent()).toMatch(/(played|buried|Round 1)/);
    expect(await counter(page).textContent()).toBe(paused);
  }, 90_000);

  it("says when a record's deal does not match its commitment", async () => {
    const { roomId } = await playEvenStevenBot(client, { games: 1, n: 4, seed: 23 });
    const summary = await recordOf("evensteven", roomId, "game");
    // The record as someone who changed its commitment in the database would serve it.
    const { DatabaseSync } = process.getBuiltinModule("node:sqlite") as typeof import("node:sqlite");
    const file = new DatabaseSync(path.join(suite.server.dataDir, "cardhall.sqlite"));
    try {
      file.prepare("UPDATE games SET commitment = ? WHERE id = ?").run("0".repeat(64), summary.id);
    } finally {
      file.close();
    }
    const { page } = await suite.open(`/replay/${summary.id}`);
    await page.locator(".deal-check.mismatch").waitFor();
    expect(await page.locator(".deal-check").textContent()).toMatch(
      /^The deal does not match its commitment: the seed \d+ and the salt "[0-9a-f]{32}" do not hash to 0{64}\.$/,
    );
  });

  it("fits the deal's check at a phone's width: the commitment's 64 digits wrap, nothing is clipped", async () => {
    const { roomId } = await playEvenStevenBot(client, { games: 1, n: 4, seed: 25 });
    const summary = await recordOf("evensteven", roomId, "game");
    const { page } = await suite.open(`/replay/${summary.id}`, { phone: true });
    await page.locator(".deal-check.verified").waitFor();
    const fit = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      view: window.innerWidth,
      check: document.querySelector(".deal-check")!.getBoundingClientRect().right,
    }));
    expect(fit.page).toBeLessThanOrEqual(fit.view);
    expect(fit.check).toBeLessThanOrEqual(fit.view);
  });

  it("goes through a Tractor match's replay by the Step slider, by trick and by round, skipping the single dealt cards unless asked", async () => {
    // Two rounds of four bots with trumps declared while the cards are dealt one at a time: the record of round 2.
    const watcher = await client.watchTractor({
      bots: [...TRACTOR_SEATS],
      botDelayMs: 0,
      dealDelayMs: 0,
      declareWindowMs: 0,
      startDelayMs: 0,
      roundPauseMs: 0,
    });
    let summary: GameSummary | undefined;
    for (let tries = 0; tries < 600 && summary === undefined; tries++) {
      summary = (await client.games({ game: "tractor", limit: 50 })).games.find(
        (found) => found.roomId === watcher.roomId && found.part === "round" && found.round === 2,
      );
      if (summary === undefined) await sleep(100);
    }
    await watcher.leave();
    expect(summary).toBeDefined();
    const replay = await client.replay(summary!.id);
    const frames = replay.frames;
    const last = frames.length - 1;
    const single = (frame: (typeof frames)[number]) =>
      frame.actor === "dealer" && (frame.action as { type?: string } | undefined)?.type === "deal";
    const steps = (name: string) =>
      frames.filter((frame) => frame.events.some((event) => event.name === name)).map((frame) => frame.index);
    const [trickEnds, roundStarts] = [steps("trick"), steps("roundStart")];
    expect(frames.filter(single)).toHaveLength(200); // 100 cards dealt singly in each round
    expect(roundStarts).toHaveLength(2);
    const shown = frames.filter((frame) => !single(frame) || frame.index === last).map((frame) => frame.index);

    const { page } = await suite.open(`/replay/${summary!.id}`);
    await atStep(page, 0, last);
    // By default Next passes over the single dealt cards: it lands on the next step that says something.
    await page.getByRole("button", { name: "Next", exact: true }).click();
    await atStep(page, shown[1], last);
    expect(shown[1]).toBeGreaterThan(1);
    await page.keyboard.press("ArrowRight");
    await atStep(page, shown[2], last);
    // The Step slider runs over the steps shown, by keyboard and by setting it.
    const slider = page.getByRole("slider", { name: "Step" });
    expect(await slider.getAttribute("max")).toBe(String(shown.length - 1));
    await slider.focus();
    await page.keyboard.press("End");
    await atStep(page, last, last);
    await page.keyboard.press("Home");
    await atStep(page, 0, last);
    await page.keyboard.press("ArrowRight");
    await atStep(page, shown[1], last);
    const middle = Math.floor(shown.length / 2);
    await slider.fill(String(middle));
    await atStep(page, shown[middle], last);
    // Trick by trick: each jump lands on the step that ends the next trick.
    await page.keyboard.press("Home");
    await atStep(page, 0, last);
    await page.getByRole("button", { name: "Next trick" }).click();
    await atStep(page, trickEnds[0], last);
    expect(await page.getByRole("list", { name: "What happened" }).textContent()).toMatch(
      /Trick 1: \w+ won \d+ points/,
    );
    await page.getByRole("button", { name: "Next trick" }).click();
    await atStep(page, trickEnds[1], last);
    await page.getByRole("button", { name: "Previous trick" }).click();
    await atStep(page, trickEnds[0], last);
    // Round by round: the next round's start, and back.
    await page.getByRole("button", { name: "Next round" }).click();
    await atStep(page, roundStarts[1], last);
    expect(await slider.getAttribute("aria-valuetext")).toBe(`step ${roundStarts[1]} of ${last} (round 2, trick 1)`);
    expect(await page.getByRole("button", { name: "Next round" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Previous round" }).click();
    await atStep(page, 0, last);
    // Asked to, the page shows each dealt card: Next goes one card at a time.
    await page.getByRole("checkbox", { name: /Show each dealt card/ }).check();
    await page.getByRole("button", { name: "Next", exact: true }).click();
    await atStep(page, 1, last);
    expect(await slider.getAttribute("max")).toBe(String(last));
  }, 120_000);
});
