import type { Room as ClientRoom } from "@colyseus/sdk";
import { joinRecording, useRoomTestServer, type RoomTestServer } from "./test-server";
import type { TractorRoom } from "../../rooms/tractor/room";
import { roundOf } from "../../rooms/tractor/match";
import { roundSeedOf } from "../../rooms/tractor/match-rounds";
import {
  type Card,
  cardName as cardNameOf,
  countCards,
  DISTINCT_CARDS,
  parseCard,
  parseCards,
} from "../../rooms/tractor/cards";
import { checkFollow } from "../../rooms/tractor/legality";
import { orderingOf, type RoundState } from "../../rooms/tractor/round";
import { SEATS, type Seat } from "../../rooms/tractor/scoring";
import { seatView, type SeatView } from "../../rooms/tractor/seat-view";
import {
  TRACTOR_SEATS,
  TractorPlayer,
  type TractorPlayedEvent,
  type TractorRoundEndEvent,
  type TractorRoundStartEvent,
  type TractorTrickEvent,
} from "../../client-sdk";
import { Received, waitUntil } from "../helpers";

let colyseus: RoomTestServer;

useRoomTestServer((server) => (colyseus = server));

/** A fixed-trump table, unpaced: every test that needs a deal it can predict uses it. */
const FIXED = {
  trump: "fixed",
  mainSuit: "S",
  dealer: "Alice",
  seed: 20260501,
  botDelayMs: 0,
  roundPauseMs: 0,
  startDelayMs: 100,
} as const;

interface Seated {
  room: TractorRoom;
  players: TractorPlayer[];
  received: Received[];
}

/** A table of four people (each with a record of everything it received), the deal done and the dealer to bury. */
async function seatFour(options: Record<string, unknown>): Promise<Seated> {
  const room = await colyseus.createRoom<TractorRoom>("tractor", options);
  const players: TractorPlayer[] = [];
  const received: Received[] = [];
  for (const seat of TRACTOR_SEATS) {
    const client = await colyseus.connectTo(room, { seat, name: `${seat}-person` });
    received.push(new Received(client));
    players.push(new TractorPlayer(client));
  }
  await waitUntil(() => room.state.phase === "burying", 5000, "the deal");
  return { room, players, received };
}

function serverRound(room: TractorRoom): RoundState {
  const round = roundOf(room["match"]!.state);
  if (round === null) throw new Error("no round is under way");
  return round;
}

function publicState(room: TractorRoom): unknown {
  return JSON.parse(JSON.stringify(room.state.toJSON()));
}

/** Each person does what the seat bot suggests (the `hint` request), until `done` or the round's end. */
async function playByHints(
  room: TractorRoom,
  players: TractorPlayer[],
  done: () => boolean = () => false,
): Promise<void> {
  for (let moves = 0; moves < 120 && !done(); moves++) {
    const phase = room.state.phase;
    if (phase !== "burying" && phase !== "playing") return;
    const player = players[TRACTOR_SEATS.indexOf(room.state.turn as (typeof TRACTOR_SEATS)[number])];
    const { suggestion } = await player.hint(1);
    await (phase === "burying" ? player.bury(suggestion) : player.play(suggestion));
  }
}

/** Waits until every client's state has caught up with the room's. */
async function caughtUp(
  room: TractorRoom,
  clients: Array<{ view(): { step: number; phase: string } | undefined }>,
): Promise<void> {
  await waitUntil(
    () =>
      clients.every((client) => client.view()?.step === room.state.step && client.view()?.phase === room.state.phase),
    5000,
    "the clients' states",
  );
}

/** Hands and burial candidates compared as multisets: the room shows hands highest first, the engine keeps deal order. */
function comparable(view: SeatView | undefined): unknown {
  if (view === undefined) return undefined;
  const sorted = (cards: readonly Card[] | undefined) => cards && [...cards].sort((a, b) => a - b);
  return JSON.parse(JSON.stringify({ ...view, hand: sorted(view.hand), buryFrom: sorted(view.buryFrom) }));
}

// ---------------------------------------------------------------------------------------------------------
// Cards a client received, counted

const CARD_RUN = /\b(?:(?:[HSCD][2-9TJQKA]|BJ|RJ))+\b/g;

