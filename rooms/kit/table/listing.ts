/**
 * The table's listing (GET /rooms, the lobby): it follows the table once for all the changes of one callback (a
 * join changes it two or three times: its reservation, its seat, the game it starts), made when the callback's own
 * code is done, before any other request is served. Each listing reads the whole table.
 */
import type { Room } from "@colyseus/core";
import { reportFailure } from "../room-kit";
import type { SeatRoster } from "../seats";

/** The table as its listing sees it: the game's listing, its spectators and the seats a joining player could take. */
export interface ListedTable extends Room {
  readonly roster: SeatRoster;
  listing(): Record<string, unknown>;
}

export class Listing {
  private due = false;

  constructor(
    private readonly table: ListedTable,
    private readonly openSeats: () => number,
  ) {}

  update(): void {
    if (this.due) return;
    this.due = true;
    queueMicrotask(() => this.publish());
  }

  private publish(): void {
    this.due = false;
    const { table } = this;
    try {
      // The listing is informational: a failed persist (e.g. while the room is disposing) must not surface.
      void Promise.resolve(
        table.setMetadata({ ...table.listing(), openSeats: this.openSeats(), spectators: table.roster.spectators }),
      ).catch(() => undefined);
    } catch (error) {
      reportFailure(table, "updateListing", error);
    }
  }
}
