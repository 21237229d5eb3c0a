/**
 * Server-side helpers every room uses to turn client messages into engine calls safely: each message is checked
 * against its one definition, and anything wrong is answered with a typed error that changes nothing.
 */
import { ServerError, type Client, type MessageContext, type Room, type RoomException, type RoomMethodName } from "@colyseus/core";
import type { z } from "zod";
import { describeIssues, ERROR_MESSAGE, type ErrorReply, type MessageDefinition, type PayloadOf } from "./protocol";

/** Thrown by a message handler to refuse a message; the room replies with an error and nothing changes. */
export class Rejection<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
  ) {
    super(message);
  }
}

/** Answers a bad message: a rejected reply to `room.request()`, or an `error` message after `room.send()`. */
function replyError(client: Client, ctx: MessageContext, reply: ErrorReply): void {
  if (ctx.id !== undefined) ctx.reject(reply);
  else client.send(ERROR_MESSAGE, reply);
}

/**
 * Registers the handler for one defined message. The payload is validated first; a handler that throws a
 * Rejection must do so before it changes any state. A request gets `{ ok: true }` (or the handler's result), after
 * the state patch that carries the handler's changes.
 */
export function handleMessage<M extends MessageDefinition>(
  room: Room,
  definition: M,
  handler: (client: Client, payload: PayloadOf<M>) => unknown,
): void {
  room.onMessage(definition.name, (client: Client, raw: unknown, ctx: MessageContext) => {
    const parsed = definition.payload.safeParse(raw ?? {});
    if (!parsed.success) {
      return replyError(client, ctx, { code: "BAD_PAYLOAD", message: describeIssues(parsed.error), type: definition.name });
    }
    try {
      const result = handler(client, parsed.data as PayloadOf<M>) ?? { ok: true };
      // The move's state change leaves now, in the same socket write as its events (the transport batches a
      // callback's sends), instead of waiting up to a patch interval and costing every client a second write.
      room.broadcastPatch();
      return result;
    } catch (error) {
      if (!(error instanceof Rejection)) throw error;
      return replyError(client, ctx, { code: error.code, message: error.message, type: definition.name });
    }
  });
}

/** Answers every message type the room does not define with an UNKNOWN_MESSAGE error. */
export function rejectUnknownMessages(room: Room, known: readonly MessageDefinition[]): void {
  const names = known.map((definition) => definition.name).join(", ");
  room.onMessage("*", (client: Client, type: string | number) => {
    client.send(ERROR_MESSAGE, {
      code: "UNKNOWN_MESSAGE",
      message: `this room has no message "${String(type)}" (it understands: ${names})`,
      type: String(type),
    } satisfies ErrorReply);
  });
}

/**
 * The refusal codes for bad room options. A room is created during the HTTP matchmaking request, so a refusal there
 * must be an HTTP status to reach the client intact; a join is refused in the WebSocket handshake, with a close code.
 */
export const OPTIONS_REFUSED = { create: 400, join: 4400 } as const;

/** The room's options checked against their schema; bad ones refuse the create or join with a sentence naming the field. */
export function parseRoomOptions<T>(schema: z.ZodType<T>, raw: unknown, when: keyof typeof OPTIONS_REFUSED): T {
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) throw new ServerError(OPTIONS_REFUSED[when], `bad options: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

/**
 * What every room's onUncaughtException does: keep the process up whatever goes wrong in a handler or a timer.
 * A refused join (ServerError) is expected and not logged; anything else is logged by step and kind only, never
 * its message, which may name hidden cards.
 */
export function reportUncaught(room: Room, error: RoomException, methodName: RoomMethodName): void {
  if (error.cause instanceof ServerError) return;
  const kind = error.cause instanceof Error ? error.cause.name : error.name;
  console.error(`${room.roomName} room ${room.roomId}: ${methodName} failed (${kind})`);
}
