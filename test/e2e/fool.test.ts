import { Client, type Room } from "@colyseus/sdk";
import { CardhallClient } from "../../client-sdk";
import { playFoolBot } from "../../client-sdk/bots/fool";
import { seededRandom } from "../../rooms/cards/random";
import { NATURAL_CARDS } from "../../rooms/fool/cards";
import { applyMove, newGame, type FoolMove, type FoolState } from "../../rooms/fool/rules";
import { Received, waitUntil } from "../helpers";
import { ServerProcess } from "./server-process";

const server = new ServerProcess(2651);

beforeAll(() => server.start());
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
  test("a greedy SDK bot plays the AI to the end, watched by a plain @colyseus/sdk spectator who sees nothing hidden", async () => {
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
        expect(listed.find((room) => room.roomId === session.roomId)?.metadata).toMatchObject({ game: "fool", mode: "vs-ai" });
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

    // The broadcast moves replay to the announced end; what the spectator received holds no card it could not see.
    const positions = replay(over, moves);
    expect(positions[positions.length - 1].fool).toBe(over.fool);
    const shown = new Set(positions.map((position) => position.faceUp.as));
    const hidden = NATURAL_CARDS.filter((card) => !shown.has(card));
    expect(hidden.length).toBeGreaterThan(0);
    const tokens = seen.received.tokens();
    expect(hidden.filter((card) => tokens.has(card))).toEqual([]);
    const withHands = seen.received.snapshots.filter((s) => (s as { seats?: Array<{ hand?: unknown }> }).seats?.some((seat) => seat.hand !== undefined));
    expect(withHands).toEqual([]);

    // A spectator's move is refused with a typed error.
    seen.room.send("move", { kind: "draw" });
    await waitUntil(() => seen.errors.length === 1, 5000, "the error reply");
    expect(seen.errors[0]).toMatchObject({ code: "NOT_A_PLAYER", type: "move" });
    await seen.room.leave();
    expect(roomId).toBe(seen.room.roomId);
  });
});
