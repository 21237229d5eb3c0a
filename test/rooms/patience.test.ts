import * as fs from "node:fs";
import * as path from "node:path";
import type { Room as ClientRoom } from "@colyseus/sdk";
import { useRoomTestServer, type RoomTestServer } from "./test-server";
import type { PatienceRoom } from "../../rooms/patience/room";
import { deckOfSeed, formatCard, type Card } from "../../rooms/patience/cards";
import { playByPlay, simulate, startDeal, step, topCard } from "../../rooms/patience/engine";
import { describeEvent, formatDeck, formatResult, parseDecks } from "../../rooms/patience/notation";
import { CardhallError, PatienceOwner, PatienceSpectator, type PatienceStateView } from "../../client-sdk";
import { Received, sleep, waitUntil, dropConnection, expectRefused } from "../helpers";

let colyseus: RoomTestServer;

useRoomTestServer((server) => (colyseus = server));

const SAMPLES = path.join(__dirname, "..", "fixtures", "samples");
const SAMPLE_TEXT = fs.readFileSync(path.join(SAMPLES, "patience-sample.in"), "utf8");
const SAMPLE_DECK = parseDecks(SAMPLE_TEXT)[0];
/** bin/patience's (the judge's) output for the sample deck. */
const SAMPLE_LINE = fs.readFileSync(path.join(SAMPLES, "patience-sample.out"), "utf8").trimEnd();
/** Every ace, two, three and four first: no pair among the first 16, so card 17 overflows and 18..52 stay unseen. */
const OVERFLOW_DECK = parseDecks(
  "AS 2S 3S 4S AH 2H 3H 4H AC 2C 3C 4C AD 2D 3D 4D 5S 6S 7S 8S 9S TS JS QS KS 5H " +
    "6H 7H 8H 9H TH JH QH KH 5C 6C 7C 8C 9C TC JC QC KC 5D 6D 7D 8D 9D TD JD QD KD",
)[0];
const deckText = (deck: readonly Card[]) => formatDeck(deck).join("\n");

async function createRoom(options: Record<string, unknown>): Promise<{ room: PatienceRoom; owner: PatienceOwner }> {
  const room = await colyseus.createRoom<PatienceRoom>("patience", options);
  const owner = new PatienceOwner(await colyseus.connectTo(room, options));
  await waitUntil(() => owner.isOwner(), 5000, "the owner's first state");
  return { room, owner };
}

async function spectate(room: PatienceRoom): Promise<PatienceSpectator> {
  const spectator = new PatienceSpectator(await colyseus.connectTo(room, { spectate: true }));
  await waitUntil(() => spectator.view() !== undefined, 5000, "the spectator's first state");
  return spectator;
}

/** A spectator connection recording everything it receives, and nothing else listening on it. */
async function rawSpectator(room: PatienceRoom): Promise<{ client: ClientRoom; received: Received }> {
  const client = await colyseus.connectTo(room, { spectate: true });
  return { client, received: new Received(client) };
}

/** Steps a paused deal to its end: much faster than any pace, since each step waits only for its reply. */
async function stepToEnd(owner: PatienceOwner, room: PatienceRoom): Promise<void> {
  for (let i = 0; i < 200 && room.state.phase !== "over"; i++) await owner.step();
}

function publicState(room: PatienceRoom): PatienceStateView {
  return JSON.parse(JSON.stringify(room.state.toJSON())) as PatienceStateView;
}

/** The 16 piles an engine deal shows after `steps` steps of `deck`: their top cards and sizes, in grid order. */
function pilesAfter(deck: readonly Card[], steps: number): { tops: string[]; counts: number[] } {
  let deal = startDeal(deck);
  for (let i = 0; i < steps; i++) deal = step(deal).state;
  const grid = Array.from({ length: 16 }, (_, index) => deal.piles[index]);
  return {
    tops: grid.map((pile) => (pile ? formatCard(topCard(pile)) : "")),
    counts: grid.map((pile) => pile?.length ?? 0),
  };
}

function pilesShown(view: PatienceStateView | undefined): { tops: string[]; counts: number[] } | undefined {
  return view === undefined ? undefined : { tops: view.tops, counts: view.counts };
}

