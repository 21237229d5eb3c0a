/**
 * A server with BUSY_REFUSE_AT: while its main thread is saturated it refuses new tables and spectators with 503, a
 * sentence and Retry-After, and the SDK hands the sentence on (JOIN_REFUSED); a seat at a table already open is
 * taken, a player whose connection dropped takes their seat back, and all is taken again once the main thread is
 * under its share. The guard's samples are
 * given here (its sampler is tested in test/unit/busy-guard.test.ts), so that the server is "busy" exactly when the
 * test says.
 */
import { CardhallClient, CardhallError } from "../../client-sdk";
import { makeServer } from "../../server/app";
import { BusyGuard } from "../../server/busy-guard";
import { listeningTestServer, type RoomTestServer } from "../rooms/test-server";

const AT_CAPACITY = "the server is at capacity and takes no new players for a moment, so that the games under way keep their pace: try again in 5 seconds";

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

async function refusal(promise: Promise<unknown>): Promise<CardhallError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(CardhallError);
  return error as CardhallError;
}

test("a saturated server refuses new tables and spectators with 503, a sentence and Retry-After; a seat at an open table is taken, a dropped player comes back; all is taken again once it is not", async () => {
  const client = new CardhallClient(colyseus.url);
  const player = await client.playEvenSteven({ n: 5 });
  await player.leave({ keepSeat: true }); // the connection drops; the seat waits for its player
  const host = await client.playFool({ mode: "two-players", name: "Ann" }); // a table waiting for its second player

  saturated();
  const response = await fetch(`${httpUrl}/matchmake/create/evensteven`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBe("5");
  expect(await response.json()).toEqual({ code: 503, error: AT_CAPACITY });

  const refused = await refusal(client.playEvenSteven({ n: 5 }));
  expect(refused.code).toBe("JOIN_REFUSED");
  expect(refused.message).toContain(AT_CAPACITY);
  expect((await refusal(client.watchTractor({ bots: ["Alice", "Bob", "Charles", "David"] }))).code).toBe("JOIN_REFUSED");
  expect((await refusal(client.spectateFool(host.roomId))).message).toContain(AT_CAPACITY);

  const guest = await client.joinFool(host.roomId, { name: "Bea" }); // the open table's second seat: its game starts
  expect(guest.sessionId).not.toBe("");
  const back = await client.reconnectEvenSteven(player.reconnectionToken);
  expect(back.sessionId).toBe(player.sessionId);

  const metrics = (await (await fetch(`${httpUrl}/metrics.json`)).json()) as { busyGuard?: unknown };
  expect(metrics.busyGuard).toEqual({ refuseAt: 0.9, refusing: true, refused: 4 });
  const text = await (await fetch(`${httpUrl}/metrics`)).text();
  expect(text).toMatch(/^cardhall_joins_refused_busy_total 4$/m);
  expect(text).toMatch(/^cardhall_refusing_joins 1$/m);

  guard.observe(0.4);
  const next = await client.playEvenSteven({ n: 5 });
  expect(next.sessionId).not.toBe("");
  expect(((await (await fetch(`${httpUrl}/metrics.json`)).json()) as { busyGuard?: unknown }).busyGuard).toEqual({ refuseAt: 0.9, refusing: false, refused: 4 });
  await Promise.all([next.leave(), back.leave(), guest.leave(), host.leave()]);
});

test("a refusal the server chooses to make with a 5xx status reaches the client with its sentence", async () => {
  // This server keeps no records, so it has no ladders: the sentence says so, where the client once read only that
  // the matchmaking could not be done.
  const response = await fetch(`${httpUrl}/matchmake/create/evensteven`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ladder: true, name: "Ann" }) });
  expect(response.status).toBe(503);
  expect(response.headers.get("retry-after")).toBeNull();
  expect(await response.json()).toEqual({ code: 503, error: "this server keeps no records (RECORDS=off), so it has no ladders" });
});
