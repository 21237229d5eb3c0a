import type { Room as ClientRoom } from "@colyseus/sdk";
import type { FoolMatch } from "../../rooms/fool/match";
import type { FoolRoom } from "../../rooms/fool/room";
import { seededRandom } from "../../rooms/kit/random";
import { NATURAL_CARDS, isJoker, type Card } from "../../rooms/fool/cards";
import { randomPolicy, greedyPolicy } from "../../rooms/fool/bots";
import { applyMove, covers, legalMoves, newGame, viewFor, type FoolState } from "../../rooms/fool/rules";
import { aiPolicy } from "../../rooms/fool/ai";
import { remember, startMemory } from "../../rooms/fool/ai-memory";
import type { FoolMoveEvent, FoolOverEvent, FoolStateView } from "../../rooms/fool/protocol";
import { CardhallError, FoolPlayer } from "../../client-sdk";
import { matchMaker } from "@colyseus/core";
import { GUEST, type FinishedGame } from "../../rooms/kit/record";
import { playFoolGame } from "../../client-sdk/bots/fool";
import { Received, waitUntil, dropConnection, expectRefused, expectConsole } from "../helpers";
import { joinRecording, useRoomTestServer, type RoomTestServer } from "./test-server";

let colyseus: RoomTestServer;

useRoomTestServer((server) => (colyseus = server));

/** Seat 0 moves first holding 6H 3H 9H 7H 4C on 5C: 4C covers, the hearts do not. AI games from it are short. */
const SEED = 42;
const SLOW_AI = 60_000;

/** The match the room is playing (the engine's state: the game and its hidden seed). */
function matchOf(room: FoolRoom): FoolMatch {
  return (room as unknown as { match: { state: FoolMatch } }).match.state;
}

/** How many actions the room has taken (any seat's, any game's) since this was called. */
function actionsOf(room: FoolRoom): () => number {
  const act = jest.spyOn(room as unknown as { act: (...args: unknown[]) => void }, "act");
  return () => act.mock.calls.length;
}

/**
 * Runs `closeRoom` with the matchmaker's store slow to remove a room's listing (300 ms, as a cluster's Redis can be
 * under load): Colyseus awaits that removal before it calls the room's onDispose. Resolves with `count()` as it was
 * when the removal began, the moment the room's closing began.
 */
async function slowListingRemoval(count: () => number, closeRoom: () => Promise<void>): Promise<{ at: number }> {
  const driver = matchMaker.driver as { remove: (roomId: string) => Promise<unknown> };
  const remove = driver.remove;
  const closing = { at: Number.NaN };
  let removed: Promise<unknown> = Promise.resolve();
  driver.remove = (roomId) => {
    closing.at = count();
    removed = new Promise((resolve) => setTimeout(resolve, 300)).then(() => remove.call(driver, roomId));
    return removed;
  };
  try {
    await closeRoom();
    await removed;
    return closing;
  } finally {
    driver.remove = remove;
  }
}

function gameOf(room: FoolRoom): FoolState {
  return matchOf(room).game;
}

/** Everything the server holds, hidden parts included: a refused message must leave all of it as it was. */
function serverSnapshot(room: FoolRoom): string {
  return JSON.stringify({ state: room.state.toJSON(), match: matchOf(room) });
}

async function seatPlayer(room: FoolRoom, options: Record<string, unknown> = {}): Promise<FoolPlayer> {
  const player = new FoolPlayer(await colyseus.connectTo(room, options));
  await waitUntil(() => player.seat() !== null, 5000, "the player's first state");
  return player;
}

async function startVsAi(options: Record<string, unknown> = {}) {
  const room = await colyseus.createRoom<FoolRoom>("fool", { seed: SEED, aiDelayMs: SLOW_AI, ...options });
  const player = await seatPlayer(room, options);
  await waitUntil(() => player.view()?.game === 1, 5000, "the first deal");
  return { room, player };
}

async function spectate(room: FoolRoom): Promise<{ client: ClientRoom; received: Received }> {
  const { client, received } = await joinRecording(colyseus, room.roomId, { spectate: true });
  await waitUntil(() => received.snapshots.some((s) => (s as FoolStateView).game > 0), 5000, "the spectator's state");
  return { client, received };
}

