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
  for (const [key, value] of Object.entries(over as Fields)) merged[key] = mergeValue(merged[key], value);
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
