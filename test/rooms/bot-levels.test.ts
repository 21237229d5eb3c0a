import { useRoomTestServer, type RoomTestServer } from "./test-server";
import type { TractorRoom } from "../../rooms/tractor/room";
import type { FoolRoom } from "../../rooms/fool/room";
import * as tractorLevels from "../../rooms/tractor/levels";
import * as foolAi from "../../rooms/fool/ai";
import { TRACTOR_SEATS } from "../../client-sdk";
import { waitUntil } from "../helpers";

// The rooms call these through the modules' exports, which the tests spy on: each module is a plain copy of
// itself here, whose exports a spy can replace (swc's CommonJS exports are getters that cannot be redefined).
jest.mock("../../rooms/tractor/levels", () => ({
  __esModule: true,
  ...jest.requireActual<object>("../../rooms/tractor/levels"),
}));
jest.mock("../../rooms/fool/ai", () => ({ __esModule: true, ...jest.requireActual<object>("../../rooms/fool/ai") }));

let colyseus: RoomTestServer;

useRoomTestServer((server) => (colyseus = server));

/** Four bots on a fixed-trump table, unpaced. */
const BOTS = {
  bots: [...TRACTOR_SEATS],
  trump: "fixed",
  mainSuit: "H",
  dealer: "Alice",
  seed: 3301,
  botDelayMs: 0,
  roundPauseMs: 60_000,
  startDelayMs: 0,
} as const;

afterEach(() => jest.restoreAllMocks());

describe("Tractor bot levels (botLevels)", () => {
  test("each seat plays at its own level: the strong seat searches from its own view, the easy one slips, the normal ones are the heuristic", async () => {
    const searched = jest.spyOn(tractorLevels, "decideInProcess");
    const slipped = jest.spyOn(tractorLevels, "easyPolicy");
    const room = await colyseus.createRoom<TractorRoom>("tractor", {
      ...BOTS,
      botLevels: { Alice: "strong", Bob: "easy" },
    });
    await colyseus.connectTo(room, { spectate: true }); // the table starts on a join
    await waitUntil(() => room.state.phase === "roundOver", 60_000, "the round's end");
    // Every strong decision was Alice's, made from her seat's view; Bob's were the easy bot's; Charles and David the heuristic.
    expect(searched.mock.calls.length).toBeGreaterThan(0);
    expect(new Set(searched.mock.calls.map(([task]) => task.view.seat))).toEqual(new Set([0]));
    searched.mock.calls.forEach(([task]) => expect(task.view.hand.length).toBe(task.view.handCounts[0]));
    expect(slipped.mock.calls.length).toBeGreaterThan(0);
  }, 90_000);

  test("without botLevels every bot is normal: the engine's own bot, as before levels", async () => {
    const searched = jest.spyOn(tractorLevels, "decideInProcess");
    const slipped = jest.spyOn(tractorLevels, "easyPolicy");
    const room = await colyseus.createRoom<TractorRoom>("tractor", BOTS);
    await colyseus.connectTo(room, { spectate: true }); // the table starts on a join
    await waitUntil(() => room.state.phase === "roundOver", 30_000, "the round's end");
    expect(searched).not.toHaveBeenCalled();
    expect(slipped).not.toHaveBeenCalled();
  });

  test("an unknown level or seat is refused when the table is made", async () => {
    await expect(colyseus.createRoom("tractor", { ...BOTS, botLevels: { Alice: "expert" } })).rejects.toThrow(
      /botLevels/,
    );
    await expect(colyseus.createRoom("tractor", { ...BOTS, botLevels: { Zed: "strong" } })).rejects.toThrow(
      /botLevels/,
    );
  });
});

describe("Fool AI levels (aiLevel)", () => {
  test("strong plays with the larger budget; an unknown level is refused", async () => {
    const strong = jest.spyOn(foolAi, "strongAiPolicy");
    const room = await colyseus.createRoom<FoolRoom>("fool", {
      mode: "ai-vs-ai",
      aiLevel: "strong",
      seed: 33,
      aiDelayMs: 0,
      nextGameDelayMs: 0,
    });
    await colyseus.connectTo(room, { spectate: true });
    await waitUntil(() => room.state.phase === "over", 60_000, "the game's end");
    expect(strong.mock.calls.length).toBeGreaterThan(0);
    await expect(colyseus.createRoom("fool", { aiLevel: "expert" })).rejects.toThrow(/aiLevel/);
  }, 90_000);
});
