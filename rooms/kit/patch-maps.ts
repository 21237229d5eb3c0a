/**
 * Maps that Colyseus clears at every patch, made to clear without allocating (rooms/kit/colyseus-internals.ts puts
 * them in place). V8's Map#clear allocates a new hash table, 152 bytes, even for an empty map, and so does a delete
 * that empties one. The maps hang on objects that live as long as their table, so each new table lives until the
 * next patch, seconds later: it is promoted to the old generation, and every major collection marks it.
 *
 * The two maps over arrays below let their arrays go at every clear for the same reason: both are filled by a change
 * and emptied by the patch the kit sends in the same turn, so an array allocated for a patch lives for microseconds
 * and dies in V8's young generation, where a dead object costs nothing; an array kept from one patch to the next,
 * seconds later, is promoted and marked by every major collection for as long as its table lives. V8 gives an array
 * 17 slots at its first element: each kept array was about 150 bytes, several a table.
 */

/** A Map whose clear does nothing when it is empty (a client's StateView#changes is empty at almost every patch). */
export class MapClearedWhenFilled<K, V> extends Map<K, V> {
  override clear(): void {
    if (this.size > 0) super.clear();
  }
}

/**
 * A map of a few entries over two arrays: get, set and clear, all that its one use calls
 * (SchemaSerializer#encodedViews: a patch's frame for each view of a room's clients, filled and cleared at every
 * patch). Its keys are the views of one room's clients: one for each seated person and one that all spectators
 * share, so a handful; a lookup is a scan of them. Its clear lets the arrays go (see the module's comment).
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

  /** Forgets every entry, and the arrays that held them. */
  clear(): void {
    if (this.count === 0) return;
    this.keys.length = 0;
    this.values.length = 0;
    this.count = 0;
  }

  private slotOf(key: K): number {
    for (let slot = 0; slot < this.count; slot++) if (this.keys[slot] === key) return slot;
    return -1;
  }
}

/**
 * A list's pending operations by index (@colyseus/schema's `collDirty` on a list's change tree), cleared at every
 * patch. It does what a Map does for its uses there: get, set, has, delete, size, and keys and entries in the order
 * they were first set (the order is the wire's: a list's operations are sent in it). Its keys are a list's indexes,
 * small whole numbers, and a patch changes a few of them: a key is found by a scan of the slots, held in one array of
 * keys and values side by side. A table has several lists, each with its map for as long as the table lives, so the
 * map holds nothing between patches (see the module's comment; a Map cleared would be a new hash table each patch,
 * kept until the next).
 */
export class OpsByIndex {
  /** Slot n's key at 2n (-1 once deleted since the last clear) and its value at 2n + 1, in the order first set. */
  private readonly slots: number[] = [];
  /** The slots in use since the last clear (deleted ones among them). */
  private slotsUsed = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The first slot from `slot` on that holds a key, or -1 past the last. */
  liveSlotFrom(slot: number): number {
    for (; slot < this.slotsUsed; slot++) if (this.slots[2 * slot] !== -1) return slot;
    return -1;
  }

  keyAt(slot: number): number {
    return this.slots[2 * slot]!;
  }

  valueAt(slot: number): number {
    return this.slots[2 * slot + 1]!;
  }

  get(key: number): number | undefined {
    const slot = this.slotOf(key);
    return slot === -1 ? undefined : this.slots[2 * slot + 1];
  }

  has(key: number): boolean {
    return this.slotOf(key) !== -1;
  }

  set(key: number, value: number): this {
    const slot = this.slotOf(key);
    if (slot !== -1) {
      this.slots[2 * slot + 1] = value;
      return this;
    }
    this.slots[2 * this.slotsUsed] = key;
    this.slots[2 * this.slotsUsed + 1] = value;
    this.slotsUsed++;
    this.count++;
    return this;
  }

  delete(key: number): boolean {
    const slot = this.slotOf(key);
    if (slot === -1) return false;
    this.slots[2 * slot] = -1;
    this.count--;
    return true;
  }

  /** Forgets every entry, and the array that held them. */
  clear(): void {
    if (this.slotsUsed === 0) return;
    this.slots.length = 0;
    this.slotsUsed = 0;
    this.count = 0;
  }

  /** Makes this map hold what `entries` holds, in its order (a list's change tree rebuilt its map: see keepListChangesInPlace). */
  copyFrom(entries: Iterable<readonly [number, number]>): void {
    this.clear();
    for (const [key, value] of entries) this.set(key, value);
  }

  keys(): IterableIterator<number> {
    return new SlotWalk(this, keyOf);
  }

  entries(): IterableIterator<[number, number]> {
    return new SlotWalk(this, entryOf);
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.entries();
  }

  private slotOf(key: number): number {
    for (let slot = 0; slot < this.slotsUsed; slot++) if (this.slots[2 * slot] === key) return slot;
    return -1;
  }
}

const keyOf = (key: number): number => key;
const entryOf = (key: number, value: number): [number, number] => [key, value];

/**
 * A walk over an OpsByIndex's live slots in order. An iterator object rather than a generator: the encoder walks
 * every changed list's operations at every patch, and a generator's resumption costs more than a call.
 */
class SlotWalk<T> implements IterableIterator<T> {
  private slot = 0;
  private readonly result: IteratorResult<T> = { done: false, value: undefined as T };

  constructor(
    private readonly map: OpsByIndex,
    private readonly item: (key: number, value: number) => T,
  ) {}

  next(): IteratorResult<T> {
    const slot = this.slot === -1 ? -1 : this.map.liveSlotFrom(this.slot);
    if (slot === -1) {
      this.slot = -1;
      this.result.done = true;
      this.result.value = undefined as T;
    } else {
      this.slot = slot + 1;
      this.result.value = this.item(this.map.keyAt(slot), this.map.valueAt(slot));
    }
    return this.result;
  }

  [Symbol.iterator](): IterableIterator<T> {
    return this;
  }
}
