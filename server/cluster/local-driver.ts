/**
 * Colyseus's in-memory matchmaking driver (one process, no Redis), with its rooms also kept by id. Colyseus looks
 * a room up by its id several times in every create and join (`findOne({ roomId })`), and its driver answers each
 * lookup by copying the list of every room and filtering the copy: with 4,000 tables that was 4% of the server's
 * CPU in a load test, and it grows with the rooms. Here such a lookup is a map's; every other query is Colyseus's.
 * The index relies on insert, persist, remove and clear being the only ways into and out of Colyseus's list: the
 * start-up check (LOCAL_DRIVER_METHODS, rooms/kit/colyseus-internals.ts) refuses a driver with methods it does not know.
 */
import { LocalDriver, type IRoomCache, type SortOptions } from "@colyseus/core";
import { localDriverRoomIds } from "../../rooms/kit/colyseus-internals";

function isByIdAlone(conditions: Partial<IRoomCache>): conditions is { roomId: string } {
  let fields = 0;
  for (const field in conditions) if (Object.hasOwn(conditions, field)) fields++;
  return fields === 1 && typeof conditions.roomId === "string";
}

export class IndexedLocalDriver extends LocalDriver {
  private readonly byId = new Map<string, IRoomCache>();
  /**
   * Ids listed more than once, with how many entries each has (only `persist` lists an id twice). Removing an id
   * listed once, the common case, then needs no second scan of the list: at a mass disconnect every table goes at
   * once, and a scan per removal made that quadratic in the tables: removing 6,500 rooms in random order took 289 ms
   * with the scan, 86 ms without.
   */
  private readonly copies = new Map<string, number>();

  override findOne(conditions: Partial<IRoomCache>, sortOptions?: SortOptions): Promise<IRoomCache> {
    if (sortOptions !== undefined || !isByIdAlone(conditions)) return super.findOne(conditions, sortOptions);
    // Like Colyseus's query, a room that is not there is `undefined`, which its callers check for.
    return Promise.resolve(this.byId.get(conditions.roomId) as IRoomCache);
  }

  override async insert(room: IRoomCache): Promise<boolean> {
    const inserted = await super.insert(room);
    if (inserted) this.byId.set(room.roomId, room);
    return inserted;
  }

  /** Colyseus's `persist` does not check for an id already listed; its lookups find the first entry, as here. */
  override persist(room: IRoomCache, create = false): boolean {
    const persisted = super.persist(room, create);
    if (!persisted) return false;
    if (this.byId.has(room.roomId)) this.copies.set(room.roomId, (this.copies.get(room.roomId) ?? 1) + 1);
    else this.byId.set(room.roomId, room);
    return true;
  }

  /**
   * Removes the room's first entry as Colyseus's `remove` does, but finds it by the entry itself (`indexOf`, a
   * comparison of references) instead of calling a function on every listed room until one has the id. A room
   * that is not listed is known at once: Colyseus removes each disposed room twice (as it disconnects and as it is
   * disposed), and its scan for the room already gone read the whole list. At a mass disconnect both scans made the
   * teardown quadratic in the tables (at 3,000 clients Colyseus's id comparisons were still 0.3 s of the teardown).
   */
  override remove(roomId: string): boolean {
    const first = this.byId.get(roomId);
    if (first === undefined) return false;
    const index = this.rooms.indexOf(first);
    if (index === -1) return super.remove(roomId);
    this.rooms.splice(index, 1);
    localDriverRoomIds(this).delete(roomId);
    this.forgetEntry(roomId);
    return true;
  }

  /** After the room's first entry left the list: the index points at its next one, if `persist` made one. */
  private forgetEntry(roomId: string): void {
    const entries = this.copies.get(roomId);
    if (entries === undefined) {
      this.byId.delete(roomId);
      return;
    }
    if (entries > 2) this.copies.set(roomId, entries - 1);
    else this.copies.delete(roomId);
    this.byId.set(roomId, this.rooms.find((room) => room.roomId === roomId)!);
  }

  override clear(): void {
    super.clear();
    this.byId.clear();
    this.copies.clear();
  }
}
