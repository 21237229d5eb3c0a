/**
 * Where joining clients go: a seat (the one asked for, or the first open) or the spectators, decided when the
 * seat is reserved and held for the client until it connects or the reservation expires (rooms/kit/reservations.ts),
 * so that no two reservations are promised one place.
 */
import { ServerError } from "@colyseus/core";
import type { z } from "zod";
import { parseRoomOptions } from "../room-kit";
import { PENDING_SPECTATORS_PER_ROOM, pendingJoins, PromisedPlaces, type Place } from "../reservations";
import type { SeatRoster } from "../seats";
import type { SeatRequest } from "./types";

/** The table as its seating sees it: its seats, the options a join gives, and the game's say on where they go. */
export interface SeatedTable<JoinOptions> {
  readonly roster: SeatRoster;
  readonly joinOptions: z.ZodType<JoinOptions>;
  /** True when a full table refuses a joining player; false when it makes them a spectator. */
  readonly refuseWhenFull: boolean;
  seatRequest(options: JoinOptions): SeatRequest;
  noSeatReason(asked: number | undefined): string;
  /** How long a reservation's place is held for its client. */
  holdMs(): number;
  updateListing(): void;
}

export class Seating<JoinOptions> {
  /** The places promised to seat reservations whose clients have not connected yet. */
  private readonly promised = new PromisedPlaces();

  constructor(private readonly table: SeatedTable<JoinOptions>) {}

  /** The place a join with these options, from this address, would get now, or the refusal saying why not. */
  decide(rawOptions: unknown, address: string | null): Place | ServerError {
    try {
      if (pendingJoins.isFull(address))
        throw new ServerError(4429, "too many joins from your address are waiting for their connections");
      return this.placeFor(parseRoomOptions(this.table.joinOptions, rawOptions, "join"));
    } catch (error) {
      if (error instanceof ServerError) return error;
      throw error;
    }
  }

  /**
   * A reservation's place, decided and held now: nobody else's until the client connects or the reservation
   * expires. Returns how to take the promise back, or null to refuse the reservation.
   */
  promise(sessionId: string, rawOptions: unknown, address: string | null): (() => void) | null {
    const place = this.decide(rawOptions, address);
    if (place instanceof ServerError) return null;
    this.promised.promise(sessionId, place, address, this.table.holdMs(), () => this.table.updateListing());
    if (place !== "watch") this.table.updateListing();
    return () => {
      this.promised.release(sessionId);
      this.table.updateListing();
    };
  }

  /** A connecting client's place: the one promised at its reservation, or (reserved some other way) one found now. */
  take(sessionId: string, options: JoinOptions): Place {
    return this.promised.take(sessionId) ?? this.placeFor(options);
  }

  /** Seats a joining player could take now: open, and not promised to a reservation. */
  openSeats(): number {
    return this.table.roster.seats.filter((held, seat) => held.holder === "open" && !this.promised.isSeatPromised(seat))
      .length;
  }

  clear(): void {
    this.promised.clear();
  }

  private placeFor(options: JoinOptions): Place {
    const request = this.table.seatRequest(options);
    if (!request.watch) {
      const seat = this.seatFor(request.seat);
      if (seat !== undefined) return seat;
      if (this.table.refuseWhenFull) throw new ServerError(4403, this.table.noSeatReason(request.seat));
    }
    const promised = this.promised.spectators;
    if (!this.table.roster.hasRoomForSpectator(promised)) throw new ServerError(4403, "no room for more spectators");
    if (promised >= PENDING_SPECTATORS_PER_ROOM)
      throw new ServerError(4429, "too many spectators are joining this table at once; try again in a moment");
    return "watch";
  }

  /** The seat asked for if a person may take it (open, or a bot's) and it is not promised, else the first such open seat. */
  private seatFor(asked: number | undefined): number | undefined {
    const promised = (seat: number) => this.promised.isSeatPromised(seat);
    if (asked === undefined) return this.table.roster.firstOpen(promised);
    return this.table.roster.seats[asked]?.holder === "person" || promised(asked) ? undefined : asked;
  }
}
