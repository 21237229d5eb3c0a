import { joinRecording, useRoomTestServer, type RoomTestServer } from "./test-server";
import type { TractorRoom } from "../../rooms/tractor/room";
import { roundOf } from "../../rooms/tractor/match";
import { BLACK_JOKER, type Card, cardName, parseCards, RED_JOKER } from "../../rooms/tractor/cards";
import {
  botDeclaration,
  checkDeclaration,
  DEAL_STEPS,
  declarationOptions,
  declarationStrength,
  declaredMainSuit,
  dealtTo,
  type Declaration,
} from "../../rooms/tractor/declaration";
import type { Seat } from "../../rooms/tractor/scoring";
import {
  TRACTOR_SEATS,
  TractorPlayer,
  type TractorDeclaredEvent,
  type TractorStateView,
  type TractorTrumpEvent,
} from "../../client-sdk";
import { Received, waitUntil } from "../helpers";

let colyseus: RoomTestServer;

useRoomTestServer((server) => (colyseus = server));

function cards(text: string): Card[] {
  return parseCards(text) ?? [];
}

const reasonOf = (standing: Declaration | undefined, seat: Seat, declared: string, held: string, rank = 2) => {
  const check = checkDeclaration(standing, seat, cards(declared), cards(held), rank);
  return check.ok ? "ok" : check.reason;
};

