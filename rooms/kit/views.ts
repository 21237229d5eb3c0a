/**
 * State views as plain data, for every game alike: what the kit writes into a room's schema, what a client decodes,
 * and what a replay shows. Pure: the server, the SDK and the page all use it.
 */

/** Plain data: what a view holds (an object of values, lists and objects). */
export type Plain = object;
type Fields = { readonly [key: string]: unknown };

/**
 * One view made of two: `over`'s fields laid over `base`'s, objects merged field by field and lists item by item
 * (a game's seats and the table's seat holders). What the kit writes, and what a client must decode.
 */
export function mergeViews<A extends Plain, B extends Plain>(base: A, over: B): A & B {
  const merged: Record<string, unknown> = { ...(base as Fields) };
  // Views are plain data (own fields only): for-in walks them without Object.entries's array of pairs per call.
  for (const key in over) merged[key] = mergeValue(merged[key], (over as Fields)[key]);
  return merged as A & B;
}

function isPlainObject(value: unknown): value is Fields {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function mergeValue(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (Array.isArray(base) && Array.isArray(over) && over.length > 0 && over.every(isPlainObject)) {
    const length = Math.max(base.length, over.length);
    return Array.from({ length }, (_, index) => mergeValue(base[index], over[index]));
  }
  if (isPlainObject(base) && isPlainObject(over)) return mergeViews(base, over);
  return over;
}

/**
 * The whole table, every hand face up: the spectator's view with each seat's own view laid over it (a seat's view
 * holds what the spectator sees and its own hidden fields). What a replay shows of one step.
 */
export function wholeTableView<View extends Plain>(spectator: View, seats: readonly View[]): View {
  return seats.reduce<View>((whole, seat) => mergeViews(whole, seat), spectator);
}

/** A view as sorted JSON: objects' keys in order, undefined left out (what a decoded state's toJSON holds). */
export function canonicalJson(view: unknown): string {
  return JSON.stringify(sortedKeys(view));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const inner = (value as Fields)[key];
    if (inner !== undefined) sorted[key] = sortedKeys(inner);
  }
  return sorted;
}

/**
 * A short digest of a view (FNV-1a over its canonical JSON, two 32-bit halves): what a state check carries, so that
 * a client can tell whether the state it decoded is the one the table meant, without the table sending it again.
 */
export function viewDigest(view: unknown): string {
  const text = canonicalJson(view);
  let low = 0x811c9dc5;
  let high = 0x01000193;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    low = Math.imul(low ^ code, 0x01000193) >>> 0;
    high = Math.imul(high ^ code ^ (low >>> 7), 0x01000193) >>> 0;
  }
  return `${high.toString(16).padStart(8, "0")}${low.toString(16).padStart(8, "0")}`;
}
