import { joinRecording, useRoomTestServer, type RoomTestServer } from "./test-server";
import type { TractorRoom } from "../../rooms/tractor/room";
import { roundOf } from "../../rooms/tractor/match";
import { cardName } from "../../rooms/tractor/cards";
import {
  CardhallClient,
  CardhallError,
  TRACTOR_SEATS,
  TractorPlayer,
  type TractorPlayedEvent,
  type TractorStateView,
} from "../../client-sdk";
import { Received, waitUntil, dropConnection, expectRefused, expectConsole } from "../helpers";
import type { FinishedGame } from "../../rooms/kit/record";
import { matchMaker } from "@colyseus/core";

let colyseus: RoomTestServer;

useRoomTestServer((server) => (colyseus = server));

const FIXED = {
  trump: "fixed",
  mainSuit: "H",
  dealer: "Alice",
  seed: 314159,
  botDelayMs: 0,
  roundPauseMs: 60_000,
  startDelayMs: 50,
} as const;
const THREE_BOTS = ["Bob", "Charles", "David"] as const;

function handOf(room: TractorRoom, seat: number): string[] {
  return roundOf(room["match"]!.state)!.hands[seat].map(cardName).sort();
}

function playedBy(received: Received, seat: string): TractorPlayedEvent[] {
  return received.messages
    .filter((m) => m.type === "played")
    .map((m) => m.payload as TractorPlayedEvent)
    .filter((e) => e.seat === seat);
}

