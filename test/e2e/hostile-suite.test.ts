/**
 * The hostile suite: a bounded run of everything a hostile client can throw at a live server, with nothing but
 * HTTP, a raw @colyseus/sdk client and WebSocket bytes. Fuzzed messages at every room while its game waits, junk
 * frames, oversize bodies, reservation floods, token games and a drop storm; then the count of what it did and
 * what it changed. Every loop is bounded in count. With HOSTILE_REPORT=<file>, the figures are written there as
 * JSON (BENCHMARKS.md records a run).
 */
import * as fs from "node:fs";
import { Client, type Room } from "@colyseus/sdk";
import {
  COMMON_ERROR_CODES,
  STATE_CHECK_MESSAGE,
  type MessageDefinition,
  type StateCheck,
} from "../../rooms/kit/protocol";
import { viewDigest } from "../../rooms/kit/views";
import { EVENSTEVEN_ERROR_CODES, evenStevenMessages } from "../../rooms/evensteven/protocol";
import { FOOL_ERROR_CODES, foolMessages } from "../../rooms/fool/protocol";
import { PATIENCE_ERROR_CODES, patienceMessages } from "../../rooms/patience/protocol";
import { TRACTOR_ERROR_CODES, tractorMessages } from "../../rooms/tractor/protocol";
import { sleep, waitUntil } from "../helpers";
import { freePort, ServerProcess } from "./server-process";
import { consume, joinRaw, matchmake, postOversizeBody, socketOf, stateOf, type Reservation } from "./raw-client";

/** Fuzzed messages per client; sent in bursts within the rooms' rate budget (bursts of 40, 20 a second). */
const FUZZ_PER_CLIENT = 160;
const FUZZ_BURST = 30;
const JUNK_FRAMES = 600;
const OVERSIZE_BODIES = 24;
const RESERVATION_FLOOD = 240;
const TOKEN_TRIES = 60;
const DROPS = 12;

interface Figures {
  /** `accepted`: requests a room answered (questions that change nothing, e.g. a hint), by `game:type`. */
  fuzz: {
    messages: number;
    refusals: number;
    accepted: number;
    acceptedTypes: Record<string, number>;
    stateChanges: number;
    byCode: Record<string, number>;
  };
  junk: { frames: number; logLines: number; logLinesPerFrame: number; socketsRefused: number };
  bodies: { sent: number; refused: number; rssGrowthMB: number };
  reservations: { requests: number; granted: number; refused: number; playerJoinedAfter: boolean };
  tokens: { tries: number; refused: number; takeovers: number };
  drops: { dropped: number; returned: number; handsKept: number; stateChecks: number; stateChecksFailed: number };
  crashes: number;
  stackLines: number;
}

const figures: Figures = {
  fuzz: { messages: 0, refusals: 0, accepted: 0, acceptedTypes: {}, stateChanges: 0, byCode: {} },
  junk: { frames: 0, logLines: 0, logLinesPerFrame: 0, socketsRefused: 0 },
  bodies: { sent: 0, refused: 0, rssGrowthMB: 0 },
  reservations: { requests: 0, granted: 0, refused: 0, playerJoinedAfter: false },
  tokens: { tries: 0, refused: 0, takeovers: 0 },
  drops: { dropped: 0, returned: 0, handsKept: 0, stateChecks: 0, stateChecksFailed: 0 },
  crashes: 0,
  stackLines: 0,
};

let server: ServerProcess;
const rooms: Room[] = [];

function track<R extends Room>(room: R): R {
  rooms.push(room);
  return room;
}

beforeAll(async () => {
  server = new ServerProcess(await freePort(), { NODE_ENV: "production" });
  await server.start();
});

