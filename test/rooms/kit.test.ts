/**
 * The table kit, tested once for every game through its example game (rooms/highcard): seats and spectators,
 * hidden hands, reconnection by token, bot take-over and hand-back, the turn clock, the dealer's pace, message
 * validation, typed errors and per-client rate limits.
 */
import { defineRoom, defineServer } from "@colyseus/core";
import type { Room as ClientRoom } from "@colyseus/sdk";
import { HighCardRoom } from "../../rooms/highcard/room";
import { highCardEngine, type HighCardAction, type HighCardOptions } from "../../rooms/highcard/match";
import { DEALER, replayMatch, type RecordedAction } from "../../rooms/kit/engine";
import type { HighCardEvents, HighCardStateView } from "../../rooms/highcard/protocol";
import { DEFAULT_RATE_BUDGET } from "../../rooms/kit/rate-limit";
import { ERROR_MESSAGE, type ErrorReply } from "../../rooms/kit/protocol";
import type { FinishedGame } from "../../rooms/kit/record";
import { CardhallTransport } from "../../server/transport/transport";
import { Received, waitUntil, dropConnection } from "../helpers";
import { listeningTestServer, type RoomTestServer } from "./test-server";
import { takeConsole } from "../setup/console";

let colyseus: RoomTestServer;

beforeAll(async () => {
  const server = defineServer({
    rooms: { highcard: defineRoom(HighCardRoom) },
    transport: new CardhallTransport(),
    gracefullyShutdown: false,
    greet: false,
  });
  colyseus = await listeningTestServer(server);
});
afterEach(() => colyseus.cleanup());
afterAll(() => colyseus.shutdown());

const SEED = 4242;
/** The plain state a client decoded (an empty shell until the first patch). */
const stateOf = (client: ClientRoom) =>
  ((client.state as { toJSON?: () => unknown }).toJSON?.() ?? {}) as HighCardStateView;
const handOf = (room: HighCardRoom, seat: number) => [...room["match"]!.state.hands[seat]!];

function errorsOf(received: Received): ErrorReply[] {
  return received.messages
    .filter((message) => message.type === "error")
    .map((message) => message.payload as ErrorReply);
}

type HighCardApply = typeof highCardEngine.apply;

/** Every step's events as the room sent them while the game was played, the start's first. */
function eventsSentLive(room: HighCardRoom): unknown[] {
  const events: unknown[] = [];
  type Committed = (match: unknown, applied: { events: unknown }, ...rest: unknown[]) => void;
  const committed = (room["committed"] as Committed).bind(room);
  Object.defineProperty(room, "committed", {
    value: (match: unknown, applied: { events: unknown }, ...rest: unknown[]) => (
      events.push(applied.events), committed(match, applied, ...rest)
    ),
  });
  return events;
}

/** The room's engine, its answers changed where it is applied to a state the table is not at (a replay's). */
function withReplayedApply(
  room: HighCardRoom,
  change: (outcome: ReturnType<HighCardApply>) => ReturnType<HighCardApply>,
): void {
  const apply: HighCardApply = (state, actor, action) => {
    const outcome = highCardEngine.apply(state, actor, action);
    return state === room["match"]?.state ? outcome : change(outcome);
  };
  Object.defineProperty(room, "engine", { value: { ...highCardEngine, apply } });
}

async function seatedTable(options: Record<string, unknown>) {
  const room = await colyseus.createRoom<HighCardRoom>("highcard", { seed: SEED, ...options });
  const first = await colyseus.connectTo(room, { name: "Ann", seat: 0 });
  const received = new Received(first);
  return { room, first, received };
}

