import { Client, type Room } from "@colyseus/sdk";
import { CardhallClient } from "../../client-sdk";
import { playFoolBot } from "../../client-sdk/bots/fool";
import { seededRandom } from "../../rooms/kit/random";
import { NATURAL_CARDS } from "../../rooms/fool/cards";
import { applyMove, newGame, type FoolMove, type FoolState } from "../../rooms/fool/rules";
import { Received, waitUntil } from "../helpers";
import { freePort, ServerProcess } from "./server-process";

/** On a free port: a fixed one may be taken on a shared host. */
let server: ServerProcess;

beforeAll(async () => {
  server = new ServerProcess(await freePort());
  await server.start();
});
afterAll(() => server.stop());

/** A short game: the greedy bot and the AI finish it in a few dozen moves. */
const SEED = 38;

/** The spectator below knows only @colyseus/sdk and docs/protocol.md: these are the payloads as documented there. */
interface MoveEvent {
  game: number;
  number: number;
  seat: number;
  by: string;
  move: { kind: string; card?: string; as?: string; namedSuit?: string };
}
interface OverEvent {
  game: number;
  outcome: string;
  fool: number | null;
  winners: number[];
  seed: number;
  dealer: number;
  moves: number;
}

/** The state fields the documented minimal player reads. */
interface PlainState {
  phase: string;
  game: number;
  moveCount: number;
  turn: number;
  faceUp: { as: string; namedSuit: string };
  seats: Array<{ hand?: string[]; canDraw?: boolean }>;
}

interface Watcher {
  room: Room;
  received: Received;
  moves: MoveEvent[];
  overs: OverEvent[];
  errors: Array<{ code: string; type: string }>;
}

async function watch(roomId: string): Promise<Watcher> {
  const room = await new Client(server.url).joinById(roomId, { spectate: true });
  const watcher: Watcher = { room, received: new Received(room), moves: [], overs: [], errors: [] };
  room.onMessage("move", (event: MoveEvent) => watcher.moves.push(event));
  room.onMessage("over", (event: OverEvent) => watcher.overs.push(event));
  room.onMessage("error", (error: { code: string; type: string }) => watcher.errors.push(error));
  room.onMessage("start", () => undefined);
  await waitUntil(() => watcher.received.snapshots.length > 0, 5000, "the spectator's first state");
  return watcher;
}

/** The natural cards a payload names (as whole strings: "7S", not the "7S" inside "*7S"). */
function cardsNamedIn(value: unknown): string[] {
  return (JSON.stringify(value).match(/"[2-9TJQKA][SCDH]"/g) ?? []).map((quoted) => quoted.slice(1, -1));
}

/** Every position of the game, rebuilt from the revealed seed, the dealer and the broadcast moves. */
function replay(over: OverEvent, moves: readonly MoveEvent[]): FoolState[] {
  const positions = [newGame(seededRandom(over.seed), 2, over.dealer)];
  for (const event of moves) {
    const result = applyMove(positions[positions.length - 1], event.seat, event.move as FoolMove);
    if (!result.ok) throw new Error(`move ${event.number} does not replay: ${result.reason}`);
    positions.push(result.state);
  }
  return positions;
}

