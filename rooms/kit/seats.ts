/**
 * A table's seats and spectators, in one vocabulary for every game: a seat is open, held by a bot (the room plays
 * it: a scripted bot or an AI), or held by a person (a client, possibly away and reconnecting). Games show these
 * in their own state under their own documented words; the kit decides only who sits where.
 */

import { GUEST, type SeatIdentity } from "./record";

export type SeatHolder = "open" | "bot" | "person";

/** The name a table's own seat bot plays under (a game's AI may have its own). */
export const SEAT_BOT_NAME = "bot";

export interface SeatInfo {
  holder: SeatHolder;
  /** The person's name, a bot's label, or "" for an open seat. */
  name: string;
  /** The client holding the seat (kept while a dropped person may come back), or null. */
  sessionId: string | null;
  /** Whether the person's connection is up; false for bots and open seats. */
  connected: boolean;
  /**
   * Who a person's seat speaks for (an account, a bot and its owner, a guest); absent for bots and open seats, but
   * kept on a seat the room's bot finishes for a person who left (`left`).
   */
  identity?: SeatIdentity;
  /** The person left during the game and the room's bot plays the seat on for them, under their name and identity. */
  left?: true;
}

export class SeatRoster {
  readonly seats: SeatInfo[];
  private readonly spectatorSessions = new Set<string>();

  constructor(
    count: number,
    readonly maxSpectators: number,
  ) {
    this.seats = Array.from({ length: count }, () => ({ holder: "open", name: "", sessionId: null, connected: false }));
  }

  get spectators(): number {
    return this.spectatorSessions.size;
  }

  /** Whether another spectator fits, with `coming` more already promised a place. */
  hasRoomForSpectator(coming = 0): boolean {
    return this.spectators + coming < this.maxSpectators;
  }

  /** The seat this client holds, or undefined (a spectator, or not here). */
  seatOf(sessionId: string): number | undefined {
    const seat = this.seats.findIndex((held) => held.sessionId === sessionId);
    return seat >= 0 ? seat : undefined;
  }

  isSpectator(sessionId: string): boolean {
    return this.spectatorSessions.has(sessionId);
  }

  /** The first open seat, passing over those `promised` says are promised to someone else. */
  firstOpen(promised: (seat: number) => boolean = () => false): number | undefined {
    const seat = this.seats.findIndex((held, index) => held.holder === "open" && !promised(index));
    return seat >= 0 ? seat : undefined;
  }

  everySeatTaken(): boolean {
    return this.seats.every((held) => held.holder !== "open");
  }

  personSeated(): boolean {
    return this.seats.some((held) => held.holder === "person");
  }

  isBot(seat: number): boolean {
    return this.seats[seat]?.holder === "bot";
  }

  /** The seat's sessions' holder right now (a bot's seat taken over becomes the person's). */
  seatPerson(seat: number, sessionId: string, name: string, identity: SeatIdentity = GUEST): void {
    this.seats[seat] = { holder: "person", name, sessionId, connected: true, identity };
  }

  seatBot(seat: number, name: string): void {
    this.seats[seat] = { holder: "bot", name, sessionId: null, connected: false };
  }

  /** The person left during a game: the room's bot finishes it in their seat, which stays theirs in the record. */
  seatStandIn(seat: number): void {
    const { name, identity } = this.seats[seat];
    this.seats[seat] = { holder: "bot", name, sessionId: null, connected: false, identity, left: true };
  }

  open(seat: number): void {
    this.seats[seat] = { holder: "open", name: "", sessionId: null, connected: false };
  }

  setConnected(seat: number, connected: boolean): void {
    this.seats[seat].connected = connected;
  }

  addSpectator(sessionId: string): void {
    this.spectatorSessions.add(sessionId);
  }

  /** Removes a spectator; false when the session was not one. */
  removeSpectator(sessionId: string): boolean {
    return this.spectatorSessions.delete(sessionId);
  }
}
