import type { Room as ClientRoom } from "@colyseus/sdk";
import { useRoomTestServer, type RoomTestServer } from "./test-server";
import type { EvenStevenRoom } from "../../rooms/evensteven/room";
import { CardhallError, EvenStevenPlayer } from "../../client-sdk";
import { Received, waitUntil, dropConnection, expectRefused } from "../helpers";

let colyseus: RoomTestServer;

useRoomTestServer((server) => (colyseus = server));

// Sample game 1: hand 4h 2d Qs Jc, then 8c Qc 9s 6s ... are dealt. Sample game 2: hand Kd 8c As 5s, then 3s 6h Kh 5c.
const GAME_1 = { n: 4, seed: 876390176 };
const GAME_2 = { n: 4, seed: 653723903 };

async function startRoom(options: Record<string, unknown>) {
  const room = await colyseus.createRoom<EvenStevenRoom>("evensteven", options);
  const client = await colyseus.connectTo(room, options);
  const player = new EvenStevenPlayer(client);
  await waitUntil(() => player.view()?.toCover !== "" && player.view()?.toCover !== undefined, 5000, "the first card");
  return { room, client, player };
}

async function spectate(room: EvenStevenRoom): Promise<{ client: ClientRoom; received: Received }> {
  const client = await colyseus.connectTo(room, { spectate: true });
  return { client, received: new Received(client) };
}

function publicState(room: EvenStevenRoom): unknown {
  return JSON.parse(JSON.stringify(room.state.toJSON()));
}

