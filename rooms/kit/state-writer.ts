/**
 * Writing a game's state view (plain data: what the protocol documents and the SDK hands out) into the room's
 * schema state, for every game alike: no game writes its schema by hand.
 *
 * A schema has public fields (every client receives them) and `@view()` fields (only the clients whose StateView
 * holds the object, a seat's own player). The kit writes a view in two passes: the public fields from the
 * spectator's view, then, for each seat whose player has a StateView, that seat's `@view()` fields from the seat's
 * own view. Only what differs is written, so a patch carries the changes a step made and nothing else; a list of
 * plain values keeps its items in step with one operation per card taken out or put in (schema-lists.ts).
 */
import { $numFields, $values, type ArraySchema, type Schema } from "./schema";
import { listItemsInPlace } from "./colyseus-internals";
import { syncList } from "./schema-lists";

import type { Plain } from "./views";

type Fields = { readonly [key: string]: unknown };

/** Which of a schema's fields a pass writes: the public ones, or the `@view()` ones (and those below them). */
export type Pass = "public" | "hidden";

type SchemaClass = new () => Schema;
type FieldKind =
  | { kind: "value" }
  | { kind: "schema"; of: SchemaClass }
  | { kind: "values" }
  | { kind: "schemas"; of: SchemaClass };

interface Field {
  readonly name: string;
  /** Where the schema keeps the field's value (its index in `$values`, what its own getter reads). */
  readonly index: number;
  readonly hidden: boolean;
  readonly type: FieldKind;
  /** Whether the field is a `@view()` field or holds one somewhere below it: the only fields a hidden pass visits. */
  readonly leadsToHidden: boolean;
}

const fieldsOfClass = new WeakMap<object, readonly Field[]>();

function kindOf(type: unknown, where: string): FieldKind {
  if (typeof type === "string") return { kind: "value" };
  if (typeof type === "function") return { kind: "schema", of: type as SchemaClass };
  const list = (type as { array?: unknown }).array;
  if (typeof list === "string") return { kind: "values" };
  if (typeof list === "function") return { kind: "schemas", of: list as SchemaClass };
  throw new Error(
    `the state writer does not know the schema type of ${where} (maps and collections of collections are not used by any game)`,
  );
}

/** A schema class's fields, read once from @colyseus/schema's metadata (the decorators' record). */
function fieldsOf(target: Schema): readonly Field[] {
  return fieldsOfSchemaClass(target.constructor);
}

function fieldsOfSchemaClass(klass: object): readonly Field[] {
  const known = fieldsOfClass.get(klass);
  if (known !== undefined) return known;
  const metadata = (
    klass as unknown as Record<
      symbol,
      Record<number, { name: string; type: unknown; tag?: number }> & { [$numFields]: number }
    >
  )[Symbol.metadata];
  const fields: Field[] = [];
  for (let index = 0; index <= (metadata?.[$numFields] ?? -1); index++) {
    const field = metadata[index];
    if (field === undefined) continue;
    const [hidden, type] = [
      field.tag !== undefined,
      kindOf(field.type, `${(klass as { name?: string }).name}.${field.name}`),
    ];
    fields.push({ name: field.name, index, hidden, type, leadsToHidden: hidden || holdsHiddenFields(type) });
  }
  fieldsOfClass.set(klass, fields);
  return fields;
}

/** Whether objects of this kind have `@view()` fields anywhere below them (no game's schema refers back to itself). */
function holdsHiddenFields(type: FieldKind): boolean {
  return (
    (type.kind === "schema" || type.kind === "schemas") &&
    fieldsOfSchemaClass(type.of).some((field) => field.leadsToHidden)
  );
}

/**
 * The kept view object each schema object was last written from by a public pass. A view is plain data never
 * changed once made, and only this writer changes the schema, so an object written from the very same view object
 * again is already what it shows: an engine that keeps the views of what cannot change, frozen (a Tractor round's
 * finished tricks, rooms/tractor/match.ts), has them written once, not again at every patch for the rest of the
 * round. A view made afresh for one patch (not frozen) is not noted: the note would keep it alive until the next
 * patch, seconds later, past the young generation into the old one, for nothing. (A schema object written in a
 * public pass is written from one source only: the spectator's view, or, below a `@view()` field, its seat's own.)
 */
