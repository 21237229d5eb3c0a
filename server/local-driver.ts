/**
 * Colyseus's in-memory matchmaking driver (one process, no Redis), with its rooms also kept by id. Colyseus looks
 * a room up by its id several times in every create and join (`findOne({ roomId })`), and its driver answers each
 * lookup by copying the list of every room and filtering the copy: with 4,000 tables that was 4% of the server's
 * CPU in a load test, and it grows with the rooms. Here such a lookup is a map's; every other query is Colyseus's.
 * The index relies on insert, persist, remove and clear being the only ways into and out of Colyseus's list: the
 * start-up check (LOCAL_DRIVER_METHODS, rooms/kit/colyseus-internals.ts) refuses a driver with methods it does not know.
 */
import { LocalDriver, type IRoomCache, type SortOptions } from "@colyseus/core";

function isByIdAlone(conditions: Partial<IRoomCache>): conditions is { roomId: string } {
  let fields = 0;
  for (const field in conditions) if (Object.prototype.hasOwnProperty.call(conditions, field)) fields++;
  return fields === 1 && typeof conditions.roomId === "string";
}

export class IndexedLocalDriver extends LocalDriver {
  private readonly byId = new Map<string, IRoomCache>();

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
    if (persisted && !this.byId.has(room.roomId)) this.byId.set(room.roomId, room);
    return persisted;
  }

  override remove(roomId: string): boolean {
    const removed = super.remove(roomId);
    if (!removed) return false;
    // Removal scans the list already (Colyseus's); a second entry with the id, if any, is the one found now.
    const next = this.rooms.find((room) => room.roomId === roomId);
    if (next === undefined) this.byId.delete(roomId);
    else this.byId.set(roomId, next);
    return true;
  }

  override clear(): void {
    super.clear();
    this.byId.clear();
  }
}
