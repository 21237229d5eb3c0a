/**
 * Faults of a cluster on Redis, each on a fresh cluster of two processes: a process killed (kill -9), Redis
 * restarted, and a process drained by SIGTERM. The processes check each other every second here (production: 10 s),
 * and drain for 5 s (production: 120 s).
 */
import { CardhallClient, type TractorSpectator } from "../../client-sdk";
import { playOneGame } from "../../client-sdk/bots/evensteven";
import { TRACTOR_SEATS } from "../../rooms/tractor/protocol";
import type { Room } from "@colyseus/sdk";
import { sleep, waitUntil } from "../helpers";
import { takeConsole } from "../setup/console";
import { listedRoomIds, TestCluster } from "./cluster-process";
import type { ServerProcess } from "./server-process";

/** All four seats bots, moving every 50 ms: a game that goes on by itself for minutes. */
const BOTS_PLAYING = {
  bots: [...TRACTOR_SEATS],
  botDelayMs: 50,
  dealDelayMs: 5,
  declareWindowMs: 50,
  roundPauseMs: 200,
  startDelayMs: 50,
};
const MOST_TRIES = 8;
/** How often a process publishes its room count (Colyseus: at most once a second). */
const PUBLISHED_COUNTS_MS = 1100;

let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});

/**
 * A session on a table that `server` holds. Colyseus puts a new room on the process with the fewest rooms, by counts
 * each process publishes at most once a second; so tables are made through `server` itself (which knows its own count
 * at once) and kept, a moment apart, until one lands there. The others are left at the end.
 */
async function onProcess<T extends { room: Room; leave(): Promise<void> }>(
  running: TestCluster,
  server: ServerProcess,
  make: (client: CardhallClient) => Promise<T>,
): Promise<T> {
  const elsewhere: T[] = [];
  try {
    for (let tries = 0; tries < MOST_TRIES; tries++) {
      const session = await make(new CardhallClient(server.url));
      if (running.hostOf(session.room) === server) return session;
      elsewhere.push(session);
      await sleep(PUBLISHED_COUNTS_MS);
    }
    throw new Error(`no table landed on port ${server.port} in ${MOST_TRIES} tries`);
  } finally {
    for (const session of elsewhere) await session.leave();
  }
}

/** A watched all-bots Tractor game on `server`. */
function botGameOn(running: TestCluster, server: ServerProcess): Promise<TractorSpectator> {
  return onProcess(running, server, (client) => client.watchTractor(BOTS_PLAYING));
}

/** Resolves once the game's step has moved past where it is now: the game is going on. */
async function goesOn(watcher: TractorSpectator, timeoutMs = 10_000): Promise<void> {
  const step = watcher.view()?.step ?? 0;
  await watcher.waitForView((view) => view.step > step + 2, timeoutMs);
}

