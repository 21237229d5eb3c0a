import { MatchMakeError } from "@colyseus/sdk";
import type { ErrorReply } from "../rooms/kit/protocol";

/** Every failure the SDK reports: a room's typed error reply, a refused join, or a lost connection. */
export class CardhallError<Code extends string = string> extends Error {
  override name = "CardhallError";
  constructor(
    /** A room's error code (e.g. NOT_IN_HAND), JOIN_REFUSED, CONNECTION, or a wait's TIMEOUT or ABORTED. */
    readonly code: Code,
    message: string,
    /** The message type that caused a room's error, when there is one. */
    readonly type?: string,
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

/** Turns whatever a request or a join rejected with into a CardhallError. */
export function toCardhallError(error: unknown): CardhallError {
  if (error instanceof CardhallError) return error;
  const reason = (error as { reason?: unknown } | null)?.reason;
  if (isErrorReply(reason)) return CardhallError.fromReply(reason);
  if (error instanceof MatchMakeError) return new CardhallError("JOIN_REFUSED", error.message);
  return new CardhallError("CONNECTION", error instanceof Error ? error.message : String(error));
}
