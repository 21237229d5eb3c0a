/**
 * What an operator reads from a real server process (the compiled one `npm start` runs): /metrics in Prometheus's
 * text format with cardhall's own metrics moving as games are played, the JSON the load test reads at
 * /metrics.json, the monitor only behind its password, and a log — at its most verbose — that holds the rooms'
 * lives but none of a played game's cards, its seed or a player's reconnection token.
 */
import { CardhallClient, type GameRecord } from "../../client-sdk";
import { BOT_TABLES } from "../../client-sdk/bots/tables";
import type { ServerMetrics } from "../../server/telemetry/server-metrics";
import { waitUntil } from "../helpers";
import { freePort, ServerProcess } from "./server-process";

const GAMES = ["evensteven", "fool", "patience", "tractor"] as const;

/** One metric's value in Prometheus's text: the sample whose name and labels are these (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).split(" ")[0];
    if (wanted.every((pair) => labelText.includes(pair))) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return 0;
}

async function prometheusText(server: ServerProcess): Promise<{ contentType: string | null; text: string }> {
  const response = await fetch(`${server.httpUrl}/metrics`);
  expect(response.status).toBe(200);
  return { contentType: response.headers.get("content-type"), text: await response.text() };
}

/** Every string in a record that is a card in one of the games' notations (the record holds every hand). */
function cardsIn(record: GameRecord): Set<string> {
  const card = /^(?:(?:10|[2-9TJQKA])[cdhsSHCD]|[HSCD][2-9TJQKA]|[BR]J)$/;
  const cards = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === "string" && card.test(value)) cards.add(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(visit);
  };
  visit([record.start, record.actions]);
  return cards;
}