function eventsOf<T>(received: Received, type: string): T[] {
  return received.messages.filter((m) => m.type === type).map((m) => m.payload as T);
}

async function refusal(player: FoolPlayer, type: string, payload: unknown): Promise<unknown> {
  return player.room.request(type, payload).then(
    () => ({ accepted: true }),
    (error: { reason: unknown }) => error.reason,
  );
}

/** Replays the moves broadcast from a start position; returns every position the game went through. */
function replay(start: FoolState, moves: readonly FoolMoveEvent[]): FoolState[] {
  const positions = [start];
  for (const event of moves) {
    const result = applyMove(positions[positions.length - 1], event.seat, event.move);
    if (!result.ok) throw new Error(`move ${event.number} does not replay: ${result.reason}`);
    positions.push(result.state);
  }
  return positions;
}

/** Natural cards a viewer never had a right to see: never face up (nor a joker's name), never in `ownSeat`'s hand. */
function neverVisible(positions: readonly FoolState[], ownSeat: number | null): Set<string> {
  const seen = new Set<string>();
  for (const position of positions) {
    seen.add(position.faceUp.as);
    if (ownSeat !== null) position.hands[ownSeat].forEach((card) => seen.add(card));
  }
  return new Set(NATURAL_CARDS.filter((card) => !seen.has(card)));
}

function leaked(received: Received, hidden: Set<string>): string[] {
  return [...received.tokens()].filter((token) => hidden.has(token));
}

