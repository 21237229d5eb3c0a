/**
 * Maps that Colyseus clears at every patch, made to clear without allocating (rooms/kit/colyseus-internals.ts puts
 * them in place). V8's Map#clear allocates a new hash table, 152 bytes, even for an empty map, and so does a delete
 * that empties one. The maps hang on objects that live as long as their table, so each new table lives until the
 * next patch, seconds later: it is promoted to the old generation, and every major collection marks it
 * (BENCHMARKS.md, "Maps cleared at every patch").
 */

/** A Map whose clear does nothing when it is empty (a client's StateView#changes is empty at almost every patch). */
export class MapClearedWhenFilled<K, V> extends Map<K, V> {
  override clear(): void {
    if (this.size > 0) super.clear();
  }
}

/**
 * A map of a few entries over two arrays, cleared by emptying its slots: get, set and clear, all that its one use
 * calls (SchemaSerializer#encodedViews: a patch's frame for each view of a room's clients, filled and cleared at
 * every patch). Its keys are the views of one room's clients: one for each seated person and one that all
 * spectators share, so a handful; a lookup is a scan of them. After its first patches it allocates nothing.
 */
export class SlotMap<K, V> {
  private readonly keys: Array<K | undefined> = [];
  private readonly values: Array<V | undefined> = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(key: K): V | undefined {
    const slot = this.slotOf(key);
    return slot === -1 ? undefined : this.values[slot];
  }

  set(key: K, value: V): this {
    const slot = this.slotOf(key);
    if (slot !== -1) {
      this.values[slot] = value;
      return this;
    }
    this.keys[this.count] = key;
    this.values[this.count] = value;
    this.count++;
    return this;
  }

  /** Forgets every entry (nothing it held stays reachable through it) and keeps its slots for the next patch. */
  clear(): void {
    for (let slot = 0; slot < this.count; slot++) {
      this.keys[slot] = undefined;
      this.values[slot] = undefined;
    }
    this.count = 0;
  }

  private slotOf(key: K): number {
    for (let slot = 0; slot < this.count; slot++) if (this.keys[slot] === key) return slot;
    return -1;
  }
}