describe("declaration rules", () => {
  test("a single current-rank card, a pair of it, then black and red joker pairs, each stronger", () => {
    expect([["H2"], ["H2H2"], ["BJBJ"], ["RJRJ"]].map(([text]) => declarationStrength(cards(text), 2))).toEqual([
      1, 2, 3, 4,
    ]);
    for (const text of ["H3", "BJ", "RJ", "H2S2", "BJRJ", "H2H2H2", "H3H3"])
      expect(declarationStrength(cards(text), 2)).toBeUndefined();
    expect(declarationStrength(cards("SK"), 13)).toBe(1);
  });

  test("only a stronger declaration overrides; a seat may only strengthen its own single into the pair", () => {
    const aliceH2: Declaration = { seat: 0, cards: cards("H2") };
    expect(reasonOf(undefined, 1, "C2", "C2C2D5")).toBe("ok");
    expect(reasonOf(aliceH2, 1, "C2", "C2C2D5")).toMatch(/Alice's H2 stands/);
    expect(reasonOf(aliceH2, 1, "C2C2", "C2C2D5")).toBe("ok");
    expect(reasonOf(aliceH2, 0, "H2H2", "H2H2")).toBe("ok");
    expect(reasonOf(aliceH2, 0, "S2S2", "H2S2S2")).toMatch(/only strengthen your own/);
    expect(reasonOf({ seat: 1, cards: cards("C2C2") }, 3, "BJBJ", "BJBJ")).toBe("ok");
    expect(reasonOf({ seat: 1, cards: cards("BJBJ") }, 3, "RJRJ", "RJRJ")).toBe("ok");
    expect(reasonOf(undefined, 1, "C2C2", "C2D5")).toMatch(/not been dealt C2C2/);
    expect(reasonOf(undefined, 1, "C3", "C3")).toMatch(/current rank/);
  });

  test("the main suit is the declared card's suit; a joker pair or no declaration at all means no main suit", () => {
    expect(declaredMainSuit({ seat: 2, cards: cards("D2D2") })).toBe("D");
    expect(declaredMainSuit({ seat: 2, cards: cards("RJRJ") })).toBe("O");
    expect(declaredMainSuit(undefined)).toBe("O");
  });

  test("the deal gives one card at a time clockwise from the dealer; the dealer's last 8 are never dealt", () => {
    const hand = Array.from({ length: 33 }, (_, index) => index);
    expect(dealtTo(hand, 2, 2, 0)).toEqual([]);
    expect(dealtTo(hand, 2, 2, 1)).toEqual([0]);
    expect(dealtTo(hand, 2, 3, 1)).toEqual([]);
    expect(dealtTo(hand, 2, 3, 2)).toEqual([0]);
    expect(dealtTo(hand, 2, 1, 4)).toEqual([0]);
    expect(dealtTo(hand, 2, 2, 5)).toEqual([0, 1]);
    expect(dealtTo(hand, 2, 2, DEAL_STEPS)).toHaveLength(25);
    expect(dealtTo(hand, 2, 1, DEAL_STEPS)).toHaveLength(25);
  });

  test("the seat bot never overrides its partner and prefers a suit to no main suit", () => {
    expect(botDeclaration({ seat: 0, cards: cards("H2") }, 2, cards("S2S2BJBJ"), 2)).toBeUndefined();
    expect(botDeclaration({ seat: 0, cards: cards("H2") }, 1, cards("S2S2BJBJ"), 2)).toEqual(cards("S2S2"));
    expect(botDeclaration({ seat: 0, cards: cards("H2H2") }, 1, cards("S2S2BJBJ"), 2)).toEqual(cards("BJBJ"));
    expect(botDeclaration(undefined, 1, cards("BJBJ"), 2)).toBeUndefined();
    expect(botDeclaration(undefined, 1, cards("S2H2H5H6"), 2)).toEqual(cards("H2"));
    expect(declarationOptions(undefined, 1, cards("S2S2BJ"), 2)).toEqual([cards("S2"), cards("S2S2")]);
  });
});

/** With this seed Alice is dealt H2, Bob C2 C2 D2, Charles D2 S2 S2, David H2 and a pair of jokers. */
const SEED = 6;
const DECLARE = {
  trump: "declare",
  seed: SEED,
  dealer: "Alice",
  dealDelayMs: 0,
  botDelayMs: 0,
  roundPauseMs: 60_000,
  startDelayMs: 50,
} as const;

async function seatFour(
  options: Record<string, unknown>,
): Promise<{ room: TractorRoom; players: TractorPlayer[]; watcher: Received }> {
  const room = await colyseus.createRoom<TractorRoom>("tractor", options);
  const watcher = new Received(await colyseus.connectTo(room, { spectate: true }));
  const players: TractorPlayer[] = [];
  for (const seat of TRACTOR_SEATS) players.push(new TractorPlayer(await colyseus.connectTo(room, { seat })));
  return { room, players, watcher };
}

function events<T>(received: Received, type: string): T[] {
  return received.messages.filter((m) => m.type === type).map((m) => m.payload as T);
}

describe("the declaration phase at a table", () => {
  test("people declare and override while the cards are dealt; the strongest declaration sets the main suit", async () => {
    const { room, players, watcher } = await seatFour({ ...DECLARE, declareWindowMs: 2000 });
    const [alice, bob, charles, david] = players;
    await waitUntil(() => room.state.phase === "declaring" && room.state.dealt === DEAL_STEPS, 5000, "the deal");
    const match = room["match"]!.state;
    if (match.phase !== "declaring") throw new Error(`the deal is over: the table is ${match.phase}`);
    const davidsJokers = match.dealing.hands[3]
      .slice(0, 25)
      .filter((card) => card === BLACK_JOKER || card === RED_JOKER);
    const jokerPair = [BLACK_JOKER, RED_JOKER].find(
      (joker) => davidsJokers.filter((card) => card === joker).length === 2,
    )!;

    const hint = await bob.hint();
    expect(hint.options.map((option) => option.join(""))).toEqual(expect.arrayContaining(["C2", "C2C2", "D2"]));
    await expect(alice.declare(["H3"])).rejects.toMatchObject({
      code: "ILLEGAL_DECLARATION",
      message: expect.stringMatching(/current rank/),
    });
    await expect(alice.declare(["S2"])).rejects.toMatchObject({
      code: "ILLEGAL_DECLARATION",
      message: "You have not been dealt S2.",
    });
    await expect(alice.declare(["Z2"])).rejects.toMatchObject({ code: "NOT_A_CARD" });
    await bob.declare(["C2"]);
    await expect(alice.declare(["H2"])).rejects.toMatchObject({
      code: "ILLEGAL_DECLARATION",
      message: "Bob's C2 stands: only a stronger declaration overrides it.",
    });
    await expect(bob.declare(["D2"])).rejects.toMatchObject({ code: "ILLEGAL_DECLARATION" });
    await bob.declare(["C2", "C2"]);
    await expect(charles.declare(["S2", "S2"])).rejects.toMatchObject({
      code: "ILLEGAL_DECLARATION",
      message: expect.stringMatching(/stands/),
    });
    await expect(bob.play(["C2"])).rejects.toMatchObject({ code: "WRONG_PHASE" });
    await david.declare([jokerPair, jokerPair]);
    expect(room.state.declaration.toJSON()).toEqual({
      seat: "David",
      cards: [cardName(jokerPair), cardName(jokerPair)],
    });

    await waitUntil(() => room.state.phase === "burying", 5000, "the end of declaring");
    await waitUntil(() => events(watcher, "trump").length === 1);
    expect(
      events<TractorDeclaredEvent>(watcher, "declared").map((e) => [e.seat, e.cards.join(""), e.mainSuit]),
    ).toEqual([
      ["Bob", "C2", "C"],
      ["Bob", "C2C2", "C"],
      ["David", `${cardName(jokerPair)}${cardName(jokerPair)}`, "O"],
    ]);
    expect(events<TractorTrumpEvent>(watcher, "trump")).toEqual([{ round: 1, mainSuit: "O", declaredBy: "David" }]);
    expect(room.state.mainSuit).toBe("O");
    await waitUntil(() => alice.hand().length === 33, 5000, "the kitty");
    expect(alice.hand().sort()).toEqual(roundOf(room["match"]!.state)!.hands[0].map(cardName).sort());
  });

  test("when nobody declares the round has no main suit", async () => {
    const { room, watcher } = await seatFour({ ...DECLARE, declareWindowMs: 100 });
    await waitUntil(() => room.state.phase === "burying", 5000, "the end of declaring");
    await waitUntil(() => events(watcher, "trump").length === 1);
    expect(events<TractorTrumpEvent>(watcher, "trump")[0]).toEqual({ round: 1, mainSuit: "O", declaredBy: "" });
    expect(events(watcher, "declared")).toEqual([]);
  });

  test("a paced deal shows each card as it comes, and bots declare with what they have been dealt", async () => {
    const room = await colyseus.createRoom<TractorRoom>("tractor", {
      ...DECLARE,
      bots: [...TRACTOR_SEATS],
      dealDelayMs: 5,
      declareWindowMs: 50,
    });
    const watcher = (await joinRecording(colyseus, room.roomId, { spectate: true })).received; // the deal starts 50 ms after this join
    await waitUntil(() => events(watcher, "trump").length === 1, 10_000, "the end of declaring");
    const dealing = (watcher.snapshots as TractorStateView[]).filter((s) => s.phase === "declaring");
    expect(new Set(dealing.map((s) => s.dealt)).size).toBeGreaterThan(3);
    for (const snapshot of dealing)
      expect(snapshot.seats.reduce((sum, seat) => sum + seat.handCount, 0)).toBe(snapshot.dealt);
    const declared = events<TractorDeclaredEvent>(watcher, "declared");
    expect(declared.length).toBeGreaterThan(0);
    const last = declared[declared.length - 1];
    expect(events<TractorTrumpEvent>(watcher, "trump")[0]).toEqual({
      round: 1,
      mainSuit: last.mainSuit,
      declaredBy: last.seat,
    });
    // Partners never override each other.
    declared.slice(1).forEach((event, index) => {
      const before = TRACTOR_SEATS.indexOf(declared[index].seat);
      const now = TRACTOR_SEATS.indexOf(event.seat);
      expect(before === now || before % 2 !== now % 2).toBe(true);
    });
  });
});
