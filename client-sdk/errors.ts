import { MatchMakeError } from "@colyseus/sdk";
import {
  MATCHMAKING_RETRY_AFTER_SECONDS,
  SEAT_TAKEN_OVER_CLOSE_CODE,
  SERVER_SHUTDOWN_CLOSE_CODE,
  type ErrorReply,
} from "../rooms/kit/protocol";

/**
 * The codes the SDK itself gives, beside each room's own (NOT_IN_HAND, ILLEGAL_PLAY, ...):
 * - JOIN_REFUSED: the server answered a join, a create or a reconnection with a refusal (no such room, seat taken,
 *   bad options, reconnection window over); one that passes (the server at capacity, a database away, a server
 *   shutting down) carries `retryAfterMs`, the wait before asking again;
 * - CONNECTION: the server could not be reached, or the connection was lost;
 * - TIMEOUT, ABORTED: a wait ran out of time, or its AbortSignal aborted;
 * - LEFT: the session was left (`leave()`), so it can no longer act or wait;
 * - TAKEN_OVER: another connection took the seat over with the session's reconnection token;
 * - SHUT_DOWN: the server shut down and closed the table (a game still under way when its drain ran out); a new
 *   join goes to another process.
 */
export const SDK_ERROR_CODES = [
  "JOIN_REFUSED",
  "CONNECTION",
  "TIMEOUT",
  "ABORTED",
  "LEFT",
  "TAKEN_OVER",
  "SHUT_DOWN",
] as const;
export type SdkErrorCode = (typeof SDK_ERROR_CODES)[number];

/** Every failure the SDK reports: a room's typed error reply, a refused join, or a lost connection. */
export class CardhallError<Code extends string = string> extends Error {
  override name = "CardhallError";
  constructor(
    /** A room's error code (e.g. NOT_IN_HAND) or one of SDK_ERROR_CODES. */
    readonly code: Code,
    message: string,
    /** The message type that caused a room's error, when there is one. */
    readonly type?: string,
    /** For a JOIN_REFUSED that passes: how long to wait before asking again, in ms. Absent: asking again is refused again. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }

  static fromReply(reply: ErrorReply): CardhallError {
    return new CardhallError(reply.code, reply.message, reply.type);
  }
}

function isErrorReply(value: unknown): value is ErrorReply {
  return typeof value === "object" && value !== null && "code" in value && "message" in value;
}

/** WebSocket close codes 1000-1015 are the transport's own: a socket that closed while joining. */
function isTransportCloseCode(code: number): boolean {
  return code >= 1000 && code <= 1015;
}

/**
 * Whether a matchmaking failure is a network one. @colyseus/sdk gives a refusal the HTTP status or the matchmaker's
 * numeric code, and a failed request the network's error code (ECONNREFUSED, a string) or none at all (browsers).
 */
function isNetworkFailure(error: MatchMakeError): boolean {
  const code: unknown = error.code;
  return typeof code !== "number" || isTransportCloseCode(code);
}

/** A refusal with status 503: the server says it passes (rooms/kit/protocol.ts, MATCHMAKING_RETRY_AFTER_SECONDS). */
function passes(error: MatchMakeError): boolean {
  return error.code === 503;
}

/** Turns whatever a request or a join rejected with into a CardhallError. */
export function toCardhallError(error: unknown): CardhallError {
  if (error instanceof CardhallError) return error;
  const reason = (error as { reason?: unknown } | null)?.reason;
  if (isErrorReply(reason)) return CardhallError.fromReply(reason);
  if (error instanceof MatchMakeError && !isNetworkFailure(error))
    return new CardhallError(
      "JOIN_REFUSED",
      error.message,
      undefined,
      passes(error) ? MATCHMAKING_RETRY_AFTER_SECONDS * 1000 : undefined,
    );
  return new CardhallError("CONNECTION", error instanceof Error ? error.message : String(error));
}

/** What a session's end, by the close code of its connection, means to a program still using it. */
export function sessionEnd(closeCode: number): CardhallError {
  const CONSENTED = 4000; // Colyseus's code for a leave the client asked for
  const NORMAL_CLOSURE = 1000; // leave({ keepSeat: true })
  if (closeCode === CONSENTED) return new CardhallError("LEFT", "the session has left the room");
  if (closeCode === NORMAL_CLOSURE)
    return new CardhallError(
      "LEFT",
      "the session has left the room, keeping its seat for the room's reconnection window",
    );
  if (closeCode === SEAT_TAKEN_OVER_CLOSE_CODE)
    return new CardhallError("TAKEN_OVER", "another connection took this seat over with its reconnection token");
  if (closeCode === SERVER_SHUTDOWN_CLOSE_CODE)
    return new CardhallError("SHUT_DOWN", "the server shut down and closed the table");
  return new CardhallError("CONNECTION", `the connection to the room closed (code ${closeCode})`);
}
