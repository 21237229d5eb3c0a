/**
 * The findings of the hostile-client review (issue 23), each replayed through a raw client against a real server
 * process: HTTP, a raw @colyseus/sdk client and raw WebSocket bytes, never the cardhall SDK.
 */
import { Client, type Room } from "@colyseus/sdk";
import { waitUntil } from "../helpers";
import { freePort, ServerProcess } from "./server-process";
import {
  consume,
  idleConnection,
  joinRaw,
  listRooms,
  matchmake,
  OpenRooms,
  postOversizeBody,
  reserveNewTable,
  socketOf,
  stateOf,
  type Reservation,
} from "./raw-client";

let server: ServerProcess;
const rooms = new OpenRooms();
const track = (room: Room) => rooms.track(room);

beforeAll(async () => {
  // NODE_ENV unset, as `npm start` runs it: the server is in production mode by default.
  server = new ServerProcess(await freePort(), { NODE_ENV: "" });
  await server.start();
});

afterEach(() => rooms.leaveAll());

afterAll(async () => {
  await server.stop();
});

const create = (game: string, options: Record<string, unknown> = {}): Promise<Reservation> =>
  reserveNewTable(server.httpUrl, game, options);

/** A client's join that must be refused over HTTP with a client error, and never reach a socket. */
async function expectRefusedJoin(roomId: string, options: Record<string, unknown>, reason: RegExp): Promise<void> {
  const answer = await matchmake(server.httpUrl, "joinById", roomId, options);
  expect(answer.status).toBeGreaterThanOrEqual(400);
  expect(answer.status).toBeLessThan(500);
  expect(String(answer.body.error)).toMatch(reason);
}

describe("1. a creator's seat cannot be taken before the creator connects", () => {
  test("evensteven: the room lists no open seat, an intruder is refused, the creator gets the seat and the hand", async () => {
    const reservation = await create("evensteven", { n: 5 });
    const listed = (await listRooms(server.httpUrl)).find((room) => room.roomId === reservation.roomId);
    expect(listed?.metadata).toMatchObject({ openSeats: 0 });
    await expectRefusedJoin(reservation.roomId, {}, /already has its player/);
    const creator = track(await consume(server.url, reservation));
    await waitUntil(
      () => ((stateOf(creator).player as { hand?: string[] } | undefined)?.hand?.length ?? 0) === 5,
      5000,
      "the creator's hand",
    );
  });

  test("fool: the intruder gets the other seat; the creator keeps the one it was promised", async () => {
    const reservation = await create("fool", { mode: "two-players", name: "creator" });
    const intruder = track(await joinRaw(server.url, reservation.roomId, { name: "intruder" }));
    await expectRefusedJoin(reservation.roomId, { name: "third" }, /every seat is taken/);
    const creator = track(await consume(server.url, reservation));
    await waitUntil(
      () => (stateOf(creator).seats as Array<{ name: string }> | undefined)?.[1]?.name === "intruder",
      5000,
      "both seats",
    );
    expect((stateOf(creator).seats as Array<{ name: string }>)[0].name).toBe("creator");
    void intruder;
  });

  test("tractor: a seat named at create is refused to an intruder naming it", async () => {
    const reservation = await create("tractor", { seat: "Alice", name: "creator", bots: ["Bob", "Charles", "David"] });
    await expectRefusedJoin(reservation.roomId, { seat: "Alice", name: "intruder" }, /Alice's seat is taken/);
    const creator = track(await consume(server.url, reservation));
    await waitUntil(
      () => (stateOf(creator).seats as Array<{ player: string }> | undefined)?.[0]?.player === "creator",
      5000,
      "Alice's seat",
    );
  });

  test("patience: an intruder becomes a spectator, not the owner", async () => {
    const reservation = await create("patience", { name: "creator", paused: true });
    const intruder = track(await joinRaw(server.url, reservation.roomId, { name: "intruder" }));
    const creator = track(await consume(server.url, reservation));
    await waitUntil(() => stateOf(creator).ownerName === "creator", 5000, "the creator as owner");
    expect(stateOf(creator).owner).toBe(creator.sessionId);
    expect(stateOf(creator).owner).not.toBe(intruder.sessionId);
  });
});

describe("2. reservations that never connect cannot lock a room", () => {
  test("65 spectator reservations over HTTP alone: the second Fool player still joins", async () => {
    const reservation = await create("fool", { mode: "two-players", name: "first" });
    const first = track(await consume(server.url, reservation));
    const statuses = await Promise.all(
      Array.from({ length: 65 }, () =>
        matchmake(server.httpUrl, "joinById", reservation.roomId, { spectate: true }).then((answer) => answer.status),
      ),
    );
    // Bounded per room (16 waiting at once) and per address: the rest are told to come back (429).
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(16);
    expect(statuses.filter((status) => status !== 200).every((status) => status === 429)).toBe(true);
    const listed = (await listRooms(server.httpUrl)).find((room) => room.roomId === reservation.roomId);
    expect(listed?.locked).toBe(false);
    const second = track(await joinRaw(server.url, reservation.roomId, { name: "second" }));
    await waitUntil(
      () => (stateOf(first).seats as Array<{ name: string }> | undefined)?.[1]?.name === "second",
      5000,
      "the second player seated",
    );
    void second;
  });
});

describe("3. request bodies are bounded and refused early", () => {
  test("a declared 50 MB body is answered 413 before it is sent", async () => {
    const answer = await postOversizeBody(server.port, "/matchmake/create/evensteven", 50 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: expect.stringMatching(/over 4096 bytes/) });
  });

  test("a body of undeclared length is cut off at the limit with 413", async () => {
    expect((await postOversizeBody(server.port, "/matchmake/create/evensteven", null)).status).toBe(413);
  });

  test("a body to another route is bounded too", async () => {
    expect((await postOversizeBody(server.port, "/rooms", 1024 * 1024)).status).toBe(413);
    expect((await postOversizeBody(server.port, "/rooms", null)).status).toBe(411);
  });

  test("malformed matchmaking requests get 4xx with a sentence", async () => {
    expect(await matchmake(server.httpUrl, "create", "evensteven", "{not json")).toEqual({
      status: 400,
      body: { code: 400, error: "the request body is not JSON" },
    });
    expect((await matchmake(server.httpUrl, "create", "evensteven", "[1,2]")).status).toBe(400);
    expect((await matchmake(server.httpUrl, "create", "evensteven", { n: "five" })).body.error).toMatch(
      /bad options: n/,
    );
    expect((await matchmake(server.httpUrl, "teleport", "evensteven")).status).toBe(404);
  });

  test("a connection that sends nothing is closed within seconds", async () => {
    // The server closes it after 5 s (server/transport.ts); the bound leaves room for a busy two-core machine.
    await idleConnection(server.port, 30_000);
  }, 45_000);
});