describe("a server with the monitor on and its log at its most verbose", () => {
  let server: ServerProcess;
  const password = "s3cret-monitor";

  beforeAll(async () => {
    server = new ServerProcess(await freePort(), { MONITOR_PASSWORD: password, LOG_LEVEL: "trace" });
    await server.start();
  });

  afterAll(() => server.stop());

  test("/metrics speaks Prometheus's text format; the tables' counters move as games are played and refused", async () => {
    const before = await prometheusText(server);
    expect(before.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(before.text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(before.text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(before.text).toMatch(/^cardhall_records_queued 0$/m);

    const client = new CardhallClient(server.url);
    const player = await client.playEvenSteven({ n: 7, name: "metrics" });
    const turn = await player.nextTurn(1, 1);
    await expect(player.play("1x")).rejects.toMatchObject({ code: expect.any(String) });
    if (turn.kind !== "deal") throw new Error("expected a card to answer");
    await player.play(turn.hand[0]);
    const { text } = await prometheusText(server);
    expect(sample(text, "cardhall_rooms", { game: "evensteven" })).toBe(1);
    expect(sample(text, "cardhall_clients", { game: "evensteven" })).toBe(1);
    expect(sample(text, "cardhall_actions_total", { game: "evensteven", by: "person" })).toBe(1);
    expect(sample(text, "cardhall_message_seconds_count", { game: "evensteven", message: "play" })).toBe(1);
    expect(sample(text, "cardhall_message_seconds_bucket", { game: "evensteven", message: "play", le: "+Inf" })).toBe(
      1,
    );
    // The live heap, as the last major collection left it (0 before one).
    expect(text).toContain("# TYPE cardhall_heap_after_major_gc_bytes gauge");
    expect(sample(text, "cardhall_heap_after_major_gc_bytes")).toBeGreaterThanOrEqual(0);
    // The bound on the heap's growth the server started with (HEAP_GROWTH_PERCENT unset).
    expect(sample(text, "cardhall_heap_growth_percent")).toBe(50);
    // The event loop's stalls by what held it (none is likely on a test's quiet server: the count, not its value).
    for (const cause of ["major_gc", "minor_gc", "no_core", "work"])
      expect(text).toMatch(new RegExp(`^cardhall_event_loop_stalls_total\\{cause="${cause}"\\} \\d+$`, "m"));
    const refusals = text.split("\n").filter((line) => line.startsWith('cardhall_refusals_total{game="evensteven"'));
    expect(refusals).toHaveLength(1);
    expect(Number(refusals[0].split(" ")[1])).toBe(1);
    await player.leave();
    // One client, one leave, run at once: the pacer defers leaves only when many come in one turn of the loop.
    let after = "";
    for (let tries = 0; tries < 100 && sample(after, "cardhall_leaves_total", { when: "at_once" }) === 0; tries++) {
      after = (await prometheusText(server)).text;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(sample(after, "cardhall_leaves_total", { when: "at_once" })).toBeGreaterThanOrEqual(1);
    expect(sample(after, "cardhall_leaves_total", { when: "deferred" })).toBe(0);
    expect(after).toMatch(/^cardhall_leaves_waiting 0$/m);
  });

  test("/metrics.json is the JSON the load test reads", async () => {
    const metrics = (await (await fetch(`${server.httpUrl}/metrics.json`)).json()) as ServerMetrics;
    expect(metrics.pid).toBeGreaterThan(0);
    expect(metrics.cpuUserMicros).toBeGreaterThan(0);
    expect(metrics.foolAiDecisions).toEqual(expect.objectContaining({ immediate: expect.any(Number) }));
    expect(metrics.records).toEqual(expect.objectContaining({ queued: expect.any(Number) }));
    expect(metrics.leaves).toEqual({ atOnce: expect.any(Number), deferred: 0, waiting: 0 });
    const tally = { count: expect.any(Number), totalMs: expect.any(Number), longestMs: expect.any(Number) };
    expect(metrics.eventLoopStalls).toEqual({
      overMs: 50,
      byCause: { majorGc: tally, minorGc: tally, noCore: tally, work: tally },
      recent: expect.any(Array),
    });
    // The server as started bounds its heap's growth (HEAP_GROWTH_PERCENT unset: server/runtime/heap-growth.ts's default).
    expect(metrics.heapGrowthPercent).toBe(50);
    expect(server.output).toContain(
      "the heap grows at most 50% past what a major collection leaves live (HEAP_GROWTH_PERCENT)",
    );
    // The main thread has run (it answered) and waited (between requests) since it started.
    expect(metrics.mainThreadMs!.active).toBeGreaterThan(0);
    expect(metrics.mainThreadMs!.idle).toBeGreaterThan(0);
    expect(metrics.mainThreadMs!.active + metrics.mainThreadMs!.idle).toBeLessThanOrEqual(
      metrics.uptimeSeconds * 1000 + 1,
    );
    // V8's collections are counted: requests that allocate (the Prometheus text) bring a minor one soon enough.
    const collections = async () =>
      ((await (await fetch(`${server.httpUrl}/metrics.json`)).json()) as ServerMetrics).garbageCollections!;
    const counted = await collections();
    expect(counted).toEqual({
      major: expect.any(Number),
      majorMs: expect.any(Number),
      minor: expect.any(Number),
      minorMs: expect.any(Number),
      lastMajor: counted.major > 0 ? { heapBytes: expect.any(Number), rooms: expect.any(Number) } : null,
    });
    const before = await collections();
    for (let request = 0; request < 500 && (await collections()).minor === before.minor; request++)
      await prometheusText(server);
    const after = await collections();
    expect(after.minor).toBeGreaterThan(before.minor);
    expect(after.minorMs).toBeGreaterThanOrEqual(before.minorMs);
    // The event loop's longest delay of each second since the first read: where a run's stalls fell.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const seconds = ((await (await fetch(`${server.httpUrl}/metrics.json`)).json()) as ServerMetrics)
      .eventLoopMaxBySecond!;
    expect(seconds.length).toBeGreaterThanOrEqual(1);
    expect(seconds.length).toBeLessThanOrEqual(60);
    for (const [index, second] of seconds.entries()) {
      expect(second.at).toBeLessThanOrEqual(Date.now());
      expect(second.maxMs).toBeGreaterThanOrEqual(0);
      if (index > 0) expect(second.at).toBeGreaterThan(seconds[index - 1]!.at);
    }
  });

  test("/metrics.json and /metrics say how many AI threads run and what their heaps hold", async () => {
    const threads = async () =>
      ((await (await fetch(`${server.httpUrl}/metrics.json`)).json()) as ServerMetrics).aiThreadHeaps!;
    // No thread runs before a table needs the AI.
    expect(await threads()).toEqual({
      fool: { threads: 0, physicalBytes: 0, usedBytes: 0 },
      tractor: { threads: 0, physicalBytes: 0, usedBytes: 0 },
    });
    // A table against the AI starts its thread as it opens.
    const player = await new CardhallClient(server.url).playFool({ name: "threads" });
    for (let tries = 0; tries < 100 && (await threads()).fool.threads === 0; tries++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const { fool, tractor } = await threads();
    expect(fool.threads).toBe(1);
    expect(fool.physicalBytes).toBeGreaterThan(1_000_000);
    expect(fool.usedBytes).toBeGreaterThan(0);
    expect(tractor.threads).toBe(0);
    const { text } = await prometheusText(server);
    expect(sample(text, "cardhall_ai_threads", { game: "fool" })).toBe(1);
    expect(sample(text, "cardhall_ai_threads", { game: "tractor" })).toBe(0);
    expect(sample(text, "cardhall_ai_thread_heap_bytes", { game: "fool", kind: "physical" })).toBeGreaterThan(
      1_000_000,
    );
    expect(sample(text, "cardhall_ai_thread_heap_bytes", { game: "fool", kind: "used" })).toBeGreaterThan(0);
    await player.leave();
  });

  test("the monitor answers only with its password", async () => {
    expect((await fetch(`${server.httpUrl}/monitor/api`)).status).toBe(401);
    const wrong = Buffer.from("admin:wrong").toString("base64");
    expect(
      (await fetch(`${server.httpUrl}/monitor/api`, { headers: { authorization: `Basic ${wrong}` } })).status,
    ).toBe(401);
    const right = Buffer.from(`admin:${password}`).toString("base64");
    const api = await fetch(`${server.httpUrl}/monitor/api`, { headers: { authorization: `Basic ${right}` } });
    expect(api.status).toBe(200);
    expect(await api.json()).toEqual(expect.objectContaining({ rooms: expect.any(Array) }));
    expect((await fetch(`${server.httpUrl}/monitor/`, { headers: { authorization: `Basic ${right}` } })).status).toBe(
      200,
    );
  });

  test("the log of played games tells each room's life and holds none of their cards, seeds or tokens", async () => {
    const roomIds = new Map<string, string>();
    for (const game of GAMES) roomIds.set(game, (await BOT_TABLES[game].play({ url: server.url, games: 1 })).roomId);
    // A seat's token, used to take the seat back: the server reads it, and must not write it down.
    const client = new CardhallClient(server.url);
    const player = await client.playEvenSteven({ n: 7, name: "token-holder" });
    const token = player.reconnectionToken;
    const again = await new CardhallClient(server.url).reconnectEvenSteven(token);
    await again.leave();
    await player.leave().catch(() => undefined);

    const records: GameRecord[] = [];
    const page = await client.games({ limit: 100 });
    for (const summary of page.games.filter((listed) => [...roomIds.values()].includes(listed.roomId)))
      records.push(await client.game(summary.id));
    expect(new Set(records.map((record) => record.game))).toEqual(new Set(GAMES));

    const log = server.output;
    for (const [game, roomId] of roomIds) {
      expect(log).toMatch(new RegExp(`"game":"${game}","room":"${roomId}".*"event":"room_created"`));
      const finished = game === "tractor" ? "round_finished" : "game_finished"; // a match of rounds: one round played
      expect(log).toMatch(new RegExp(`"game":"${game}","room":"${roomId}".*"event":"${finished}"`));
    }
    for (const record of records) {
      const cards = cardsIn(record);
      expect(cards.size).toBeGreaterThan(3);
      for (const card of cards)
        expect({ game: record.game, card, logged: log.includes(`"${card}"`) }).toEqual({
          game: record.game,
          card,
          logged: false,
        });
      expect(record.seed).toBeGreaterThan(999); // fresh seeds (none given): a number that cannot turn up by chance
      expect(log).not.toMatch(new RegExp(`(^|[^0-9])${record.seed}([^0-9]|$)`));
    }
    const secret = token.slice(token.indexOf(":") + 1); // "roomId:secret": the room's id is public
    expect(secret.length).toBeGreaterThan(5);
    expect(log).not.toContain(secret);
  }, 180_000);
});

describe("a server without MONITOR_PASSWORD, its heap's growth left to V8", () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = new ServerProcess(await freePort(), { HEAP_GROWTH_PERCENT: "0" });
    await server.start();
  });

  afterAll(() => server.stop());

  test("serves no monitor, and says so as it starts", async () => {
    expect((await fetch(`${server.httpUrl}/monitor/api`)).status).toBe(404);
    expect(server.output).toContain("monitor off");
  });

  test("says as it starts that V8 chooses the heap's growth, and /metrics.json and /metrics say no bound", async () => {
    expect(server.output).toContain(
      "V8 chooses how far the heap grows between major collections (HEAP_GROWTH_PERCENT=0)",
    );
    const metrics = (await (await fetch(`${server.httpUrl}/metrics.json`)).json()) as ServerMetrics;
    expect(metrics.heapGrowthPercent).toBeNull();
    expect(sample((await prometheusText(server)).text, "cardhall_heap_growth_percent")).toBe(0);
  });
});

test("a wrong HEAP_GROWTH_PERCENT stops the server at its start with a sentence naming it", async () => {
  const server = new ServerProcess(await freePort(), { HEAP_GROWTH_PERCENT: "half", RECORDS: "off" });
  await expect(server.start()).rejects.toThrow();
  expect(server.output).toContain(
    'cardhall could not start: HEAP_GROWTH_PERCENT must be a whole number from 0 (V8 chooses) to 300, got \\"half\\"',
  );
  expect(await server.terminate()).toBe(1);
});

describe("a server in production mode, as `npm start` runs it", () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = new ServerProcess(await freePort(), { NODE_ENV: "production" });
    await server.start();
  });

  afterAll(() => server.stop());

  test("answers a missing file under /assets/ with a plain 404, and its log stays one JSON object a line", async () => {
    const response = await fetch(`${server.httpUrl}/assets/no-such-bundle.js`);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("No such file.\n");
    // Everything the process wrote is read once its last line is.
    await server.terminate();
    await waitUntil(() => server.output.includes('"event":"stopped"'), 10_000, "the server's last log line");
    const lines = server.output.split("\n").filter((line) => line !== "");
    expect(lines.filter((line) => !line.startsWith("{"))).toEqual([]);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  });
});
