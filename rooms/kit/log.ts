/**
 * The server's log: one JSON object per line through pino, with a level, a time, and the room's game and id where a
 * room speaks. Colyseus's own logger is routed here too (see `colyseusLogger`).
 *
 * What a line may hold: a game, a room id, a seat number, an event's name, counts, lengths and kinds. Never a card,
 * a seed or its salt before their reveal, a reconnection token, or the bytes a client sent (say how long and what kind instead):
 * the fields that could carry them are censored whatever the caller passes.
 */
import pino, { type DestinationStream, type Logger } from "pino";

/** Field names whose values never reach a log line. */
const HIDDEN_FIELDS = ["token", "reconnectionToken", "seed", "salt", "cards", "hand", "card", "payload", "body"];

function makeLog(destination?: DestinationStream): Logger {
  return pino(
    {
      level: process.env.LOG_LEVEL || "info",
      base: { pid: process.pid },
      redact: { paths: [...HIDDEN_FIELDS, ...HIDDEN_FIELDS.map((field) => `*.${field}`)], censor: "[hidden]" },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** The process's log. Replaced (not mutated) by `sendLogsTo`, so read it at the call: `log.info(...)`. */
export let log: Logger = makeLog();

/** Sends every later line to `destination` instead of standard output (the tests hold the lines they expect). */
export function sendLogsTo(destination: DestinationStream): void {
  log = makeLog(destination);
}

/** The log of one room: its lines name the game and the room. */
export function roomLog(room: { roomName: string; roomId: string }): Logger {
  return log.child({ game: room.roomName, room: room.roomId });
}

/** The longest message kept of one of Colyseus's lines. */
const COLYSEUS_TEXT_LENGTH = 200;

/**
 * Colyseus's messages are free text; each becomes one line's message: its first line only (a stack's frames say
 * nothing an operator needs, and a decoding error's may quote a client's bytes), cut short, its other arguments
 * dropped (they may be a client's bytes).
 */
function firstText(args: unknown[]): string {
  const [first] = args;
  const text =
    first instanceof Error ? `${first.name}: ${first.message}` : typeof first === "string" ? first : String(first);
  const line = text.split("\n", 1)[0];
  return line.length > COLYSEUS_TEXT_LENGTH ? `${line.slice(0, COLYSEUS_TEXT_LENGTH)}…` : line;
}

/** Lines about refused client input, per window: a flood of junk costs the log a few lines, not one per frame. */
export const REFUSAL_LINES_PER_WINDOW = 5;
export const REFUSAL_WINDOW_MS = 10_000;

let refusalWindow = { startedAt: -Infinity, lines: 0, unlogged: 0 };

/**
 * Logs one refused frame or connection (its kind and length, never its bytes), at most REFUSAL_LINES_PER_WINDOW
 * lines per window; the refusals past that are counted into the next window's first line.
 */
export function logRefusal(fields: { event: string; kind: string; bytes?: number; [field: string]: unknown }): void {
  const now = performance.now();
  if (now - refusalWindow.startedAt >= REFUSAL_WINDOW_MS)
    refusalWindow = { startedAt: now, lines: 0, unlogged: refusalWindow.unlogged };
  if (refusalWindow.lines >= REFUSAL_LINES_PER_WINDOW) {
    refusalWindow.unlogged++;
    return;
  }
  refusalWindow.lines++;
  const unlogged = refusalWindow.unlogged;
  refusalWindow.unlogged = 0;
  const size = fields.bytes === undefined ? "" : `, ${fields.bytes} bytes`;
  const more = unlogged > 0 ? ` (and ${unlogged} more refused, unlogged, before it)` : "";
  log.warn({ ...fields, unlogged }, `refused a client's input (${fields.kind}${size})${more}`);
}

/** Starts the refusal log's count afresh (for tests that count its lines). */
export function resetRefusalLog(): void {
  refusalWindow = { startedAt: -Infinity, lines: 0, unlogged: 0 };
}

/** Colyseus's logger (its console by default) as lines of this log, tagged `source: "colyseus"`. */
export const colyseusLogger = {
  debug: (...args: unknown[]) => log.debug({ source: "colyseus" }, firstText(args)),
  trace: (...args: unknown[]) => log.trace({ source: "colyseus" }, firstText(args)),
  info: (...args: unknown[]) => log.info({ source: "colyseus" }, firstText(args)),
  warn: (...args: unknown[]) => log.warn({ source: "colyseus" }, firstText(args)),
  error: (...args: unknown[]) => log.error({ source: "colyseus" }, firstText(args)),
};
