import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { garbageCollections, roundedGarbageCollections } from "../../server/telemetry/gc-counts";

/** V8's own `gc()`, made available to this test alone (a test process is not started with --expose-gc). */
function collectGarbage(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

test("a major collection is counted, and the heap it left is kept with the tables open then", async () => {
  const counts = garbageCollections();
  const before = counts.major;
  const kept = Array.from({ length: 50_000 }, (_, index) => ({ index })); // something live for the collection to leave
  collectGarbage()();
  // V8 reports collections to observers a turn of the event loop later.
  for (let turn = 0; turn < 50 && counts.major === before; turn++)
    await new Promise((resolve) => setTimeout(resolve, 10));
  expect(counts.major).toBeGreaterThan(before);
  expect(counts.lastMajor).not.toBeNull();
  expect(counts.lastMajor!.heapBytes).toBeGreaterThan(1_000_000);
  expect(counts.lastMajor!.rooms).toBe(0); // no server here: no tables
  expect(garbageCollections()).toBe(counts); // one observer for the process
  const rounded = roundedGarbageCollections({ ...counts, majorMs: 1.6, minorMs: 0.4 });
  expect(rounded).toMatchObject({ majorMs: 2, minorMs: 0, lastMajor: counts.lastMajor });
  expect(kept).toHaveLength(50_000);
});
