import { Client } from "@colyseus/sdk";
import {
  CardhallClient,
  TRACTOR_SEATS,
  type TractorMatchEndEvent,
  type TractorRoundEndEvent,
  type TractorStateView,
} from "../../client-sdk";
import { playTractorBot } from "../../client-sdk/bots/tractor";
import { Received, waitUntil } from "../helpers";
import { freePort, ServerProcess } from "./server-process";

/** On a free port: a fixed one may be taken on a shared host. */
let server: ServerProcess;

beforeAll(async () => {
  server = new ServerProcess(await freePort());
  await server.start();
});
afterAll(() => server.stop());

const UNPACED = { botDelayMs: 0, dealDelayMs: 0, declareWindowMs: 0, roundPauseMs: 0, startDelayMs: 200 } as const;

describe("Tractor end to end, against a real server", () => {
  test("a table of four room bots plays a whole match from rank 2 to a winner, watched through the SDK", async () => {
    const client = new CardhallClient(server.url);
    const watcher = await client.watchTractor({ ...UNPACED, bots: [...TRACTOR_SEATS], seed: 2026 });
    const ends: TractorRoundEndEvent[] = [];
    watcher.on("roundEnd", (event) => ends.push(event));
    const matchEnd = await new Promise<TractorMatchEndEvent>((resolve) => watcher.on("matchEnd", resolve));
    expect(ends).toHaveLength(matchEnd.rounds);
    expect(ends[ends.length - 1]).toMatchObject({ matchWinner: matchEnd.winner, teamRanks: matchEnd.teamRanks });
    expect(matchEnd.teamRanks[matchEnd.winner - 1]).toBeGreaterThan(14);
    const listing = (await client.listRooms("tractor")).find((room) => room.roomId === watcher.roomId);
    expect(listing?.metadata).toMatchObject({ game: "tractor", phase: "matchOver" });
    await watcher.leave();
  });

  test("four SDK bot programs take the four seats and play a match to its winner", async () => {
    const host = new CardhallClient(server.url);
    const first = await host.playTractor({
      ...UNPACED,
      seat: "Alice",
      name: "heuristic-1",
      startRanks: ["K", "K"],
      seed: 7,
      turnTimeMs: 60_000,
    });
    const others = await Promise.all(
      (["Bob", "Charles", "David"] as const).map((seat) =>
        new CardhallClient(server.url).joinTractor(first.roomId, { seat, name: `bot-${seat}` }),
      ),
    );
    const seats = [first, ...others];
    const results = await Promise.all(
      seats.map((seat, index) =>
        playTractorBot(seat, index % 2 === 0 ? "heuristic" : "random", { botSeed: index, timeoutMs: 20_000 }),
      ),
    );
    const winners = new Set(results.map((result) => result.matchWinner));
    expect(winners.size).toBe(1);
    expect([1, 2]).toContain(results[0].matchWinner);
    expect(results.every((result) => result.actions > 0)).toBe(true);
    const final = seats[0].view()!;
    expect(final).toMatchObject({ phase: "matchOver", winner: results[0].matchWinner });
    expect(final.seats.map((seat) => seat.occupant)).toEqual(["person", "person", "person", "person"]);
    await Promise.all(seats.map((seat) => seat.leave()));
  }, 60_000);

  test("a client written only against @colyseus/sdk and docs/protocol.md plays a seat; a spectator sees no hand", async () => {
    const sdk = new Client(server.url);
    const room = await sdk.create("tractor", {
      ...UNPACED,
      trump: "fixed",
      mainSuit: "D",
      bots: ["Bob", "Charles", "David"],
      seat: "Alice",
      roundPauseMs: 60_000,
    });
    const errors: Array<{ code: string; message: string }> = [];
    let roundEnd: { defenderPoints: number; seed: number } | undefined;
    room.onMessage("error", (error: { code: string; message: string }) => errors.push(error));
    room.onMessage("roundEnd", (event: { defenderPoints: number; seed: number }) => (roundEnd = event));
    room.onMessage("*", () => undefined);
    const spectator = await new Client(server.url).joinById(room.roomId, { spectate: true });
    const watched = new Received(spectator);
    const state = () => room.state as TractorStateView;
    let acted = -1;
    for (let actions = 0; actions < 60 && roundEnd === undefined; actions++) {
      await waitUntil(
        () => roundEnd !== undefined || (state().turn === "Alice" && state().step > acted),
        10_000,
        "Alice's turn",
      );
      if (roundEnd !== undefined) break;
      acted = state().step;
      const hint = (await room.request("hint", { limit: 1 })) as { phase: string; suggestion: string[] };
      if (state().phase === "burying") {
        room.send("play", { cards: hint.suggestion.slice(0, 1) }); // the wrong move first: answered with an error
        await waitUntil(() => errors.length > 0);
        expect(errors[0].code).toBe("WRONG_PHASE");
        await room.request("bury", { cards: hint.suggestion });
      } else await room.request("play", { cards: hint.suggestion });
    }
    await waitUntil(
      () => roundEnd !== undefined && (spectator.state as TractorStateView).phase === "roundOver",
      10_000,
      "the round's end",
    );
    const myHands = watched.snapshots as TractorStateView[];
    expect(
      myHands.every((snapshot) =>
        (snapshot.seats ?? []).every((seat) => seat.hand === undefined && seat.buried === undefined),
      ),
    ).toBe(true);
    expect(JSON.stringify(watched.messages.filter((m) => m.type !== "roundEnd"))).not.toContain(String(roundEnd!.seed));
    await spectator.leave();
    await room.leave();
  });
});