afterAll(async () => {
  const OPEN = 1;
  await Promise.all(
    rooms.filter((room) => socketOf(room).readyState === OPEN).map((room) => room.leave().catch(() => undefined)),
  );
  const alive = await fetch(`${server.httpUrl}/health`).then(
    (response) => response.ok,
    () => false,
  );
  figures.crashes = alive ? 0 : 1;
  // A stack's frames, printed raw or inside a JSON line's message.
  figures.stackLines = server.output.split("\n").filter((line) => /^\s+at |\\n\s+at /.test(line)).length;
  // Every refusal line of the whole run (the fuzz's frames too) against the junk alone: an upper bound.
  figures.junk.logLines = server.output
    .split("\n")
    .filter((line) => /"event":"(frame|connection)_refused"/.test(line)).length;
  figures.junk.logLinesPerFrame = figures.junk.logLines / (figures.junk.frames + figures.junk.socketsRefused);
  if (process.env.HOSTILE_LOG) fs.writeFileSync(process.env.HOSTILE_LOG, server.output);
  if (process.env.HOSTILE_REPORT) fs.writeFileSync(process.env.HOSTILE_REPORT, JSON.stringify(figures, null, 2) + "\n");
  await server.stop();
  expect(figures.crashes).toBe(0);
  expect(figures.stackLines).toBe(0);
  expect(figures.junk.logLinesPerFrame).toBeLessThan(0.05);
});

/** A small seeded generator (the suite is the same run every time). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A fuzzed payload small enough for one frame (the transport closes a socket that sends over 4 KiB at once). */
function fuzzedPayload(random: () => number): unknown {
  const payload = anyPayload(random);
  return JSON.stringify(payload ?? null).length < 3000 ? payload : { card: "x".repeat(100) };
}

function anyPayload(random: () => number, depth = 0): unknown {
  const pick = Math.floor(random() * 12);
  switch (pick) {
    case 0:
      return Math.floor(random() * 2 ** 40) - 2 ** 39;
    case 1:
      return random() < 0.5 ? Number.MAX_SAFE_INTEGER : -0.5;
    case 2:
      return "x".repeat(Math.floor(random() * 2000));
    case 3:
      return ["9H", "10S", "JOKER", "", "🂡", "AS AS AS"][Math.floor(random() * 6)];
    case 4:
      return null;
    case 5:
      return random() < 0.5;
    case 6:
      return depth > 3 ? [] : Array.from({ length: Math.floor(random() * 6) }, () => anyPayload(random, depth + 1));
    case 7:
      return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}');
    case 8:
      return { toString: 1, valueOf: 1 };
    default: {
      const keys = ["card", "cards", "kind", "seat", "seed", "n", "paused", "paceMs", "deck", "name", "suit", "rank"];
      const object: Record<string, unknown> = {};
      for (let field = 0; field < 1 + Math.floor(random() * 3); field++)
        object[keys[Math.floor(random() * keys.length)]] = depth > 3 ? 1 : anyPayload(random, depth + 1);
      return object;
    }
  }
}

function fuzzedType(random: () => number, known: readonly string[]): string | number {
  const odd: Array<string | number> = [
    "*",
    "",
    "__proto__",
    "constructor",
    "error",
    0,
    13,
    -1,
    "x".repeat(300),
    "move ",
    "MOVE",
  ];
  return random() < 0.6 ? known[Math.floor(random() * known.length)] : odd[Math.floor(random() * odd.length)];
}

/** Requests that ask and change nothing: a fuzzer's well-formed one is answered. */
const QUESTIONS = new Set(["tractor:hint"]);

interface Target {
  game: string;
  create: Record<string, unknown>;
  messages: Record<string, MessageDefinition>;
  codes: readonly string[];
  /** Whether a seated client fuzzes too (only where nothing it could send is a legal move: the table waits). */
  seated: boolean;
}

const TARGETS: Target[] = [
  { game: "evensteven", create: { n: 5 }, messages: evenStevenMessages, codes: EVENSTEVEN_ERROR_CODES, seated: false },
  { game: "fool", create: { mode: "two-players" }, messages: foolMessages, codes: FOOL_ERROR_CODES, seated: true },
  {
    game: "patience",
    create: { paused: true },
    messages: patienceMessages,
    codes: PATIENCE_ERROR_CODES,
    seated: false,
  },
  { game: "tractor", create: { seat: "Alice" }, messages: tractorMessages, codes: TRACTOR_ERROR_CODES, seated: true },
];