describe("the fool room", () => {
  test("the player sees its own hand, the public state shows the face-up card, counts and the turn", async () => {
    const { room, player } = await startVsAi();
    const view = player.view()!;
    const game = gameOf(room);
    expect(player.seat()).toBe(0);
    expect(view).toMatchObject({
      mode: "vs-ai",
      phase: "playing",
      game: 1,
      turn: 0,
      turnPhase: "cover",
      deckCount: game.deck.length,
      faceUp: { card: "5C", as: "5C", namedSuit: "", text: "5C" },
      revealedSeed: 0,
    });
    expect(view.seats[0]).toMatchObject({
      controller: "player",
      connected: true,
      handCount: 5,
      hand: ["6H", "3H", "9H", "7H", "4C"],
    });
    expect(view.seats[0]).toMatchObject({ canDraw: false, canPass: false }); // 4C covers, so it must be laid
    expect(view.seats[1]).toMatchObject({ controller: "ai", handCount: 5 });
    expect(view.seats[1].hand).toBeUndefined();
    expect(view.deadline).toBeGreaterThan(0);
  });

  test("two players and a spectator: no hand and no deck card reaches anyone who may not see it until the game is over, when every hand shows", async () => {
    const room = await colyseus.createRoom<FoolRoom>("fool", { mode: "two-players", seed: 20, name: "ann" });
    const ann = await seatPlayer(room, { name: "ann" });
    const annReceived = new Received(ann.room);
    expect(ann.view()?.phase).toBe("waiting");
    await expect(ann.draw()).rejects.toMatchObject({ code: "NO_GAME" });
    const bob = await seatPlayer(room, { name: "bob" });
    const bobReceived = new Received(bob.room);
    await expectRefused(colyseus.connectTo(room, { name: "carl" }), /every seat is taken/);
    const { received: watcher } = await spectate(room);
    await waitUntil(() => ann.view()?.game === 1 && bob.view()?.game === 1, 5000, "the deal");
    const start = gameOf(room);

    // Before any move: the other hand and the deck (all but the face-up card) appear nowhere.
    const deck = start.deck.filter((card) => card !== start.faceUp.card && !isJoker(card));
    const naturals = (hand: readonly Card[]) => hand.filter((card) => !isJoker(card));
    expect(leaked(annReceived, new Set([...naturals(start.hands[1]), ...deck]))).toEqual([]);
    expect(leaked(bobReceived, new Set([...naturals(start.hands[0]), ...deck]))).toEqual([]);
    expect(leaked(watcher, new Set([...naturals(start.hands[0]), ...naturals(start.hands[1]), ...deck]))).toEqual([]);

    // Both play random games through the SDK to the end.
    const [annResult, bobResult] = await Promise.all([
      playFoolGame(ann, randomPolicy, seededRandom("ann"), { timeoutMs: 15_000 }),
      playFoolGame(bob, greedyPolicy, seededRandom("bob"), { timeoutMs: 15_000 }),
    ]);
    expect(annResult.won).not.toBe(bobResult.won);
    await waitUntil(() => eventsOf(watcher, "over").length === 1, 5000, "the spectator's over event");

    const positions = replay(start, eventsOf<FoolMoveEvent>(watcher, "move"));
    expect(JSON.stringify(positions[positions.length - 1])).toBe(JSON.stringify(gameOf(room)));
    // Every hand is shown to everyone once the game is over; what nobody held then stays hidden from whoever never saw it.
    const last = positions[positions.length - 1]!;
    const shownAtEnd = new Set<string>(last.hands.flat());
    for (const [received, seat] of [
      [annReceived, 0],
      [bobReceived, 1],
      [watcher, null],
    ] as const) {
      expect((received.snapshots.at(-1) as FoolStateView).seats.map((held) => held.revealed)).toEqual(last.hands);
      const hidden = new Set([...neverVisible(positions, seat)].filter((card) => !shownAtEnd.has(card)));
      expect(hidden.size).toBeGreaterThan(0);
      expect(leaked(received, hidden)).toEqual([]);
    }
    const otherHand = (received: Received, seat: number) =>
      received.snapshots.filter((s) => (s as FoolStateView).seats?.[seat]?.hand !== undefined).length;
    expect(otherHand(annReceived, 1) + otherHand(bobReceived, 0) + otherHand(watcher, 0) + otherHand(watcher, 1)).toBe(
      0,
    );
  });

  test("AI against AI plays to the end for spectators; the seed is revealed only then and replays the game", async () => {
    const room = await colyseus.createRoom<FoolRoom>("fool", {
      mode: "ai-vs-ai",
      seed: SEED,
      aiDelayMs: 0,
      nextGameDelayMs: 100,
    });
    const { received } = await spectate(room); // in an AI room every client watches
    await waitUntil(() => eventsOf(received, "over").length === 1, 15_000, "the end of the AI game");
    const [over] = eventsOf<FoolOverEvent>(received, "over");
    const moves = eventsOf<FoolMoveEvent>(received, "move").filter((event) => event.game === 1);
    expect(over).toMatchObject({ game: 1, outcome: "fool", seed: SEED, dealer: 1, moves: moves.length });
    expect(moves.every((event) => event.by === "ai")).toBe(true);
    const positions = replay(newGame(seededRandom(SEED), 2, 1), moves);
    expect(positions[positions.length - 1].fool).toBe(over.fool);
    expect(over.winners).toEqual([1 - over.fool!]);
    // Each AI move is the AI's choice from its own seat's view and its memory of the public events: nothing hidden.
    let memories = [0, 1].map((seat) => startMemory(viewFor(positions[0], seat)));
    moves.forEach((event, i) => {
      expect(aiPolicy(viewFor(positions[i], event.seat), seededRandom("unused"), memories[event.seat])).toEqual(
        event.move,
      );
      memories = memories.map((memory) => remember(memory, event.events));
    });

    const overIndex = received.messages.findIndex((m) => m.type === "over");
    expect(JSON.stringify(received.messages.slice(0, overIndex))).not.toContain(String(SEED));
    const beforeOver = received.snapshots.filter((s) => (s as FoolStateView).phase !== "over");
    expect(JSON.stringify(beforeOver)).not.toContain(String(SEED));
    // With nobody seated the room deals the next game itself, dealt by the Fool.
    await waitUntil(
      () => received.messages.some((m) => m.type === "start" && (m.payload as { game: number }).game === 2),
      5000,
      "game 2",
    );
    expect(
      received.messages.find((m) => m.type === "start" && (m.payload as { game: number }).game === 2)?.payload,
    ).toMatchObject({ dealer: over.fool });
  });

  test("a greedy SDK bot plays the AI to the end; newGame deals the next game, dealt by the Fool", async () => {
    const { room, player } = await startVsAi({ aiDelayMs: 0 });
    const result = await playFoolGame(player, greedyPolicy, seededRandom("greedy"), { timeoutMs: 10_000 });
    expect(result).toMatchObject({ game: 1, seed: SEED, outcome: "fool", seat: 0 });
    await waitUntil(() => player.view()?.phase === "over");
    expect(player.view()).toMatchObject({ revealedSeed: SEED, outcome: "fool", fool: result.won ? 1 : 0 });
    expect(player.view()!.seats[result.won ? 0 : 1].wins).toBe(1);
    await expect(player.move({ kind: "draw" })).rejects.toMatchObject({ code: "NO_GAME" });
    await player.newGame({ seed: 7 });
    await waitUntil(() => player.view()?.game === 2, 5000, "game 2");
    expect(player.view()).toMatchObject({ dealer: result.won ? 1 : 0, revealedSeed: 0, outcome: "", fool: -1 });
    expect(gameOf(room).dealer).toBe(result.won ? 1 : 0);
    await expect(player.newGame()).rejects.toMatchObject({ code: "GAME_IN_PROGRESS" });
  });

  test("after a draw that keeps the turn, nextTurn hands out the new position at once", async () => {
    // The move's state patch reaches the client before the reply to the move; the SDK must not mistake the
    // position after the draw for the one it moved in.
    const seed = [...Array(500).keys()].find((s) => {
      const start = newGame(seededRandom(s), 2, 1);
      if (start.turn !== 0 || !legalMoves(start, 0).some((move) => move.kind === "draw")) return false;
      const drawn = applyMove(start, 0, { kind: "draw" });
      return drawn.ok && drawn.state.turn === 0;
    })!;
    const { player } = await startVsAi({ seed });
    expect(await player.nextTurn(5000)).toMatchObject({ kind: "move", moveCount: 0 });
    await player.draw();
    const afterDraw = await player.nextTurn(3000);
    expect(afterDraw).toMatchObject({ kind: "move", moveCount: 1, view: { seat: 0, turn: 0 } });
  });

  describe("bad messages get a typed error and change nothing", () => {
    test.each([
      ["a card not in the hand", { kind: "play", card: "2S" }, "ILLEGAL_MOVE", /You do not hold 2S/],
      ["a card that does not cover", { kind: "play", card: "9H" }, "ILLEGAL_MOVE", /9H does not cover 5C/],
      ["a draw while a natural card covers", { kind: "draw" }, "ILLEGAL_MOVE", /so you must/],
      ["a pass while a natural card covers", { kind: "pass" }, "ILLEGAL_MOVE", /so you must/],
      ["a natural card laid as another", { kind: "play", card: "4C", as: "5S" }, "ILLEGAL_MOVE", /Only a joker/],
      ["a suit named without a Queen", { kind: "play", card: "4C", namedSuit: "S" }, "ILLEGAL_MOVE", /Only a Queen/],
      ["a word that is not a card", { kind: "play", card: "ZZ" }, "ILLEGAL_MOVE", /"ZZ" is not a card/],
      ["a move without a kind", { card: "4C" }, "BAD_PAYLOAD", /kind/],
      ["an unknown kind", { kind: "fold" }, "BAD_PAYLOAD", /kind/],
      ["a card of the wrong type", { kind: "play", card: 4 }, "BAD_PAYLOAD", /card/],
      ["an unexpected field", { kind: "draw", card: "4C" }, "BAD_PAYLOAD", /card/],
    ])("%s", async (_what, payload, code, message) => {
      const { room, player } = await startVsAi();
      const before = serverSnapshot(room);
      expect(await refusal(player, "move", payload)).toMatchObject({
        code,
        type: "move",
        message: expect.stringMatching(message),
      });
      expect(serverSnapshot(room)).toBe(before);
    });

    test("the SDK turns a refusal into a CardhallError", async () => {
      const { player } = await startVsAi();
      const error = await player.play("9H").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CardhallError);
      expect(error).toMatchObject({ code: "ILLEGAL_MOVE", type: "move" });
    });

    test("a move out of turn is refused with the engine's reason", async () => {
      const { room, player } = await startVsAi();
      await player.play("4C"); // a plain card: the AI (paused for a minute) is to move
      await waitUntil(() => player.view()?.turn === 1);
      const before = serverSnapshot(room);
      expect(await refusal(player, "move", { kind: "play", card: "7H" })).toMatchObject({
        code: "NOT_YOUR_TURN",
        message: "It is not your turn.",
      });
      expect(serverSnapshot(room)).toBe(before);
    });

    test("a spectator's move, an unknown message type and newGame during a game", async () => {
      const { room, player } = await startVsAi();
      const { client } = await spectate(room);
      const before = serverSnapshot(room);
      const notAPlayer = client.waitForMessage("error");
      client.send("move", { kind: "play", card: "4C" });
      await expect(notAPlayer).resolves.toMatchObject({ code: "NOT_A_PLAYER", type: "move" });
      const unknown = client.waitForMessage("error");
      client.send("shuffle", {});
      await expect(unknown).resolves.toMatchObject({ code: "UNKNOWN_MESSAGE", type: "shuffle" });
      expect(await refusal(player, "newGame", {})).toMatchObject({ code: "GAME_IN_PROGRESS" });
      expect(await refusal(player, "newGame", { seed: -1 })).toMatchObject({ code: "BAD_PAYLOAD" });
      expect(serverSnapshot(room)).toBe(before);
    });

    test("bad room options and a taken seat refuse the join", async () => {
      await expect(colyseus.sdk.create("fool", { mode: "chess" })).rejects.toThrow(/bad options: mode/);
      await expect(colyseus.sdk.create("fool", { aiDelayMs: -1 })).rejects.toThrow(/bad options: aiDelayMs/);
      const { room } = await startVsAi();
      await expectRefused(colyseus.connectTo(room, { seat: 1 }), /seat 1 is taken/);
    });
  });

  test("when the turn clock runs out, the room plays the AI's move for the seat", async () => {
    // The spectator is in before the person joins (and the game, and its clock, start), so it misses nothing.
    const room = await colyseus.createRoom<FoolRoom>("fool", { seed: SEED, aiDelayMs: SLOW_AI, turnTimeMs: 200 });
    const received = new Received(await colyseus.connectTo(room, { spectate: true }));
    const player = await seatPlayer(room);
    await waitUntil(() => eventsOf(received, "move").length > 0, 5000, "the clock's move");
    const [first] = eventsOf<FoolMoveEvent>(received, "move");
    expect(first).toMatchObject({ game: 1, number: 1, seat: 0, by: "clock", move: { kind: "play", card: "4C" } });
    await waitUntil(() => player.view()?.moveCount === 1);
    expect(player.view()?.seats[0].hand).toEqual(["6H", "3H", "9H", "7H"]);
  });

  test("a dropped player reconnects with its token and keeps its seat and hand", async () => {
    const { room, player } = await startVsAi({ reconnectSeconds: 10 });
    const token = player.reconnectionToken;
    await dropConnection(player.room);
    await waitUntil(() => room.state.seats[0].connected === false, 5000, "the drop");
    const again = new FoolPlayer(await colyseus.reconnect(token));
    await waitUntil(() => again.view()?.seats[0].hand !== undefined, 5000, "the state after reconnecting");
    expect(again.seat()).toBe(0);
    expect(again.view()?.seats[0]).toMatchObject({ connected: true, hand: ["6H", "3H", "9H", "7H", "4C"] });
    await again.play("4C");
    await waitUntil(() => room.state.moveCount === 1);
  });

  test("a player who leaves keeping the seat (the page navigated away) takes it back with its token", async () => {
    const { room, player } = await startVsAi({ reconnectSeconds: 10 });
    const token = player.reconnectionToken;
    await player.leave({ keepSeat: true });
    expect(player.ended?.code).toBe("LEFT");
    await waitUntil(() => room.state.seats[0].connected === false, 5000, "the seat held for its player");
    expect(room.state.seats[0].controller).toBe("player");
    const again = new FoolPlayer(await colyseus.reconnect(token));
    await waitUntil(() => again.view()?.seats[0].hand !== undefined, 5000, "the state after coming back");
    expect(again.seat()).toBe(0);
    expect(again.view()?.seats[0].connected).toBe(true);
  });

  test("a player who leaves for good gives the seat up at once", async () => {
    const { room, player } = await startVsAi({ reconnectSeconds: 10 });
    await player.leave();
    await waitUntil(() => room.state.seats[0].controller === "ai", 5000, "the AI taking the seat");
  });

  test("a player who leaves a two-player game for good forfeits it: the AI finishes it in their seat, under their name and identity, and plays the next game as the house", async () => {
    const finished: FinishedGame[] = [];
    const records = { submit: (game: FinishedGame) => finished.push(game) };
    const room = await colyseus.createRoom<FoolRoom>("fool", {
      mode: "two-players",
      seed: SEED,
      aiDelayMs: 0,
      turnTimeMs: 100,
      records,
    });
    const ann = await seatPlayer(room, { name: "Ann" });
    const bea = await seatPlayer(room, { name: "Bea" });
    await waitUntil(() => ann.view()?.game === 1 && bea.view()?.game === 1, 5000, "the deal");
    await bea.leave();
    await waitUntil(() => room.state.seats[1].controller === "ai", 5000, "the AI taking Bea's seat");
    expect(room.state.seats[1].name).toBe("Bea");
    await waitUntil(() => finished.length === 1, 20_000, "the end of the game");
    expect(finished[0].seats).toEqual([
      { seat: 0, name: "Ann", kind: "person", identity: GUEST },
      { seat: 1, name: "Bea", kind: "ai", identity: GUEST, left: true },
    ]);
    await ann.newGame();
    await waitUntil(() => ann.view()?.game === 2, 5000, "the next deal");
    expect(room.state.seats[1]).toMatchObject({ name: "AI (ai)", controller: "ai" });
  });

  test("the only person at an AI's table who leaves mid-game still forfeits it: the room stays open until the AI has finished it and its record is kept, then closes", async () => {
    const finished: FinishedGame[] = [];
    const records = { submit: (game: FinishedGame) => finished.push(game) };
    const { room, player } = await startVsAi({ name: "Ann", aiDelayMs: 20, turnTimeMs: 100, records });
    const ann = { kind: "account" as const, name: "Ann" };
    room["roster"].seats[0].identity = ann; // as the matchmaking route seats an account (test/e2e covers that route)
    await player.leave();
    await waitUntil(() => finished.length === 1, 20_000, "the end of the game");
    expect(finished[0].seats[0]).toEqual({ seat: 0, name: "Ann", kind: "ai", identity: ann, left: true });
    await waitUntil(() => matchMaker.getLocalRoomById(room.roomId) === undefined, 5000, "the empty room closing");
  });

  test("an account alone at an AI's table who leaves between games closes it at once: there is nothing to forfeit", async () => {
    const finished: FinishedGame[] = [];
    const records = { submit: (game: FinishedGame) => finished.push(game) };
    const { room, player } = await startVsAi({
      name: "Ann",
      aiDelayMs: 0,
      turnTimeMs: 100,
      maxMoves: 10,
      nextGameDelayMs: 50,
      records,
    });
    room["roster"].seats[0].identity = { kind: "account", name: "Ann" };
    await waitUntil(() => finished.length === 1, 20_000, "the end of the first game");
    await player.leave();
    await waitUntil(() => matchMaker.getLocalRoomById(room.roomId) === undefined, 5000, "the empty room closing");
    expect(finished).toHaveLength(1); // no game of the AI against itself was dealt and played in the empty room
  });

  test("a guest alone at an AI's table who leaves closes it at once: a guest's forfeit rates nobody", async () => {
    const records = { submit: () => undefined };
    const { room, player } = await startVsAi({ name: "Gus", aiDelayMs: 20, turnTimeMs: 100, records });
    await player.leave();
    await waitUntil(() => matchMaker.getLocalRoomById(room.roomId) === undefined, 5000, "the empty room closing");
    expect(room.state.seats[0].controller).toBe("ai");
  });

  test("nothing more is played once the last person leaves, however long the room's closing takes (a cluster removes its listing from Redis first)", async () => {
    const { room, player } = await startVsAi({ name: "Gus", aiDelayMs: 0, turnTimeMs: 60_000 });
    const actions = actionsOf(room);
    const closing = await slowListingRemoval(actions, async () => {
      await player.leave();
      await waitUntil(() => matchMaker.getLocalRoomById(room.roomId) === undefined, 5000, "the empty room closing");
    });
    expect(closing.at).toBe(0);
    expect(actions()).toBe(0); // the AI played neither its seat nor the one Gus left
  });

  test("an AI-against-AI table its last spectator leaves stops playing as its closing begins: the decisions under way are dropped", async () => {
    const room = await colyseus.createRoom<FoolRoom>("fool", {
      mode: "ai-vs-ai",
      seed: SEED,
      aiDelayMs: 0,
      nextGameDelayMs: 100,
    });
    const { client } = await spectate(room);
    const actions = actionsOf(room);
    const closing = await slowListingRemoval(actions, async () => {
      await client.leave();
      await waitUntil(() => matchMaker.getLocalRoomById(room.roomId) === undefined, 5000, "the room closing");
    });
    expect(actions()).toBe(closing.at); // neither the next game's deal nor a move of either AI
  });

  test("a room kept open for a dropped player plays on: the AI moves for the player who left for good, on their turn", async () => {
    const room = await colyseus.createRoom<FoolRoom>("fool", {
      mode: "two-players",
      seed: SEED,
      aiDelayMs: 0,
      turnTimeMs: 60_000,
      reconnectSeconds: 10,
    });
    const ann = await seatPlayer(room, { name: "Ann" });
    const bea = await seatPlayer(room, { name: "Bea" });
    await waitUntil(() => ann.view()?.game === 1 && bea.view()?.game === 1, 5000, "the deal");
    if (gameOf(room).turn === 0) {
      const moves = gameOf(room).moveCount;
      await ann.move(legalMoves(gameOf(room), 0)[0]!);
      await waitUntil(() => gameOf(room).moveCount > moves, 5000, "Ann's move");
    }
    expect(gameOf(room).turn).toBe(1);
    const moves = gameOf(room).moveCount;
    await dropConnection(ann.room); // her seat is held for her return: the room stays open with nobody in it
    await waitUntil(
      () => room.state.seats[0].connected === false && room.clients.length === 1,
      5000,
      "Ann's drop seen",
    );
    await bea.leave(); // for good, on her turn
    await waitUntil(() => gameOf(room).moveCount > moves, 5000, "the AI's move in Bea's seat");
    expect(room.state.seats[1].controller).toBe("ai");
    expect(matchMaker.getLocalRoomById(room.roomId)).toBeDefined();
  });

  test("a player who does not come back is replaced by the AI, which finishes the game", async () => {
    const { room, player } = await startVsAi({ reconnectSeconds: 1, aiDelayMs: 0 });
    const { received } = await spectate(room);
    await dropConnection(player.room);
    await waitUntil(() => room.state.seats[0].controller === "ai", 5000, "the AI taking the seat");
    await expectConsole(/^info the seat's player did not come back within 1 s; the seat is given up .*"seat":0/); // the room's note of it
    await waitUntil(() => eventsOf(received, "over").length === 1, 10_000, "the end of the game");
    expect(eventsOf<FoolMoveEvent>(received, "move").every((event) => event.by === "ai")).toBe(true);
  });
});

test("the bad-move fixture still holds: seat 0 of SEED holds a cover and non-covers", () => {
  const start = newGame(seededRandom(SEED), 2, 1);
  expect(start.turn).toBe(0);
  expect(start.hands[0]).toEqual(["6H", "3H", "9H", "7H", "4C"]);
  expect(start.hands[0].filter((card) => !isJoker(card) && covers(start.faceUp, card))).toEqual(["4C"]);
});
