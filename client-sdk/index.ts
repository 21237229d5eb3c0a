/**
 * The cardhall client SDK: typed joins, spectating, reconnection and room listings for every cardhall room.
 * Built on @colyseus/sdk; it imports only the rooms' shared protocol definitions, never server code, and uses only
 * what browsers also have (WebSocket, fetch).
 */
import { Client, type Room } from "@colyseus/sdk";
import type { RoomListing } from "../rooms/cards/protocol";
import { EVENSTEVEN_ROOM, type EvenStevenJoinOptions } from "../rooms/evensteven/protocol";
import { toCardhallError } from "./errors";
import { EvenStevenPlayer, EvenStevenSpectator } from "./evensteven";

export { CardhallError } from "./errors";
export { RoomSession } from "./session";
export { EvenStevenPlayer, EvenStevenSpectator, type EvenStevenEvents } from "./evensteven";
export type { RoomListing } from "../rooms/cards/protocol";
export * from "../rooms/evensteven/protocol";

export class CardhallClient {
  readonly colyseus: Client;

  /** `url` is the server's WebSocket address, e.g. ws://127.0.0.1:2567. */
  constructor(readonly url: string) {
    this.colyseus = new Client(url);
  }

  /** The live rooms (GET /rooms), for spectators to pick one. */
  async listRooms(name?: string): Promise<RoomListing[]> {
    const httpUrl = this.url.replace(/^ws/, "http").replace(/\/$/, "");
    const response = await fetch(`${httpUrl}/rooms`);
    if (!response.ok) throw toCardhallError(new Error(`GET /rooms answered ${response.status}`));
    const rooms = (await response.json()) as RoomListing[];
    return name ? rooms.filter((room) => room.name === name) : rooms;
  }

  /** Creates an Even-Steven room and takes its player's seat; the first game starts at once. */
  async playEvenSteven(options: Omit<EvenStevenJoinOptions, "spectate"> = {}): Promise<EvenStevenPlayer> {
    return new EvenStevenPlayer(await this.joining(this.colyseus.create(EVENSTEVEN_ROOM, options)));
  }

  /** Watches any live Even-Steven room by id. */
  async spectateEvenSteven(roomId: string): Promise<EvenStevenSpectator> {
    return new EvenStevenSpectator(await this.joining(this.colyseus.joinById(roomId, { spectate: true })));
  }

  /** Takes an Even-Steven seat back after a dropped connection, with the session's `reconnectionToken`. */
  async reconnectEvenSteven(token: string): Promise<EvenStevenPlayer> {
    return new EvenStevenPlayer(await this.joining(this.colyseus.reconnect(token)));
  }

  private async joining(join: Promise<Room>): Promise<Room> {
    try {
      return await join;
    } catch (error) {
      throw toCardhallError(error);
    }
  }
}
