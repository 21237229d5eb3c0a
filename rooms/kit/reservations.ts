/**
 * Seat reservations that promise a place. Colyseus reserves "a seat" for a client during the HTTP matchmaking
 * request and lets the client take it when its WebSocket connects, up to `seatReservationTimeout` later; which seat
 * is decided only then. Between the two, anyone who joins the room takes the seat the creator was promised, and
 * reservations that never connect count against the room's `maxClients` until they expire (65 spectator
 * reservations locked a Fool table against its second player).
 *
 * Here a reservation is decided at once: the table says which place it promises (a seat, or a spectator's place)
 * and holds it for that reservation's session until the client connects or the reservation expires. Promised seats
 * are not offered to anyone else; spectators' promises are counted apart from seats, so they never fill a seat;
 * every client address and every room has a bound on the promises it may hold at once, and a promise that is never
 * taken is released when its reservation expires, leaving nothing behind.
 *
 * Colyseus 0.18 has no public hook between a reservation and its room, so `guardSeatReservations` wraps its private
 * reservation method on the room instance (wrapReserveSeat, rooms/kit/colyseus-internals.ts), which fails loudly at
 * room creation if a later Colyseus drops it.
 */
import { GUEST, type LadderDeal, type SeatIdentity } from "./record";
import type { Room } from "@colyseus/core";
import { wrapReserveSeat, type ReserveSeat } from "./colyseus-internals";

/** Where a client will go: a seat (0-based), or the spectators. */
export type Place = number | "watch";

/**
 * Reservations not yet taken that one client address may hold across the process, by default. A real client
 * connects within milliseconds of its reservation; a load test ramping a thousand joins a second from one machine
 * into a busy server does not, and is run against a server started with the bound raised or off
 * (JOINS_PENDING_PER_ADDRESS, server/matchmaking.ts).
 */
export const DEFAULT_PENDING_JOINS_PER_ADDRESS = 64;

/** Spectator reservations not yet taken that one room holds at once (its spectator places are bounded apart). */
export const PENDING_SPECTATORS_PER_ROOM = 16;

/** The process-wide count of untaken reservations per client address. */
class PendingByAddress {
  private readonly counts = new Map<string, number>();
  limit = DEFAULT_PENDING_JOINS_PER_ADDRESS;

  count(address: string): number {
    return this.counts.get(address) ?? 0;
  }

  isFull(address: string | null): boolean {
    return address !== null && this.count(address) >= this.limit;
  }

  add(address: string | null): void {
    if (address !== null) this.counts.set(address, this.count(address) + 1);
  }

  remove(address: string | null): void {
    if (address === null) return;
    const left = this.count(address) - 1;
    if (left > 0) this.counts.set(address, left);
    else this.counts.delete(address);
  }
}

export const pendingJoins = new PendingByAddress();

/** What the server's matchmaking route hands a reservation (Colyseus's `authData`): who asked, and as whom. */
export interface JoinerIdentity {
  address: string | null;
  identity: SeatIdentity;
  /** For the creator of a ladder table: the deal the ladder gave this identity (server/arena/ladder.ts). */
  ladderDeal?: LadderDeal;
}

export function addressOf(authData: unknown): string | null {
  const address = (authData as Partial<JoinerIdentity> | null | undefined)?.address;
  return typeof address === "string" ? address : null;
}

/** The ladder deal the matchmaking route gave a join, if any. */
export function ladderDealOf(authData: unknown): LadderDeal | undefined {
  return (authData as Partial<JoinerIdentity> | null | undefined)?.ladderDeal;
}

/** The identity the matchmaking route found for a join (a guest when it found none, or the join came another way). */
export function identityOf(authData: unknown): SeatIdentity {
  return (authData as Partial<JoinerIdentity> | null | undefined)?.identity ?? GUEST;
}

interface HeldPlace {
  readonly place: Place;
  readonly address: string | null;
  readonly expiry: ReturnType<typeof setTimeout>;
}

/** The places one table has promised to reservations not yet taken. */
export class PromisedPlaces {
  private readonly byClient = new Map<string, HeldPlace>();

  isSeatPromised(seat: number): boolean {
    for (const promise of this.byClient.values()) if (promise.place === seat) return true;
    return false;
  }

  get spectators(): number {
    let count = 0;
    for (const promise of this.byClient.values()) if (promise.place === "watch") count++;
    return count;
  }

  /** Holds `place` for `sessionId` for `ms`; `onExpired` runs if the client has not taken it by then. */
  promise(sessionId: string, place: Place, address: string | null, ms: number, onExpired: () => void): void {
    const expiry = setTimeout(() => {
      if (this.release(sessionId)) onExpired();
    }, ms);
    this.byClient.set(sessionId, { place, address, expiry });
    pendingJoins.add(address);
  }

  /** The place promised to `sessionId`, which is now taken (undefined when none was promised). */
  take(sessionId: string): Place | undefined {
    const promise = this.byClient.get(sessionId);
    this.release(sessionId);
    return promise?.place;
  }

  /** Drops a promise (refused, expired or taken); false when there was none. */
  release(sessionId: string): boolean {
    const promise = this.byClient.get(sessionId);
    if (promise === undefined) return false;
    clearTimeout(promise.expiry);
    this.byClient.delete(sessionId);
    pendingJoins.remove(promise.address);
    return true;
  }

  clear(): void {
    for (const sessionId of [...this.byClient.keys()]) this.release(sessionId);
  }
}

/**
 * Puts `admit` in front of every new seat reservation of the rooms of a class (`rooms` is its prototype: one guard
 * for all of them, not a closure on each room): it promises a place (and returns how to take the promise back) or
 * refuses (null). Reconnection holds (`allowReconnection`) pass as they are: their seat is already
 * the client's.
 */
export function guardSeatReservations(
  rooms: Room,
  admit: (room: Room, sessionId: string, joinOptions: unknown, authData: unknown) => (() => void) | null,
): void {
  wrapReserveSeat(
    rooms,
    (reserveSeat): ReserveSeat =>
      async function guarded(this: Room, sessionId, joinOptions, authData, seconds, allowReconnection, ...rest) {
        if (allowReconnection === true)
          return reserveSeat.call(this, sessionId, joinOptions, authData, seconds, allowReconnection, ...rest);
        const takeBack = admit(this, sessionId, joinOptions, authData);
        if (takeBack === null) return false;
        const reserved = await reserveSeat.call(
          this,
          sessionId,
          joinOptions,
          authData,
          seconds,
          allowReconnection,
          ...rest,
        );
        if (!reserved) takeBack();
        return reserved;
      },
  );
}
