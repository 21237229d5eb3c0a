/**
 * The server's log: one JSON object per line through pino, with a level, a time, and the room's game and id where a
 * room speaks. Colyseus's own logger is routed here too (see `colyseusLogger`).
 *
 * What a line may hold: a game, a room id, a seat number, an event's name, counts, lengths and kinds. Never a card,
 * a seed before its reveal, a reconnection token, or the bytes a client sent (say how long and what kind instead):
 * the fields that could carry them are censored whatever the caller passes.
 */
import pino, { type DestinationStream, type Logger } from "pino";

/** Field names whose values never reach a log line. */
const HIDDEN_FIELDS = ["token", "reconnectionToken", "seed", "cards", "hand", "card", "payload", "body"];

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

/** Colyseus's messages are free text; each becomes one line's message, its other arguments dropped (they may be a client's bytes). */
function firstText(args: unknown[]): string {
  const [first] = args;
  if (first instanceof Error) return `${first.name}: ${first.message}`;
  return typeof first === "string" ? first : String(first);
}

/** Colyseus's logger (its console by default) as lines of this log, tagged `source: "colyseus"`. */
export const colyseusLogger = {
  debug: (...args: unknown[]) => log.debug({ source: "colyseus" }, firstText(args)),
  trace: (...args: unknown[]) => log.trace({ source: "colyseus" }, firstText(args)),
  info: (...args: unknown[]) => log.info({ source: "colyseus" }, firstText(args)),
  warn: (...args: unknown[]) => log.warn({ source: "colyseus" }, firstText(args)),
  error: (...args: unknown[]) => log.error({ source: "colyseus" }, firstText(args)),
};