describe("Fool end to end, against a real server", () => {
  test("a greedy SDK bot plays the AI to the end, watched by a plain @colyseus/sdk spectator who sees nothing hidden until the end", async () => {
    const client = new CardhallClient(server.url);
    let watcher: Watcher | undefined;
    const { roomId, results } = await playFoolBot(client, {
      policy: "greedy",
      seed: SEED,
      aiDelayMs: 20,
      timeoutMs: 15_000,
      onJoined: async (session) => {
        watcher = await watch(session.roomId);
        const listed = await client.listRooms("fool");
        expect(listed.find((room) => room.roomId === session.roomId)?.metadata).toMatchObject({
          game: "fool",
          mode: "vs-ai",
        });
      },
    });
    expect(results).toEqual([expect.objectContaining({ game: 1, seed: SEED, outcome: "fool", seat: 0 })]);
    const seen = watcher!;
    await waitUntil(() => seen.overs.length >= 1, 5000, "the spectator's over event");
    const [over] = seen.overs;
    // Once the bot has left, nobody is seated and the room deals AI games for its spectators: look at game 1.
    const moves = seen.moves.filter((event) => event.game === 1);
    expect(over).toMatchObject({ game: 1, seed: SEED, dealer: 1, fool: results[0].won ? 1 : 0, moves: moves.length });
    expect(moves.map((event) => event.number)).toEqual(moves.map((_, i) => i + 1));
    expect(new Set(moves.map((event) => `${event.seat}:${event.by}`))).toEqual(new Set(["0:player", "1:ai"]));

    // The broadcast moves replay to the announced end. Nothing the spectator received names a card that was not yet
    // public at that point: neither a hand nor the deck order, judged state by state and event by event.
    const positions = replay(over, moves);
    expect(positions[positions.length - 1].fool).toBe(over.fool);
    const shownUpTo: Set<string>[] = [];
    positions.forEach((position, k) => shownUpTo.push(new Set([...(shownUpTo[k - 1] ?? []), position.faceUp.as])));
    const secretsIn = (value: unknown, k: number) => cardsNamedIn(value).filter((card) => !shownUpTo[k].has(card));
    const snapshots = seen.received.snapshots as Array<{
      game: number;
      moveCount: number;
      phase: string;
      seats: Array<{ revealed: string[] }>;
    }>;
    // Until the game is over; then every hand shows (docs/protocol.md: revealed).
    expect(
      snapshots.filter((s) => s.game === 1 && s.phase !== "over").flatMap((s) => secretsIn(s, s.moveCount)),
    ).toEqual([]);
    const end = snapshots.find((s) => s.game === 1 && s.phase === "over");
    expect(end?.seats.map((seat) => seat.revealed)).toEqual(positions[positions.length - 1].hands);
    expect(moves.flatMap((event) => secretsIn(event, event.number))).toEqual([]);
    expect(NATURAL_CARDS.length - shownUpTo[0].size).toBeGreaterThan(40); // at the deal almost everything is secret
    const withHands = seen.received.snapshots.filter((s) =>
      (s as { seats?: Array<{ hand?: unknown }> }).seats?.some((seat) => seat.hand !== undefined),
    );
    expect(withHands).toEqual([]);

    // A spectator's move is refused with a typed error.
    seen.room.send("move", { kind: "draw" });
    await waitUntil(() => seen.errors.length === 1, 5000, "the error reply");
    expect(seen.errors[0]).toMatchObject({ code: "NOT_A_PLAYER", type: "move" });
    await seen.room.leave();
    expect(roomId).toBe(seen.room.roomId);
  });

  test("the minimal player of docs/protocol.md, on @colyseus/sdk alone, plays the AI to the end", async () => {
    const client = new Client(server.url);
    // As in docs/protocol.md (with a seed, and the room's answers collected for the test).
    const room = await client.create("fool", { name: "me", aiDelayMs: 20, seed: SEED });
    const errors: unknown[] = [];
    const overs: OverEvent[] = [];
    room.onMessage("error", (error) => errors.push(error));
    const covers = (c: string, f: { as: string; namedSuit: string }) =>
      f.namedSuit ? c[1] === f.namedSuit : c[1] === f.as[1] || c[0] === f.as[0];
    let acted = "";
    room.onStateChange((s: PlainState) => {
      const me = s.seats.findIndex((seat: { hand?: string[] }) => seat.hand !== undefined);
      const position = `${s.game}:${s.moveCount}`;
      if (s.phase !== "playing" || s.turn !== me || position === acted) return;
      acted = position;
      const card = s.seats[me].hand!.find((c: string) => c !== "*" && covers(c, s.faceUp));
      const queen = card?.[0] === "Q" ? { namedSuit: card[1] } : {};
      room.send("move", card ? { kind: "play", card, ...queen } : { kind: s.seats[me].canDraw ? "draw" : "pass" });
    });
    room.onMessage("over", (e: OverEvent) => overs.push(e));
    room.onMessage("*", () => {});
    await waitUntil(() => overs.length === 1, 15_000, "the end of the game");
    expect(overs[0]).toMatchObject({ game: 1, outcome: "fool", seed: SEED });
    expect(errors).toEqual([]);
    await room.leave();
  });
});
