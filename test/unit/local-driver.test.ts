/**
 * The indexed in-memory driver answers exactly as Colyseus's own, whatever rooms came and went: checked against
 * Colyseus's LocalDriver as the reference over random sequences of inserts, persists, removals and clears.
 */
import fc from "fast-check";
import { LocalDriver, type IRoomCache } from "@colyseus/core";
import { IndexedLocalDriver } from "../../server/cluster/local-driver";

type Step = { kind: "insert" | "persist" | "persistExisting" | "remove"; id: string } | { kind: "clear" };

const ids = fc.constantFrom("a", "b", "c", "d", "e");
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constantFrom("insert" as const, "persist" as const, "persistExisting" as const, "remove" as const),
    id: ids,
  }),
  fc.constant({ kind: "clear" as const }),
);

function cache(roomId: string): IRoomCache {
  return {
    roomId,
    name: "fool",
    clients: 0,
    maxClients: 2,
    locked: false,
    private: false,
    processId: "p",
    createdAt: new Date(0),
    publicAddress: undefined,
    metadata: {},
  } as unknown as IRoomCache;
}

async function apply(driver: LocalDriver, step: Step): Promise<unknown> {
  switch (step.kind) {
    case "insert":
      return driver.insert(cache(step.id));
    case "persist":
      return driver.persist(cache(step.id), true);
    case "persistExisting":
      return driver.persist(cache(step.id));
    case "remove":
      return driver.remove(step.id);
    case "clear":
      return driver.clear();
  }
}

test("findOne by id, and every other answer, match Colyseus's driver after any sequence of changes", async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
      const reference = new LocalDriver();
      const indexed = new IndexedLocalDriver();
      for (const change of steps) {
        expect(await apply(indexed, change)).toEqual(await apply(reference, change));
        for (const id of ["a", "b", "c", "d", "e"]) {
          expect((await indexed.findOne({ roomId: id }))?.roomId).toBe(
            (await reference.findOne({ roomId: id }))?.roomId,
          );
        }
        expect(indexed.query({}).map((room) => room.roomId)).toEqual(reference.query({}).map((room) => room.roomId));
      }
    }),
    { numRuns: 2000 },
  );
});

test("a lookup by id hands back the room's own cache entry, so updates made through it are seen", async () => {
  const driver = new IndexedLocalDriver();
  const room = cache("a");
  await driver.insert(room);
  driver.update(room, { $set: { locked: true } });
  expect((await driver.findOne({ roomId: "a" })).locked).toBe(true);
  // Other conditions go to Colyseus's query.
  expect((await driver.findOne({ roomId: "a", locked: false })) as IRoomCache | undefined).toBeUndefined();
});
