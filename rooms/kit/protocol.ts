/**
 * What every room's protocol shares: how a message is defined once (name + payload schema), and the shape of
 * the typed error a room sends back for a bad message. Imported by the rooms and by client-sdk/, so it must stay
 * free of server code (no Colyseus server, no Node-only modules).
 */
import type { z } from "zod";

/** The message type a room uses to answer a bad `send()` (a `request()` is rejected with the same payload). */
export const ERROR_MESSAGE = "error";

/**
 * State checks, for load tests and hostile suites: a server started with STATE_CHECK_EVERY=N sends one client in N
 * (chosen by its session id) a `stateCheck` after each patch that changed what that client should hold: the digest
 * of its table's state view for it (`viewDigest` in rooms/kit/views.ts). The message follows the patch on the same
 * socket, so a client that has decoded the patch right holds a state with that digest. Off by default.
 */
export const STATE_CHECK_MESSAGE = "stateCheck";

export interface StateCheck {
  /** viewDigest of the state view this client must now hold. */
  digest: string;
}

/** Error codes every room uses; each game adds its own. */
export const COMMON_ERROR_CODES = [
  "UNKNOWN_MESSAGE", // no such message type in this room
  "BAD_PAYLOAD", // the payload does not have the documented shape
  "NOT_A_PLAYER", // a spectator (or a client without a seat) tried to act
  "NOT_YOUR_TURN", // the sender may not act now
  "RATE_LIMITED", // the sender is over its message budget (20 a second, bursts of 40): the message was ignored
  "SERVER_ERROR", // the room failed while handling the message: the server's fault, reported to its operators
] as const;
export type CommonErrorCode = (typeof COMMON_ERROR_CODES)[number];

/**
 * The WebSocket close code a seat's connection gets when another connection takes the seat over with the seat's
 * reconnection token: the newer connection plays on, the older one is closed with this code (and not retried).
 */
export const SEAT_TAKEN_OVER_CLOSE_CODE = 4101;

/**
 * The WebSocket close code of a table closed by its server shutting down (SIGTERM): the server lets a game under
 * way finish for up to DRAIN_TIMEOUT seconds, then closes the tables still playing with this code. It is Colyseus's
 * own SERVER_SHUTDOWN code, which its client does not try to reconnect after; a client may join a new table at once
 * (another process of the cluster takes it).
 */
export const SERVER_SHUTDOWN_CLOSE_CODE = 4001;

/** The payload of an error reply: a stable code for programs and a sentence for people. */
export interface ErrorReply<Code extends string = string> {
  code: Code;
  message: string;
  /** The message type that caused the error. */
  type: string;
}

/** One client-to-room message: its name and the schema its payload must satisfy. */
export interface MessageDefinition<Name extends string = string, Payload extends z.ZodType = z.ZodType> {
  readonly name: Name;
  readonly payload: Payload;
}

export function defineMessage<Name extends string, Payload extends z.ZodType>(
  name: Name,
  payload: Payload,
): MessageDefinition<Name, Payload> {
  return { name, payload };
}

export type PayloadOf<M extends MessageDefinition> = z.infer<M["payload"]>;

/** Describes a validation failure in one sentence, e.g. `card: expected string, received number`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message))
    .join("; ");
}

/** A card-game table's listing, as GET /rooms returns it. */
export interface RoomListing {
  roomId: string;
  name: string;
  clients: number;
  maxClients: number;
  locked: boolean;
  metadata: Record<string, unknown> | null;
}

/** The room the web page's lobby joins: Colyseus's LobbyRoom, told by each table of every change to its listing. */
export const LOBBY_ROOM = "lobby";

/**
 * A matchmaking request refused for a reason that passes (503: the server at capacity, a database away, a server
 * shutting down) is answered with `Retry-After` of this many seconds. The SDK gives the same wait to its
 * JOIN_REFUSED as `retryAfterMs`: @colyseus/sdk does not hand a response's headers on to its caller.
 */
export const MATCHMAKING_RETRY_AFTER_SECONDS = 5;

/**
 * Who a rated queue admits (docs/arena.md): `everyone` (people's accounts and bots alike), `people` only (no
 * bot, and no house bot fills its tables), or `bots` only.
 */
export const QUEUE_ADMITS = ["everyone", "people", "bots"] as const;
export type QueueAdmits = (typeof QUEUE_ADMITS)[number];

/** The rated queue of a game for whom it admits: a Colyseus QueueRoom under this name (`fool-queue`, `tractor-queue-people`...). */
export function queueRoomName(game: string, admits: QueueAdmits = "everyone"): string {
  return admits === "everyone" ? `${game}-queue` : `${game}-queue-${admits}`;
}
