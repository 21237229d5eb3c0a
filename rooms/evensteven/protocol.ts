/**
 * The `evensteven` room's messages, events and public state: the one definition shared by the room and the SDK.
 * Free of server code. docs/protocol.md describes the same in prose.
 */
import type { SealedView } from "../kit/commitment";
import { z } from "zod";
import { COMMON_ERROR_CODES, defineMessage } from "../kit/protocol";
import { MAX_HAND, MAX_SEED, MIN_HAND, MIN_SEED, type Verdict } from "./engine";

export const EVENSTEVEN_ROOM = "evensteven";

const handSize = z.number().int().min(MIN_HAND).max(MAX_HAND);
const seed = z.number().int().min(MIN_SEED).max(MAX_SEED);

/** Client → room. */
export const evenStevenMessages = {
  /** Answer the card on the table with a card from the hand, e.g. `{ card: "Qs" }`. */
  play: defineMessage("play", z.strictObject({ card: z.string().max(8) })),
  /** Start the next game once the last one has its verdict; without a seed the room picks one. */
  newGame: defineMessage("newGame", z.strictObject({ n: handSize.optional(), seed: seed.optional() })),
};

/** Options for `create`/`join`. A client that sets `spectate` watches; otherwise it takes the player's seat. */
export const evenStevenJoinOptions = z.object({
  name: z.string().max(40).optional(),
  spectate: z.boolean().optional(),
  n: handSize.optional(),
  seed: seed.optional(),
  /** Room options (used when the room is created): the time to answer each card, and to come back after a drop. */
  cardTimeLimitMs: z.number().int().min(100).max(600_000).optional(),
  reconnectSeconds: z.number().int().min(0).max(600).optional(),
  /** A table of the game's solo ladder (docs/arena.md, "Solo ladders"): an identity's next deal of the period. */
  ladder: z.literal(true).optional(),
});
export type EvenStevenJoinOptions = z.infer<typeof evenStevenJoinOptions>;

/** What a ladder table may be created with: the deal (its seed and hand size) is the ladder's, the same for everyone. */
export const evenStevenLadderOptions = z.strictObject({
  ladder: z.literal(true),
  name: evenStevenJoinOptions.shape.name,
  cardTimeLimitMs: evenStevenJoinOptions.shape.cardTimeLimitMs,
  reconnectSeconds: evenStevenJoinOptions.shape.reconnectSeconds,
});

export const DEFAULT_HAND_SIZE = 7;
export const DEFAULT_CARD_TIME_LIMIT_MS = 30_000;
export const DEFAULT_RECONNECT_SECONDS = 30;

/** A game ended by the player's clock is a forfeit, as the original dealer aborts on a silent player. */
export type EvenStevenOutcome = Verdict | "TIME OUT";

/** Room → client events. */
export const evenStevenEvents = {
  /** To the player only: the new game's hand. */
  hand: "hand",
  /** To everyone: a card to cover. */
  deal: "deal",
  /** To everyone: the player's answer. */
  played: "played",
  /** To everyone: the game's verdict and its seed. */
  verdict: "verdict",
} as const;

export interface HandEvent {
  game: number;
  cards: string[];
}
export interface DealEvent {
  game: number;
  /** The card to cover. */
  card: string;
  /** 1 for the first card dealt after the hand. */
  index: number;
  /** When the time to answer runs out (milliseconds since the epoch). */
  deadline: number;
}
export interface PlayedEvent {
  game: number;
  card: string;
  dealt: string;
  covered: boolean;
}
export interface VerdictEvent {
  game: number;
  outcome: EvenStevenOutcome;
  n: number;
  seed: number;
  dealt: string[];
  played: string[];
}

/** Every code the room refuses a message with. */
export const EVENSTEVEN_ERROR_CODES = [
  ...COMMON_ERROR_CODES,
  "NOT_A_CARD", // play: not a card in the original notation
  "NOT_IN_HAND", // play: a card the player does not hold
  "ALREADY_PLAYED", // play: a card the player already played this game
  "NO_CARD_TO_COVER", // play: the game is over (or not started)
  "GAME_IN_PROGRESS", // newGame: the game has no verdict yet
  "LADDER_TABLE", // newGame at a ladder table, which plays its one deal
] as const;
export type EvenStevenErrorCode = (typeof EVENSTEVEN_ERROR_CODES)[number];

/** Each event's payload, by name. */
export interface EvenStevenEvents {
  hand: HandEvent;
  deal: DealEvent;
  played: PlayedEvent;
  verdict: VerdictEvent;
}

/** The public state every client sees (the player's `hand` is sent to the player alone). */
/** The game's position as a viewer sees it: the engine's view (rooms/evensteven/match.ts), the state view less the table's fields. */
export interface EvenStevenPositionView {
  phase: "waiting" | "playing" | "over";
  handSize: number;
  cardsInHand: number;
  /** The card to cover now, or "" between cards. */
  toCover: string;
  dealt: string[];
  played: string[];
  /** The last finished game's outcome, or "". */
  outcome: string;
  /** The last finished game's seed, or 0: a game's seed is revealed only with its verdict. */
  revealedSeed: number;
  /** Once the game is over, the cards it would still have dealt to cover (empty while it runs, and after a win). */
  undealt: string[];
  /** Once the game is over, the hand's cards never played, shown to everyone (empty while it runs). */
  unplayed: string[];
  /** The player's own view only: its hand. */
  player?: { hand?: string[] };
}

export interface EvenStevenScoreView {
  games: number;
  wins: number;
  necessaryLosses: number;
  unnecessaryLosses: number;
  timeOuts: number;
}

/** What the table shows beside the position (the room's part): the same for every viewer. */
export interface EvenStevenTableView {
  game: number;
  deadline: number;
  score: EvenStevenScoreView;
  /** The player, once one has joined. */
  player?: { name: string; connected: boolean };
  spectators: number;
}

/** The state every client decodes: the position as it may see it with the table's fields. */
export interface EvenStevenStateView
  extends Omit<EvenStevenPositionView, "player">,
    Omit<EvenStevenTableView, "player">,
    SealedView {
  player?: { name: string; connected: boolean; hand?: string[] };
}
