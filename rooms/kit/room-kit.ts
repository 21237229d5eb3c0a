/**
 * Server-side helpers every room uses to turn client messages into engine calls safely: each message is checked
 * against its one definition, and anything wrong is answered with a typed error that changes nothing.
 */
import {
  getMessageBytes,
  Protocol,
  ResponseStatus,
  ServerError,
  type Client,
  type Room,
  type RoomMethodName,
} from "@colyseus/core";
import type { z } from "zod";
import { describeIssues, ERROR_MESSAGE, type ErrorReply, type MessageDefinition, type PayloadOf } from "./protocol";
import { DEFAULT_RATE_BUDGET, RateLimiter, type RateBudget } from "./rate-limit";
import { roomLog } from "./log";
import { refuseFrame, type FrameScreen, type MessageFrame } from "./frames";
import { tableMetrics } from "./metrics";
import { stateHandshakeOf, useStateBuffers, type StateBuffers } from "./colyseus-internals";

/** Thrown by a message handler to refuse a message; the room replies with an error and nothing changes. */
export class Rejection<Code extends string = string> extends Error {
  constructor(
    readonly code: Code,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The answer a request (`room.request()`) is owed: refused with an error reply, or, once its handler has run,
 * answered with what the handler returned. A plain send (`room.send()`) has none.
 */
class RequestReply {
  private answered = false;

  constructor(
    private readonly client: Client,
    readonly id: number,
  ) {}

  reject(reply: ErrorReply): void {
    if (this.answered) return;
    this.answered = true;
    refuseFrame(this.client, this.id, reply);
  }

  /** Answers with the handler's result, unless the request was refused. */
  resolve(result: unknown): void {
    if (this.answered) return;
    this.answered = true;
    this.client.enqueueRaw(getMessageBytes[Protocol.ROOM_RESPONSE](this.id, ResponseStatus.OK, result));
  }
}

/** Answers a bad message: a rejected reply to `room.request()`, or an `error` message after `room.send()`. */
function replyError(client: Client, request: RequestReply | undefined, reply: ErrorReply): void {
  if (request !== undefined) request.reject(reply);
  else client.send(ERROR_MESSAGE, reply);
}

/** Refuses a message (counted by code for the metrics) and answers it with the error. */
function refuse(room: Room, client: Client, request: RequestReply | undefined, reply: ErrorReply): void {
  tableMetrics().refused(room.roomName, reply.code);
  replyError(client, request, reply);
}

const limiters = new WeakMap<Room, RateLimiter>();

/** Sets the room's per-client message budget (call before any message arrives; the default is DEFAULT_RATE_BUDGET). */
export function limitMessages(room: Room, budget: RateBudget = DEFAULT_RATE_BUDGET): RateLimiter {
  const limiter = new RateLimiter(budget);
  limiters.set(room, limiter);
  return limiter;
}

function limiterOf(room: Room): RateLimiter {
  return limiters.get(room) ?? limitMessages(room);
}

/** Forgets a client's budget once it has left the room. */
export function forgetClient(room: Room, client: Client): void {
  limiters.get(room)?.forget(client.sessionId);
}

/**
 * Takes one message from the client's budget; when it is spent, answers RATE_LIMITED (every request; a plain send
 * once a second) and returns false: the message goes no further.
 */
function withinBudget(room: Room, client: Client, request: RequestReply | undefined, type: string): boolean {
  const limiter = limiterOf(room);
  if (limiter.allow(client.sessionId)) return true;
  const reply: ErrorReply = {
    code: "RATE_LIMITED",
    message: "too many messages: slow down (the room ignored this one)",
    type,
  };
  tableMetrics().refused(room.roomName, reply.code);
  if (request !== undefined) request.reject(reply);
  else if (limiter.shouldAnswer(client.sessionId)) client.send(ERROR_MESSAGE, reply);
  return false;
}

/** A room's handler of one message type: what it returns is a request's answer. */
type MessageHandler = (client: Client, payload: unknown, request: RequestReply | undefined) => unknown;

/** Each room's handlers, by message type (handleMessage registers them, deliverMessage calls them). */
const handlersOfRoom = new WeakMap<Room, Map<string, MessageHandler>>();

/**
 * Registers the handler for one defined message. The client's message budget is checked first, then the payload;
 * a handler that throws a Rejection must do so before it changes any state. A request gets `{ ok: true }` (or the
 * handler's result), after the state patch that carries the handler's changes.
 */
export function handleMessage<M extends MessageDefinition>(
  room: Room,
  definition: M,
  handler: (client: Client, payload: PayloadOf<M>) => unknown,
): void {
  let handlers = handlersOfRoom.get(room);
  if (handlers === undefined) handlersOfRoom.set(room, (handlers = new Map()));
  handlers.set(definition.name, (client, raw, request) => {
    if (!withinBudget(room, client, request, definition.name)) return;
    const parsed = definition.payload.safeParse(raw ?? {});
    if (!parsed.success) {
      return refuse(room, client, request, {
        code: "BAD_PAYLOAD",
        message: describeIssues(parsed.error),
        type: definition.name,
      });
    }
    const started = performance.now();
    try {
      const result = handler(client, parsed.data as PayloadOf<M>) ?? { ok: true };
      // The move's state change leaves now, in the same socket write as its events (the transport batches a
      // callback's sends), instead of waiting up to a patch interval and costing every client a second write.
      room.broadcastPatch();
      tableMetrics().messageHandled(room.roomName, definition.name, (performance.now() - started) / 1000);
      return result;
    } catch (error) {
      // Anything but a refusal is the room's own failure, not the client's: reported, and answered SERVER_ERROR.
      if (!(error instanceof Rejection)) return failed(room, client, request, definition.name, error);
      return refuse(room, client, request, { code: error.code, message: error.message, type: definition.name });
    }
  });
}

/**
 * Hands a message of a type the room defines (read whole by the frame screen, frames.ts) to its handler, and answers
 * a request with the handler's result. The kit dispatches its rooms' messages itself: Colyseus's dispatch would
 * decode each payload a second time, after the screen, and go through its own registry of handlers on every room.
 */
function deliverMessage(room: Room, client: Client, frame: MessageFrame): void {
  const type = String(frame.type);
  const request = frame.requestId === undefined ? undefined : new RequestReply(client, frame.requestId);
  const handle = handlersOfRoom.get(room)?.get(type);
  if (handle === undefined) {
    // A type the room's game defines but this room never registered (none does today): as unknown as any other.
    return refuse(room, client, request, {
      code: "UNKNOWN_MESSAGE",
      message: `this room does not take "${type}" messages`,
      type,
    });
  }
  try {
    const result = handle(client, frame.payload, request);
    // A request refused or failed was answered already (RequestReply answers once).
    request?.resolve(result);
  } catch (error) {
    // The handler's own failures are caught in it (handleMessage); this is for the kit's steps around it.
    failed(room, client, request, type, error);
  }
}

/**
 * A message the room failed on: the failure is reported by kind alone (reportFailure), and the client told so with
 * SERVER_ERROR, a request rejected and a send answered with an error message, so a program is not left waiting or
 * guessing. The table may hold what the handler changed before it failed: the next patch shows it.
 */
function failed(room: Room, client: Client, request: RequestReply | undefined, type: string, error: unknown): void {
  reportFailure(room, "onMessage", error);
  refuse(room, client, request, {
    code: "SERVER_ERROR",
    message:
      "the server failed to handle this (its fault, not yours, and reported); the table shows where the game stands",
    type,
  });
}

/**
 * How often a room sweeps its state for changes nobody sent. Every change is sent when it is made — after each
 * message (handleMessage), each timer (RoomTimer) and each join, drop, return and leave (lifecycleStep) — so the
 * sweep only bounds the delay of a change made on some other path. Colyseus's default sweeps 20 times a second in
 * every room, and the sweep is also what ticks the room's clock: a thousand rooms made twenty thousand wake-ups a
 * second, a tenth of the server's CPU under load. Once a second was still 4% of the main thread at
 * 6,500 tables: Colyseus's patch machinery runs for every room even when nothing changed. Colyseus's own
 * timers (reconnection windows, a room's disposal) are the process's, not the room's clock, so nothing waits on it.
 */
export const SWEEP_PATCH_MS = 10_000;

/**
 * Runs one of a room's lifecycle steps (a join, a drop, a return, a leave: each changes the state), the way the
 * table kit's class runs them all, once for every room (rooms/kit/table.ts): what the step changed is sent when its
 * synchronous part returns, throws or starts waiting (an onDrop that then waits for the player's return has already
 * marked them away), with the slow sweep (SWEEP_PATCH_MS) behind everything; whatever it throws, or its promise
 * rejects with, is reported (reportFailure) and handed back to Colyseus, which refuses the join or ends the leave.
 */
export function lifecycleStep<T>(room: Room, step: RoomMethodName, run: () => T): T {
  try {
    const result = run();
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        reportFailure(room, step, error);
        throw error;
      }) as T;
    }
    return result;
  } catch (error) {
    reportFailure(room, step, error);
    throw error;
  } finally {
    room.broadcastPatch();
  }
}

