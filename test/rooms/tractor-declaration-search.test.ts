import { useRoomTestServer, type RoomTestServer } from "./test-server";
import type { TractorRoom } from "../../rooms/tractor/room";
import * as declarationSearch from "../../rooms/tractor/declaration-search";
import { cardName, type Card } from "../../rooms/tractor/cards";
import { dealtTo } from "../../rooms/tractor/declaration";
import { tractorEngine } from "../../rooms/tractor/match";
import { TractorAiThreads } from "../../server/ai/tractor-ai-pool";
import { TRACTOR_SEATS } from "../../client-sdk";
import { waitUntil } from "../helpers";

// The rooms call these through the modules' exports, which the tests spy on: each module is a plain copy of
// itself here, whose exports a spy can replace (swc's CommonJS exports are getters that cannot be redefined).
jest.mock("../../rooms/tractor/declaration-search", () => ({
  __esModule: true,
  ...jest.requireActual<object>("../../rooms/tractor/declaration-search"),
}));

let colyseus: RoomTestServer;

useRoomTestServer((server) => (colyseus = server));

afterEach(() => jest.restoreAllMocks());

/** Four bots dealing for declarations, Alice the strong one; quick paces, and a long pause after the round. */
const STRONG_ALICE = {
  bots: [...TRACTOR_SEATS],
  botLevels: { Alice: "strong" },
  trump: "declare",
  dealer: "Alice",
  dealDelayMs: 2,
  declareWindowMs: 300,
  botDelayMs: 0,
  roundPauseMs: 60_000,
  startDelayMs: 0,
} as const;

async function strongTable(seed: number): Promise<TractorRoom> {
  // With records, so that the match keeps its actions (read below).
  const room = await colyseus.createRoom<TractorRoom>("tractor", {
    ...STRONG_ALICE,
    seed,
    records: { submit: () => undefined },
  });
  await colyseus.connectTo(room, { spectate: true }); // the table starts on a join
  return room;
}

const declarationsBy = (room: TractorRoom, seat: number) =>
  room["match"]!.actions.read(room["records"]["stepReplay"](room["match"]!))
    .filter(({ actor, action }) => actor === seat && action.type === "declare")
    .map(({ action }) => ("cards" in action ? [...action.cards] : []));

describe('a strong seat\'s declarations at a table (trump "declare")', () => {
  test("come from the search on the AI threads, from the cards the seat has been dealt only, and the round goes on", async () => {
    const searched = jest.spyOn(declarationSearch, "declareInProcess");
    const room = await strongTable(3);
    await waitUntil(() => room.state.phase === "roundOver", 60_000, "the round's end");
    expect(searched.mock.calls.length).toBeGreaterThan(0);
    // Every search was Alice's, each from the cards she had been dealt by then (the round's deal, dealt again from its seed).
    const { options, seed } = room["match"]!;
    const dealt = tractorEngine.start(options, seed).state;
    if (dealt.phase !== "declaring") throw new Error("the round did not begin with a deal");
    for (const [task] of searched.mock.calls) {
      expect(task.view.seat).toBe(0);
      expect(task.view.dealt).toEqual(dealtTo(dealt.dealing.hands[0], 0, 0, task.view.steps));
    }
    // What Alice declared (if anything) was the search's answer.
    const answers = searched.mock.results
      .map((result) => (result.value as Card[] | undefined)?.map(cardName))
      .filter((cards) => cards !== undefined);
    for (const declared of declarationsBy(room, 0)) expect(answers).toContainEqual(declared);
    expect(declarationsBy(room, 0).length).toBeGreaterThan(0);
  }, 90_000);

  test("an answer that comes once the deal is over is dropped: the seat does not declare, and the round is played on", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const answered: Promise<Card[] | undefined>[] = [];
    const declaration = TractorAiThreads.prototype.declaration;
    // The threads' real answer, held back until the round has been played.
    jest.spyOn(TractorAiThreads.prototype, "declaration").mockImplementation(function (this: TractorAiThreads, task) {
      const answer = held.then(() => declaration.call(this, task));
      answered.push(answer);
      return answer;
    });
    const room = await strongTable(3);
    await waitUntil(() => room.state.phase === "roundOver", 60_000, "the round's end");
    expect(answered).toHaveLength(1); // asked once: not again while its answer is awaited
    const actions = room["match"]!.actions.length;
    release();
    const cards = await answered[0];
    expect(cards).toBeDefined(); // a declaration, which would have been legal while dealing
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(room["match"]!.actions.length).toBe(actions);
    expect(declarationsBy(room, 0)).toEqual([]);
  }, 90_000);
});