describe("the patience room deals as bin/patience plays", () => {
  test("the sample deck ends with the judge's line, move by move as the engine plays it", async () => {
    const { room, owner } = await createRoom({ deck: SAMPLE_TEXT, paused: true });
    const moves: string[] = [];
    owner.on("move", (event) => moves.push(event.description));
    await owner.setPace(0);
    await owner.resume();
    const over = await owner.dealOver(1, 10_000);
    expect(over).toMatchObject({ deal: 1, line: SAMPLE_LINE, seed: 0, outcome: simulate(SAMPLE_DECK) });
    expect(moves).toEqual(playByPlay(SAMPLE_DECK).events.map(describeEvent));
    expect(over.steps).toBe(moves.length);
    await waitUntil(() => owner.view()?.phase === "over");
    expect(owner.view()).toMatchObject({
      dealt: 52,
      deckSize: 52,
      revealedSeed: 0,
      outcome: { kind: "finished", line: SAMPLE_LINE },
    });
    expect(pilesShown(owner.view())).toEqual(pilesAfter(SAMPLE_DECK, moves.length));
    expect(room.state.outcome.pileSizes.toArray()).toEqual([8, 6, 7, 4, 3, 5, 4, 4, 2, 5, 4]);
  });

  test("an overflow is reported with the card about to be dealt", async () => {
    const { room, owner } = await createRoom({ deck: deckText(OVERFLOW_DECK), paused: true });
    await stepToEnd(owner, room);
    const over = await owner.dealOver(1, 10_000);
    expect(over).toMatchObject({
      outcome: { kind: "overflowed", cardNumber: 17 },
      line: "  1: Overflowed on card no 17",
    });
    await waitUntil(() => owner.view()?.phase === "over");
    expect(owner.view()).toMatchObject({ dealt: 16, outcome: { kind: "overflowed", overflowCard: 17, pileSizes: [] } });
  });

  test.each([1, 42, 2147483646])("seed %d deals the seed's deck and reveals the seed at the end", async (seed) => {
    const { room, owner } = await createRoom({ seed, paused: true });
    await stepToEnd(owner, room);
    const over = await owner.dealOver(1, 10_000);
    const outcome = simulate(deckOfSeed(seed));
    expect(over).toMatchObject({ seed, outcome, line: formatResult(1, outcome) });
    await waitUntil(() => owner.view()?.revealedSeed === seed);
  });

  test("without a seed or a deck the room picks a seed, and the revealed seed replays the deal", async () => {
    const { room, owner } = await createRoom({ paused: true });
    await stepToEnd(owner, room);
    const over = await owner.dealOver(1, 10_000);
    expect(over.seed).toBeGreaterThan(0);
    expect(over.outcome).toEqual(simulate(deckOfSeed(over.seed)));
  });

  test("restart deals again: a new deal number, its own deck, and the pace kept", async () => {
    const { room, owner } = await createRoom({ deck: deckText(OVERFLOW_DECK), paused: true, paceMs: 0 });
    await stepToEnd(owner, room);
    const started = new Promise((resolve) => owner.on("dealStarted", resolve));
    await owner.restart({ deck: formatDeck(SAMPLE_DECK).join(" ").split(" "), paused: true });
    await expect(started).resolves.toEqual({ deal: 2, paceMs: 0, phase: "paused" });
    await waitUntil(() => owner.view()?.deal === 2);
    expect(owner.view()).toMatchObject({
      phase: "paused",
      steps: 0,
      dealt: 0,
      outcome: { kind: "", line: "" },
      revealedSeed: 0,
    });
    expect(pilesShown(owner.view())).toEqual({ tops: Array(16).fill(""), counts: Array(16).fill(0) });
    // Dealt at the room's pace (0) rather than stepped: two deals' worth of step requests in a row would be over
    // the per-client message budget (bursts of 40).
    await owner.resume();
    await expect(owner.dealOver(2, 10_000)).resolves.toMatchObject({ deal: 2, line: SAMPLE_LINE });
  });
});

