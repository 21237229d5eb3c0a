/**
 * The busy guard in a cluster of three processes on one Redis, two of them busy: a new table asked of a busy process
 * goes to the one that is not; once no process would take one (the third says it is busy too, as its guard would),
 * new tables are refused with 503 and Retry-After, and so are spectators of a busy process's table, while a seat at
 * an open table is taken; and new tables are taken again once a process is free. A guard whose share is a millionth
 * of the main thread is busy for as long as its process runs (each second runs at least the guard's own sampling):
 * that makes a process busy in another process, where a test cannot give the guard its samples.
 */
import { Redis } from "ioredis";
import { CardhallClient } from "../../client-sdk";
import { BUSY_PROCESSES_KEY } from "../../server/capacity/busy-placement";
import type { BusyGuardMetrics } from "../../server/telemetry/server-metrics";
import { sdkRefusal } from "../helpers";
import { TestCluster } from "./cluster-process";
import type { ServerProcess } from "./server-process";

const ALWAYS_BUSY = { BUSY_REFUSE_AT: "0.000001" };
const AT_CAPACITY =
  "the server is at capacity and takes no new players for a moment, so that the games under way keep their pace";

let cluster: TestCluster;
let busy: ServerProcess;
let alsoBusy: ServerProcess;
let free: ServerProcess;

beforeAll(async () => {
  cluster = await TestCluster.start(3, {}, (index) => (index < 2 ? ALWAYS_BUSY : {}));
  [busy, alsoBusy, free] = cluster.servers;
}, 60_000);

afterAll(() => cluster?.stop());

async function guardOf(server: ServerProcess): Promise<BusyGuardMetrics | undefined> {
  return ((await (await fetch(`${server.httpUrl}/metrics.json`)).json()) as { busyGuard?: BusyGuardMetrics }).busyGuard;
}

/** Asks `server` for its guard every 200 ms until `wanted` holds (at most 15 s). */
async function guardUntil(
  server: ServerProcess,
  wanted: (guard: BusyGuardMetrics) => boolean,
): Promise<BusyGuardMetrics> {
  const giveUpAt = Date.now() + 15_000;
  for (;;) {
    const guard = await guardOf(server);
    if (guard !== undefined && wanted(guard)) return guard;
    if (Date.now() > giveUpAt) throw new Error(`the guard of ${server.httpUrl} is still ${JSON.stringify(guard)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The free process's id in the cluster: the one in Colyseus's list of processes that has said nothing of being busy. */
async function processIdOf(redis: Redis): Promise<string> {
  const [all, said] = await Promise.all([redis.hkeys("roomcount"), redis.hgetall(BUSY_PROCESSES_KEY)]);
  const silent = all.filter((id) => said[id] === undefined);
  expect(silent).toHaveLength(1);
  return silent[0]!;
}

test("a busy process's new tables go to the process that is not; with no process to take them, new tables and spectators of a busy process's table are refused, a seat at it is taken", async () => {
  // Busy, but not refusing: another process takes new tables.
  expect(await guardUntil(busy, (guard) => guard.busy)).toMatchObject({ busy: true, refusing: false });
  await guardUntil(alsoBusy, (guard) => guard.busy);
  expect(await guardOf(free)).toBeUndefined(); // no guard: it never says it is busy

  const throughBusy = new CardhallClient(busy.url);
  const tables = [
    await throughBusy.playEvenSteven({ n: 5 }),
    await throughBusy.playFool({ mode: "two-players", name: "Ann" }),
    await throughBusy.playEvenSteven({ n: 5 }),
  ];
  for (const table of tables) expect(cluster.hostOf(table.room)).toBe(free);
  const spectator = await new CardhallClient(alsoBusy.url).spectateFool(tables[1].roomId); // its process is not busy
  expect(cluster.hostOf(spectator.room)).toBe(free);

  // The free process says it is busy too (as its guard would): no process takes a new table now.
  const redis = new Redis(cluster.redis.url);
  try {
    const freeId = await processIdOf(redis);
    await redis.hset(BUSY_PROCESSES_KEY, freeId, "1");
    expect(await guardUntil(busy, (guard) => guard.refusing)).toMatchObject({ busy: true, refusing: true });
    const refused = await sdkRefusal(throughBusy.playEvenSteven({ n: 5 }));
    expect(refused.message).toContain(AT_CAPACITY);
    expect(refused.retryAfterMs).toBe(5_000);
    expect((await sdkRefusal(throughBusy.spectateFool(tables[1].roomId))).message).toContain(AT_CAPACITY); // asked of another process than the table's
    const guest = await throughBusy.joinFool(tables[1].roomId, { name: "Bea" }); // the open table's second seat is taken
    expect(cluster.hostOf(guest.room)).toBe(free);

    await redis.hset(BUSY_PROCESSES_KEY, freeId, "0");
    await guardUntil(busy, (guard) => !guard.refusing);
    const later = await throughBusy.playEvenSteven({ n: 5 });
    expect(cluster.hostOf(later.room)).toBe(free);
    await Promise.all([...tables, spectator, guest, later].map((session) => session.leave()));
  } finally {
    redis.disconnect();
  }
}, 90_000);
