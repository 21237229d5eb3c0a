/**
 * A state object's values array sized to its class's fields (rooms/kit/colyseus-internals.ts, sizeStateValues): one
 * slot a field, made before the object's fields are set, for every game's state classes, with what each field reads
 * still where the schema keeps it. (That the states encode what each viewer should decode is the one-truth tests'
 * proof; that each game's handshake describes its own classes alone, the page's tests'.)
 */
import { Reflection } from "@colyseus/schema";
import { $numFields, $values, Encoder, Schema, type } from "../../rooms/kit/schema";
import { sizeStateValues } from "../../rooms/kit/colyseus-internals";
import * as evensteven from "../../rooms/evensteven/state";
import * as fool from "../../rooms/fool/state";
import * as highcard from "../../rooms/highcard/state";
import * as patience from "../../rooms/patience/state";
import * as tractor from "../../rooms/tractor/state";
import * as seal from "../../rooms/kit/seal-state";

type StateClass = new () => Schema;

const STATE_CLASSES: Array<[string, StateClass]> = [evensteven, fool, highcard, patience, tractor, seal].flatMap(
  (module) =>
    Object.entries(module).filter(
      (entry): entry is [string, StateClass] => typeof entry[1] === "function" && entry[1].prototype instanceof Schema,
    ),
);

/** The class's fields' names, in the order of their indexes (the schema's metadata). */
function fieldsOf(klass: StateClass): string[] {
  const metadata = (klass as unknown as Record<symbol, Record<string | number, { name: string } | number>>)[
    Symbol.metadata
  ]!;
  const last = metadata[$numFields] as number;
  return Array.from({ length: last + 1 }, (_, index) => (metadata[index] as { name: string }).name);
}

const valuesOf = (state: Schema): unknown[] => (state as unknown as Record<symbol, unknown[]>)[$values]!;

beforeAll(() => sizeStateValues());

test("every game's state classes are found", () => {
  expect(STATE_CLASSES.map(([name]) => name)).toEqual(
    expect.arrayContaining([
      "EvenStevenState",
      "FoolRoomState",
      "HighCardState",
      "PatienceState",
      "TractorState",
      "DealSealState",
    ]),
  );
});

test.each(STATE_CLASSES)(
  "%s keeps its values in an array of one slot a field, where its fields read them",
  (_, klass) => {
    const state = new klass();
    const values = valuesOf(state);
    const fields = fieldsOf(klass);
    expect(values.length).toBe(fields.length);
    fields.forEach((field, index) => expect((state as unknown as Record<string, unknown>)[field]).toBe(values[index]));
  },
);

class Small extends Schema {
  @type("string") name = "first";
  @type("uint8") count = 1;
}

test("a value set before and after the state is encoded is read back and encoded", () => {
  const state = new Small();
  const encoder = new Encoder(state);
  expect(encoder.encodeAll().length).toBeGreaterThan(0);
  encoder.discardChanges();
  state.name = "second";
  state.count = 2;
  expect([state.name, state.count]).toEqual(["second", 2]);
  expect(valuesOf(state)).toEqual(["second", 2]);
  expect(encoder.encode().length).toBeGreaterThan(0);
});

test("each game's handshake describes its own classes: no field of another game's state is in it", () => {
  const games = { evensteven, fool, patience, tractor };
  const classesOf = (module: object) =>
    STATE_CLASSES.filter(([, klass]) => Object.values(module).includes(klass)).map(([, klass]) => klass);
  const fieldNames = (module: object) => new Set([...classesOf(module), ...classesOf(seal)].flatMap(fieldsOf));
  const roots: Record<keyof typeof games, StateClass> = {
    evensteven: evensteven.EvenStevenState,
    fool: fool.FoolRoomState,
    patience: patience.PatienceState,
    tractor: tractor.TractorState,
  };
  for (const [game, module] of Object.entries(games) as Array<[keyof typeof games, object]>) {
    const handshake = Buffer.from(Reflection.encode(new Encoder(new roots[game]()))).toString("latin1");
    const own = fieldNames(module);
    const others = Object.entries(games)
      .filter(([other]) => other !== game)
      .flatMap(([, otherModule]) => [...fieldNames(otherModule)].filter((name) => !own.has(name)));
    expect(others.length).toBeGreaterThan(0);
    expect(others.filter((name) => handshake.includes(String.fromCharCode(0xa0 | name.length) + name))).toEqual([]);
    expect([...own].some((name) => handshake.includes(String.fromCharCode(0xa0 | name.length) + name))).toBe(true);
  }
});