describe("the owner's controls", () => {
  test("a paused deal waits; step makes exactly one move, shown in the state and as an event", async () => {
    const { room, owner } = await createRoom({ deck: SAMPLE_TEXT, paused: true, paceMs: 0 });
    await sleep(150); // at pace 0 several steps would have come by now, were the deal not paused
    expect(room.state.steps).toBe(0);
    const moves: number[] = [];
    owner.on("move", (event) => moves.push(event.step));
    const expected = playByPlay(SAMPLE_DECK).events;
    for (let i = 1; i <= 8; i++) {
      await owner.step();
      expect(moves).toHaveLength(i); // each step's move event comes before the step's reply
    }
    await waitUntil(() => owner.view()?.steps === 8);
    expect(moves).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const view = owner.view()!;
    expect(pilesShown(view)).toEqual(pilesAfter(SAMPLE_DECK, 8));
    // Step 8 is the sample's first cover: KH and 9H on 8S and 3H.
    expect(describeEvent(expected[7])).toBe("pair on piles 2,6: 8S 3H covered by KH 9H");
    expect(view.cover).toEqual({ group: "pair", piles: [2, 6], covered: ["8S", "3H"], covering: ["KH", "9H"] });
    expect(view).toMatchObject({ phase: "paused", dealt: 9 });
    await owner.step(); // a second cover follows at once
    await owner.step(); // then card 12 starts a pile: no cover just made
    await waitUntil(() => owner.view()?.steps === 10);
    expect(owner.view()?.cover).toEqual({ group: "", piles: [], covered: [], covering: [] });
  });

  test("pause stops a running deal; setPace changes the pace; every change is announced", async () => {
    const { room, owner } = await createRoom({ deck: SAMPLE_TEXT, paceMs: 20 });
    const controls: string[] = [];
    owner.on("control", (event) => controls.push(`${event.action}:${event.phase}:${event.paceMs}`));
    await waitUntil(() => room.state.steps >= 2, 5000, "two steps");
    await owner.pause();
    const stepsWhenPaused = room.state.steps;
    await sleep(150);
    expect(room.state.steps).toBe(stepsWhenPaused);
    await owner.setPace(0);
    expect(room.state.paceMs).toBe(0);
    await owner.resume();
    await waitUntil(() => room.state.steps > stepsWhenPaused + 2, 5000, "dealing again");
    await waitUntil(() => controls.length === 3);
    expect(controls).toEqual(["pause:paused:20", "setPace:paused:0", "resume:dealing:0"]);
  });
});

