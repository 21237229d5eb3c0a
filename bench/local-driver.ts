/**
 * npm run bench:local-driver -- [ROOMS...]
 *
 * What a room lookup by id costs the in-memory matchmaking driver, Colyseus's against the indexed one
 * (server/cluster/local-driver.ts), side by side in one process: for each count of rooms, 200,000 lookups a round for
 * the indexed driver and fewer for Colyseus's (its lookup copies and filters the whole list), rounds interleaved.
 * Then what removing every room costs each, in shuffled order as at a mass disconnect, and twice as Colyseus
 * removes a disposed room (as the room disposes, then as the matchmaker forgets it): the room caches made as
 * Colyseus makes a room's listing (initializeRoomCache), each game's metadata of its own shape.
 */
import { performance } from "node:perf_hooks";
import { initializeRoomCache, LocalDriver, type IRoomCache } from "@colyseus/core";
import { seededRandom, shuffled } from "../rooms/kit/random";
import { IndexedLocalDriver } from "../server/cluster/local-driver";

const ROUNDS = 5;

async function filled(driver: LocalDriver, rooms: number): Promise<string[]> {
  const ids = Array.from({ length: rooms }, (_, index) => `room${index}`);
  for (const roomId of ids)
    await driver.insert({
      roomId,
      name: "fool",
      clients: 1,
      maxClients: 2,
      locked: false,
      processId: "p",
      metadata: {},
    } as unknown as IRoomCache);
  return ids;
}

/** Microseconds per lookup, over `lookups` lookups of ids spread over the list. */
async function perLookup(driver: LocalDriver, ids: string[], lookups: number): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < lookups; index++) await driver.findOne({ roomId: ids[(index * 7919) % ids.length] });
  return ((performance.now() - started) * 1000) / lookups;
}

/** A listing as a room of `game` has one: Colyseus's fields, then the room's metadata and a count updated. */
function listing(roomId: string, game: number): IRoomCache {
  const metadata = [
    { phase: "playing" },
    { phase: "playing", round: 1 },
    { game: "fool", seats: {}, score: "" },
    { game: "tractor", round: 1, trump: "declare", seats: {} },
  ][game];
  const cache = initializeRoomCache({
    roomId,
    name: ["evensteven", "patience", "fool", "tractor"][game],
    processId: "p",
    publicAddress: undefined,
  });
  return Object.assign(cache, { metadata, clients: 1 + game });
}

/** Milliseconds to remove every room of a driver filled with `rooms` listings, in a shuffled order. */
async function removingAll(driver: LocalDriver, rooms: number): Promise<number> {
  const ids = Array.from({ length: rooms }, (_, index) => `room${index}`);
  for (const [index, roomId] of ids.entries()) await driver.insert(listing(roomId, index % 4));
  const order = shuffled(ids, seededRandom(`removal:${rooms}`));
  const started = performance.now();
  for (const roomId of order) {
    driver.remove(roomId);
    driver.remove(roomId);
  }
  return performance.now() - started;
}

async function lookups(counts: number[]): Promise<void> {
  for (const rooms of counts) {
    const colyseus = new LocalDriver();
    const indexed = new IndexedLocalDriver();
    const ids = await filled(colyseus, rooms);
    await filled(indexed, rooms);
    const times = { colyseus: [] as number[], indexed: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      times.colyseus.push(await perLookup(colyseus, ids, Math.max(200, Math.round(2e7 / rooms / ROUNDS))));
      times.indexed.push(await perLookup(indexed, ids, 200_000));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    console.log(
      `${rooms} rooms: Colyseus's driver ${median(times.colyseus).toFixed(2)} µs a lookup, indexed ${median(times.indexed).toFixed(3)} µs (medians of ${ROUNDS} rounds)`,
    );
  }
}

async function removals(counts: number[]): Promise<void> {
  for (const rooms of counts) {
    const times = { colyseus: [] as number[], indexed: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      times.colyseus.push(await removingAll(new LocalDriver(), rooms));
      times.indexed.push(await removingAll(new IndexedLocalDriver(), rooms));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    console.log(
      `${rooms} rooms removed in shuffled order: Colyseus's driver ${median(times.colyseus).toFixed(1)} ms, indexed ${median(times.indexed).toFixed(1)} ms (medians of ${ROUNDS} rounds)`,
    );
  }
}

const counts = process.argv
  .slice(2)
  .map(Number)
  .filter((count) => count > 0);
void (async () => {
  await lookups(counts.length ? counts : [100, 1000, 4000, 6500]);
  await removals(counts.length ? counts : [1000, 4000, 6500]);
})();