describe("faults of a cluster of two processes", () => {
  test("kill -9 of a process: its rooms leave the listing, its players get a clear error, the other's games go on", async () => {
    cluster = await TestCluster.start(2);
    const [survivor, victim] = cluster.servers;
    const going = await botGameOn(cluster, survivor);
    const lost = await botGameOn(cluster, victim);
    const player = await new CardhallClient(survivor.url).joinTractor(lost.roomId, { seat: "Alice", name: "alice" });
    expect(cluster.hostOf(player.room)).toBe(victim);
    expect(await listedRoomIds(survivor)).toEqual(expect.arrayContaining([going.roomId, lost.roomId]));

    await victim.kill();
    // The session ends with CONNECTION: at once when it was young, else after the SDK's reconnection attempts.
    await waitUntil(() => player.ended !== undefined, 90_000, "the player's session to end");
    expect(player.ended?.code).toBe("CONNECTION");
    takeConsole(/Colyseus reconnection/);
    await waitUntil(() => lost.ended !== undefined, 90_000, "the spectator's session to end");
    takeConsole(/Colyseus reconnection/);

    let listed = [going.roomId, lost.roomId];
    const poll = setInterval(
      () =>
        void listedRoomIds(survivor).then(
          (ids) => (listed = ids),
          () => undefined,
        ),
      200,
    );
    await waitUntil(
      () => !listed.includes(lost.roomId),
      30_000,
      "the killed process's room to leave the listing",
    ).finally(() => clearInterval(poll));
    expect(listed).toContain(going.roomId);
    await goesOn(going);
    const fresh = await new CardhallClient(survivor.url).watchTractor(BOTS_PLAYING); // matchmaking goes on, on the survivor
    expect(cluster.hostOf(fresh.room)).toBe(survivor);
    await fresh.leave();
    await going.leave();
  }, 120_000);

  test("Redis restarted: the processes reconnect, matchmaking works again, the games under way go on", async () => {
    cluster = await TestCluster.start(2);
    const games = [await botGameOn(cluster, cluster.servers[0]), await botGameOn(cluster, cluster.servers[1])];

    await cluster.redis.stop();
    await cluster.redis.start(); // empty: it remembers neither the processes nor their rooms
    await Promise.all(games.map((game) => goesOn(game)));

    const roomIds = games.map((game) => game.roomId).sort();
    for (const server of cluster.servers) {
      let listed: string[] = [];
      const poll = setInterval(
        () =>
          void listedRoomIds(server).then(
            (ids) => (listed = ids),
            () => undefined,
          ),
        200,
      );
      await waitUntil(
        () => roomIds.every((roomId) => listed.includes(roomId)),
        30_000,
        "the rooms to be listed again",
      ).finally(() => clearInterval(poll));
    }
    const fresh = [];
    for (const server of cluster.servers) fresh.push(await botGameOn(cluster, server));
    for (const game of fresh) await game.leave(); // both processes take new rooms again
    for (const game of games) {
      expect(game.ended).toBeUndefined();
      await game.leave();
    }
  }, 90_000);

  test("SIGTERM drains: no new rooms, a game under way finishes and is recorded, the rest close with SHUT_DOWN, the process exits", async () => {
    cluster = await TestCluster.start(2, { DRAIN_TIMEOUT: "5" });
    const [draining, stays] = cluster.servers;
    // A game that cannot finish in the drain: Alice (a person) never moves, and her clock is a minute.
    const stuck = await stuckGameOn(cluster, draining);
    // An Even-Steven game: dealt, waiting for its player, who plays it out once the drain has begun.
    const player = await onProcess(cluster, draining, (client) => client.playEvenSteven({ n: 7, name: "drained" }));

    const exited = draining.terminate();
    expect((await waitForDraining(draining)).draining).toBe(true);
    await expect(new CardhallClient(draining.url).watchTractor(BOTS_PLAYING)).rejects.toMatchObject({
      code: "JOIN_REFUSED",
      message: expect.stringMatching(/shutting down/),
    });
    const fresh = await new CardhallClient(stays.url).watchTractor(BOTS_PLAYING);
    expect(cluster.hostOf(fresh.room)).toBe(stays); // the draining process takes no new room
    await fresh.leave();

    const result = await playOneGame(player, 1);
    expect(result.outcome).toMatch(/WIN|LOSE/);
    await waitUntil(() => player.ended !== undefined, 10_000, "the finished game's table to close");
    expect(player.ended?.code).toBe("SHUT_DOWN");
    await waitUntil(() => stuck.ended !== undefined, 20_000, "the stuck game to be closed");
    expect(stuck.ended?.code).toBe("SHUT_DOWN");
    expect(await exited).toBe(0);

    await draining.start(); // the same data directory: the finished game's record was written before the exit
    const page = (await (await fetch(`${draining.httpUrl}/games?game=evensteven`)).json()) as {
      games: Array<{ roomId: string }>;
    };
    expect(page.games.map((game) => game.roomId)).toEqual([player.roomId]);
  }, 90_000);
});

/** A Tractor game on `server` in which Alice, a person, waits for a move that never comes. */
async function stuckGameOn(running: TestCluster, server: ServerProcess) {
  const alice = await onProcess(running, server, (client) =>
    client.playTractor({
      seat: "Alice",
      name: "alice",
      bots: ["Bob", "Charles", "David"],
      turnTimeMs: 60_000,
      botDelayMs: 0,
      dealDelayMs: 0,
      declareWindowMs: 0,
      startDelayMs: 0,
    }),
  );
  await alice.waitForView((view) => view.phase !== "waiting");
  return alice;
}

async function waitForDraining(server: ServerProcess): Promise<{ draining: boolean }> {
  for (let tries = 0; tries < 100; tries++) {
    const health = (await (await fetch(`${server.httpUrl}/health`)).json()) as { draining: boolean };
    if (health.draining) return health;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("the process never said it was draining");
}
