/**
 * Two server processes on one Redis, as one cardhall: every room listed by both, and every way into a room (join,
 * spectate, reconnect, take a bot's seat over) through the process that does not hold it; the scripted tables
 * through either address, their records in one PostgreSQL. cluster.test.ts runs it with the clients' WebSockets on
 * each process's main port; cluster-websocket-port.test.ts with each process's WebSocket port
 * (server/transport/websocket-port.ts), which the processes' seat reservations then name.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { LoadTestReport } from "../../bench/loadtest/report-shape";
import { Client as ColyseusClient, type Room } from "@colyseus/sdk";
import { LOBBY_ROOM } from "../../rooms/kit/protocol";
import { CardhallClient, type EvenStevenPlayer, type TractorStateView } from "../../client-sdk";
import { BOT_TABLES } from "../../client-sdk/bots/tables";
import { dropConnection, waitUntil } from "../helpers";
import { listedRoomIds, TestCluster } from "./cluster-process";
import { freePort } from "./ports";
import { PostgresProcess } from "./postgres-process";
import { scratchDirectory } from "../setup/scratch";

const UNPACED = { botDelayMs: 0, dealDelayMs: 0, declareWindowMs: 0, roundPauseMs: 60_000, startDelayMs: 200 } as const;

async function recordedRoomIds(httpUrl: string): Promise<string[]> {
  const page = (await (await fetch(`${httpUrl}/games?game=evensteven`)).json()) as { games: Array<{ roomId: string }> };
  return page.games.map((game) => game.roomId);
}

/**
 * Joins the lobby room as the web page does, keeping its listing in `listed`. The handlers are put on the room as
 * the SDK makes it, before it connects: in Node a WebSocket hands over the frames of one read at once, and the
 * lobby's first listing arrives with the join, before code awaiting the join could register for it.
 */
async function joinLobby(url: string, listed: Set<string>): Promise<Room> {
  const client = new ColyseusClient(url);
  const sdk = client as unknown as { createRoom(...args: unknown[]): Room };
  const createRoom = sdk.createRoom.bind(client);
  sdk.createRoom = (...args) => {
    const room = createRoom(...args);
    room.onMessage("rooms", (rooms: Array<{ roomId: string }>) =>
      rooms.forEach((listing) => listed.add(listing.roomId)),
    );
    room.onMessage("+", ([roomId]: [string, unknown]) => listed.add(roomId));
    room.onMessage("-", (roomId: string) => listed.delete(roomId));
    return room;
  };
  return client.joinOrCreate(LOBBY_ROOM);
}

const handsSeen = (view: TractorStateView) =>
  view.seats.filter((seat) => seat.hand !== undefined).map((seat) => seat.seat);