/**
 * Each room's timers: the room's end cancels them all, so no action of a timer runs on a disposed room. A room makes
 * its few timers once, as it is set up: a list of them is all it needs (a Set would be a hash table a room).
 */
const timersOfRoom = new WeakMap<Room, RoomTimer[]>();

/** Cancels every RoomTimer of the room (the table kit does it when the room is disposed). */
export function clearRoomTimers(room: Room): void {
  for (const timer of timersOfRoom.get(room) ?? []) timer.clear();
}

/**
 * One of a room's one-shot timers (a turn clock, a bot's or the AI's pause, a paced deal). It runs on the
 * process's timers, not the room's clock: the clock fires only when something ticks it, which with the slow sweep
 * above would be once a second. After the action, the state's changes are sent at once; an exception in the action
 * is reported (reportFailure), like one in a message handler.
 */
export class RoomTimer {
  private pending: ReturnType<typeof setTimeout> | undefined;
  private action: ((this: unknown) => void) | undefined;
  private target: unknown;
  /**
   * What every timeout of this timer runs, made once: a closure made at each start would live as long as its
   * timeout (a turn clock's, seconds), long enough to be promoted to the old generation at every move.
   */
  private readonly fire = (): void => {
    const action = this.action;
    const target = this.target;
    this.pending = undefined;
    this.action = undefined;
    this.target = undefined;
    try {
      action?.call(target);
      this.room.broadcastPatch();
    } catch (error) {
      reportFailure(this.room, "setTimeout", error);
    }
  };

