/**
 * The `fool` room's messages, options, events and public state: the one definition shared by the room and the
 * SDK. Free of server code (it imports only the pure engine's types). docs/protocol.md describes the same in prose.
 */
import type { SealedView } from "../kit/commitment";
import { z } from "zod";
import { COMMON_ERROR_CODES, defineMessage } from "../kit/protocol";
import type { FaceUp, FoolEvent, FoolMove, FoolView, Phase } from "./rules";

export const FOOL_ROOM = "fool";

/** The engine's own shapes under the names the SDK exports. */
export type FoolFaceUp = FaceUp;
export type { FoolEvent, FoolMove, FoolView };

const seed = z.number().int().min(1).max(2_147_483_646);
/** Cards are checked by the engine (so its reason names the problem); the schema only bounds the strings. */
const cardText = z.string().min(1).max(3);

const playMove = z.strictObject({
  kind: z.literal("play"),
  /** A card in the hand: `7S`, `QD`, or `*` for a joker. */
  card: cardText,
  /** What a joker is laid as, e.g. `6D`. */
  as: cardText.optional(),
  /** The suit named with a Queen (or a joker laid as one): S, C, D or H. */
  namedSuit: z.string().min(1).max(1).optional(),
});

/** Client → room. */
export const foolMessages = {
  /** A move on the sender's turn: the engine's move, `{ kind: "play", card, as?, namedSuit? }`, `{ kind: "draw" }` or `{ kind: "pass" }`. */
  move: defineMessage(
    "move",
    z.discriminatedUnion("kind", [
      playMove,
      z.strictObject({ kind: z.literal("draw") }),
      z.strictObject({ kind: z.literal("pass") }),
    ]),
  ),
  /** Start the next game once the last one is over; without a seed the room picks one. */
  newGame: defineMessage("newGame", z.strictObject({ seed: seed.optional() })),
};

/**
 * vs-ai: the creator against the room's AI. two-players: two people (the second joins by id).
 * ai-vs-ai: the AI on both seats, for spectators (everyone who joins watches).
 */
export const FOOL_MODES = ["vs-ai", "two-players", "ai-vs-ai"] as const;
export type FoolMode = (typeof FOOL_MODES)[number];

/** The policy the room plays for an AI seat and for a seat whose turn clock ran out. */
export const FOOL_AI_POLICIES = ["ai", "greedy", "random"] as const;
export type FoolAiPolicy = (typeof FOOL_AI_POLICIES)[number];

/**
 * How well the room's AI plays (with `ai: "ai"`, the default): "easy" is the greedy bot, "normal" the AI as it
 * always was (the default), "strong" the AI with a larger search budget (rooms/fool/ai.ts, STRONG_BUDGET).
 */
export const FOOL_AI_LEVELS = ["easy", "normal", "strong"] as const;
export type FoolAiLevel = (typeof FOOL_AI_LEVELS)[number];

/** How a room runs, fixed when it is created (the join options below describe each). */
export interface FoolRoomSettings {
  mode: FoolMode;
  ai: FoolAiPolicy;
  aiLevel: FoolAiLevel;
  aiDelayMs: number;
  turnTimeMs: number;
  reconnectSeconds: number;
  nextGameDelayMs: number;
  maxMoves: number;
}

export const FOOL_DEFAULTS: Readonly<FoolRoomSettings> = {
  mode: "vs-ai",
  ai: "ai",
  aiLevel: "normal",
  aiDelayMs: 1_000,
  turnTimeMs: 30_000,
  reconnectSeconds: 30,
  nextGameDelayMs: 5_000,
  maxMoves: 2_000,
};