/** The suite; `webSocketPorts`: each process with a WebSocket port (WEBSOCKET_PORT), its clients sent there. */
export function clusterSuite({ webSocketPorts }: { webSocketPorts: boolean }): void {
  let postgres: PostgresProcess;
  let cluster: TestCluster;

  const webSocketPortEnv = async (): Promise<Record<string, string>> =>
    webSocketPorts ? { WEBSOCKET_PORT: String(await freePort()) } : {};

  beforeAll(async () => {
    postgres = new PostgresProcess(await freePort());
    postgres.init();
    postgres.start();
    cluster = await TestCluster.start(2, { DATABASE_URL: postgres.url }, webSocketPortEnv);
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
    postgres?.destroy();
  });

  describe(`a cluster of two processes on Redis, ${webSocketPorts ? "each with its clients' WebSockets on a port of their own" : "each taking its clients' WebSockets on its main port"}`, () => {
    test("a Tractor table made through one process: listed by both, and joined, watched, taken over and reconnected through the other", async () => {
      const alice = await new CardhallClient(cluster.servers[0].url).playTractor({
        ...UNPACED,
        seat: "Alice",
        name: "alice",
        bots: ["Bob", "Charles", "David"],
        turnTimeMs: 60_000,
      });
      const host = cluster.hostOf(alice.room);
      const other = cluster.other(host);
      for (const server of cluster.servers) expect(await listedRoomIds(server)).toContain(alice.roomId);

      const through = new CardhallClient(other.url);
      const spectator = await through.spectateTractor(alice.roomId);
      await alice.waitForView((view) => view.seats[0].hand !== undefined && view.seats[0].hand.length > 0);
      const watched = await spectator.waitForView((view) => view.phase !== "waiting");
      expect(handsSeen(watched)).toEqual([]); // the spectator, on the other process's matchmaking, sees no hand
      expect(handsSeen(alice.view()!)).toEqual(["Alice"]);

      const bob = await through.joinTractor(alice.roomId, { seat: "Bob", name: "bob" });
      const taken = await bob.waitForView((view) => view.seats[1].occupant === "person");
      expect(taken.seats[1].player).toBe("bob");
      expect(handsSeen(taken)).toEqual(["Bob"]);
      // Matchmade through the other process, both connected to the one that holds the table.
      for (const session of [spectator, bob]) expect(cluster.hostOf(session.room)).toBe(host);

      const token = alice.reconnectionToken;
      await dropConnection(alice.room);
      const back = await through.reconnectTractor(token);
      const again = await back.waitForView(
        (view) => view.seats[0].occupant === "person" && view.seats[0].hand !== undefined,
      );
      expect(handsSeen(again)).toEqual(["Alice"]);
      expect(cluster.hostOf(back.room)).toBe(host);

      for (const session of [spectator, bob, back]) await session.leave();
    }, 30_000);

    test("the lobby's live listing, joined through either process, shows the tables of both as they open and close", async () => {
      const listings = cluster.servers.map(() => new Set<string>());
      const lobbies = await Promise.all(cluster.servers.map((server, index) => joinLobby(server.url, listings[index])));
      // Colyseus places a new room on the process it counts least busy, and two creates at once may both pick the
      // same one: tables are opened, through each process in turn, until both processes host one (a few at most).
      const tables: EvenStevenPlayer[] = [];
      for (
        let opened = 0;
        opened < 8 && new Set(tables.map((table) => cluster.hostOf(table.room).port)).size < 2;
        opened++
      ) {
        tables.push(await new CardhallClient(cluster.servers[opened % 2]!.url).playEvenSteven({ n: 5, name: "lobby" }));
      }
      expect(new Set(tables.map((table) => cluster.hostOf(table.room).port)).size).toBe(2);
      for (const listed of listings)
        await waitUntil(() => tables.every((table) => listed.has(table.roomId)), 10_000, "both tables in the lobby");
      for (const table of tables) await table.leave();
      for (const listed of listings)
        await waitUntil(
          () => tables.every((table) => !listed.has(table.roomId)),
          10_000,
          "both tables gone from the lobby",
        );
      for (const lobby of lobbies) await lobby.leave();
    }, 30_000);

    test("the scripted tables play through either address, and every finished game is in the one PostgreSQL", async () => {
      const tables = await Promise.all(
        cluster.servers.map((server, index) =>
          BOT_TABLES.evensteven.play({ url: server.url, games: 1, seed: 100 + index }),
        ),
      );
      const roomIds = tables.map((table) => table.roomId);
      // Each process reads the one database: a table's game is listed by the process that did not hold it too.
      for (const server of cluster.servers) {
        let listed: string[] = [];
        const poll = setInterval(
          () =>
            void recordedRoomIds(server.httpUrl).then(
              (ids) => (listed = ids),
              () => undefined,
            ),
          100,
        );
        await waitUntil(() => roomIds.every((roomId) => listed.includes(roomId)), 10_000, "the games' records").finally(
          () => clearInterval(poll),
        );
      }
    }, 30_000);

    test("the load test given both addresses plays on both processes and reports each", () => {
      const jsonFile = path.join(scratchDirectory("cardhall-loadtest-"), "report.json");
      const urls = cluster.servers.map((server) => server.url);
      const run = spawnSync(
        path.join(__dirname, "..", "..", "bin", "loadtest"),
        [
          "--url",
          urls.join(","),
          "--clients",
          "24",
          "--workers",
          "2",
          "--duration",
          "3",
          "--ramp",
          "1",
          "--think-ms",
          "50",
          "--no-baseline",
          "--quiet",
          "--json",
          jsonFile,
        ],
        { encoding: "utf8", timeout: 90_000 },
      );
      expect(run.status).toBe(0);
      const report = JSON.parse(fs.readFileSync(jsonFile, "utf8")) as LoadTestReport;
      expect(report.cardhall.counters).toMatchObject({ joined: 24, failed: 0, errors: 0, desyncs: 0 });
      expect(report.cardhall.lost).toBe(0);
      expect(report.cardhall.joins.latency.count).toBe(24);
      expect(report.processes.map((process) => process.url)).toEqual(urls);
      for (const { figures } of report.processes) expect(figures!.clientsPeak).toBeGreaterThan(0); // tables landed on both
      expect(report.server!.clientsPeak).toBe(
        report.processes.reduce((sum, process) => sum + process.figures!.clientsPeak, 0),
      );
      expect(run.stdout).toMatch(/server \(2 processes added up\): CPU/);
      for (const url of urls) expect(run.stdout).toContain(`process ${url}: CPU`);
    }, 90_000);

    test("the Even-Steven bridge plays through either address as it does against one process", () => {
      const samples = path.join(__dirname, "..", "fixtures", "samples");
      const expected = fs.readFileSync(path.join(samples, "evensteven-dealer-sample.out"), "utf8");
      for (const server of cluster.servers) {
        const run = spawnSync(
          path.join(__dirname, "..", "..", "bin", "evensteven-bridge"),
          ["--url", server.url, "--from-stdin", "--", path.join(__dirname, "..", "..", "bin", "evensteven")],
          {
            input: fs.readFileSync(path.join(samples, "evensteven-dealer-sample.in")),
            encoding: "utf8",
            timeout: 60_000,
          },
        );
        expect(run.status).toBe(0);
        expect(run.stdout).toBe(expected);
      }
    }, 90_000);
  });
}