  constructor(private readonly room: Room) {
    const timers = timersOfRoom.get(room);
    if (timers === undefined) timersOfRoom.set(room, [this]);
    else timers.push(this);
  }

  /**
   * Runs `action` in `delayMs` (called on `target`, if given: a method needs no closure made for it), replacing the
   * action pending, if any.
   */
  start<Target>(delayMs: number, action: (this: Target) => void, target?: Target): void {
    this.clear();
    this.action = action as (this: unknown) => void;
    this.target = target;
    this.pending = setTimeout(this.fire, delayMs);
  }

  get isPending(): boolean {
    return this.pending !== undefined;
  }

  /** Cancels the pending action (nothing happens if none is). */
  clear(): void {
    if (this.pending !== undefined) clearTimeout(this.pending);
    this.pending = undefined;
    this.action = undefined;
    this.target = undefined;
  }
}

/** Each state class's handshake: the reflection of its types (see shareStateHandshake). */
const handshakes = new WeakMap<object, Uint8Array>();

/**
 * Every joining client gets the reflection of the room's state types, from which it learns to decode the state.
 * It is the same for every room of a game, yet Colyseus makes it once per room: 0.2 ms of CPU for an Even-Steven
 * room, 0.7 for a Tractor table, a good share of what a short game costs the server. It is made
 * here once per state class and handed to each new room's serializer (stateHandshakeOf, rooms/kit/colyseus-internals.ts:
 * its cache, which it fills itself otherwise; room creation fails loudly if it is gone). Call once the state is set.
 */
export function shareStateHandshake(room: Room): void {
  const state = room.state as object | undefined;
  if (state === undefined) return;
  const handshake = stateHandshakeOf(room);
  const known = handshakes.get(state.constructor);
  if (known !== undefined) handshake.use(known);
  else handshakes.set(state.constructor, handshake.make());
}

/**
 * Bytes enough for any state a room encodes at once: the largest full state of any game is about 1 KB (a Tractor
 * round late in play) and a patch with every seat's view a few hundred bytes more. A state that outgrew them would
 * still encode (the encoder grows its own copy, with a warning from @colyseus/schema).
 */
const SHARED_STATE_BUFFER_BYTES = 64 * 1024;

