/**
 * The maps Colyseus clears at every patch, made to clear without allocating (rooms/kit/patch-maps.ts): each answers
 * as a Map would, whatever is set, read and cleared.
 */
import { MapClearedWhenFilled, SlotMap } from "../../rooms/kit/patch-maps";
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
  const held = (slots as unknown as { keys: unknown[]; values: unknown[] });
  expect(held.keys.includes(key) || held.values.includes(value)).toBe(false);
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