describe("the evensteven room", () => {
  test("the player sees its hand; the state it receives holds the hand only in its own view", async () => {
    const { player } = await startRoom(GAME_1);
    const view = player.view()!;
    expect(view.player?.hand).toEqual(["4h", "2d", "Qs", "Jc"]);
    expect(view.toCover).toBe("8c");
    expect(view.revealedSeed).toBe(0);
  });

  test("plays the statement's sample games to their verdicts", async () => {
    const { room, player } = await startRoom(GAME_2);
    for (const card of ["5s", "8c", "Kd", "As"]) await player.play(card);
    await waitUntil(() => player.view()?.phase === "over");
    expect(player.view()).toMatchObject({
      outcome: "WIN",
      revealedSeed: GAME_2.seed,
      played: ["5s", "8c", "Kd", "As"],
    });
    await player.newGame(GAME_1);
    await waitUntil(() => player.view()?.game === 2 && player.view()?.toCover === "8c");
    for (const card of ["Jc", "Qs", "2d"]) await player.play(card);
    await waitUntil(() => player.view()?.phase === "over" && player.view()?.game === 2);
    expect(player.view()).toMatchObject({
      outcome: "LOSE NECESSARILY",
      score: { games: 2, wins: 1, necessaryLosses: 1 },
    });
    expect(room.state.score.games).toBe(2);
  });

  test("a winnable game played badly is lost unnecessarily, and the verdict is broadcast", async () => {
    const { room, player } = await startRoom(GAME_2);
    const { client: watcher } = await spectate(room);
    const verdict = watcher.waitForMessage("verdict");
    for (const card of ["As", "Kd", "8c"]) await player.play(card);
    await expect(verdict).resolves.toMatchObject({
      game: 1,
      outcome: "LOSE UNNECESSARILY",
      seed: GAME_2.seed,
      dealt: ["3s", "6h", "Kh"],
    });
  });

  test("a spectator never receives the hand, the undealt cards or the seed before the verdict; the verdict shows them", async () => {
    const { room, player } = await startRoom(GAME_1);
    const { client, received } = await spectate(room);
    await waitUntil(() => received.snapshots.length > 0);
    await player.play("2d"); // 2d cannot cover 8c: the game is lost with 4h, Qs and Jc never shown
    await waitUntil(() => received.messages.some((m) => m.type === "verdict"));
    await waitUntil(() => (client.state as { phase: string }).phase === "over");
    // Until the game is over nothing shows the hand or the cards still to come; then the state shows both.
    const beforeVerdict = JSON.stringify([
      received.messages,
      received.snapshots.filter((s) => (s as { phase: string }).phase !== "over"),
    ]);
    for (const hidden of ["4h", "Qs", "Jc", "Qc", "9s", "6s"]) expect(beforeVerdict).not.toContain(`"${hidden}"`);
    const tokens = received.tokens();
    expect(tokens.has("2d") && tokens.has("8c")).toBe(true); // what was played and dealt is public
    expect(received.snapshots.at(-1)).toMatchObject({ undealt: ["Qc", "9s", "6s"], unplayed: ["4h", "Qs", "Jc"] });
    expect(received.snapshots.every((s) => (s as { player?: { hand?: unknown } }).player?.hand === undefined)).toBe(
      true,
    );
    // The seed appears first in the verdict: nothing received before it holds it.
    const verdictIndex = received.messages.findIndex((m) => m.type === "verdict");
    expect(JSON.stringify(received.messages.slice(0, verdictIndex))).not.toContain(String(GAME_1.seed));
    const beforeOver = received.snapshots.filter((s) => (s as { phase: string }).phase !== "over");
    expect(JSON.stringify(beforeOver)).not.toContain(String(GAME_1.seed));
  });

  test("only one player: a second player is refused, spectators are welcome", async () => {
    const { room } = await startRoom(GAME_1);
    await expectRefused(colyseus.connectTo(room, {}), /already has its player/);
    await expect(spectate(room)).resolves.toBeDefined();
  });

  describe("bad messages get a typed error and change nothing", () => {
    test.each([
      ["a card not in the hand", { card: "5h" }, "NOT_IN_HAND"],
      ["a word that is not a card", { card: "Tens" }, "NOT_A_CARD"],
      ["a malformed payload", { card: 5 }, "BAD_PAYLOAD"],
      ["an unexpected field", { card: "4h", extra: 1 }, "BAD_PAYLOAD"],
    ])("%s", async (_what, payload, code) => {
      const { room, player } = await startRoom(GAME_1);
      const before = publicState(room);
      const error = await player.room.request("play", payload).catch((e: { reason: unknown }) => e.reason);
      expect(error).toMatchObject({ code, type: "play" });
      expect(publicState(room)).toEqual(before);
    });

    test("the SDK turns a refusal into a CardhallError", async () => {
      const { player } = await startRoom(GAME_1);
      await expect(player.play("As")).rejects.toEqual(
        expect.objectContaining({ code: "NOT_IN_HAND", name: "CardhallError" }),
      );
      await expect(player.play("As")).rejects.toBeInstanceOf(CardhallError);
    });

    test("a card played twice, play after the verdict, newGame during a game", async () => {
      const { room, player } = await startRoom(GAME_2);
      await expect(player.newGame()).rejects.toMatchObject({ code: "GAME_IN_PROGRESS" });
      await player.play("Kd");
      await waitUntil(() => player.view()?.toCover === "6h");
      const before = publicState(room);
      await expect(player.play("Kd")).rejects.toMatchObject({ code: "ALREADY_PLAYED" });
      expect(publicState(room)).toEqual(before);
      await player.play("2c").catch(() => undefined);
      for (const card of ["8c", "As", "5s"]) await player.play(card);
      await waitUntil(() => player.view()?.phase === "over");
      await expect(player.play("5s")).rejects.toMatchObject({ code: "NO_CARD_TO_COVER" });
    });

    test("a spectator's play and an unknown message type are answered with errors sent back", async () => {
      const { room } = await startRoom(GAME_1);
      const { client } = await spectate(room);
      const before = publicState(room);
      const notAPlayer = client.waitForMessage("error");
      client.send("play", { card: "4h" });
      await expect(notAPlayer).resolves.toMatchObject({ code: "NOT_A_PLAYER", type: "play" });
      const unknown = client.waitForMessage("error");
      client.send("shuffle", {});
      await expect(unknown).resolves.toMatchObject({ code: "UNKNOWN_MESSAGE", type: "shuffle" });
      expect(publicState(room)).toEqual(before);
    });
  });

  test("the per-card time limit ends the game as a time-out", async () => {
    const { player } = await startRoom({ ...GAME_1, cardTimeLimitMs: 300 });
    await waitUntil(() => player.view()?.phase === "over", 5000, "the time-out");
    expect(player.view()).toMatchObject({ outcome: "TIME OUT", revealedSeed: GAME_1.seed, score: { timeOuts: 1 } });
  });

  test("a dropped player reconnects with its token and keeps its hand", async () => {
    const { room, player } = await startRoom({ ...GAME_2, reconnectSeconds: 10 });
    await player.play("Kd");
    const token = player.reconnectionToken;
    await dropConnection(player.room);
    await waitUntil(() => room.state.player?.connected === false, 5000, "the drop");
    const back = await colyseus.reconnect(token);
    const again = new EvenStevenPlayer(back);
    await waitUntil(() => again.view()?.toCover === "6h", 5000, "the state after reconnecting");
    expect(again.view()?.player?.hand).toEqual(["8c", "As", "5s"]);
    await again.play("8c");
    await waitUntil(() => room.state.played.length === 2);
  });
});

describe("room options", () => {
  test.each([
    [{ n: 14 }, /bad options: n/],
    [{ seed: 0 }, /bad options: seed/],
    [{ cardTimeLimitMs: "soon" }, /bad options: cardTimeLimitMs/],
  ])("a room created with %j is refused with the field named", async (options, message) => {
    await expect(colyseus.sdk.create("evensteven", options)).rejects.toThrow(message);
  });
});
