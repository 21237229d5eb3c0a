/**
 * What an attacker has: HTTP requests, a raw @colyseus/sdk client, and the bytes of a WebSocket. The hardening tests
 * use these, never the cardhall SDK, so nothing the SDK does politely hides what the server allows.
 */
import * as http from "node:http";
import * as net from "node:net";
import { Client, type Room } from "@colyseus/sdk";
import { waitUntil } from "../helpers";

export interface HttpAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * POST /matchmake/<method>/<target> with a JSON body (or the raw text given), from `from` (a loopback address: any
 * of 127.0.0.0/8 reaches the server, so a test can play clients at different addresses), with any extra headers.
 */
export function matchmake(
  httpUrl: string,
  method: string,
  target: string,
  body: unknown = {},
  from = "127.0.0.1",
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const url = new URL(`${httpUrl}/matchmake/${method}/${target}`);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        localAddress: from,
        headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(text) },
      },
      (response) => {
        let answer = "";
        response.on("data", (chunk: Buffer) => (answer += chunk.toString()));
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(answer) as Record<string, unknown> }),
        );
      },
    );
    request.on("error", reject);
    request.end(text);
  });
}

export interface Listing {
  roomId: string;
  locked: boolean;
  metadata: Record<string, unknown> | null;
}

export async function listRooms(httpUrl: string): Promise<Listing[]> {
  return (await (await fetch(`${httpUrl}/rooms`)).json()) as Listing[];
}

/** A seat reservation as the matchmaking route answers it. */
export type Reservation = Parameters<Client["consumeSeatReservation"]>[0];

/** Connects with a reservation got over HTTP, as the SDK would after its own matchmaking request; waits for the state. */
export async function consume(url: string, reservation: Reservation): Promise<Room> {
  const room = await new Client(url).consumeSeatReservation(reservation);
  room.onMessage("*", () => undefined);
  await waitUntil(
    () => room.state !== undefined && Object.keys(room.state as object).length > 0,
    5000,
    "the first state",
  );
  return room;
}

/** Joins by id with a raw client, hearing every message. */
export async function joinRaw(url: string, roomId: string, options: Record<string, unknown> = {}): Promise<Room> {
  const room = await new Client(url).joinById(roomId, options);
  room.onMessage("*", () => undefined);
  return room;
}

/** The room's socket, to send bytes no SDK would. */
export function socketOf(room: Room): {
  send(data: Uint8Array | string): void;
  close(): void;
  readyState: number;
  url: string;
} {
  return (
    room.connection as unknown as {
      transport: { ws: { send(data: Uint8Array | string): void; close(): void; readyState: number; url: string } };
    }
  ).transport.ws;
}

/** The port a joined room's socket connected to: the one its seat reservation named. */
export function socketPortOf(room: Room): number {
  return Number(new URL(socketOf(room).url).port);
}

/** The rooms a test opened, left at its end (those whose socket is still open). */
export class OpenRooms {
  private readonly rooms: Room[] = [];

  track(room: Room): Room {
    this.rooms.push(room);
    return room;
  }

  async leaveAll(): Promise<void> {
    const OPEN = 1;
    const open = this.rooms.splice(0).filter((room) => socketOf(room).readyState === OPEN);
    await Promise.all(open.map((room) => room.leave().catch(() => undefined)));
  }
}

/** A seat at a new table of `game`, reserved over HTTP (the reservation is not consumed). */
export async function reserveNewTable(
  httpUrl: string,
  game: string,
  options: Record<string, unknown> = {},
): Promise<Reservation> {
  const answer = await matchmake(httpUrl, "create", game, options);
  if (answer.status !== 200)
    throw new Error(`creating a ${game} table was refused: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as unknown as Reservation;
}

/** The decoded state, as plain data. */
export function stateOf(room: Room): Record<string, unknown> {
  return JSON.parse(JSON.stringify((room.state as { toJSON(): unknown }).toJSON())) as Record<string, unknown>;
}

export interface RawAnswer {
  status: number;
  body: string;
}

/**
 * A POST whose body is `declared` bytes long (or of undeclared length, sent chunked, when `declared` is null), of
 * which only the first 64 KiB are ever sent: an answer shows the server refused it without waiting for the rest.
 */
export function postOversizeBody(port: number, path: string, declared: number | null): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { "content-type": "application/json" };
    if (declared !== null) headers["content-length"] = declared;
    const request = http.request({ host: "127.0.0.1", port, path, method: "POST", headers });
    request.on("response", (response) => {
      let body = "";
      response.on("data", (data: Buffer) => (body += data.toString()));
      response.on("end", () => {
        resolve({ status: response.statusCode ?? 0, body });
        request.destroy();
      });
    });
    request.on("error", reject);
    request.write(Buffer.alloc(64 * 1024, "["));
  });
}

/** Opens a TCP connection that never sends a byte; resolves once the server closes it (or rejects after `boundMs`). */
export function idleConnection(port: number, boundMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept an idle connection open for ${boundMs} ms`));
    }, boundMs);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve();
    });
    socket.on("error", () => undefined);
  });
}
