/**
 * Every frame a client sends a room is read here before Colyseus dispatches it. Colyseus 0.18 leaves three gaps:
 * - a request of a type nobody handles is answered `no_handler` without a code, and one named `*` reaches the
 *   room's wildcard handler and resolves as if accepted (its wildcard only catches plain sends);
 * - a frame whose payload does not decode is logged with its stack and the client's bytes, then the client is
 *   dropped; a truncated frame can throw out of the socket's listener;
 * - frames of kinds a card table never uses (raw bytes, inputs, unknown codes) are dropped or closed on silently.
 * So the kit reads the frame's kind, type and payload first: a message of a type the room defines goes to the kit's
 * handler for it (room-kit.ts, decoded once: Colyseus's dispatch would decode it again), a control frame (join,
 * ping, leave) to Colyseus; any other type, `*` included, is refused with UNKNOWN_MESSAGE, for a send and a request alike; a frame
 * that does not decode is refused with BAD_PAYLOAD; and a refused frame of the last two kinds is worth at most one
 * rate-limited log line, saying its kind and length, never its bytes.
 *
 * Colyseus 0.18 has no public way to see a frame before it is dispatched, so the screen replaces the rooms' private
 * dispatch on their class (wrapOnMessage, rooms/kit/colyseus-internals.ts), which fails loudly when the class is
 * loaded if it is gone.
 */
import { tableMetrics } from "./metrics";
import { ClientState, getMessageBytes, Protocol, ResponseStatus, type Client, type Room } from "@colyseus/core";
import { decode, type Iterator } from "./schema";
import { unpack } from "msgpackr";
import { ERROR_MESSAGE, type ErrorReply } from "./protocol";
import { logRefusal } from "./log";
import { wrapOnMessage, type OnMessage } from "./colyseus-internals";

/** The low five bits of a frame's first byte are its kind (the high three are modifiers a table never uses). */
const KIND_MASK = 0x1f;

/** Kinds that carry no type or payload and that Colyseus handles itself. */
const CONTROL_KINDS: ReadonlySet<number> = new Set([Protocol.JOIN_ROOM, Protocol.PING, Protocol.LEAVE_ROOM]);

/** A message (a send, or a request when it has an id), read whole: its payload is decoded here, once. */
export interface MessageFrame {
  readonly kind: "message";
  readonly requestId: number | undefined;
  readonly type: string | number;
  readonly payload: unknown;
}

/** What a client's frame is, read without trusting a byte of it. */
export type Frame =
  | { readonly kind: "control" }
  | MessageFrame
  | {
      readonly kind: "junk";
      readonly why: "empty" | "unknown kind" | "bytes message" | "undecodable";
      readonly requestId?: number;
      readonly type?: string | number;
    };

function readType(buffer: Buffer, it: Iterator): string | number {
  return decode.stringCheck(buffer, it) ? decode.string(buffer, it) : decode.number(buffer, it);
}

function isWhole(buffer: Buffer, it: Iterator, value: unknown): boolean {
  return it.offset <= buffer.length && (typeof value === "string" || Number.isFinite(value));
}

/** Reads a frame's kind, request id, type and payload. */
export function readFrame(buffer: Buffer | undefined): Frame {
  if (!buffer || buffer.length === 0) return { kind: "junk", why: "empty" };
  const code = buffer[0];
  if (CONTROL_KINDS.has(code)) return { kind: "control" };
  if ((code & KIND_MASK) === Protocol.ROOM_DATA_BYTES) return { kind: "junk", why: "bytes message" };
  if (code !== Protocol.ROOM_DATA && code !== Protocol.ROOM_REQUEST) return { kind: "junk", why: "unknown kind" };
  const it: Iterator = { offset: 1 };
  let requestId: number | undefined;
  let type: string | number | undefined;
  try {
    if (code === Protocol.ROOM_REQUEST) {
      requestId = decode.number(buffer, it);
      if (!isWhole(buffer, it, requestId)) return { kind: "junk", why: "undecodable" };
    }
    type = readType(buffer, it);
    if (!isWhole(buffer, it, type)) return { kind: "junk", why: "undecodable", requestId };
    const payload: unknown = buffer.length > it.offset ? unpack(buffer.subarray(it.offset)) : undefined;
    return { kind: "message", requestId, type, payload };
  } catch {
    return { kind: "junk", why: "undecodable", requestId, type };
  }
}

/** The longest message type echoed back in a refusal. */
const TYPE_ECHO_LENGTH = 64;

function echoedType(type: string | number | undefined): string {
  return type === undefined ? "" : String(type).slice(0, TYPE_ECHO_LENGTH);
}

/** Answers a refused frame: a rejected request, or an error message after a send. */
export function refuseFrame(client: Client, requestId: number | undefined, reply: ErrorReply): void {
  if (requestId !== undefined)
    client.enqueueRaw(getMessageBytes[Protocol.ROOM_RESPONSE](requestId, ResponseStatus.REJECTED, reply));
  else client.send(ERROR_MESSAGE, reply);
}

export interface FrameScreen {
  /** The message types the room defines. */
  readonly known: ReadonlySet<string>;
  /** Takes one message from the client's budget; false when spent (the caller has already answered). */
  readonly withinBudget: (room: Room, client: Client, requestId: number | undefined, type: string) => boolean;
  readonly describeKnown: string;
  /** Hands a message of a known type to the room's handler (Colyseus's dispatch is left for the control frames). */
  readonly deliver: (room: Room, client: Client, frame: MessageFrame) => void;
  /** A client's join acknowledged: it holds the full state now (Colyseus sent it in this same dispatch). */
  readonly joined?: (room: Room, client: Client) => void;
}

/**
 * Puts the screen in front of Colyseus's dispatch of every frame the rooms of a class receive: `rooms` is the class's
 * prototype, so the screen is put in place once for all of them (not a closure on each room), and `screenOf` names
 * a room's screen when a frame comes.
 */
export function screenFrames(rooms: Room, screenOf: (room: Room) => FrameScreen): void {
  wrapOnMessage(
    rooms,
    (dispatch): OnMessage =>
      function screened(this: Room, client, buffer) {
        const screen = screenOf(this);
        const frame = readFrame(buffer);
        if (frame.kind === "control") {
          const joining = client.state === ClientState.JOINING;
          dispatch.call(this, client, buffer);
          if (joining && client.state === ClientState.JOINED) screen.joined?.(this, client);
          return;
        }
        if (frame.kind === "message" && screen.known.has(String(frame.type))) {
          // Colyseus's dispatch would decode the payload again: the screen hands the message on itself, to a client
          // not already leaving (as Colyseus does).
          if (client.state !== ClientState.LEAVING) screen.deliver(this, client, frame);
          return;
        }
        const type = echoedType(frame.type);
        if (!screen.withinBudget(this, client, frame.requestId, type)) return;
        if (frame.kind === "message") {
          tableMetrics().refused(this.roomName, "UNKNOWN_MESSAGE");
          return refuseFrame(client, frame.requestId, {
            code: "UNKNOWN_MESSAGE",
            message: `this room has no message "${type}" (it understands: ${screen.describeKnown})`,
            type,
          });
        }
        logRefusal({
          event: "frame_refused",
          kind: frame.why,
          bytes: buffer?.length ?? 0,
          game: this.roomName,
          room: this.roomId,
        });
        tableMetrics().refused(this.roomName, "BAD_PAYLOAD");
        refuseFrame(client, frame.requestId, {
          code: "BAD_PAYLOAD",
          message: `the frame could not be read (${frame.why}); it was ignored`,
          type,
        });
      },
  );
}