/** How many of each card one received item (a message or a state snapshot) names, wherever it names them. */
function cardsNamedIn(item: unknown): Uint8Array {
  const counts = new Uint8Array(DISTINCT_CARDS);
  const visit = (value: unknown): void => {
    if (typeof value === "string") {
      for (const run of value.match(CARD_RUN) ?? []) for (const card of parseCards(run) ?? []) counts[card]++;
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") Object.values(value).forEach(visit);
  };
  visit(item);
  return counts;
}

/** Every item this client received that names some card more often than `allowed` lets it know of. */
function overreach(received: Received, allowed: Uint8Array): string[] {
  const items = [...received.messages, ...received.snapshots];
  return items.flatMap((item) => {
    const counts = cardsNamedIn(item);
    const excess = [...counts.keys()].filter((card) => counts[card] > allowed[card]);
    return excess.length === 0
      ? []
      : [`${JSON.stringify(item).slice(0, 200)}… names too many of card(s) ${excess.join(", ")}`];
  });
}

function playedSoFar(round: RoundState): Card[] {
  const tricks = round.trick ? [...round.tricks, round.trick] : round.tricks;
  return tricks.flatMap((trick) => trick.plays.flat());
}

function sumCounts(...lists: (readonly Card[])[]): Uint8Array {
  return countCards(lists.flat());
}

describe("the tractor room", () => {
  test("deals 33 cards to the dealer and 25 to the others; each player's state holds its own hand only", async () => {
    const { room, players } = await seatFour(FIXED);
    await caughtUp(room, players);
    const round = serverRound(room);
    expect(round.hands.map((hand) => hand.length)).toEqual([33, 25, 25, 25]);
    players.forEach((player, seat) => {
      const view = player.view()!;
      expect(player.seat()).toBe(TRACTOR_SEATS[seat]);
      expect(view.seats.map((s) => s.handCount)).toEqual([33, 25, 25, 25]);
      expect(view.seats.filter((s) => s.hand !== undefined).map((s) => s.seat)).toEqual([TRACTOR_SEATS[seat]]);
      expect([...player.hand()].sort()).toEqual(round.hands[seat].map((card) => cardNameOf(card)).sort());
    });
    expect(players[0].view()).toMatchObject({
      phase: "burying",
      turn: "Alice",
      dealer: "Alice",
      mainSuit: "S",
      currentRank: 2,
      teamRanks: [2, 2],
    });
  });

  test("the SDK builds each seat's SeatView from what it received, equal to the server's own projection", async () => {
    const { room, players } = await seatFour(FIXED);
    const check = async () => {
      await caughtUp(room, players);
      for (const seat of SEATS)
        expect(comparable(players[seat].seatView())).toEqual(comparable(seatView(serverRound(room), seat)));
    };
    await check(); // burying: the dealer's buryFrom
    await playByHints(room, players, () => room.state.tricks.length === 2 && room.state.trick.plays.length === 2);
    await check(); // mid-trick: the dealer's buried cards, tricks, playedBy
    await playByHints(room, players);
    await check(); // the round's end: the result
    const round = serverRound(room);
    expect(players[0].seatView()?.result).toEqual(round.phase === "finished" ? round.result : undefined);
  });

  test("hidden cards never reach a client that may not see them: not in state, messages or logs", async () => {
    const logged: string[] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((method) =>
      jest
        .spyOn(console, method)
        .mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" "))),
    );
    try {
      const { room, players, received } = await seatFour({ ...FIXED, roundPauseMs: 60_000 });
      const dealt = serverRound(room).hands.map((hand) => hand.slice());
      const watcher = new Received(await colyseus.connectTo(room, { spectate: true }));
      // An illegal play and a refused burial: their error replies go to the sender only and name only its own cards.
      await players[1].play([dealt[1][0]]).catch(() => undefined);
      await players[0].bury(dealt[0].slice(0, 7)).catch(() => undefined);
      await playByHints(room, players, () => room.state.tricks.length >= 2);
      await caughtUp(room, players);
      expect(room.state).toMatchObject({ round: 1, phase: "playing" });
      await waitUntil(() => watcher.snapshots.length > 0 && watcher.messages.length > 0);

      const round = serverRound(room);
      const played = playedSoFar(round);
      for (const seat of SEATS) {
        expect(overreach(received[seat], sumCounts(dealt[seat], played))).toEqual([]);
        for (const snapshot of received[seat].snapshots as Array<{
          seats?: Array<{ hand?: unknown; buried?: unknown }>;
        }>) {
          (snapshot.seats ?? []).forEach((held, other) => {
            if (other !== seat) expect([held.hand, held.buried]).toEqual([undefined, undefined]);
          });
        }
      }
      expect(overreach(watcher, sumCounts(played))).toEqual([]);
      expect(received[1].tokens().has(String(room["match"]!.state.roundSeed))).toBe(false);
      expect(watcher.text()).not.toContain(String(room["match"]!.state.roundSeed));
      // The dealer sees the 8 buried cards in its own state; the others never do.
      expect(players[0].view()?.seats[0].buried?.sort()).toEqual(round.hidden.map(cardNameOf).sort());
      for (const line of logged) expect(line.match(CARD_RUN)).toBeNull();
    } finally {
      spies.forEach((spy) => spy.mockRestore());
    }
  });

  test("the round's end reveals the hidden cards, their bonus, the result and the seed; the next round follows", async () => {
    // A short pause keeps round 1 on the table while the test reads it; the next deal follows the pause.
    const { room, players, received } = await seatFour({ ...FIXED, roundPauseMs: 1_000 });
    await playByHints(room, players);
    const round = serverRound(room);
    if (round.phase !== "finished") throw new Error(`round 1 is ${round.phase}, not over`);
    const seed = room["match"]!.state.roundSeed;
    const result = round.result;
    await waitUntil(() => received[2].messages.some((m) => m.type === "roundEnd"));
    const roundEnd = received[2].messages.find((m) => m.type === "roundEnd")!.payload as TractorRoundEndEvent;
    expect(roundEnd).toEqual({
      round: 1,
      seed,
      defenderPoints: result.defenderPoints,
      hiddenCards: round.hidden.map(cardNameOf),
      hiddenBonus: result.hiddenBonus,
      make: result.change.make,
      team: result.change.team,
      levels: result.change.levels,
      teamRanks: [...result.teamRanks],
      nextDealer: TRACTOR_SEATS[result.nextDealer],
      matchWinner: 0,
    });
    const tricks = received[2].messages.filter((m) => m.type === "trick").map((m) => m.payload as TractorTrickEvent);
    expect(tricks.map((t) => t.winner)).toEqual(round.tricks.map((t) => TRACTOR_SEATS[t.winner]));
    expect(tricks[tricks.length - 1]).toMatchObject({ defenderPoints: round.trickPoints, nextLeader: "" });
    // After the pause the next deal comes, from the result's dealer and ranks.
    await waitUntil(() => room.state.round === 2 && room.state.phase === "burying", 5000, "round 2");
    expect(room.state.dealer).toBe(TRACTOR_SEATS[result.nextDealer]);
    expect([...room.state.teamRanks]).toEqual([...result.teamRanks]);
    await waitUntil(() =>
      received[2].messages.some((m) => m.type === "roundStart" && (m.payload as TractorRoundStartEvent).round === 2),
    );
  });

  test("four bots play a whole match through the room to a winner", async () => {
    const room = await colyseus.createRoom<TractorRoom>("tractor", {
      bots: [...TRACTOR_SEATS],
      startRanks: ["2", "2"],
      seed: 77,
      botDelayMs: 0,
      dealDelayMs: 0,
      declareWindowMs: 0,
      roundPauseMs: 0,
      startDelayMs: 100,
    });
    const watcher = await colyseus.connectTo(room, { spectate: true });
    const received = new Received(watcher);
    await waitUntil(() => received.messages.some((m) => m.type === "matchEnd"), 15_000, "the match's end");
    const ends = received.messages.filter((m) => m.type === "roundEnd").map((m) => m.payload as TractorRoundEndEvent);
    const starts = received.messages
      .filter((m) => m.type === "roundStart")
      .map((m) => m.payload as TractorRoundStartEvent);
    const matchEnd = received.messages.find((m) => m.type === "matchEnd")!.payload as {
      winner: 1 | 2;
      teamRanks: number[];
      rounds: number;
    };
    expect(ends).toHaveLength(matchEnd.rounds);
    expect(starts).toHaveLength(matchEnd.rounds);
    ends.forEach((end, index) => {
      if (index + 1 < starts.length)
        expect(starts[index + 1]).toMatchObject({ dealer: end.nextDealer, teamRanks: end.teamRanks });
    });
    expect(matchEnd.rounds).toBeGreaterThan(1);
    expect(matchEnd.teamRanks[matchEnd.winner - 1]).toBeGreaterThan(14);
    expect(ends[ends.length - 1].matchWinner).toBe(matchEnd.winner);
    await waitUntil(() => (watcher.state as { phase?: string }).phase === "matchOver");
    expect(watcher.state).toMatchObject({ phase: "matchOver", winner: matchEnd.winner });
  });

  test("a match without a seed deals each later round from a fresh seed; a match given one derives them all from it", async () => {
    const fast = {
      bots: [...TRACTOR_SEATS],
      startRanks: ["2", "2"],
      botDelayMs: 0,
      dealDelayMs: 0,
      declareWindowMs: 0,
      roundPauseMs: 0,
      startDelayMs: 100,
    };
    const fresh = await colyseus.createRoom<TractorRoom>("tractor", fast);
    const seeded = await colyseus.createRoom<TractorRoom>("tractor", { ...fast, seed: 77 });
    // Recording from each join on: a table of bots starts 100 ms after it, and plays on at once.
    const received = [
      (await joinRecording(colyseus, fresh.roomId, { spectate: true })).received,
      (await joinRecording(colyseus, seeded.roomId, { spectate: true })).received,
    ];
    const roundSeeds = (of: Received) =>
      of.messages.filter((m) => m.type === "roundEnd").map((m) => (m.payload as TractorRoundEndEvent).seed);
    await waitUntil(
      () => received.every((of) => roundSeeds(of).length >= 3 || of.messages.some((m) => m.type === "matchEnd")),
      15_000,
      "three rounds at each table",
    );
    const [freshSeeds, seededSeeds] = received.map(roundSeeds);
    expect(freshSeeds.length).toBeGreaterThan(1);
    expect(seededSeeds.length).toBeGreaterThan(1);
    expect(seededSeeds).toEqual(seededSeeds.map((_, index) => roundSeedOf(77, index + 1)));
    // Round 1 comes from the match's seed (fresh itself); no later round follows from it.
    const matchSeed = fresh["match"]!.seed;
    expect(freshSeeds[0]).toBe(roundSeedOf(matchSeed, 1));
    freshSeeds.slice(1).forEach((seed, index) => expect(seed).not.toBe(roundSeedOf(matchSeed, index + 2)));
  });

  test("the same seed and the same moves give the same round, card for card", async () => {
    // A table of bots plays round 1; four people then replay its moves at a table with the same seed.
    const options = { ...FIXED, seed: 99, startRanks: ["9", "5"], dealer: "Charles" };
    const botRoom = await colyseus.createRoom<TractorRoom>("tractor", { ...options, bots: [...TRACTOR_SEATS] });
    const botWatcher = (await joinRecording(colyseus, botRoom.roomId, { spectate: true })).received; // the bots start 100 ms after this join
    await waitUntil(() => botWatcher.messages.some((m) => m.type === "roundEnd"), 10_000, "the bots' round");
    const upTo = (received: Received) =>
      received.messages.slice(0, received.messages.findIndex((m) => m.type === "roundEnd") + 1);
    const botEvents = upTo(botWatcher);
    const roundEnd = botEvents[botEvents.length - 1].payload as TractorRoundEndEvent;

    const { room, players, received } = await seatFour(options);
    await players[2].bury(roundEnd.hiddenCards);
    for (const { payload } of botEvents.filter((m) => m.type === "played")) {
      const { seat, cards } = payload as TractorPlayedEvent;
      await players[TRACTOR_SEATS.indexOf(seat)].play(cards);
    }
    await waitUntil(() => received[0].messages.some((m) => m.type === "roundEnd"));
    const replayed = upTo(received[0]).filter(
      (m) => m.type !== "roundStart" || (m.payload as TractorRoundStartEvent).round === 1,
    );
    expect(replayed.map(({ type, payload }) => ({ type, payload }))).toEqual(
      botEvents.map(({ type, payload }) => ({ type, payload })),
    );
    expect(room.state.round > 1 || room.state.result?.seed === roundEnd.seed).toBe(true);
  });

  describe("bad messages get a typed error and change nothing", () => {
    async function refused(room: TractorRoom, client: ClientRoom, type: string, payload: unknown): Promise<unknown> {
      const before = publicState(room);
      const reason = await client.request(type, payload).then(
        () => undefined,
        (error: { reason?: unknown }) => error.reason,
      );
      expect(publicState(room)).toEqual(before);
      return reason;
    }

    test("while the dealer buries", async () => {
      const { room, players } = await seatFour(FIXED);
      const dealt = serverRound(room).hands.map((hand) => hand.map(cardNameOf));
      const [alice, bob] = players.map((player) => player.room);
      expect(await refused(room, bob, "bury", { cards: dealt[1].slice(0, 8) })).toMatchObject({
        code: "NOT_YOUR_TURN",
        type: "bury",
      });
      expect(await refused(room, alice, "bury", { cards: dealt[0].slice(0, 7) })).toMatchObject({
        code: "ILLEGAL_BURIAL",
        message: "Bury exactly 8 cards.",
      });
      const notHeld = dealt[1].find((card) => dealt[0].filter((c) => c === card).length === 0)!;
      expect(await refused(room, alice, "bury", { cards: [...dealt[0].slice(0, 7), notHeld] })).toMatchObject({
        code: "ILLEGAL_BURIAL",
        message: expect.stringMatching(/do not hold/),
      });
      expect(await refused(room, alice, "bury", { cards: ["S1", ...dealt[0].slice(0, 7)] })).toMatchObject({
        code: "NOT_A_CARD",
      });
      expect(await refused(room, alice, "play", { cards: [dealt[0][0]] })).toMatchObject({ code: "WRONG_PHASE" });
      expect(await refused(room, alice, "declare", { cards: [dealt[0][0]] })).toMatchObject({ code: "WRONG_PHASE" });
      expect(await refused(room, alice, "bury", { cards: "HA" })).toMatchObject({ code: "BAD_PAYLOAD" });
      expect(await refused(room, alice, "bury", { cards: dealt[0].slice(0, 8), extra: true })).toMatchObject({
        code: "BAD_PAYLOAD",
      });
      const spectator = await colyseus.connectTo(room, { spectate: true });
      expect(await refused(room, spectator, "bury", { cards: dealt[0].slice(0, 8) })).toMatchObject({
        code: "NOT_A_PLAYER",
      });
      expect(await refused(room, spectator, "hint", {})).toMatchObject({ code: "NOT_A_PLAYER" });
      const unknown = alice.waitForMessage("error");
      alice.send("shuffle", {});
      await expect(unknown).resolves.toMatchObject({ code: "UNKNOWN_MESSAGE", type: "shuffle" });
    });

    test("illegal plays are refused with the engine's reason", async () => {
      const { room, players } = await seatFour(FIXED);
      await playByHints(room, players, () => room.state.phase === "playing");
      const round = serverRound(room);
      const leader = round.turn;
      const hand = round.hands[leader];
      const ordering = orderingOf(round);
      const groups = [...new Set(hand.map((card) => ordering.group[card]))];
      const mixed = groups.slice(0, 2).map((group) => hand.find((card) => ordering.group[card] === group)!);
      const client = (seat: Seat) => players[seat].room;
      expect(await refused(room, client(leader), "play", { cards: mixed.map(cardNameOf) })).toMatchObject({
        code: "ILLEGAL_PLAY",
        message: "A lead must be all trumps or all cards of one suit.",
      });
      const follower = ((leader + 1) % 4) as Seat;
      expect(
        await refused(room, client(follower), "play", { cards: [cardNameOf(round.hands[follower][0])] }),
      ).toMatchObject({ code: "NOT_YOUR_TURN" });
      expect(await refused(room, client(leader), "play", { cards: [] })).toMatchObject({ code: "BAD_PAYLOAD" });

      // Lead a single of a group the follower holds, and have the follower answer with another group.
      const followerHand = round.hands[follower];
      const shared = hand.find(
        (card) =>
          followerHand.some((held) => ordering.group[held] === ordering.group[card]) &&
          followerHand.some((held) => ordering.group[held] !== ordering.group[card]),
      );
      if (shared === undefined) throw new Error("this deal has no revoke to try; pick another seed");
      await players[leader].play([shared]);
      const revoke = followerHand.find((card) => ordering.group[card] !== ordering.group[shared])!;
      const reason = checkFollow(followerHand, [shared], [revoke], ordering);
      expect(reason.ok).toBe(false);
      expect(await refused(room, client(follower), "play", { cards: [cardNameOf(revoke)] })).toMatchObject({
        code: "ILLEGAL_PLAY",
        message: (reason as { reason: string }).reason,
      });
      await expect(players[follower].play([revoke])).rejects.toMatchObject({
        name: "CardhallError",
        code: "ILLEGAL_PLAY",
      });
    });
  });

  test("hint lists the engine's legal plays for the seat on turn, and nothing for the others", async () => {
    const { room, players } = await seatFour(FIXED);
    const burial = await players[0].hint();
    expect(burial).toMatchObject({ phase: "burying", options: [], complete: true });
    expect(burial.suggestion).toHaveLength(8);
    expect(await players[1].hint()).toEqual({ phase: "burying", options: [], complete: true, suggestion: [] });
    await playByHints(room, players, () => room.state.trick.plays.length === 1);
    const round = serverRound(room);
    const seat = round.turn;
    const hint = await players[seat].hint(5000);
    const lead = round.trick!.plays[0];
    const ordering = orderingOf(round);
    expect(hint.complete).toBe(true);
    expect(hint.options.length).toBeGreaterThan(0);
    for (const option of hint.options)
      expect(
        checkFollow(
          round.hands[seat],
          lead,
          option.map((c) => parseCard(c)!),
          ordering,
        ).ok,
      ).toBe(true);
    const sorted = (cards: string[]) => [...cards].sort();
    expect(hint.options.map(sorted)).toContainEqual(sorted(hint.suggestion));
  });
});