describe("bad messages get a typed error and change nothing", () => {
  const ownerActions: Array<[string, (session: PatienceOwner) => Promise<void>]> = [
    ["pause", (s) => s.pause()],
    ["resume", (s) => s.resume()],
    ["step", (s) => s.step()],
    ["setPace", (s) => s.setPace(100)],
    ["restart", (s) => s.restart({ seed: 5 })],
  ];

  test("every owner action from a spectator is NOT_OWNER", async () => {
    const { room } = await createRoom({ seed: 7, paused: true });
    const spectator = await spectate(room);
    const intruder = new PatienceOwner(spectator.room); // the SDK would not offer these to a spectator
    const before = publicState(room);
    for (const [type, act] of ownerActions) {
      await expect(act(intruder)).rejects.toEqual(
        expect.objectContaining({ code: "NOT_OWNER", type, name: "CardhallError" }),
      );
    }
    expect(publicState(room)).toEqual(before);
  });

  test.each([
    ["setPace", { paceMs: 10_001 }],
    ["setPace", { paceMs: -1 }],
    ["setPace", { paceMs: "fast" }],
    ["setPace", {}],
    ["step", { times: 2 }],
    ["restart", { seed: 3, deck: SAMPLE_TEXT }],
    ["restart", { seed: 0 }],
    ["claim", { name: 7 }],
  ])("%s %j is BAD_PAYLOAD", async (type, payload) => {
    const { room, owner } = await createRoom({ seed: 7, paused: true });
    const before = publicState(room);
    const error = await owner.room.request(type, payload).catch((e: { reason: unknown }) => e.reason);
    expect(error).toMatchObject({ code: "BAD_PAYLOAD", type });
    expect(publicState(room)).toEqual(before);
  });

  test("actions out of phase: NOT_PAUSED, ALREADY_PAUSED, DEAL_IN_PROGRESS, DEAL_OVER, BAD_DECK", async () => {
    const { room, owner } = await createRoom({ deck: deckText(OVERFLOW_DECK), paused: true, paceMs: 0 });
    let before = publicState(room);
    await expect(owner.pause()).rejects.toMatchObject({ code: "ALREADY_PAUSED" });
    await expect(owner.restart()).rejects.toMatchObject({ code: "DEAL_IN_PROGRESS" });
    expect(publicState(room)).toEqual(before);
    await owner.setPace(10_000); // slow enough that nothing moves while the refusals below are checked
    await owner.resume();
    before = publicState(room);
    await expect(owner.step()).rejects.toMatchObject({ code: "NOT_PAUSED" });
    await expect(owner.resume()).rejects.toMatchObject({ code: "NOT_PAUSED" });
    expect(publicState(room)).toEqual(before);
    await owner.pause();
    await stepToEnd(owner, room);
    before = publicState(room);
    for (const act of [() => owner.step(), () => owner.pause(), () => owner.resume()]) {
      await expect(act()).rejects.toMatchObject({ code: "DEAL_OVER" });
    }
    await expect(owner.restart({ deck: "TS QC 8S" })).rejects.toMatchObject({
      code: "BAD_DECK",
      message: expect.stringMatching(/52 cards, this one has 3/),
    });
    const repeated = deckText([...OVERFLOW_DECK.slice(0, 51), OVERFLOW_DECK[0]]);
    await expect(owner.restart({ deck: repeated })).rejects.toMatchObject({
      code: "BAD_DECK",
      message: expect.stringMatching(/repeats AS/),
    });
    await expect(owner.restart({ deck: SAMPLE_TEXT.replace("TS", "10S") })).rejects.toMatchObject({
      code: "BAD_DECK",
      message: expect.stringMatching(/"10S" is not a card/),
    });
    expect(publicState(room)).toEqual(before);
  });

  test("an unknown message and a claim while the owner is there are answered with error messages", async () => {
    const { room } = await createRoom({ seed: 7, paused: true });
    const { client } = await rawSpectator(room);
    const before = publicState(room);
    const unknown = client.waitForMessage("error");
    client.send("shuffle", {});
    await expect(unknown).resolves.toMatchObject({ code: "UNKNOWN_MESSAGE", type: "shuffle" });
    const hasOwner = client.waitForMessage("error");
    client.send("claim", {});
    await expect(hasOwner).resolves.toMatchObject({ code: "HAS_OWNER", type: "claim" });
    expect(publicState(room)).toEqual(before);
  });

  test("a spectator joining with bad options is refused", async () => {
    const { room } = await createRoom({ seed: 7, paused: true });
    await expectRefused(colyseus.sdk.joinById(room.roomId, { spectate: "yes" }), /bad options: spectate/);
  });

  test.each([
    [{ deck: "TS QC" }, /bad deck: line 1: a deal needs 52 cards, this one has 2/],
    [{ seed: 3, deck: SAMPLE_TEXT }, /give a seed or a deck, not both/],
    [{ paceMs: 20_000 }, /bad options: paceMs/],
    [{ seed: 0 }, /bad options: seed/],
  ])("a room created with %j is refused", async (options, message) => {
    await expect(colyseus.sdk.create("patience", options)).rejects.toThrow(message);
  });
});

describe("ownership", () => {
  test("the creator owns the room; everyone else watches, even without spectate", async () => {
    const { room, owner } = await createRoom({ seed: 7, paused: true, name: "ada" });
    const second = new PatienceSpectator(await colyseus.connectTo(room, {}));
    await waitUntil(() => second.view()?.spectators === 1);
    expect(second.isOwner()).toBe(false);
    expect(second.view()).toMatchObject({ owner: owner.sessionId, ownerName: "ada", ownerConnected: true });
  });

  test("once the owner leaves, a spectator may claim the room, and the next client joining without spectate takes it after", async () => {
    const { room, owner } = await createRoom({ seed: 7, paused: true, reconnectSeconds: 0 });
    const first = await spectate(room);
    const second = await spectate(room);
    const left = new Promise((resolve) =>
      first.on("control", (event) => event.action === "ownerLeft" && resolve(event)),
    );
    await owner.leave();
    await left;
    await waitUntil(() => first.view()?.owner === "");
    const claimed = await first.claim("bea");
    expect(claimed).toBeInstanceOf(PatienceOwner);
    await expect(second.claim()).rejects.toMatchObject({ code: "HAS_OWNER" });
    await claimed.step();
    await waitUntil(() => room.state.steps === 1);
    expect(room.state.toJSON()).toMatchObject({ owner: first.sessionId, ownerName: "bea", spectators: 1 });

    await first.leave();
    await waitUntil(() => room.state.owner === "");
    const watcher = await spectate(room); // spectate: never made the owner
    const joiner = new PatienceOwner(await colyseus.connectTo(room, { name: "cy" }));
    await waitUntil(() => joiner.isOwner());
    expect(watcher.isOwner()).toBe(false);
    await joiner.step();
    await waitUntil(() => room.state.steps === 2);
  });

  test("a dropped owner keeps the room and takes it back with its reconnection token", async () => {
    const { room, owner } = await createRoom({ seed: 7, paused: true, reconnectSeconds: 10 });
    const token = owner.reconnectionToken;
    await dropConnection(owner.room);
    await waitUntil(() => room.state.ownerConnected === false, 5000, "the drop");
    const latecomer = new PatienceSpectator(await colyseus.connectTo(room, {}));
    await waitUntil(() => latecomer.view() !== undefined);
    expect(latecomer.isOwner()).toBe(false); // the owner's place is kept for the reconnection window
    const back = new PatienceOwner(await colyseus.reconnect(token));
    await waitUntil(() => back.isOwner() && room.state.ownerConnected, 5000, "the owner back");
    await back.step();
    await waitUntil(() => room.state.steps === 1);
  });
});

