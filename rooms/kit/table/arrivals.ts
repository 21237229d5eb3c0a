/**
 * Who comes and goes at a table: a join takes its place (a seat or the spectators), a dropped person's seat waits
 * for them (their turn clock still running), a returning one is connected again, and one who left for good is
 * replaced as the game says (during a match their seat's bot plays on, before it the seat opens again).
 */
import type { Client, Room } from "@colyseus/core";
import type { StateView } from "@colyseus/schema";
import type { z } from "zod";
import { roomLog } from "../log";
import { SEAT_TAKEN_OVER_CLOSE_CODE } from "../protocol";
import { identityOf, type Place } from "../reservations";
import { forgetClient, parseRoomOptions } from "../room-kit";
import type { SeatRoster } from "../seats";
import type { Seating } from "./seating";
import type { TableTimings } from "./types";

/** The table as its arrivals see it: its seats and places, and the game's say on who sits where. */
export interface ArrivingTable<JoinOptions> extends Room {
  readonly roster: SeatRoster;
  readonly timings: TableTimings;
  readonly joinOptions: z.ZodType<JoinOptions>;
  readonly closing: boolean;
  gameUnderWay(): boolean;
  personName(options: JoinOptions, seat: number): string;
  /** The view that shows the seat's person their hidden fields (their hand), if the game has any. */
  viewOfSeat(seat: number): StateView | undefined;
  seatsChanged(): void;
  onJoined(place: Place, options: JoinOptions, auth: unknown): void;
  onTableFull(): void;
  onPersonLeft(seat: number): void;
  /** While a stand-in plays on for a person who left, the room stays open with nobody in it. */
  keepOpenWhenEmpty(kept: boolean): void;
  advance(): void;
}

export class Arrivals<JoinOptions> {
  constructor(
    private readonly table: ArrivingTable<JoinOptions>,
    private readonly seating: Seating<JoinOptions>,
    private readonly bots: { cancel(): void },
    private readonly records: { readonly kept: boolean },
  ) {}

  private get roster(): SeatRoster {
    return this.table.roster;
  }

  join(client: Client, rawOptions: unknown): void {
    const options = parseRoomOptions(this.table.joinOptions, rawOptions, "join");
    const place: Place = this.seating.take(client.sessionId, options);
    if (place === "watch") this.roster.addSpectator(client.sessionId);
    else this.seatPerson(client, place, this.table.personName(options, place));
    this.table.seatsChanged();
    this.table.onJoined(place, options, client.auth);
    if (this.roster.everySeatTaken()) this.table.onTableFull();
  }

  /**
   * Seats a person. One who joined as an account or a bot (docs/arena.md) sits under that identity's name,
   * whatever name the join asked for; a guest sits under the name given (the matchmaking route has refused a
   * guest's join under a registered name). Their view shows them the seat's hidden fields.
   */
  seatPerson(client: Client, seat: number, name: string): void {
    const identity = identityOf(client.auth);
    this.roster.seatPerson(seat, client.sessionId, identity.kind === "guest" ? name : identity.name, identity);
    const view = this.table.viewOfSeat(seat);
    if (view !== undefined) client.view = view;
    // A bot's pending move (or decision under way) is dropped: the person now has the turn clock.
    this.bots.cancel();
    this.table.advance();
  }

  async drop(client: Client): Promise<void> {
    const seat = this.roster.seatOf(client.sessionId);
    if (seat === undefined) return;
    // The turn clock keeps running while they are away.
    this.roster.setConnected(seat, false);
    this.table.seatsChanged();
    // A reconnection while this connection is still open (another program took the seat over with the token)
    // comes here too; the connection that lost the seat is told so once the newer one holds it.
    const connection = client.ref;
    const seconds = this.table.timings.reconnectSeconds;
    // The window ends with the player back, or rejects when it runs out (or the room closes); onLeave follows.
    const returned = await this.table.allowReconnection(client, seconds).catch(() => undefined);
    if (returned && returned.ref !== connection)
      closeIfOpen(connection, SEAT_TAKEN_OVER_CLOSE_CODE, "another connection took this seat over");
    // A window that runs out is the normal end of a seat whose player went away: worth a line, not an error.
    if (returned === undefined && !this.table.closing) {
      roomLog(this.table).info(
        { event: "seat_given_up", seat },
        `the seat's player did not come back within ${seconds} s; the seat is given up`,
      );
    }
  }

  reconnected(client: Client): void {
    const seat = this.roster.seatOf(client.sessionId);
    if (seat === undefined) return;
    this.roster.setConnected(seat, true);
    this.table.seatsChanged();
  }

  left(client: Client): void {
    forgetClient(this.table, client);
    // A patch sent while every connection closes reaches clients already tearing their state down.
    if (this.table.closing) return;
    if (this.roster.removeSpectator(client.sessionId)) return this.table.seatsChanged();
    const seat = this.roster.seatOf(client.sessionId);
    if (seat === undefined) return;
    this.table.onPersonLeft(seat);
    if (this.forfeitToKeep(seat)) this.table.keepOpenWhenEmpty(true);
    this.bots.cancel(); // a decision made for the person's clock is not the bot's to play now
    this.table.seatsChanged();
    this.table.advance();
  }

  /**
   * Whether the seat's stand-in must finish what its person left even with nobody left in the room, for its record
   * (their forfeit): the room would otherwise close with its last client, and leaving would escape the loss. A
   * guest's forfeit rates nobody, and without records nothing is kept: such a room closes as before.
   */
  private forfeitToKeep(seat: number): boolean {
    const held = this.roster.seats[seat];
    const rated = held?.left === true && held.identity !== undefined && held.identity.kind !== "guest";
    return rated && this.table.gameUnderWay() && this.records.kept;
  }
}

/** Closes a client's socket (the transport's WebSocket) with `code` unless it has closed already. */
function closeIfOpen(connection: unknown, code: number, reason: string): void {
  const socket = connection as { readyState?: number; close?: (code: number, reason: string) => void };
  const OPEN = 1;
  if (socket.readyState === OPEN) socket.close?.(code, reason);
}
