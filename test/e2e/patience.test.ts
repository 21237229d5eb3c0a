import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { Client } from "@colyseus/sdk";
import { CardhallClient } from "../../client-sdk";
import { watchPatienceDeal } from "../../client-sdk/bots/patience";
import { deckOfSeed, formatCard } from "../../rooms/patience/cards";
import { simulate } from "../../rooms/patience/engine";
import { formatDeck } from "../../rooms/patience/notation";
import type { MoveProbe } from "../../client-sdk/bots/probe";
import { waitUntil } from "../helpers";
import { freePort, ServerProcess } from "./server-process";

/** On a free port: a fixed one may be taken on a shared host. */
let server: ServerProcess;
const ROOT = path.resolve(__dirname, "..", "..");

beforeAll(async () => {
  server = new ServerProcess(await freePort());
  await server.start();
});
afterAll(() => server.stop());

describe("Shuffling Patience end to end, against a real server", () => {
  test("a spectator written only against @colyseus/sdk and docs/protocol.md watches a deal whose outcome is simulate(deck)", async () => {
    // Only @colyseus/sdk here: message names, options and payloads as docs/protocol.md gives them.
    const owner = await new Client(server.url).create("patience", { paused: true, paceMs: 10, name: "dealer" });
    const spectator = await new Client(server.url).joinById(owner.roomId, { spectate: true });
    const moves: Array<{ kind: string; card?: string; covering?: string[]; step: number }> = [];
    let over: { outcome: unknown; seed: number; line: string } | undefined;
    spectator.onMessage("move", (event: (typeof moves)[number]) => moves.push(event));
    spectator.onMessage("dealOver", (event: NonNullable<typeof over>) => (over = event));
    spectator.onMessage("*", () => undefined);
    owner.onMessage("*", () => undefined);
    await waitUntil(() => (spectator.state as { spectators?: number }).spectators === 1, 5000, "the spectator's state");
    owner.send("resume");
    await waitUntil(
      () => over !== undefined && (spectator.state as { phase?: string }).phase === "over",
      15_000,
      "the deal's end",
    );

    // The room picked the seed and revealed it only now: it names the deck, and the deal is that deck's.
    const deck = deckOfSeed(over!.seed);
    expect(over!.outcome).toEqual(simulate(deck));
    // Every card the spectator saw dealt came in the deck's order.
    const seenDealt = moves.flatMap((move) =>
      move.kind === "dealt" ? [move.card!] : move.kind === "covered" ? move.covering! : [],
    );
    expect(seenDealt).toEqual(deck.slice(0, seenDealt.length).map(formatCard));
    expect(moves.map((move) => move.step)).toEqual(moves.map((_, index) => index + 1));
    const state = spectator.state as {
      revealedSeed: number;
      outcome: { line: string };
      tops: unknown[];
      counts: unknown[];
    };
    expect(state.revealedSeed).toBe(over!.seed);
    expect(state.outcome.line).toBe(over!.line);
    expect(state.tops).toHaveLength(16);
    expect(state.counts).toHaveLength(16);

    const errors: Array<{ code: string; type: string }> = [];
    spectator.onMessage("error", (error: (typeof errors)[number]) => errors.push(error));
    spectator.send("pause");
    await waitUntil(() => errors.length === 1);
    expect(errors[0]).toMatchObject({ code: "NOT_OWNER", type: "pause" });
    await spectator.leave();
    await owner.leave();
  });

  test("a deck given in bin/patience's notation ends with the very line bin/patience prints", async () => {
    const client = new CardhallClient(server.url);
    for (const seed of [3, 17, 2024]) {
      const deckText = formatDeck(deckOfSeed(seed)).join("\n") + "\n#\n";
      const judged = spawnSync(path.join(ROOT, "bin", "patience"), [], {
        input: deckText,
        encoding: "utf8",
        timeout: 20_000,
      });
      const result = await watchPatienceDeal(client, { deck: deckText, stepByStep: true });
      expect(result.seed).toBe(0);
      expect(result.line + "\n").toBe(judged.stdout);
    }
  });

  test("the SDK's bots: an owner stepping a deal and a spectator watching one agree with the engine, with no desync", async () => {
    const desyncs: string[] = [];
    let sent = 0;
    let seen = 0;
    const probe: MoveProbe = { sent: () => sent++, seen: () => seen++, desync: (detail) => desyncs.push(detail) };
    const stepped = await watchPatienceDeal(new CardhallClient(server.url), { seed: 31337, stepByStep: true, probe });
    expect(stepped).toMatchObject({ deal: 1, seed: 31337, outcome: simulate(deckOfSeed(31337)) });
    expect(stepped.movesSeen).toBe(stepped.steps);
    expect(sent).toBe(stepped.steps);
    expect(seen).toBe(stepped.steps);

    const client = new CardhallClient(server.url);
    const owner = await client.createPatience({ seed: 4242, paused: true, paceMs: 5 });
    const rooms = await client.listRooms("patience");
    expect(rooms.find((room) => room.roomId === owner.roomId)?.metadata).toMatchObject({
      game: "patience",
      phase: "paused",
      deal: 1,
    });
    const watching = watchPatienceDeal(new CardhallClient(server.url), {
      roomId: owner.roomId,
      probe,
      onJoined: () => void owner.resume(),
    });
    const watched = await watching;
    expect(watched).toMatchObject({ roomId: owner.roomId, seed: 4242, outcome: simulate(deckOfSeed(4242)) });
    expect(desyncs).toEqual([]);
    await owner.leave();
  });
});