/** Fuzzes one client: half requests (each must be refused with a documented code), half sends (refused with an error message). */
async function fuzz(room: Room, target: Target, seed: number): Promise<void> {
  const random = generator(seed);
  const known = Object.values(target.messages).map((definition) => definition.name);
  const documented = new Set<string>([...COMMON_ERROR_CODES, ...target.codes]);
  let errorMessages = 0;
  room.onMessage("error", () => errorMessages++);
  let sends = 0;
  for (let sent = 0; sent < FUZZ_PER_CLIENT; sent++) {
    if (sent > 0 && sent % FUZZ_BURST === 0) await sleep(1600); // the budget refills (a bounded pause, not a timing assertion)
    const type = fuzzedType(random, known);
    const payload = fuzzedPayload(random);
    figures.fuzz.messages++;
    if (random() < 0.5) {
      let failure: unknown;
      const outcome = await room.request(type as string, payload).then(
        () => "accepted",
        (error: { reason?: { code?: string } }) => ((failure = error), error.reason?.code ?? "uncoded"),
      );
      if ((failure as Error | undefined)?.name === "RangeError") {
        figures.fuzz.messages--; // too big for the SDK to encode: never sent
        continue;
      }
      if (outcome === "accepted") {
        figures.fuzz.accepted++;
        const key = `${target.game}:${String(type)}`;
        figures.fuzz.acceptedTypes[key] = (figures.fuzz.acceptedTypes[key] ?? 0) + 1;
      } else figures.fuzz.refusals++;
      figures.fuzz.byCode[outcome] = (figures.fuzz.byCode[outcome] ?? 0) + 1;
      const described = `${String(type)}: ${outcome} ${String(failure)} ${JSON.stringify(failure)}`;
      expect(outcome === "accepted" || documented.has(outcome) ? "documented" : described).toBe("documented");
    } else {
      try {
        room.send(type as string, payload);
        sends++;
      } catch {
        figures.fuzz.messages--; // too big for the SDK to encode: never sent
      }
    }
  }
  await waitUntil(() => errorMessages >= sends, 10_000, "an answer to every send");
  figures.fuzz.refusals += sends;
  figures.fuzz.byCode.send = (figures.fuzz.byCode.send ?? 0) + sends;
}

