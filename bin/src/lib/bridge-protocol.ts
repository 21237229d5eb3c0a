/**
 * The bridge's protocol with a player program (docs/bridge.md): one JSON object a line each way. Every message is
 * defined here once, as a zod schema: the bridge builds what it writes from these types, checks what it reads with
 * them, and the docs' field tables are tested against them (test/unit/bridge-protocol.test.ts). The actions a
 * program may answer with are the rooms' own message payloads (each game's protocol.ts), not a copy of them.
 */
import { z } from "zod";
import { evenStevenMessages } from "../../../rooms/evensteven/protocol";
import { foolMessages } from "../../../rooms/fool/protocol";
import { tractorMessages } from "../../../rooms/tractor/protocol";
import { GAME_NAMES } from "../../../rooms/games";

/** Bumped when a message changes in a way an existing program could notice. */
export const BRIDGE_PROTOCOL_VERSION = 1;

/** Every game (rooms/games.ts) has its bridge seat (bridge-seats.ts) and its actions (below). */
export const BRIDGE_GAMES = GAME_NAMES;
export type BridgeGame = (typeof BRIDGE_GAMES)[number];

const turnNumber = z.number().int().min(1).describe("the turn's number, counted from 1 over the whole run");
const gameNumber = z.number().int().min(1).describe("the game's number in this run, from 1 (Tractor: the round's)");

/** Every line's `type`, which names the message. */
const messageType = <Name extends string>(name: Name) => z.literal(name).describe("the message's kind");

// Bridge → program ------------------------------------------------------------------------------------------

export const helloMessage = z.strictObject({
  type: messageType("hello"),
  protocol: z.number().int().describe("the protocol's version (this document: 1)"),
  game: z.enum(BRIDGE_GAMES).describe("the game played"),
  room: z.string().describe("the room's id (a spectator joins it by this id)"),
  seat: z
    .union([z.number(), z.string()])
    .describe("the program's seat: 0 (Even-Steven, Patience), 0 or 1 (Fool), a name (Tractor)"),
  name: z.string().describe("the name the program plays as (and is recorded under)"),
  games: z.number().int().describe("how many games (Tractor: rounds at most) the bridge will play"),
  rules: z
    .record(z.string(), z.unknown())
    .describe(
      "the room's join options the bridge created it with, named as in docs/protocol.md (the room's defaults hold for the rest: `{}` is a room with every default); a room joined by `--room` keeps its own",
    ),
  maxErrors: z.number().int().describe("refused answers to one turn before the seat's bot plays it"),
  maxLineBytes: z.number().int().describe("the longest answer line read (longer lines are refused unread)"),
});

export const eventMessage = z.strictObject({
  type: messageType("event"),
  name: z.string().describe("the room's event name (docs/protocol.md lists each game's events)"),
  payload: z.unknown().describe("the event's payload, exactly as the room sent it to this seat"),
});

export const turnMessage = z.strictObject({
  type: messageType("turn"),
  turn: turnNumber,
  game: gameNumber,
  view: z
    .unknown()
    .describe("the room's state as this seat receives it (docs/protocol.md): its own hidden cards, never another's"),
  legal: z.array(z.unknown()).describe("legal actions, each one a valid answer as it stands"),
  complete: z
    .boolean()
    .describe(
      "true when `legal` lists every legal action; false when it stops at a bound (other actions may be legal)",
    ),
  suggestion: z.unknown().nullable().describe("the seat bot's action here (what the bot would play), or null"),
  timeLeftMs: z
    .number()
    .int()
    .nullable()
    .describe("milliseconds until the turn clock acts for the seat, or null when no clock runs"),
});

export const errorMessage = z.strictObject({
  type: messageType("error"),
  turn: turnNumber,
  code: z
    .string()
    .describe("the room's error code (BAD_PAYLOAD for a line that is not JSON, not an answer, or too long)"),
  message: z.string().describe("the reason, for people"),
  attempt: z.number().int().describe("refused answers to this turn so far"),
  maxErrors: z.number().int().describe("how many refusals the turn allows before the bot plays it"),
});

export const botMoveMessage = z.strictObject({
  type: messageType("botMove"),
  turn: turnNumber,
  action: z.unknown().describe("the action the seat's bot played for the program"),
  reason: z.string().describe("why the bot played: too many refused answers, or the program has ended"),
});

export const timeoutMessage = z.strictObject({
  type: messageType("timeout"),
  turn: turnNumber,
  message: z
    .string()
    .describe("what happened: the turn clock acted for the seat (the room's own rule: its bot's move, or a forfeit)"),
});

export const gameOverMessage = z.strictObject({
  type: messageType("gameOver"),
  game: gameNumber,
  result: z.unknown().describe("the game's result as the room reported it (Tractor: the round's end)"),
  line: z.string().describe("the result in one line for people, as the bridge prints it"),
});

export const byeMessage = z.strictObject({
  type: messageType("bye"),
  games: z.number().int().describe("games finished"),
  message: z.string().describe("why the run ends; the bridge closes the program's input next"),
});

export const bridgeToProgram = {
  hello: helloMessage,
  event: eventMessage,
  turn: turnMessage,
  error: errorMessage,
  botMove: botMoveMessage,
  timeout: timeoutMessage,
  gameOver: gameOverMessage,
  bye: byeMessage,
} as const;

export type BridgeToProgram = {
  [Name in keyof typeof bridgeToProgram]: z.infer<(typeof bridgeToProgram)[Name]>;
}[keyof typeof bridgeToProgram];

// Program → bridge ------------------------------------------------------------------------------------------

/** The program's one kind of line: an answer to a turn. */
export const answerMessage = z.strictObject({
  turn: turnNumber
    .optional()
    .describe(
      "the turn answered; an answer naming an earlier turn is dropped (it came too late), one naming a later turn is refused",
    ),
  action: z.unknown().describe("the action: one of the turn's `legal` entries, or any action of the game's shape"),
});
export type Answer = z.infer<typeof answerMessage>;

/** Each game's actions: the room's message payloads, with the `type` that names the message where a game has several. */
export const bridgeActions = {
  evensteven: z.strictObject({ type: z.literal("play"), ...evenStevenMessages.play.payload.shape }),
  fool: foolMessages.move.payload,
  patience: z.strictObject({ type: z.literal("step") }),
  tractor: z.discriminatedUnion("type", [
    z.strictObject({ type: z.literal("play"), ...tractorMessages.play.payload.shape }),
    z.strictObject({ type: z.literal("bury"), ...tractorMessages.bury.payload.shape }),
  ]),
} satisfies Record<BridgeGame, z.ZodType>;

export type BridgeAction<Game extends BridgeGame> = z.infer<(typeof bridgeActions)[Game]>;