/** The process's state buffers, one for every room's patches and one for every room's full states (see shareStateBuffers). */
const sharedStateBuffers: StateBuffers = {
  patch: new Uint8Array(SHARED_STATE_BUFFER_BYTES),
  full: new Uint8Array(SHARED_STATE_BUFFER_BYTES),
};

/**
 * Colyseus gives every room two buffers of its own to encode its state into, a patch's and a full state's (8 KB a
 * room at the kit's Encoder.BUFFER_SIZE, rooms/kit/table.ts). Yet a
 * room encodes and sends in one synchronous step — a patch is encoded, then written to each client's socket, which
 * takes its own copy (server/transport/transport.ts, ownedFrame) — so no two rooms ever use their buffers at once, and one
 * pair serves them all. The one thing a room kept in its buffers between two steps, the full state it sent the last
 * client to join (reused for the next while nothing changed), is now encoded again for each join: a join costs
 * one encoding of a state of at most 1 KB more, and no room can be handed another's bytes (useStateBuffers,
 * rooms/kit/colyseus-internals.ts: room creation fails loudly if the serializer's members are gone). Call once the
 * state is set.
 */
export function shareStateBuffers(room: Room): void {
  if (room.state === undefined) return;
  useStateBuffers(room, sharedStateBuffers);
}

/**
 * The screen of a room class whose rooms understand `known`: every message type they do not define (`*` included)
 * is answered with an UNKNOWN_MESSAGE error, for a send and for a request alike, and every frame that does not decode
 * with BAD_PAYLOAD (see frames.ts). Refusals take from the client's message budget like any message. Put in place
 * with screenFrames (frames.ts).
 */
export function screenOfMessages(
  known: readonly MessageDefinition[],
  joined?: (room: Room, client: Client) => void,
): FrameScreen {
  return {
    known: new Set(known.map((definition) => definition.name)),
    describeKnown: known.map((definition) => definition.name).join(", "),
    withinBudget: (room, client, requestId, type) =>
      withinBudget(room, client, requestId === undefined ? undefined : new RequestReply(client, requestId), type),
    deliver: deliverMessage,
    joined,
  };
}

/**
 * The refusal codes for bad room options. A room is created during the HTTP matchmaking request, so a refusal there
 * must be an HTTP status to reach the client intact; a join is refused in the WebSocket handshake, with a close code.
 */
export const OPTIONS_REFUSED = { create: 400, join: 4400 } as const;

/**
 * Options already checked, by the object the client's options arrived as: a join's are read when the matchmaking
 * route asks the table, when its seat is reserved and when it joins, the very same object each time in one process
 * (a parse cost 45–100 µs a call in a busy server). Only what passed is kept, and only for
 * as long as the object lives. Nothing changes a client's options once they are parsed from its request.
 */
const checkedOptions = new WeakMap<object, { readonly schema: z.ZodType<unknown>; readonly data: unknown }>();

/** The room's options checked against their schema; bad ones refuse the create or join with a sentence naming the field. */
export function parseRoomOptions<T>(schema: z.ZodType<T>, raw: unknown, when: keyof typeof OPTIONS_REFUSED): T {
  const keyed = typeof raw === "object" && raw !== null ? raw : undefined;
  const checked = keyed === undefined ? undefined : checkedOptions.get(keyed);
  if (checked !== undefined && checked.schema === schema) return checked.data as T;
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) throw new ServerError(OPTIONS_REFUSED[when], `bad options: ${describeIssues(parsed.error)}`);
  if (keyed !== undefined) checkedOptions.set(keyed, { schema, data: parsed.data });
  return parsed.data;
}

/** What the kit runs for a room outside Colyseus's lifecycle steps. */
export type KitStep = "updateListing";

/**
 * What the kit does with anything a room's handler, lifecycle step or timer throws: keep the process up. A refused
 * join (ServerError) is expected and not logged; anything else is logged by step and kind only, never its message,
 * which may name hidden cards. The kit's rooms do not set Colyseus's onUncaughtException: Colyseus would then wrap
 * seven lifecycle methods, two clock methods and every message handler again on each room instance (about 3 KB a
 * room), where the kit catches once, in its class.
 */
export function reportFailure(room: Room, step: RoomMethodName | KitStep, error: unknown): void {
  if (error instanceof ServerError) return;
  const kind = error instanceof Error ? error.name : typeof error;
  roomLog(room).error({ event: "handler_failed", step, kind }, `${step} failed (${kind})`);
}