describe("hidden information", () => {
  /** The cards a received value names (two-character tokens in the notation). */
  function cardsIn(value: unknown): Set<string> {
    const found = new Set<string>();
    JSON.stringify(value).replace(/"([A2-9TJQK][SHCD])"/g, (_match, card: string) => (found.add(card), ""));
    return found;
  }

  test("no client ever receives an undealt card: each message and state names only cards dealt by then", async () => {
    const { room, owner } = await createRoom({ deck: deckText(OVERFLOW_DECK), paused: true, paceMs: 0 });
    const { client, received } = await rawSpectator(room);
    await waitUntil(() => received.snapshots.length > 0);
    await stepToEnd(owner, room);
    await waitUntil(
      () =>
        received.messages.some((m) => m.type === "dealOver") && (client.state as { phase: string }).phase === "over",
    );
    const names = OVERFLOW_DECK.map(formatCard);
    const shown = (cards: number) => new Set(names.slice(0, cards));
    for (const { payload } of received.messages) {
      const { dealt = 0, kind } = payload as { dealt?: number; kind?: string };
      const visible = shown(kind === "overflowed" ? dealt + 1 : dealt); // an overflow turns up the card it cannot place
      expect([...cardsIn(payload)].filter((card) => !visible.has(card))).toEqual([]);
    }
    for (const snapshot of [...received.snapshots, owner.view()]) {
      const visible = shown((snapshot as { dealt: number }).dealt);
      expect([...cardsIn(snapshot)].filter((card) => !visible.has(card))).toEqual([]);
    }
    const tokens = received.tokens();
    for (const never of names.slice(17)) expect(tokens.has(never)).toBe(false); // cards 18..52 were never dealt
  });

  test("a seed is revealed only with the deal's end", async () => {
    const seed = 1_234_567_891;
    const { room, owner } = await createRoom({ seed, paused: true });
    const { received } = await rawSpectator(room);
    await waitUntil(() => received.snapshots.length > 0);
    for (let i = 0; i < 200 && room.state.phase !== "over"; i++) {
      await owner.step();
      await sleep(i % 10 === 0 ? 60 : 0); // now and then long enough for a state patch in the middle of the deal
    }
    await waitUntil(
      () =>
        received.messages.some((m) => m.type === "dealOver") &&
        received.snapshots.some((s) => (s as PatienceStateView).phase === "over"),
    );
    const overAt = received.messages.findIndex((m) => m.type === "dealOver");
    expect(received.messages[overAt].payload).toMatchObject({ seed });
    expect(JSON.stringify(received.messages.slice(0, overAt))).not.toContain(String(seed));
    const beforeOver = received.snapshots.filter((s) => (s as PatienceStateView).phase !== "over");
    expect(beforeOver.length).toBeGreaterThan(0);
    expect(JSON.stringify(beforeOver)).not.toContain(String(seed));
    expect(received.snapshots.at(-1)).toMatchObject({ revealedSeed: seed });
  });

  test("the SDK reports refusals as CardhallError", async () => {
    const { owner } = await createRoom({ seed: 7 });
    await expect(owner.step()).rejects.toBeInstanceOf(CardhallError);
  });
});