describe("4. every message type is handled or refused with a code, for send and request alike", () => {
  let creator: Room;
  let errors: unknown[];

  beforeEach(async () => {
    creator = track(await consume(server.url, await create("fool", { mode: "two-players" })));
    errors = [];
    creator.onMessage("error", (reply: unknown) => errors.push(reply));
  });

  test("a send named '*' is refused with UNKNOWN_MESSAGE", async () => {
    creator.send("*", { toString: 1, valueOf: 1 });
    await waitUntil(() => errors.length === 1, 5000, "the refusal");
    expect(errors[0]).toMatchObject({ code: "UNKNOWN_MESSAGE", type: "*" });
  });

  test("a request named '*', or of an unknown type, is rejected with UNKNOWN_MESSAGE", async () => {
    for (const type of ["*", "teleport"]) {
      const refusal = await creator.request(type, {}).then(
        () => "resolved",
        (error: { reason?: unknown }) => error.reason,
      );
      expect(refusal).toMatchObject({ code: "UNKNOWN_MESSAGE", type });
    }
  });
});

describe("5. junk frames cost a few log lines, with no stack and none of their bytes", () => {
  test("200 undecodable frames: at most a handful of lines, each with a kind and a length", async () => {
    // A server of its own: the refusal log's window (5 lines in 10 s, rooms/kit/log.ts) is the process's, and the
    // earlier tests' refusals may have filled the shared server's.
    const fresh = new ServerProcess(await freePort(), { NODE_ENV: "" });
    await fresh.start();
    try {
      await junkFramesLogAFewLines(fresh);
    } finally {
      await fresh.stop();
    }
  });

  async function junkFramesLogAFewLines(server: ServerProcess): Promise<void> {
    const answer = await matchmake(server.httpUrl, "create", "fool", { mode: "two-players" });
    expect(answer.status).toBe(200);
    const player = track(await consume(server.url, answer.body as unknown as Reservation));
    const before = server.output.length;
    const marker = Buffer.from("ATTACKER-BYTES-ATTACKER-BYTES");
    const socket = socketOf(player);
    for (let frame = 0; frame < 200; frame++)
      socket.send(Buffer.concat([Buffer.from([13, 0xa4]), Buffer.from("move"), Buffer.from([0xc1]), marker]));
    const errors: unknown[] = [];
    player.onMessage("error", (reply: unknown) => errors.push(reply));
    // The room still answers: a request after the junk is handled.
    await expect(player.request("teleport", {})).rejects.toMatchObject({
      reason: { code: expect.stringMatching(/UNKNOWN_MESSAGE|RATE_LIMITED/) },
    });
    // The log comes through the server's stdout, a channel of its own: its line may arrive after the reply.
    const linesSince = () =>
      server.output
        .slice(before)
        .split("\n")
        .filter((line) => line.trim() !== "");
    await waitUntil(() => linesSince().length > 0, 5000, "the refusal's log line");
    const lines = linesSince();
    expect(lines.length).toBeLessThanOrEqual(5);
    expect(server.output.slice(before)).not.toContain("ATTACKER");
    expect(server.output.slice(before)).not.toMatch(/\n\s+at /);
    for (const line of lines)
      expect(JSON.parse(line)).toMatchObject({ event: "frame_refused", kind: "undecodable", bytes: 36 });
  }

  test("failed reconnections print nothing (production mode is the default)", async () => {
    const before = server.output.length;
    expect((await matchmake(server.httpUrl, "reconnect", "no-such-room", { reconnectionToken: "x" })).status).toBe(404);
    const reservation = await create("fool", { mode: "two-players" });
    track(await consume(server.url, reservation));
    expect(
      (await matchmake(server.httpUrl, "reconnect", reservation.roomId, { reconnectionToken: "stolen" })).status,
    ).toBe(410);
    // This test sends no frame: a frame_refused line here is the junk of the test before, read from the pipe late.
    const lines = server.output
      .slice(before)
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.includes('"event":"frame_refused"'));
    expect(lines).toEqual([]);
  });
});