const writtenFrom = new WeakMap<Schema, Plain>();

/**
 * Writes `view` into `target`: in the public pass every public field (a field the view leaves out is left as it
 * is; a nested object the view gives as undefined is taken away), in the hidden pass every `@view()` field the view
 * gives, wherever it sits. A hidden pass never changes a public field, nor the length of a public list.
 */
export function writeView(target: Schema, view: Plain, pass: Pass): void {
  if (pass === "public" && writtenFrom.get(target) === view) return;
  const fields = target as unknown as Record<string, unknown>;
  // The values are read where the schema keeps them: a field's getter, called by name on every kind of schema
  // object, was most of the writer's own time (most fields are unchanged at a patch). Writes go through the
  // setters, which note the change for the patch.
  const values = (target as unknown as { [$values]: unknown[] })[$values];
  const schemaFields = fieldsOf(target);
  for (let index = 0; index < schemaFields.length; index++) {
    const field = schemaFields[index]!;
    if (field.hidden && pass === "public") continue;
    // A hidden pass (once for each seat a person holds, every patch) visits only what leads to a seat's own
    // fields: the rest (a Tractor round's tricks, every play in them) is the public pass's, and walking it again
    // for each seat cost a Tractor patch four walks of every trick.
    if (pass === "hidden" && !field.leadsToHidden) continue;
    const value = (view as Fields)[field.name];
    if (value === undefined && (pass === "hidden" || field.type.kind !== "schema")) continue;
    // Below a @view() field everything is the seat's own: written whole by the hidden pass.
    const inner: Pass = field.hidden ? "public" : pass;
    writeField(fields, values, field, value, inner);
  }
  if (pass === "public") {
    if (Object.isFrozen(view)) writtenFrom.set(target, view);
    else writtenFrom.delete(target);
  }
}

function writeField(
  fields: Record<string, unknown>,
  values: readonly unknown[],
  field: Field,
  value: unknown,
  pass: Pass,
): void {
  const { name, type } = field;
  const current = values[field.index];
  switch (type.kind) {
    case "value":
      if (current !== value) fields[name] = value;
      return;
    case "values":
      return syncList(current as ArraySchema<string | number>, value as Array<string | number>);
    case "schema":
      return writeChild(fields, name, current as Schema | undefined, type.of, value as Plain | undefined | null, pass);
    case "schemas":
      return writeChildren(current as ArraySchema<Schema>, type.of, value as readonly Plain[], pass);
  }
}

/** A nested object: written in place, made when the view first has it, taken away when the view has none. */
function writeChild(
  fields: Record<string, unknown>,
  name: string,
  child: Schema | undefined,
  of: SchemaClass,
  value: Plain | undefined | null,
  pass: Pass,
): void {
  if (value === undefined || value === null) {
    if (child !== undefined) fields[name] = undefined;
    return;
  }
  if (child !== undefined) return writeView(child, value, pass);
  if (pass === "hidden") return; // a seat's pass never makes public objects
  const made = new of();
  writeView(made, value, pass);
  fields[name] = made;
}

/** A list of objects: items written in place, new ones made and pushed, extra ones taken off the end. */
function writeChildren(list: ArraySchema<Schema>, of: SchemaClass, value: readonly Plain[], pass: Pass): void {
  const items = listItemsInPlace(list); // read before the list changes: its items are written in place
  const shared = Math.min(items.length, value.length);
  for (let index = 0; index < shared; index++) writeView(items[index]!, value[index]!, pass);
  if (pass === "hidden") return;
  if (list.length > value.length) list.splice(value.length, list.length - value.length);
  for (let index = shared; index < value.length; index++) {
    const made = new of();
    writeView(made, value[index]!, pass);
    list.push(made);
  }
}
