/**
 * npm run bench:local-driver -- [ROOMS...]
 *
 * What a room lookup by id costs the in-memory matchmaking driver, Colyseus's against the indexed one
 * (server/local-driver.ts), side by side in one process: for each count of rooms, 200,000 lookups a round for
 * the indexed driver and fewer for Colyseus's (its lookup copies and filters the whole list), rounds interleaved.
 */
import { performance } from "perf_hooks";
import { LocalDriver, type IRoomCache } from "@colyseus/core";
import { IndexedLocalDriver } from "../server/local-driver";

const ROUNDS = 5;

async function filled(driver: LocalDriver, rooms: number): Promise<string[]> {
  const ids = Array.from({ length: rooms }, (_, index) => `room${index}`);
  for (const roomId of ids) await driver.insert({ roomId, name: "fool", clients: 1, maxClients: 2, locked: false, processId: "p", metadata: {} } as unknown as IRoomCache);
  return ids;
}

/** Microseconds per lookup, over `lookups` lookups of ids spread over the list. */
async function perLookup(driver: LocalDriver, ids: string[], lookups: number): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < lookups; index++) await driver.findOne({ roomId: ids[(index * 7919) % ids.length] });
  return ((performance.now() - started) * 1000) / lookups;
}

async function main(counts: number[]): Promise<void> {
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
    console.log(`${rooms} rooms: Colyseus's driver ${median(times.colyseus).toFixed(2)} µs a lookup, indexed ${median(times.indexed).toFixed(3)} µs (medians of ${ROUNDS} rounds)`);
  }
}

const counts = process.argv.slice(2).map(Number).filter((count) => count > 0);
void main(counts.length ? counts : [100, 1000, 4000, 6500]);