describe("6. refusals are client errors, and a seat taken over closes the older connection", () => {
  test("matchmaking refusals are 4xx, not Colyseus's 520-524", async () => {
    expect((await matchmake(server.httpUrl, "joinById", "no-such-room", {})).status).toBe(404);
    expect((await matchmake(server.httpUrl, "create", "no-such-game", {})).status).toBe(404);
    expect((await matchmake(server.httpUrl, "reconnect", "no-such-room", {})).status).toBe(400);
  });

  test("a second connection with the seat's token takes it; the first is closed with 4101", async () => {
    const first = track(await consume(server.url, await create("fool", { mode: "two-players", name: "first" })));
    const closed = new Promise<number>((resolve) => first.onLeave((code) => resolve(code)));
    const second = track(await new Client(server.url).reconnect(first.reconnectionToken));
    expect(second.sessionId).toBe(first.sessionId);
    expect(await closed).toBe(4101);
    await waitUntil(() => socketOf(first).readyState === 3, 5000, "the first socket closed");
  });
});

describe("7. behind a reverse proxy, clients are told apart by what the trusted proxy says, and only then", () => {
  let proxied: ServerProcess;
  const PROXY = "127.0.0.1";
  const BOUND = 4;

  beforeAll(async () => {
    proxied = new ServerProcess(await freePort(), { TRUSTED_PROXIES: PROXY, JOINS_PENDING_PER_ADDRESS: String(BOUND) });
    await proxied.start();
  });

  afterAll(async () => {
    await proxied.stop();
  });

  /** Creates `count` tables at once, none connected, and returns the statuses. */
  async function createsAtOnce(count: number, from: string, headers: Record<string, string> = {}): Promise<number[]> {
    return Promise.all(
      Array.from({ length: count }, () =>
        matchmake(proxied.httpUrl, "create", "evensteven", {}, from, headers).then((answer) => answer.status),
      ),
    );
  }

  test("each forwarded client has its own bound; a client behind the proxy does not share another's", async () => {
    const first = await createsAtOnce(BOUND + 1, PROXY, { "x-forwarded-for": "198.51.100.1" });
    expect(first.filter((status) => status === 200)).toHaveLength(BOUND);
    expect(first.filter((status) => status === 429)).toHaveLength(1);
    // What a client wrote itself is to the left of the proxy's own entry and is never read.
    const second = await createsAtOnce(BOUND, PROXY, { "x-forwarded-for": "198.51.100.1, 198.51.100.2" });
    expect(second).toEqual(Array(BOUND).fill(200));
  });

  test("a peer that is not a trusted proxy is judged by its own address, whatever header it sends", async () => {
    const statuses = await Promise.all(
      Array.from({ length: BOUND + 1 }, (_, index) =>
        matchmake(proxied.httpUrl, "create", "evensteven", {}, "127.0.0.9", {
          "x-forwarded-for": `203.0.113.${index}`,
        }).then((answer) => answer.status),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(BOUND);
    expect(statuses.filter((status) => status === 429)).toHaveLength(1);
  });
});

describe("8. a load test from one machine runs against a server whose bound is off", () => {
  test("JOINS_PENDING_PER_ADDRESS=0: a hundred joins waiting from one address are all granted", async () => {
    const unbounded = new ServerProcess(await freePort(), { JOINS_PENDING_PER_ADDRESS: "0" });
    await unbounded.start();
    try {
      const statuses = await Promise.all(
        Array.from({ length: 100 }, () =>
          matchmake(unbounded.httpUrl, "create", "evensteven", {}).then((answer) => answer.status),
        ),
      );
      expect(statuses).toEqual(Array(100).fill(200));
    } finally {
      await unbounded.stop();
    }
  }, 60_000);
});
