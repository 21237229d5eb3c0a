/**
 * What every room's protocol shares: how a message is defined once (name + payload schema), and the shape of
 * the typed error a room sends back for a bad message. Imported by the rooms and by client-sdk/, so it must stay
 * free of server code (no Colyseus server, no Node-only modules).
 */
import { z } from "zod";
import type { RecordWriterMetrics } from "./record";

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

/** GET /metrics.json: the server process's resource use and load. */
export interface ServerMetrics {
  pid: number;
  cpuUserMicros: number;
  cpuSystemMicros: number;
  rssBytes: number;
  heapUsedBytes: number;
  rooms: number;
  clients: number;
  uptimeSeconds: number;
  /** The event loop's lateness since metrics were first read, in ms: how long a message may wait before it is handled. */
  eventLoopLagMs: { p50: number; p99: number; max: number };
  /** The event loop's longest delay in each of the last 60 seconds, in ms (`at`: the second's end, ms since the
   * epoch): where in a run its stalls fell. Absent from servers before it was reported. */
  eventLoopMaxBySecond?: Array<{ at: number; maxMs: number }>;
  /** The main thread's time since start, in ms: running callbacks (`active`) and waiting for work (`idle`), as
   * `performance.eventLoopUtilization()` counts them. Absent from servers before it was reported. */
  mainThreadMs?: { active: number; idle: number };
  /** V8's garbage collections since metrics were first read: how many major and minor ones, and their pauses in ms
   * (a major one's marking, done in steps before its pause, is not in it); and the heap in use just after the last
   * major one with the tables open then (null before one; absent from servers before it was reported): the live heap,
   * where the heap at any other moment is mostly garbage. Absent from servers before it was reported. */
  garbageCollections?: { major: number; majorMs: number; minor: number; minorMs: number; lastMajor?: { heapBytes: number; rooms: number } | null };
  /** The event loop's stalls (a timer run over `overMs` late) since the server started, by what held the loop: a major
   * garbage collection (its marking and pause), minor collections (their pauses fill half the stall or more), no core
   * (the main thread ran for less than half of it), or the program's own work; and the last few, each with its end (`at`, ms since the epoch). Absent from servers before it
   * was reported. */
  eventLoopStalls?: EventLoopStalls;
  /** How far the server lets V8's heap grow past what a major collection leaves, in percent of it
   * (`HEAP_GROWTH_PERCENT`), or null when V8 chooses (up to four times the live heap). Absent from servers before it
   * was reported. */
  heapGrowthPercent?: number | null;
  /** The Fool AI's decisions since start: made at once (nothing to weigh), on its threads, in-process (no worker,
   * or a thread failed), and abandoned for the greedy bot's move (over the time limit, or its thread failed after
   * the answer was due). */
  foolAiDecisions: { immediate: number; onThreads: number; inProcess: number; abandoned: number };
  /** The strong Tractor bots' decisions since start: on the threads, in-process, the heuristic's at once under
   * overload (`shrunk`), and abandoned over the time limit. Absent from servers before bot levels. */
  tractorAiDecisions?: { onThreads: number; inProcess: number; shrunk: number; abandoned: number };
  /** The budgets the Fool AI's searched decisions were given, and how long they waited (server/ai-admission.ts).
   * Absent from servers before the AI's admission control. */
  foolAiBudgets?: AiBudgetUse;
  /** The same for the strong Tractor bots. */
  tractorAiBudgets?: AiBudgetUse;
  /** The AI threads' heaps, by pool: memory the process holds apart from its main thread's heap. Absent from
   * servers before it was reported. */
  aiThreadHeaps?: { fool: AiThreadHeaps; tractor: AiThreadHeaps };
  /** The records' queue to the database; null when the server keeps no records. */
  records: RecordWriterMetrics | null;
  /** Clients' leaves since start: run at once, deferred to a later turn of the event loop (many left together),
   * and waiting now (server/leave-pacer.ts). Absent from servers before leaves were paced. */
  leaves?: { atOnce: number; deferred: number; waiting: number };
  /** The guard that refuses new tables and spectators while the main thread is saturated (BUSY_REFUSE_AT;
   * server/busy-guard.ts): the busy share it refuses from, whether it refuses now, and the joins it refused since
   * start. Absent when it is off. */
  busyGuard?: BusyGuardMetrics;
}

/** What held the event loop in a stall: a major garbage collection, minor collections, no core (the main thread
 * hardly ran: the machine's other work had the cores), or the program's own work. */
export type StallCause = "majorGc" | "minorGc" | "noCore" | "work";
export const STALL_CAUSES: readonly StallCause[] = ["majorGc", "minorGc", "noCore", "work"];

/** The event loop's stalls, by cause, and the last few (ServerMetrics.eventLoopStalls). */
export interface EventLoopStalls {
  overMs: number;
  byCause: Record<StallCause, { count: number; totalMs: number; longestMs: number }>;
  recent: Array<{ at: number; ms: number; cause: StallCause }>;
}

/** The room the web page's lobby joins: Colyseus's LobbyRoom, told by each table of every change to its listing. */
export const LOBBY_ROOM = "lobby";

/**
 * A matchmaking request refused for a reason that passes (503: the server at capacity, a database away, a server
 * shutting down) is answered with `Retry-After` of this many seconds. The SDK gives the same wait to its
 * JOIN_REFUSED as `retryAfterMs`: @colyseus/sdk does not hand a response's headers on to its caller.
 */
export const MATCHMAKING_RETRY_AFTER_SECONDS = 5;

/** What the busy guard says of itself: the main thread's busy share it refuses from, whether the main thread is busy
 * past it now, whether new tables are refused now (busy, and no other process of the cluster takes them), and the
 * joins it refused since start (server/busy-guard.ts). */
export interface BusyGuardMetrics {
  refuseAt: number;
  busy: boolean;
  refusing: boolean;
  refused: number;
}

/**
 * How the AI threads' admission control sized the decisions since start: the whole budget (`full`), a share of it
 * (`reduced`), the least worth a search (`least`), or none, the fast move made at once (`atOnce`); and the decisions'
 * waits, from being asked for to their answer, in ms (p99 over the recent ones, the longest since start).
 */
export interface AiBudgetUse {
  budgets: { full: number; reduced: number; least: number; atOnce: number };
  waitMs: { p99: number; max: number };
}

/**
 * An AI pool's running threads and their V8 heaps, added up: the memory each heap holds (`physicalBytes`, V8's
 * `total_physical_size`) and what of it is in use (`usedBytes`). A thread's other memory (its stack, Node's own
 * structures, a few megabytes) is not in it.
 */
export interface AiThreadHeaps {
  threads: number;
  physicalBytes: number;
  usedBytes: number;
}

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
