/**
 * The maps Colyseus clears at every patch, made to clear without allocating (rooms/kit/patch-maps.ts): each answers
 * as a Map would, whatever is set, read and cleared.
 */
import fc from "fast-check";
import { MapClearedWhenFilled, OpsByIndex, SlotMap } from "../../rooms/kit/patch-maps";
import { seededRandom } from "../../rooms/kit/random";

test("a SlotMap answers get, set and size as a Map does, over random operations on a few keys", () => {
  const keys = Array.from({ length: 6 }, (_, index) => ({ index }));
  for (let run = 0; run < 200; run++) {
    const random = seededRandom(run);
    const slots = new SlotMap<object, number>();
    const reference = new Map<object, number>();
    for (let step = 0; step < 60; step++) {
      const key = keys[Math.floor(random() * keys.length)];
      const roll = random();
      if (roll < 0.1) {
        slots.clear();
        reference.clear();
      } else if (roll < 0.6) {
        expect(slots.set(key, step)).toBe(slots);
        reference.set(key, step);
      }
      expect(slots.get(key)).toBe(reference.get(key));
      expect(slots.size).toBe(reference.size);
    }
  }
});

test("a SlotMap's clear lets go of what it held", () => {
  const slots = new SlotMap<object, object>();
  const [key, value] = [{}, {}];
  slots.set(key, value);
  slots.clear();
  expect(slots.get(key)).toBeUndefined();
  const held = slots as unknown as { keys: unknown[]; values: unknown[] };
  expect([held.keys.length, held.values.length]).toEqual([0, 0]);
  slots.set(value, key);
  expect(slots.get(value)).toBe(key);
});

test("a MapClearedWhenFilled is a Map whose clear empties it when it holds something", () => {
  const map = new MapClearedWhenFilled<number, string>();
  map.clear();
  expect(map.size).toBe(0);
  map.set(1, "one").set(2, "two");
  map.clear();
  expect([...map]).toEqual([]);
  map.set(3, "three");
  expect([...map]).toEqual([[3, "three"]]);
});

describe("OpsByIndex", () => {
  /** Every call the change trees make, against a Map doing the same: same answers, same order. */
  const call = fc.oneof(
    fc.record({ op: fc.constant("set" as const), key: fc.nat(40), value: fc.nat(255) }),
    fc.record({ op: fc.constant("delete" as const), key: fc.nat(40) }),
    fc.record({ op: fc.constant("clear" as const) }),
    fc.record({
      op: fc.constant("copyFrom" as const),
      entries: fc.array(fc.tuple(fc.nat(40), fc.nat(255)), { maxLength: 8 }),
    }),
  );

  it("answers get, has, size, keys and entries as a Map would, in the order keys were first set", () => {
    fc.assert(
      fc.property(fc.array(call, { maxLength: 80 }), fc.nat(40), (calls, probe) => {
        const map = new OpsByIndex();
        const model = new Map<number, number>();
        for (const each of calls) {
          if (each.op === "set") {
            map.set(each.key, each.value);
            model.set(each.key, each.value);
          } else if (each.op === "delete") {
            expect(map.delete(each.key)).toBe(model.delete(each.key));
          } else if (each.op === "clear") {
            map.clear();
            model.clear();
          } else {
            const rebuilt = new Map(each.entries);
            map.copyFrom(rebuilt);
            model.clear();
            for (const [key, value] of rebuilt) model.set(key, value);
          }
          expect(map.size).toBe(model.size);
          expect([...map]).toEqual([...model]);
          expect([...map.keys()]).toEqual([...model.keys()]);
          expect(map.get(probe)).toBe(model.get(probe));
          expect(map.has(probe)).toBe(model.has(probe));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("lets its slots go at a clear, and takes new ones at the next set", () => {
    const map = new OpsByIndex();
    const slots = (map as unknown as { slots: number[] }).slots;
    for (let key = 0; key < 4; key++) map.set(key, key);
    expect(slots.length).toBe(8);
    map.clear();
    expect(slots.length).toBe(0);
    expect([...map]).toEqual([]);
    map.set(7, 3);
    expect([...map]).toEqual([[7, 3]]);
    expect(map.get(0)).toBeUndefined();
  });
});