describe("tractor seats and time", () => {
  test("a table waits for its open seats; a player without a seat name gets the first open one", async () => {
    const room = await colyseus.createRoom<TractorRoom>("tractor", { ...FIXED, bots: ["Alice", "Charles", "David"] });
    const watcher = await colyseus.connectTo(room, { spectate: true });
    await waitUntil(() => (watcher.state as TractorStateView).phase === "waiting");
    expect((watcher.state as TractorStateView).seats.map((s) => s.occupant)).toEqual(["bot", "open", "bot", "bot"]);
    const bob = new TractorPlayer(await colyseus.connectTo(room, { name: "Bobby" }));
    // The dealer's bot buries at once and the bots play up to Bob's turn.
    await waitUntil(() => room.state.round === 1 && bob.seat() === "Bob" && bob.hand().length === 25, 5000, "the deal");
    expect(bob.hand().sort()).toEqual(handOf(room, 1));
    expect(room.state.seats[1].toJSON()).toMatchObject({ occupant: "person", player: "Bobby", connected: true });
    await expectRefused(colyseus.connectTo(room, {}), /no open seat/);
  });

  test("a person takes over a bot's seat by name, mid-round, and gets its hand and its turn clock", async () => {
    // Bots paced slowly, so the dealer's bot is still thinking when a person claims the seat.
    const room = await colyseus.createRoom<TractorRoom>("tractor", {
      ...FIXED,
      bots: [...TRACTOR_SEATS],
      botDelayMs: 60_000,
    });
    const client = new CardhallClient(colyseus.url);
    const watcher = await client.spectateTractor(room.roomId);
    // The spectator's own view (its patches may trail the room's state): the deal is over and it holds no hand.
    const watched = await watcher.waitForView((view) => view.phase === "burying", 5000);
    expect(watched.seats.every((seat) => seat.hand === undefined)).toBe(true);
    const alice = await client.joinTractor(room.roomId, { seat: "Alice", name: "Ada" });
    await waitUntil(() => alice.hand().length === 33, 5000, "the dealer's hand");
    expect(alice.hand().sort()).toEqual(handOf(room, 0));
    expect(room.state.seats[0].occupant).toBe("person");
    expect(room.state.deadline).toBeGreaterThan(0); // the person's turn clock, not the bot's pace
    await expect(client.joinTractor(room.roomId, { seat: "Alice" })).rejects.toMatchObject({
      code: "JOIN_REFUSED",
      message: expect.stringMatching(/taken/),
    });
    const turn = await alice.nextTurn(5000);
    expect(turn.kind).toBe("bury");
    const { suggestion } = await alice.hint();
    await alice.bury(suggestion);
    await waitUntil(() => room.state.phase === "playing");
    await waitUntil(() => alice.view()?.seats[0].buried?.length === 8);
    expect(alice.view()?.seats[0].buried?.sort()).toEqual([...suggestion].sort());
    await alice.leave();
    await watcher.leave();
  });

  test("the turn clock makes the bot's move for a person who does not act", async () => {
    const room = await colyseus.createRoom<TractorRoom>("tractor", {
      ...FIXED,
      bots: [...THREE_BOTS],
      turnTimeMs: 250,
    });
    const alice = new TractorPlayer(await colyseus.connectTo(room, { seat: "Alice" }));
    const received = new Received(alice.room);
    await waitUntil(() => room.state.phase === "burying", 5000, "the deal");
    const { suggestion } = await alice.hint();
    // Alice does nothing: the clock buries the bot's choice for her, then leads for her.
    await waitUntil(() => playedBy(received, "Alice").length > 0, 5000, "Alice's automatic lead");
    expect(roundOf(room["match"]!.state)!.hidden.map(cardName).sort()).toEqual([...suggestion].sort());
    expect(playedBy(received, "Alice")[0].auto).toBe(true);
    expect(
      received.messages
        .filter((m) => m.type === "played")
        .every((m) => (m.payload as TractorPlayedEvent).seat === "Alice" || !(m.payload as TractorPlayedEvent).auto),
    ).toBe(true);
  });

  test("a dropped player keeps the seat, reconnects with its token and plays on with its hand", async () => {
    const room = await colyseus.createRoom<TractorRoom>("tractor", {
      ...FIXED,
      dealer: "Bob",
      bots: ["Alice", "Charles", "David"],
      reconnectSeconds: 20,
    });
    const bob = new TractorPlayer(await colyseus.connectTo(room, { seat: "Bob" }));
    await waitUntil(() => room.state.phase === "burying" && bob.hand().length === 33, 5000, "the deal");
    const token = bob.reconnectionToken;
    await dropConnection(bob.room);
    await waitUntil(() => room.state.seats[1].connected === false, 5000, "the drop");
    expect(room.state.seats[1].occupant).toBe("person"); // the seat is kept
    const again = await new CardhallClient(colyseus.url).reconnectTractor(token);
    await waitUntil(
      () => again.view()?.seats[1].connected === true && again.hand().length === 33,
      5000,
      "the state after reconnecting",
    );
    expect(again.seat()).toBe("Bob");
    expect(again.hand().sort()).toEqual(handOf(room, 1));
    const turn = await again.nextTurn(5000);
    expect(turn.kind).toBe("bury");
    await again.bury((await again.hint()).suggestion);
    await waitUntil(() => room.state.phase === "playing");
  });

  test("while a dropped player is away its bot plays when the clock runs out; after the window the seat is the bot's", async () => {
    const room = await colyseus.createRoom<TractorRoom>("tractor", {
      ...FIXED,
      bots: ["Alice", "Charles", "David"],
      turnTimeMs: 200,
      reconnectSeconds: 1,
    });
    const bob = new TractorPlayer(await colyseus.connectTo(room, { seat: "Bob" }));
    const watcher = new Received(await colyseus.connectTo(room, { spectate: true }));
    await waitUntil(() => room.state.phase === "playing", 5000, "the first trick");
    await dropConnection(bob.room);
    await waitUntil(() => playedBy(watcher, "Bob").some((e) => e.auto), 5000, "Bob's automatic play");
    await waitUntil(() => room.state.seats[1].occupant === "bot", 5000, "the end of the reconnection window");
    await expectConsole(/^info the seat's player did not come back within 1 s; the seat is given up .*"seat":1/); // the room's note of it
    expect(room.state.seats[1].toJSON()).toMatchObject({ occupant: "bot", player: "bot", connected: false });
    // A bot seat moves at the bot's pace (0 here), not on the clock: the round runs to its end.
    await waitUntil(() => room.state.phase === "roundOver", 5000, "the round's end");
    await expect(new CardhallClient(colyseus.url).reconnectTractor(bob.reconnectionToken)).rejects.toBeInstanceOf(
      CardhallError,
    );
    await expectConsole(/reconnection token invalid or expired/); // the matchmaker's note of the refused token
  });

  test("a player who leaves mid-match hands the seat to its bot, and anyone may take it back by name", async () => {
    const room = await colyseus.createRoom<TractorRoom>("tractor", {
      ...FIXED,
      bots: ["Alice", "Charles", "David"],
      botDelayMs: 60_000,
    });
    const client = new CardhallClient(colyseus.url);
    const bob = await client.joinTractor(room.roomId, { seat: "Bob" });
    const watcher = await client.spectateTractor(room.roomId);
    await waitUntil(() => room.state.phase === "burying", 5000, "the deal");
    await bob.leave();
    await waitUntil(() => watcher.view()?.seats[1].occupant === "bot", 5000, "the bot taking over");
    const rejoined = await client.joinTractor(room.roomId, { seat: "Bob", name: "Bob again" });
    await waitUntil(() => rejoined.hand().length === 25);
    expect(rejoined.hand().sort()).toEqual(handOf(room, 1));
    await rejoined.leave();
    await watcher.leave();
  });

  test("a person who leaves a round they have played in forfeits it: their bot finishes it under their name, the record says they left, and the next round is the bot's", async () => {
    const finished: FinishedGame[] = [];
    const records = { submit: (game: FinishedGame) => finished.push(game) };
    const room = await colyseus.createRoom<TractorRoom>("tractor", {
      ...FIXED,
      bots: ["Alice", "Charles", "David"],
      botDelayMs: 10,
      records,
    });
    const bob = await new CardhallClient(colyseus.url).joinTractor(room.roomId, { seat: "Bob", name: "Bo" });
    const bo = { kind: "account" as const, name: "Bo" };
    room["roster"].seats[1].identity = bo; // as the matchmaking route seats an account (test/e2e covers that route)
    await bob.nextTurn(5000);
    await bob.play((await bob.hint()).suggestion);
    await bob.leave();
    await waitUntil(() => room.state.seats[1].occupant === "bot", 5000, "the bot taking the seat over");
    expect(room.state.seats[1].player).toBe("Bo");
    await waitUntil(() => finished.length === 1, 20_000, "the end of the round");
    expect(finished[0].part).toBe("round");
    expect(finished[0].seats[1]).toEqual({ seat: 1, name: "Bo", kind: "bot", identity: bo, left: true });
    expect(room.state.seats[1].player).toBe("bot");
    // Nobody was left in the room: it stayed open for the round, and closes now that its record is kept.
    await waitUntil(() => matchMaker.getLocalRoomById(room.roomId) === undefined, 5000, "the empty room closing");
  });

  test("a person who leaves a round before playing in it hands the seat to the bot at once: the round is not theirs", async () => {
    const finished: FinishedGame[] = [];
    const records = { submit: (game: FinishedGame) => finished.push(game) };
    const room = await colyseus.createRoom<TractorRoom>("tractor", {
      ...FIXED,
      bots: ["Alice", "Charles", "David"],
      botDelayMs: 10,
      records,
    });
    const watcher = await new CardhallClient(colyseus.url).spectateTractor(room.roomId);
    const bob = await new CardhallClient(colyseus.url).joinTractor(room.roomId, { seat: "Bob", name: "Bo" });
    room["roster"].seats[1].identity = { kind: "account", name: "Bo" };
    await waitUntil(() => room.state.phase === "burying", 5000, "the deal");
    await bob.leave();
    await waitUntil(() => room.state.seats[1].player === "bot", 5000, "the bot taking the seat");
    await waitUntil(() => finished.length === 1, 20_000, "the end of the round");
    expect(finished[0].seats[1]).toEqual({ seat: 1, name: "bot", kind: "bot" });
    await watcher.leave();
  });

  test("spectators join a live room by id and follow the public table: counts, plays, tricks and scores, never a hand", async () => {
    const room = await colyseus.createRoom<TractorRoom>("tractor", { ...FIXED, bots: [...TRACTOR_SEATS] });
    // Recording from the join on: the round starts 50 ms after it, and a busy machine can hand the client the whole
    // round's frames at once with its first state.
    const first = (await joinRecording(colyseus, room.roomId, { spectate: true })).received;
    await waitUntil(() => room.state.phase === "roundOver", 5000, "the bots' round");
    const client = new CardhallClient(colyseus.url);
    const late = await client.spectateTractor(room.roomId);
    const view = await late.waitForView((state) => state.phase === "roundOver");
    expect(view.seats.every((seat) => seat.hand === undefined && seat.buried === undefined)).toBe(true);
    expect(view.result).toMatchObject({ seed: room.state.result!.seed, hiddenCards: expect.any(Array) });
    expect(view.tricks.length).toBe(room.state.tricks.length);
    expect(view.tricks[view.tricks.length - 1]).toMatchObject({
      winner: expect.stringMatching(/Alice|Bob|Charles|David/),
    });
    expect(first.messages.map((m) => m.type)).toEqual(
      expect.arrayContaining(["roundStart", "buried", "played", "trick", "roundEnd"]),
    );
    expect(room.state.spectators).toBe(2);
    const listing = (await client.listRooms("tractor")).find((entry) => entry.roomId === room.roomId);
    expect(listing?.metadata).toMatchObject({
      game: "tractor",
      seats: { Alice: "bot", Bob: "bot", Charles: "bot", David: "bot" },
      openSeats: 0,
    });
    await late.leave();
    await waitUntil(() => room.state.spectators === 1);
  });

  test("bad room options are refused at creation", async () => {
    await expect(colyseus.createRoom("tractor", { trump: "fixed" })).rejects.toThrow(/mainSuit/);
    await expect(colyseus.createRoom("tractor", { mainSuit: "H" })).rejects.toThrow(/mainSuit/);
    await expect(colyseus.createRoom("tractor", { startRanks: ["1", "2"] })).rejects.toThrow(/startRanks/);
    await expect(colyseus.createRoom("tractor", { bots: ["Eve"] })).rejects.toThrow(/bots/);
    await expect(colyseus.createRoom("tractor", { rules: { hiddenMultiplier: "triple" } })).rejects.toThrow(/rules/);
    await expect(colyseus.createRoom("tractor", { rules: { jokers: false } })).rejects.toThrow(/rules/);
  });

  test("the rules option reaches the engine's ruleset, over the throws option", async () => {
    const room = await colyseus.createRoom<TractorRoom>("tractor", {
      throws: "check-other-hands",
      rules: { hiddenMultiplier: "double", jokerPairsDeclare: false },
    });
    expect(room["matchOptions"].ruleset).toMatchObject({
      throwPolicy: "check-other-hands",
      hiddenMultiplier: "double",
      jokerPairsDeclare: false,
      strengthenOwnDeclaration: true,
    });
  });
});
