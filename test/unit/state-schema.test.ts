/**
 * The tables' state classes size the array where the schema keeps their values (rooms/kit/schema.ts, StateSchema):
 * one slot a field, made before the class's own fields are set, so that nothing is written into the schema's empty
 * array and lost. (That the states still encode what each viewer should decode is the one-truth tests' proof.)
 */
import { $numFields, $values, Encoder, StateSchema, type, type Schema } from "../../rooms/kit/schema";
import * as evensteven from "../../rooms/evensteven/state";
import * as fool from "../../rooms/fool/state";
import * as highcard from "../../rooms/highcard/state";
import * as patience from "../../rooms/patience/state";
import * as tractor from "../../rooms/tractor/state";
import * as seal from "../../rooms/kit/seal-state";

type StateClass = new () => Schema;

const STATE_CLASSES: Array<[string, StateClass]> = [evensteven, fool, highcard, patience, tractor, seal].flatMap((module) =>
  Object.entries(module).filter((entry): entry is [string, StateClass] => typeof entry[1] === "function" && entry[1].prototype instanceof StateSchema),
);

/** The class's fields' names, in the order of their indexes (the schema's metadata). */
function fieldsOf(klass: StateClass): string[] {
  const metadata = (klass as unknown as Record<symbol, Record<string | number, { name: string } | number>>)[Symbol.metadata]!;
  const last = metadata[$numFields] as number;
  return Array.from({ length: last + 1 }, (_, index) => (metadata[index] as { name: string }).name);
}
const valuesOf = (state: Schema): unknown[] => (state as unknown as Record<symbol, unknown[]>)[$values]!;

test("every game's state classes are StateSchemas", () => {
  expect(STATE_CLASSES.map(([name]) => name)).toEqual(expect.arrayContaining(["EvenStevenState", "FoolRoomState", "HighCardState", "PatienceState", "TractorState", "DealSealState"]));
});

test.each(STATE_CLASSES)("%s keeps its values in an array of one slot a field, where its fields read them", (_, klass) => {
  const state = new klass();
  const values = valuesOf(state);
  const fields = fieldsOf(klass);
  expect(values.length).toBe(fields.length);
  fields.forEach((field, index) => expect((state as unknown as Record<string, unknown>)[field]).toBe(values[index]));
});

class Small extends StateSchema {
  @type("string") name = "first";
  @type("uint8") count = 1;
}

test("a value set before and after the state is encoded is read back and encoded", () => {
  const state = new Small();
  const encoder = new Encoder(state);
  const full = encoder.encodeAll().length;
  encoder.discardChanges();
  state.name = "second";
  state.count = 2;
  expect([state.name, state.count]).toEqual(["second", 2]);
  expect(valuesOf(state)).toEqual(["second", 2]);
  expect(encoder.encode().length).toBeGreaterThan(0);
  expect(full).toBeGreaterThan(0);
});
