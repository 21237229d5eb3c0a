/**
 * A server with BUSY_REFUSE_AT: while its main thread is saturated it refuses new tables and spectators with 503, a
 * sentence and Retry-After, and the SDK hands the sentence and the wait on (JOIN_REFUSED, retryAfterMs); a seat at
 * a table already open is taken, a player whose connection dropped takes their seat back, the lobby is joined, and
 * all is taken again once the main thread is under its share (the SDK's joinWhenTaken asks again until then). The guard's samples are
 * given here (its sampler is tested in test/unit/busy-guard.test.ts), so that the server is "busy" exactly when the
 * test says.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { CardhallClient, joinWhenTaken } from "../../client-sdk";
import { LOBBY_ROOM } from "../../rooms/kit/protocol";
import { makeServer } from "../../server/app";
import { BusyGuard } from "../../server/capacity/busy-guard";
import { sdkRefusal } from "../helpers";
import { listeningTestServer, type RoomTestServer } from "../rooms/test-server";
import { finished, type Finished } from "./server-process";

const ROOT = path.resolve(__dirname, "..", "..");

const AT_CAPACITY =
  "the server is at capacity and takes no new players for a moment, so that the games under way keep their pace";

let colyseus: RoomTestServer;
let guard: BusyGuard;
let httpUrl: string;

beforeAll(async () => {
  guard = new BusyGuard(0.9);
  colyseus = await listeningTestServer(makeServer({ gracefullyShutdown: false, busyGuard: guard }));
  httpUrl = colyseus.url.replace(/^ws:/, "http:");
});

afterAll(() => colyseus.shutdown());

function saturated(): void {
  guard.observe(0.97);
  guard.observe(0.99);
}

test("a saturated server refuses new tables and spectators with 503, a sentence and Retry-After; a seat at an open table is taken, a dropped player comes back; all is taken again once it is not", async () => {
  const client = new CardhallClient(colyseus.url);
  const player = await client.playEvenSteven({ n: 5 });
  await player.leave({ keepSeat: true }); // the connection drops; the seat waits for its player
  const host = await client.playFool({ mode: "two-players", name: "Ann" }); // a table waiting for its second player

  saturated();
  const response = await fetch(`${httpUrl}/matchmake/create/evensteven`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe("5");
  expect(await response.json()).toEqual({ code: 503, error: AT_CAPACITY });

  const refused = await sdkRefusal(client.playEvenSteven({ n: 5 }));
  expect(refused.code).toBe("JOIN_REFUSED");
  expect(refused.message).toContain(AT_CAPACITY);
  expect(refused.retryAfterMs).toBe(5_000); // it passes: the SDK says when to ask again
  expect((await sdkRefusal(client.watchTractor({ bots: ["Alice", "Bob", "Charles", "David"] }))).code).toBe(
    "JOIN_REFUSED",
  );
  expect((await sdkRefusal(client.spectateFool(host.roomId))).message).toContain(AT_CAPACITY);

  const lobby = await client.colyseus.joinOrCreate(LOBBY_ROOM); // everyone still sees the hall
  lobby.onMessage("*", () => undefined); // its listings are not this test's
  const guest = await client.joinFool(host.roomId, { name: "Bea" }); // the open table's second seat: its game starts
  expect(guest.sessionId).not.toBe("");
  const back = await client.reconnectEvenSteven(player.reconnectionToken);
  expect(back.sessionId).toBe(player.sessionId);

  const metrics = (await (await fetch(`${httpUrl}/metrics.json`)).json()) as { busyGuard?: unknown };
  expect(metrics.busyGuard).toEqual({ refuseAt: 0.9, busy: true, refusing: true, refused: 4 });
  const text = await (await fetch(`${httpUrl}/metrics`)).text();
  expect(text).toMatch(/^cardhall_joins_refused_busy_total 4$/m);
  expect(text).toMatch(/^cardhall_refusing_joins 1$/m);
  expect(text).toMatch(/^cardhall_main_thread_busy 1$/m);

  guard.observe(0.4);
  const next = await client.playEvenSteven({ n: 5 });
  expect(next.sessionId).not.toBe("");
  expect(((await (await fetch(`${httpUrl}/metrics.json`)).json()) as { busyGuard?: unknown }).busyGuard).toEqual({
    refuseAt: 0.9,
    busy: false,
    refusing: false,
    refused: 4,
  });
  await Promise.all([next.leave(), back.leave(), guest.leave(), host.leave(), lobby.leave()]);
});

test("joinWhenTaken asks a server at capacity again after the wait it names, and is seated once it takes joins", async () => {
  const client = new CardhallClient(colyseus.url);
  saturated();
  const waits: number[] = [];
  const seated = joinWhenTaken(() => client.playEvenSteven({ n: 5 }), {
    withinMs: 30_000,
    onWait: (refusal, _attempt, waitMs) => {
      expect(refusal.message).toContain(AT_CAPACITY);
      waits.push(waitMs);
      guard.observe(0.4); // a quiet second: the next try is taken
    },
  });
  const player = await seated;
  expect(waits).toHaveLength(1);
  expect(waits[0]).toBeGreaterThanOrEqual(5_000); // Retry-After's 5 s, spread by up to as long again
  expect(waits[0]).toBeLessThanOrEqual(10_000);
  expect(player.sessionId).not.toBe("");
  await player.leave();
}, 20_000);

/**
 * Runs one of bin/'s programs against the saturated server; once it says it is asking again, the server has a quiet
 * second (its next try is taken), and the program runs to its end.
 */