describe("the table kit", () => {
  test("the dealer deals at its pace; each hand reaches its own seat alone; a spectator sees counts only", async () => {
    const room = await colyseus.createRoom<HighCardRoom>("highcard", { seed: SEED, dealDelayMs: 30 });
    const watcher = await colyseus.connectTo(room, { spectate: true });
    const watched = new Received(watcher);
    const ann = await colyseus.connectTo(room, { name: "Ann" });
    const annGot = new Received(ann);
    const bob = await colyseus.connectTo(room, { name: "Bob" });
    await waitUntil(() => stateOf(watcher).phase === "playing", 5000, "the deal");
    const hands = [handOf(room, 0), handOf(room, 1)];
    expect(stateOf(ann).seats[0]!.hand).toEqual(hands[0]);
    expect(stateOf(ann).seats[1]!.hand).toBeUndefined();
    expect(stateOf(bob).seats[1]!.hand).toEqual(hands[1]);
    expect(stateOf(watcher).seats.map((seat) => seat.handCount)).toEqual([3, 3]);
    // Everything the spectator decoded, messages and states, holds no card of either hand, nor the seed.
    const tokens = watched.tokens();
    for (const card of [...hands[0]!, ...hands[1]!, String(SEED)]) expect(tokens.has(card)).toBe(false);
    // Ann got her own cards dealt one at a time (the dealer's paced actions), never Bob's.
    const dealtToAnn = annGot.messages
      .filter((m) => m.type === "dealt")
      .map((m) => (m.payload as HighCardEvents["dealt"]).card);
    expect(dealtToAnn.length).toBeGreaterThan(0);
    for (const card of hands[1]!) expect(annGot.tokens().has(card)).toBe(false);
  });

  test("a match's actions are kept for its record only when there are records", async () => {
    const kept: FinishedGame[] = [];
    const withRecords = await colyseus.createRoom<HighCardRoom>("highcard", {
      seed: SEED,
      bots: [0, 1],
      records: { submit: (game: FinishedGame) => kept.push(game) },
    });
    const withoutRecords = await colyseus.createRoom<HighCardRoom>("highcard", { seed: SEED, bots: [0, 1] });
    const liveEvents = eventsSentLive(withRecords);
    // A join lets a table of bots start (the kit looks for a full table after each join).
    for (const room of [withRecords, withoutRecords]) await colyseus.connectTo(room, { spectate: true });
    await waitUntil(() => kept.length === 1, 5000, "the recorded match's end");
    expect(kept[0].actions.length).toBeGreaterThan(0);
    expect(kept[0].actions).toHaveLength(withRecords["match"]!.actionCount);
    // The steps are kept without their events until the record is made, and replayed then: the record's steps are
    // the match's, and their events are the ones the table sent as it played.
    expect(kept[0].actions.map((step) => step.events)).toEqual(
      JSON.parse(JSON.stringify(liveEvents.slice(1, kept[0].actions.length + 1))),
    );
    const replayed = replayMatch(
      highCardEngine,
      kept[0].options as HighCardOptions,
      kept[0].seed,
      kept[0].actions as readonly RecordedAction<HighCardAction>[],
    );
    expect(kept[0].start).toEqual(replayed.events[0]);
    expect(kept[0].actions.map((step) => step.events)).toEqual(replayed.events.slice(1));
    expect(
      kept[0].actions.every(
        (step) => typeof step.at === "number" && step.by === (step.actor === DEALER ? "dealer" : "bot"),
      ),
    ).toBe(true);
    // The same seed and bots: the same match, its actions counted and not kept.
    await waitUntil(
      () => withoutRecords["match"]?.actionCount === kept[0].actions.length,
      5000,
      "the other match's end",
    );
    expect(withoutRecords["match"]!.actions.length).toBe(0);
  });

  test("a record whose replay goes otherwise than the game did is still kept, and the log says so", async () => {
    const kept: FinishedGame[] = [];
    const records = { submit: (game: FinishedGame) => kept.push(game) };
    const refusing = await colyseus.createRoom<HighCardRoom>("highcard", { seed: SEED, bots: [0, 1], records });
    const elsewhere = await colyseus.createRoom<HighCardRoom>("highcard", { seed: SEED + 1, bots: [0, 1], records });
    // Engines that are not pure: on the replay (a state the table is not at) one refuses, the other ends elsewhere.
    withReplayedApply(refusing, () => ({ ok: false, code: "NOT_YOUR_TURN", reason: "refused on replay" }));
    withReplayedApply(elsewhere, (outcome) =>
      outcome.ok ? { ...outcome, state: { ...outcome.state, tricksWon: [...outcome.state.tricksWon, 0] } } : outcome,
    );
    for (const room of [refusing, elsewhere]) await colyseus.connectTo(room, { spectate: true });
    await waitUntil(() => kept.length === 2, 5000, "both matches' ends");
    const byRoom = (room: HighCardRoom) => kept.find((game) => game.roomId === room.roomId)!;
    expect(byRoom(refusing).actions.length).toBe(refusing["match"]!.actionCount);
    expect(byRoom(refusing).actions.every((step) => step.events.length === 0)).toBe(true);
    expect(byRoom(elsewhere).actions.some((step) => step.events.length > 0)).toBe(true);
    const logged = takeConsole(/record_replay_diverged/);
    expect(logged).toHaveLength(2);
    expect(logged.some((line) => line.includes("the engine refused one of its own recorded actions"))).toBe(true);
    expect(logged.some((line) => line.includes("its replay ends elsewhere"))).toBe(true);
    for (const line of logged) expect(line).not.toContain("refused on replay");
  });

  test("bad messages get typed errors and change nothing", async () => {
    const { room, first, received } = await seatedTable({ bots: [1] });
    await waitUntil(() => stateOf(first).turn === 0, 5000, "Ann's turn");
    const watcher = await colyseus.connectTo(room, { spectate: true });
    const before = JSON.stringify(room.state.toJSON());
    await expect(first.request("play", { card: "ZZ" })).rejects.toMatchObject({ reason: { code: "NOT_IN_HAND" } });
    await expect(first.request("play", { card: 7 })).rejects.toMatchObject({ reason: { code: "BAD_PAYLOAD" } });
    await expect(first.request("play", { card: handOf(room, 1)[0] })).rejects.toMatchObject({
      reason: { code: "NOT_IN_HAND" },
    });
    first.send("shuffle", {});
    await expect(watcher.request("play", { card: handOf(room, 0)[0] })).rejects.toMatchObject({
      reason: { code: "NOT_A_PLAYER" },
    });
    await waitUntil(() => errorsOf(received).length > 0, 5000, "the unknown message's error");
    expect(errorsOf(received)[0]).toMatchObject({ code: "UNKNOWN_MESSAGE", type: "shuffle" });
    expect(JSON.stringify(room.state.toJSON())).toBe(before);
  });

  test("a request is answered with its handler's result, after the patch that carries its change", async () => {
    const { room, first } = await seatedTable({ bots: [1], botDelayMs: 60_000 });
    await waitUntil(() => stateOf(first).turn === 0, 5000, "Ann's turn");
    expect(stateOf(first).seats[0]!.handCount).toBe(3);
    await expect(first.request("play", { card: handOf(room, 0)[0]! })).resolves.toEqual({ ok: true });
    // Decoded before the answer came: the patch and the answer left in that order.
    expect(stateOf(first).seats[0]!.handCount).toBe(2);
  });

  test("a handler that fails is logged by its kind alone, its client is told SERVER_ERROR, and the table plays on", async () => {
    const { room, first } = await seatedTable({ bots: [1] });
    await waitUntil(() => stateOf(first).turn === 0, 5000, "Ann's turn");
    const card = handOf(room, 0)[0]!;
    const engine = room["engine"];
    Object.defineProperty(room, "engine", {
      value: {
        ...engine,
        apply: () => {
          throw new TypeError(`the engine broke on ${card}`);
        },
      },
    });
    await expect(first.request("play", { card })).rejects.toMatchObject({
      reason: { code: "SERVER_ERROR", type: "play" },
    });
    // A send is answered too, with an error message.
    const errors: ErrorReply[] = [];
    first.onMessage(ERROR_MESSAGE, (error: ErrorReply) => errors.push(error));
    first.send("play", { card });
    await waitUntil(() => errors.length === 1, 5000, "the send's error");
    expect(errors[0]).toMatchObject({ code: "SERVER_ERROR", type: "play" });
    expect(errors[0]!.message).not.toContain(card);
    const logged = takeConsole(/handler_failed/);
    expect(logged).toEqual([
      expect.stringContaining("onMessage failed (TypeError)"),
      expect.stringContaining("onMessage failed (TypeError)"),
    ]);
    // The room's id is random letters and may hold a card's two by chance: it is not the card.
    for (const line of logged) expect(line.replaceAll(room.roomId, "")).not.toContain(card);
    Object.defineProperty(room, "engine", { value: engine });
    await first.request("play", { card });
    await waitUntil(() => room.state.seats[0]!.handCount === 2, 5000, "the play once the engine is back");
  });

  test("the kit's machinery is its class's: Colyseus wraps nothing on each room", async () => {
    const { room } = await seatedTable({ bots: [1] });
    // Colyseus wraps a room's lifecycle methods (and every message handler) on the instance when the room has an
    // onUncaughtException; the kit catches in its class instead (rooms/kit/room-kit.ts, reportFailure).
    for (const method of [
      "onCreate",
      "onAuth",
      "onJoin",
      "onLeave",
      "onDrop",
      "onReconnect",
      "onDispose",
      "_onMessage",
      "_reserveSeat",
    ]) {
      expect(Object.hasOwn(room, method)).toBe(false);
    }
  });

  test("a person takes a bot's seat; when they leave for good, the bot plays on", async () => {
    const room = await colyseus.createRoom<HighCardRoom>("highcard", { seed: SEED, bots: [0, 1], botDelayMs: 60_000 });
    const watcher = await colyseus.connectTo(room, { spectate: true });
    await waitUntil(() => stateOf(watcher).phase === "playing", 5000, "the deal");
    const turn = stateOf(watcher).turn;
    const person = await colyseus.connectTo(room, { name: "Cleo", seat: turn });
    await waitUntil(
      () => stateOf(watcher).seats[turn]!.holder === "person" && stateOf(watcher).deadline > 0,
      5000,
      "the take-over",
    );
    expect(stateOf(person).seats[turn]!.hand).toEqual(handOf(room, turn));
    await person.leave(true);
    await waitUntil(() => stateOf(watcher).seats[turn]!.holder === "bot", 5000, "the hand-back");
    expect(stateOf(watcher).deadline).toBe(0);
  });

  test("a silent person's clock runs out and their bot's move is played for them", async () => {
    const { first, received } = await seatedTable({ bots: [1], turnTimeMs: 100 });
    await waitUntil(() => stateOf(first).phase === "over", 5000, "the game's end by the clock");
    const plays = received.messages
      .filter((m) => m.type === "played")
      .map((m) => m.payload as HighCardEvents["played"]);
    expect(plays.filter((play) => play.seat === 0).map((play) => play.by)).toEqual(["clock", "clock", "clock"]);
    expect(plays.filter((play) => play.seat === 1).every((play) => play.by === "bot")).toBe(true);
    expect(stateOf(first).revealedSeed).toBe(SEED);
  });

  test("a dropped person comes back with their token to the same seat and hand", async () => {
    const { room, first } = await seatedTable({ bots: [1], reconnectSeconds: 10 });
    await waitUntil(() => stateOf(first).turn === 0, 5000, "Ann's turn");
    const token = first.reconnectionToken;
    await dropConnection(first);
    await waitUntil(() => room.state.seats[0]!.connected === false, 5000, "the drop");
    const back = await colyseus.reconnect(token);
    await waitUntil(() => stateOf(back).seats?.[0]?.connected === true, 5000, "the return");
    expect(stateOf(back).seats[0]!.hand).toEqual(handOf(room, 0));
    await back.request("play", { card: handOf(room, 0)[0] });
    await waitUntil(() => room.state.seats[0]!.handCount === 2, 5000, "the play after the return");
  });

  test("a flood of 10,000 messages from one client is cut to its budget, changes nothing, and another room is served throughout", async () => {
    const flooded = await seatedTable({ bots: [1] });
    await waitUntil(() => stateOf(flooded.first).turn === 0, 5000, "Ann's turn");
    const other = await seatedTable({ bots: [1] });
    await waitUntil(() => stateOf(other.first).turn === 0, 5000, "the other table's turn");
    const before = JSON.stringify(flooded.room.state.toJSON());
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) flooded.first.send("play", { card: "ZZ" });
    // A request behind the flood on the same connection: its answer means the whole flood has been read.
    const behindTheFlood = flooded.first
      .request("play", { card: "ZZ" })
      .catch((error: { reason: ErrorReply }) => error.reason.code);
    // Meanwhile the other room answers every request, in order.
    const answers: string[] = [];
    for (let i = 0; i < 20; i++) {
      await other.first
        .request("play", { card: "ZZ" })
        .catch((error: { reason: ErrorReply }) => answers.push(error.reason.code));
    }
    expect(answers).toEqual(Array(20).fill("NOT_IN_HAND"));
    expect(["RATE_LIMITED", "NOT_IN_HAND"]).toContain(await behindTheFlood);
    await waitUntil(
      () => errorsOf(flooded.received).some((error) => error.code === "RATE_LIMITED"),
      5000,
      "the RATE_LIMITED answer",
    );
    const seconds = (performance.now() - started) / 1000;
    const errors = errorsOf(flooded.received);
    const handled = errors.filter((error) => error.code !== "RATE_LIMITED").length;
    // Only the budget's messages reached the engine; the rest were answered with one RATE_LIMITED a second at most.
    expect(handled).toBeLessThanOrEqual(DEFAULT_RATE_BUDGET.burst + Math.ceil(seconds * DEFAULT_RATE_BUDGET.perSecond));
    expect(handled).toBeGreaterThanOrEqual(DEFAULT_RATE_BUDGET.burst);
    expect(errors.filter((error) => error.code === "RATE_LIMITED").length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
    expect(JSON.stringify(flooded.room.state.toJSON())).toBe(before);
  });
});