describe("the hostile suite", () => {
  test("fuzzed messages at every room while its game waits change nothing", async () => {
    await Promise.all(
      TARGETS.map(async (target, index) => {
        const owner = track(
          await consume(
            server.url,
            (await matchmake(server.httpUrl, "create", target.game, target.create)).body as unknown as Reservation,
          ),
        );
        const spectator = track(await joinRaw(server.url, owner.roomId, { spectate: true }));
        await waitUntil(() => Object.keys(stateOf(spectator)).length > 0, 5000, "the spectator's state");
        await sleep(300); // the join's own patches arrive
        const before = JSON.stringify(stateOf(spectator));
        const fuzzers = target.seated ? [spectator, owner] : [spectator];
        await Promise.all(fuzzers.map((room, which) => fuzz(room, target, 1000 * index + which)));
        await sleep(300); // any patch the fuzz caused would arrive
        if (JSON.stringify(stateOf(spectator)) !== before) figures.fuzz.stateChanges++;
      }),
    );
    expect(figures.fuzz.stateChanges).toBe(0);
    // Only questions may be answered (a hint changes nothing); no move, deal or setting is taken.
    expect(Object.keys(figures.fuzz.acceptedTypes).filter((key) => !QUESTIONS.has(key))).toEqual([]);
  }, 120_000);

  test("junk frames are refused with a few log lines, and oversize frames close only their socket", async () => {
    const before = server.output.length;
    const player = track(
      await consume(
        server.url,
        (await matchmake(server.httpUrl, "create", "fool", { mode: "two-players" })).body as unknown as Reservation,
      ),
    );
    const socket = socketOf(player);
    const junk = [
      Buffer.alloc(0),
      Buffer.from([99, 1, 2, 3]),
      Buffer.from([21]),
      Buffer.from([21, 0x05, 0xa4, 0x6d]),
      Buffer.from([17, 0xa1, 0x78, 0, 1, 2]),
      Buffer.from([13, 0xa4, 0x6d, 0x6f, 0x76, 0x65, 0xc1, 0x41, 0x54, 0x54, 0x41, 0x43, 0x4b]),
      Buffer.from([13 | 0x20, 0xa4, 0x6d, 0x6f, 0x76, 0x65]),
    ];
    for (let frame = 0; frame < JUNK_FRAMES; frame++) {
      socket.send(junk[frame % junk.length]);
      figures.junk.frames++;
    }
    socket.send("not a binary frame at all");
    figures.junk.frames++;
    // The room still answers (the junk spent the client's budget, so perhaps with RATE_LIMITED).
    await expect(player.request("ping", {})).rejects.toMatchObject({
      reason: { code: expect.stringMatching(/^(UNKNOWN_MESSAGE|RATE_LIMITED)$/) },
    });
    // Frames over the transport's 4 KiB limit: the socket is closed (1009), the server goes on.
    for (let connection = 0; connection < 3; connection++) {
      const victim = track(
        await consume(
          server.url,
          (await matchmake(server.httpUrl, "create", "fool", { mode: "two-players" })).body as unknown as Reservation,
        ),
      );
      const closed = new Promise<number>((resolve) => victim.onLeave((code) => resolve(code)));
      socketOf(victim).send(Buffer.alloc(8 * 1024, 13));
      expect(await closed).toBe(1009);
      figures.junk.socketsRefused++;
    }
    const lines = server.output
      .slice(before)
      .split("\n")
      .filter((line) => line.trim() !== "");
    expect(server.output.slice(before)).not.toContain("ATTACK");
    for (const line of lines)
      expect(JSON.parse(line)).toMatchObject({ event: expect.stringMatching(/^(frame|connection)_refused$/) });
  }, 120_000);

  test("oversize bodies are refused without being kept", async () => {
    const rssOf = async () =>
      ((await (await fetch(`${server.httpUrl}/metrics.json`)).json()) as { rssBytes: number }).rssBytes;
    const before = await rssOf();
    const answers = await Promise.all(
      Array.from({ length: OVERSIZE_BODIES }, (_, index) =>
        postOversizeBody(
          server.port,
          index % 2 === 0 ? "/matchmake/create/fool" : "/matchmake/joinById/x",
          index % 3 === 0 ? null : 100 * 1024 * 1024,
        ),
      ),
    );
    figures.bodies.sent = answers.length;
    figures.bodies.refused = answers.filter((answer) => answer.status === 413).length;
    figures.bodies.rssGrowthMB = Math.max(0, Math.round(((await rssOf()) - before) / 1024 / 1024));
    expect(figures.bodies.refused).toBe(OVERSIZE_BODIES);
    expect(figures.bodies.rssGrowthMB).toBeLessThan(64);
  }, 60_000);

  test("a reservation flood leaves every table open to its players", async () => {
    const tables = await Promise.all(
      Array.from({ length: 4 }, async () =>
        track(
          await consume(
            server.url,
            (await matchmake(server.httpUrl, "create", "fool", { mode: "two-players" })).body as unknown as Reservation,
          ),
        ),
      ),
    );
    const answers = await Promise.all(
      Array.from({ length: RESERVATION_FLOOD }, (_, index) => {
        const roomId = tables[index % tables.length].roomId;
        return matchmake(server.httpUrl, "joinById", roomId, index % 5 === 0 ? { seat: 1 } : { spectate: true }).then(
          (answer) => answer.status,
        );
      }),
    );
    figures.reservations.requests = answers.length;
    figures.reservations.granted = answers.filter((status) => status === 200).length;
    figures.reservations.refused = answers.filter((status) => status >= 400 && status < 500).length;
    expect(figures.reservations.granted + figures.reservations.refused).toBe(RESERVATION_FLOOD);
    // Players at other addresses are not held back by the flooding one: a table is made and filled at once.
    const fresh = await matchmake(server.httpUrl, "create", "fool", { mode: "two-players" }, "127.0.0.2");
    track(await consume(server.url, fresh.body as unknown as Reservation));
    const second = await matchmake(
      server.httpUrl,
      "joinById",
      String(fresh.body.roomId),
      { name: "second" },
      "127.0.0.3",
    );
    expect(second.status).toBe(200);
    track(await consume(server.url, second.body as unknown as Reservation));
    figures.reservations.playerJoinedAfter = true;
    // And the flood leaves nothing lasting: once its reservations expire, its own address is served again.
    let again = 0;
    for (let attempt = 0; attempt < 40 && again !== 200; attempt++) {
      again = (await matchmake(server.httpUrl, "create", "fool", { mode: "two-players" })).status;
      if (again !== 200) await sleep(1000);
    }
    expect(again).toBe(200);
  }, 90_000);

  test("token games: guessed, foreign and used tokens are refused; a live seat's token takes it over", async () => {
    const victim = track(
      await consume(
        server.url,
        (await matchmake(server.httpUrl, "create", "fool", { mode: "two-players" })).body as unknown as Reservation,
      ),
    );
    const other = track(
      await consume(
        server.url,
        (await matchmake(server.httpUrl, "create", "fool", { mode: "two-players" })).body as unknown as Reservation,
      ),
    );
    const [, victimToken] = victim.reconnectionToken.split(":");
    const random = generator(7);
    for (let attempt = 0; attempt < TOKEN_TRIES; attempt++) {
      const kind = attempt % 3;
      const token = kind === 0 ? Math.floor(random() * 2 ** 40).toString(36) : kind === 1 ? victimToken : "";
      const roomId = kind === 1 ? other.roomId : victim.roomId;
      const answer = await matchmake(server.httpUrl, "reconnect", roomId, { reconnectionToken: token });
      figures.tokens.tries++;
      if (answer.status >= 400 && answer.status < 500) figures.tokens.refused++;
    }
    expect(figures.tokens.refused).toBe(TOKEN_TRIES);
    const closed = new Promise<number>((resolve) => victim.onLeave((code) => resolve(code)));
    const thief = track(await new Client(server.url).reconnect(victim.reconnectionToken));
    expect(await closed).toBe(4101);
    figures.tokens.takeovers++;
    // The token the thief used is spent: replaying it is refused.
    expect(
      (await matchmake(server.httpUrl, "reconnect", victim.roomId, { reconnectionToken: victimToken })).status,
    ).toBe(410);
    figures.tokens.tries++;
    figures.tokens.refused++;
    void thief;
  }, 60_000);

  test("a drop storm: every dropped player comes back with its hand, and the state it decodes passes its state check", async () => {
    // A server of its own, checking every client's state (STATE_CHECK_EVERY=1): after its full state, each returned
    // client is sent the digest of the view it must hold, and again after every patch that changes it.
    const checked = new ServerProcess(await freePort(), {
      NODE_ENV: "production",
      STATE_CHECK_EVERY: "1",
      DRAIN_TIMEOUT: "0",
    });
    await checked.start();
    const server = checked;
    const players = await Promise.all(
      Array.from({ length: DROPS }, async () => {
        const room = await consume(
          server.url,
          (await matchmake(server.httpUrl, "create", "fool", { aiDelayMs: 60_000 })).body as unknown as Reservation,
        );
        room.onMessage(STATE_CHECK_MESSAGE, () => undefined);
        return track(room);
      }),
    );
    const handOf = (room: Room) =>
      JSON.stringify(
        ((stateOf(room).seats as Array<{ hand?: string[] }> | undefined) ?? []).map((seat) => seat.hand ?? null),
      );
    await Promise.all(players.map((room) => waitUntil(() => handOf(room).includes('"'), 10_000, "a dealt hand")));
    const hands = players.map(handOf);
    const tokens = players.map((room) => room.reconnectionToken);
    for (const room of players) {
      room.reconnection.enabled = false;
      socketOf(room).close();
      figures.drops.dropped++;
    }
    const checksOf = new Map<Room, boolean[]>();
    const listen = (room: Room) => {
      const checks: boolean[] = [];
      checksOf.set(room, checks);
      room.onMessage(STATE_CHECK_MESSAGE, ({ digest }: StateCheck) =>
        checks.push(viewDigest(stateOf(room)) === digest),
      );
      room.onMessage("*", () => undefined);
      return track(room);
    };
    const returned = await Promise.all(
      tokens.map((token) => new Client(server.url).reconnect(token).then(listen, () => null)),
    );
    for (const [index, room] of returned.entries()) {
      if (room === null) continue;
      figures.drops.returned++;
      await waitUntil(() => handOf(room) !== "[]", 5000, "the state after returning").catch(() => undefined);
      if (handOf(room) === hands[index]) figures.drops.handsKept++;
      await waitUntil(() => checksOf.get(room)!.length > 0, 5000, "a state check after returning").catch(
        () => undefined,
      );
      figures.drops.stateChecks += checksOf.get(room)!.length;
      figures.drops.stateChecksFailed += checksOf.get(room)!.filter((matched) => !matched).length;
    }
    for (const room of returned) await room?.leave().catch(() => undefined);
    await checked.stop();
    expect(figures.drops.returned).toBe(DROPS);
    expect(figures.drops.handsKept).toBe(DROPS);
    expect(figures.drops.stateChecks).toBeGreaterThanOrEqual(DROPS);
    expect(figures.drops.stateChecksFailed).toBe(0);
  }, 60_000);
});