/** The room's settings from its creator's options: each one given, else its default. */
export function foolRoomSettings(options: Partial<FoolRoomSettings>): FoolRoomSettings {
  const setting = <K extends keyof FoolRoomSettings>(key: K): FoolRoomSettings[K] => options[key] ?? FOOL_DEFAULTS[key];
  return {
    mode: setting("mode"),
    ai: setting("ai"),
    aiLevel: setting("aiLevel"),
    aiDelayMs: setting("aiDelayMs"),
    turnTimeMs: setting("turnTimeMs"),
    reconnectSeconds: setting("reconnectSeconds"),
    nextGameDelayMs: setting("nextGameDelayMs"),
    maxMoves: setting("maxMoves"),
  };
}

/** Options for `create` / `joinById`. Room options (mode and the timings) count when the room is created. */
export const foolJoinOptions = z.object({
  name: z.string().max(40).optional(),
  /** Watch instead of taking a seat. */
  spectate: z.boolean().optional(),
  /** The seat to take (0 moves first in the first game); by default the first free one. */
  seat: z.union([z.literal(0), z.literal(1)]).optional(),
  mode: z.enum(FOOL_MODES).optional(),
  /** The first game's seed; later games take newGame's seed or a fresh one. */
  seed: seed.optional(),
  ai: z.enum(FOOL_AI_POLICIES).optional(),
  /** The AI's level (see FOOL_AI_LEVELS); the baselines ("greedy", "random") have none. */
  aiLevel: z.enum(FOOL_AI_LEVELS).optional(),
  /** How long the AI waits before each of its moves, so spectators can follow. */
  aiDelayMs: z.number().int().min(0).max(60_000).optional(),
  /** A person's time for each move; when it runs out the room plays the AI's move for them. */
  turnTimeMs: z.number().int().min(100).max(600_000).optional(),
  /** How long a dropped player keeps the seat. */
  reconnectSeconds: z.number().int().min(0).max(600).optional(),
  /** With no person seated, the room starts the next game this long after the last ends (0: never). */
  nextGameDelayMs: z.number().int().min(0).max(600_000).optional(),
  /** A game still running after this many moves ends without a Fool (a bound; games average a few dozen moves). */
  maxMoves: z.number().int().min(10).max(100_000).optional(),
});
export type FoolJoinOptions = z.infer<typeof foolJoinOptions>;

/** Every code the room refuses a message with. */
export const FOOL_ERROR_CODES = [
  ...COMMON_ERROR_CODES,
  "ILLEGAL_MOVE", // move: the engine refused the move; the message is the engine's reason
  "NO_GAME", // move, newGame: no game is running (waiting for the second player, or the last game is over)
  "GAME_IN_PROGRESS", // newGame: the game is not over yet
] as const;
export type FoolErrorCode = (typeof FOOL_ERROR_CODES)[number];

/** Who made a move: the seat's person, the room's AI on an AI seat, or the AI for a person whose clock ran out. */
export type FoolMover = "player" | "ai" | "clock";

/** Room → client events, all broadcast to everyone: nothing in them is hidden. */
export const foolEvents = {
  start: "start",
  move: "move",
  over: "over",
} as const;

export interface FoolSeatSummary {
  name: string;
  controller: FoolSeatController;
}

/** A new game was dealt. */
export interface FoolStartEvent {
  game: number;
  dealer: number;
  seats: FoolSeatSummary[];
  faceUp: FoolFaceUp;
  /** The face-up card as the statement writes it: `7S`, `QDS`, `*6D`. */
  faceUpText: string;
  handCounts: number[];
  deckCount: number;
  /** Whose move it is (the face-up card's penalty, if any, already paid). */
  turn: number;
  /** When the first person's time runs out (ms since the epoch), or 0 on an AI's turn. */
  deadline: number;
}

/** One move, with what followed from it (the engine's events) and the position it left. */
export interface FoolMoveEvent {
  game: number;
  /** The move's number in the game (1 for the first). */
  number: number;
  seat: number;
  by: FoolMover;
  /** The move as made: a play names the card, a joker's identity and a Queen's suit; draws carry no card. */
  move: FoolMove;
  /** played, drew (a count), penalised (a count), passed, won, fool. */
  events: FoolEvent[];
  faceUpText: string;
  handCounts: number[];
  deckCount: number;
  turn: number;
  deadline: number;
}