async function runThroughCapacity(program: string, args: string[]): Promise<Finished> {
  saturated();
  const child = spawn(path.join(ROOT, "bin", program), ["--url", colyseus.url, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const run = finished(child, 60_000);
  let said = "";
  await new Promise<void>((resolve) =>
    child.stderr.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes("asking again")) resolve();
    }),
  );
  guard.observe(0.4);
  return run;
}

test("bin/bridge waits at a server at capacity, says so, and plays once it takes joins", async () => {
  const { status, stdout, stderr } = await runThroughCapacity("bridge", [
    "--game",
    "evensteven",
    "--n",
    "3",
    "--seed",
    "7",
    "--games",
    "1",
    "--",
    path.join(ROOT, "examples", "python", "evensteven_player.py"),
  ]);
  expect(stderr.split("\n")[0]).toMatch(new RegExp(`^bridge: ${AT_CAPACITY}; asking again in ([5-9]|10) s$`)); // then the program's own lines
  expect(stdout).toMatch(/^game 1 \(seed 7\): (WIN|LOSE NECESSARILY)$/m);
  expect(status).toBe(0);
}, 60_000);

test("bin/bots asks again for a table refused at capacity, says so, and plays it once the server takes joins", async () => {
  const { status, stdout, stderr } = await runThroughCapacity("bots", [
    "--game",
    "evensteven",
    "--tables",
    "1",
    "--games",
    "1",
  ]);
  expect(stderr).toMatch(new RegExp(`^bots: table 1: ${AT_CAPACITY}; asking again in ([5-9]|10) s\n$`));
  expect(stdout).toMatch(/^table 1 \(room \S+\):\n/);
  expect(status).toBe(0);
}, 60_000);

test("a refusal that does not pass is not a 503: the client is not told to ask again", async () => {
  // This server keeps no records, so it has no ladders, and will not have them a moment later.
  const response = await fetch(`${httpUrl}/matchmake/create/evensteven`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ladder: true, name: "Ann" }),
  });
  expect(response.status).toBe(404);
  expect(response.headers.get("retry-after")).toBeNull();
  expect(await response.json()).toEqual({
    code: 404,
    error: "this server keeps no records (RECORDS=off), so it has no ladders",
  });
  const refused = await sdkRefusal(new CardhallClient(colyseus.url).playLadder("evensteven"));
  expect(refused.code).toBe("JOIN_REFUSED");
  expect(refused.retryAfterMs).toBeUndefined();
});
