import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Client } from "@colyseus/sdk";
import { CardhallClient } from "../../client-sdk";
import { playEvenStevenBot } from "../../client-sdk/bots/evensteven";
import { canWin, cardsToCover, initialHand, newGame } from "../../rooms/evensteven/engine";
import { Received, waitUntil } from "../helpers";
import { freePort, ServerProcess } from "./server-process";

/** On a free port: a fixed one may be taken on a shared host. */
let server: ServerProcess;
const ROOT = path.resolve(__dirname, "..", "..");

beforeAll(async () => {
  server = new ServerProcess(await freePort());
  await server.start();
});
afterAll(() => server.stop());

function runBridge(args: string[], input: string): Promise<{ stdout: string; stderr: string; status: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(ROOT, "bin", "evensteven-bridge"), args, { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("close", (status) => resolve({ stdout, stderr, status }));
    child.stdin.end(input);
  });
}

describe("Even-Steven end to end, against a real server", () => {
  test("/health answers and /rooms lists live rooms", async () => {
    const health = await fetch(`http://127.0.0.1:${server.port}/health`);
    expect(await health.json()).toMatchObject({ ok: true });
    const client = new CardhallClient(server.url);
    const session = await client.playEvenSteven({ n: 3, name: "lister" });
    const rooms = await client.listRooms("evensteven");
    expect(rooms).toContainEqual(expect.objectContaining({ roomId: session.roomId, name: "evensteven", clients: 1 }));
    expect(rooms.find((room) => room.roomId === session.roomId)?.metadata).toMatchObject({
      game: "evensteven",
      player: "lister",
    });
    await session.leave();
  });

  test("the SDK's optimal bot never loses unnecessarily over many games", async () => {
    const { results } = await playEvenStevenBot(new CardhallClient(server.url), { games: 40, n: 6, seed: 12345 });
    expect(results).toHaveLength(40);
    for (const result of results) {
      const game = newGame(6, result.seed);
      expect(result.outcome).toBe(canWin(initialHand(game), cardsToCover(game)) ? "WIN" : "LOSE NECESSARILY");
    }
  });

  test("bin/evensteven-bridge makes a stdio program a network player, printing what bin/dealer prints", async () => {
    const lines = Array.from({ length: 30 }, (_, i) => `${(i % 13) + 1} ${1000003 * (i + 1)}`).join("\n") + "\n";
    const evensteven = path.join(ROOT, "bin", "evensteven");
    const bridged = await runBridge(["--url", server.url, "--from-stdin", "--", evensteven], lines);
    const dealt = await new Promise<string>((resolve) => {
      const child = spawn(path.join(ROOT, "bin", "dealer"), [evensteven]);
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk));
      child.on("close", () => resolve(out));
      child.stdin.end(lines);
    });
    expect(bridged.status).toBe(0);
    expect(bridged.stdout).toBe(dealt);
    const sample = fs.readFileSync(
      path.join(ROOT, "test", "fixtures", "samples", "evensteven-dealer-sample.in"),
      "utf8",
    );
    const sampleRun = await runBridge(["--url", server.url, "--from-stdin", "--", evensteven], sample);
    expect(sampleRun.stdout).toBe(
      fs.readFileSync(path.join(ROOT, "test", "fixtures", "samples", "evensteven-dealer-sample.out"), "utf8"),
    );
  });

  test("the bridge reports a misbehaving program and stops", async () => {
    const fixture = path.join(ROOT, "test", "fixtures", "misbehaving-player.js");
    const run = await runBridge(
      ["--url", server.url, "--n", "4", "--seed", "653723903", "--", fixture, "stranger"],
      "",
    );
    expect(run.stderr).toMatch(/Game 1: the player answered 3s with "2c": 2c is not in the hand/);
    expect(run.status).toBe(1); // failed while running (README, "Exit status")
  });

  test("a client written only against @colyseus/sdk and docs/protocol.md plays, and a spectator sees nothing hidden until the verdict", async () => {
    // Only @colyseus/sdk here: message names and payloads as docs/protocol.md gives them.
    const sdk = new Client(server.url);
    const player = await sdk.create("evensteven", { n: 4, seed: 876390176, name: "plain" });
    const hands: string[][] = [];
    const verdicts: Array<{ outcome: string }> = [];
    const deals: string[] = [];
    player.onMessage("hand", (event: { cards: string[] }) => hands.push(event.cards));
    player.onMessage("deal", (event: { card: string }) => deals.push(event.card));
    player.onMessage("played", () => undefined);
    player.onMessage("verdict", (event: { outcome: string }) => verdicts.push(event));
    await waitUntil(() => (player.state as { toCover?: string }).toCover === "8c");

    const spectator = await new Client(server.url).joinById(player.roomId, { spectate: true });
    const received = new Received(spectator);
    await waitUntil(() => received.snapshots.length > 0);
    player.send("play", { card: "2d" }); // cannot cover 8c: lost, with 4h Qs Jc never shown to the spectator
    await waitUntil(() => verdicts.length === 1 && received.messages.some((m) => m.type === "verdict"));
    expect(verdicts[0].outcome).toBe("LOSE NECESSARILY");
    // Nothing before the game is over shows them; the state at the end does (docs/protocol.md: undealt, unplayed).
    const beforeOver = JSON.stringify([
      received.messages,
      received.snapshots.filter((s) => (s as { phase: string }).phase !== "over"),
    ]);
    for (const hidden of ["4h", "Qs", "Jc", "Qc", "9s"]) expect(beforeOver).not.toContain(`"${hidden}"`);
    await waitUntil(() => (spectator.state as { phase?: string }).phase === "over");
    expect(JSON.parse(JSON.stringify(spectator.state))).toMatchObject({
      undealt: ["Qc", "9s", "6s"],
      unplayed: ["4h", "Qs", "Jc"],
    });

    player.send("newGame", { n: 4, seed: 653723903 });
    await waitUntil(() => (player.state as { game?: number; toCover?: string }).game === 2 && deals.length >= 2);
    for (const card of ["5s", "8c", "Kd", "As"]) {
      const before = deals.length;
      player.send("play", { card });
      if (card !== "As") await waitUntil(() => deals.length > before);
    }
    await waitUntil(() => verdicts.length === 2);
    expect(verdicts[1].outcome).toBe("WIN");
    const errors: Array<{ code: string }> = [];
    player.onMessage("error", (error: { code: string }) => errors.push(error));
    player.send("play", { card: "As" });
    await waitUntil(() => errors.length === 1);
    expect(errors[0].code).toBe("NO_CARD_TO_COVER");
    await spectator.leave();
    await player.leave();
  });
});