/** Each event's payload, by name. */
export interface FoolEvents {
  start: FoolStartEvent;
  move: FoolMoveEvent;
  over: FoolOverEvent;
}

/** `fool`: the last player left holding cards. `capped`: the game hit maxMoves and ends without a Fool. */
export type FoolOutcome = "fool" | "capped";

export interface FoolOverEvent {
  game: number;
  outcome: FoolOutcome;
  /** The Fool's seat, or null for a capped game. */
  fool: number | null;
  /** Seats in the order they emptied their hands. */
  winners: number[];
  /** The deal's seed, revealed now: with `dealer` and the moves it replays the game exactly. */
  seed: number;
  dealer: number;
  moves: number;
  /** Games won by each seat in this room so far. */
  wins: number[];
}

/** player: a person (possibly reconnecting); ai: the room plays it; open: waiting for a person to join. */
export type FoolSeatController = "player" | "ai" | "open";

/** A seat as the table shows it (the table kit's and the room's part): who holds it, and its games won here. */
export interface FoolSeatHolderView {
  name: string;
  controller: FoolSeatController;
  connected: boolean;
  wins: number;
}

/** A seat in the game's position (the engine's part). */
export interface FoolSeatPositionView {
  handCount: number;
  /** Present only in the state of the seat's own player: the hand, and whether a draw or a pass is allowed now. */
  hand?: string[];
  /** The hand shown to everyone once the game is over (empty while it runs). */
  revealed: string[];
  canDraw?: boolean;
  canPass?: boolean;
}

export interface FoolSeatView extends FoolSeatHolderView, FoolSeatPositionView {}

/** The game's position as a viewer sees it: the engine's view (rooms/fool/match.ts), the state view less the table's fields. */
export interface FoolPositionView {
  phase: "waiting" | "playing" | "over";
  dealer: number;
  seats: FoolSeatPositionView[];
  /** `namedSuit` is "" when the face-up card is not a Queen; `text` is the statement's notation. */
  faceUp: { card: string; as: string; namedSuit: string; text: string };
  deckCount: number;
  /** Whose move it is; -1 before the first game. */
  turn: number;
  /** The engine's phase of the turn: cover, afterDraw (drew once), coverEight (must cover an 8), over. */
  turnPhase: Phase | "";
  moveCount: number;
  winners: number[];
  /** The last finished game's Fool, or -1. */
  fool: number;
  /** The last finished game's outcome, or "" while a game runs. */
  outcome: FoolOutcome | "";
  /** The last finished game's seed, or 0 while a game runs: a seed is revealed only when its game is over. */
  revealedSeed: number;
}

/** What the table shows beside the position (the room's part): the same for every viewer. */
export interface FoolTableView {
  mode: FoolMode;
  game: number;
  seats: FoolSeatHolderView[];
  /** When the person to move runs out of time (ms since the epoch); 0 on an AI's turn or between games. */
  deadline: number;
  spectators: number;
}

/** The state every client decodes: the position as it may see it with the table's fields (each player also sees its own seat's hand). */
export interface FoolStateView extends Omit<FoolPositionView, "seats">, Omit<FoolTableView, "seats">, SealedView {
  seats: FoolSeatView[];
}

/**
 * The AI's seat name, which the standings rate it under: its policy ("AI (ai)", "AI (greedy)"), and its level when
 * not the usual one ("AI (ai, strong)"), so that each level of the house's AI has a rating of its own.
 */
export function foolAiName(settings: Pick<FoolRoomSettings, "ai" | "aiLevel">): string {
  return settings.ai === "ai" && settings.aiLevel !== "normal" ? `AI (ai, ${settings.aiLevel})` : `AI (${settings.ai})`;
}
