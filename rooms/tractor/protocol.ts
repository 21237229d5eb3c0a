/**
 * The `tractor` room's messages, events and public state: the one definition shared by the room and the SDK.
 * Free of server code. docs/protocol.md describes the same in prose.
 *
 * On the wire cards are the statement's two-letter names (suit H S C D then rank 2-9 T J Q K A, or BJ / RJ), seats
 * are their names (Alice, Bob, Charles, David, clockwise) and ranks are numbers 2..14 (A = 14; above 14 a team
 * has passed Ace and won the match).
 */
import type { SealedView } from "../kit/commitment";
import { z } from "zod";
import { COMMON_ERROR_CODES, defineMessage } from "../kit/protocol";
import { DEFAULT_PLAY_LIMIT } from "./legality";
import { tractorRulesOption } from "./rules-option";
import { TRACTOR_MAX_SEED, TRACTOR_MIN_SEED, TRACTOR_SEATS, type TractorSeatName } from "./wire-names";

export const TRACTOR_ROOM = "tractor";

export { TRACTOR_MAX_SEED, TRACTOR_MIN_SEED, TRACTOR_SEATS, type TractorSeatName } from "./wire-names";
export const tractorSeatName = z.enum(TRACTOR_SEATS);

/**
 * How well a bot seat plays: "easy" (the heuristic, but a third of its plays random legal ones), "normal" (the
 * heuristic, the default and what every bot played before levels) or "strong" (the search over the unseen cards,
 * rooms/tractor/search.ts).
 */
export const TRACTOR_BOT_LEVELS = ["easy", "normal", "strong"] as const;
export type TractorBotLevel = (typeof TRACTOR_BOT_LEVELS)[number];
export const tractorBotLevel = z.enum(TRACTOR_BOT_LEVELS);

/**
 * The name a bot seat of the table stands under in the standings (docs/arena.md, "House bots"): the house's bot at
 * its level, "Bot (normal)". The table shows its seat as a bot; the records and the ratings name it thus.
 */
export function tractorBotName(level: TractorBotLevel): string {
  return `Bot (${level})`;
}

const RANK_LETTERS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"] as const;
/** A rank as the statement writes it ("2".."9", "T", "J", "Q", "K", "A") or as a number 2..14. */
const tractorRankOption = z.union([z.enum(RANK_LETTERS), z.number().int().min(2).max(14)]);
export type TractorRankOption = z.infer<typeof tractorRankOption>;

/** A rank option as a number 2..14. */
export function tractorRankNumber(rank: TractorRankOption): number {
  return typeof rank === "number" ? rank : RANK_LETTERS.indexOf(rank) + 2;
}

/**
 * A team's rank for people, as the statement writes it ("2".."9", "T", "J", "Q", "K", "A"); past Ace, the team has
 * won the match. The state, the events and the records carry ranks as numbers 2..14 (and beyond, past Ace).
 */
export function tractorRankName(rank: number): string {
  return rank > 14 ? "past A" : (RANK_LETTERS[rank - 2] ?? String(rank));
}

const cardText = z.string().max(3);

/** Client → room. Only a seated player may send them. */
export const tractorMessages = {
  /** While the cards are dealt (trump "declare"): show one current-rank card, a pair of it, or a pair of jokers. */
  declare: defineMessage("declare", z.strictObject({ cards: z.array(cardText).min(1).max(2) })),
  /** The dealer, holding 33 cards: put 8 of them aside as the hidden cards. */
  bury: defineMessage("bury", z.strictObject({ cards: z.array(cardText).min(1).max(33) })),
  /** Lead or follow with these cards. */
  play: defineMessage("play", z.strictObject({ cards: z.array(cardText).min(1).max(25) })),
  /** A request: what the seat may do now, with the seat bot's suggestion (see TractorHint). */
  hint: defineMessage("hint", z.strictObject({ limit: z.number().int().min(1).max(DEFAULT_PLAY_LIMIT).optional() })),
};

export const tractorTrumpModes = ["fixed", "declare"] as const;
export type TractorTrumpMode = (typeof tractorTrumpModes)[number];

/**
 * Options for `create` / `joinById`. A client that sets `spectate` watches; otherwise it takes `seat` (an open
 * seat or a bot's) or, without one, the first open seat. The rest are room options, read when the room is created.
 */
export const tractorJoinOptions = z
  .object({
    name: z.string().max(40).optional(),
    spectate: z.boolean().optional(),
    seat: tractorSeatName.optional(),
    /** Seats a bot holds from the start (anyone may take them over later by naming the seat). */
    bots: z.array(tractorSeatName).max(4).optional(),
    /** Each bot seat's level, by seat name (a seat left out plays "normal"); it holds for whoever's bot plays the seat. */
    botLevels: z.partialRecord(tractorSeatName, tractorBotLevel).optional(),
    /** "declare" (default): a paced deal with a declaration phase; "fixed": `mainSuit` for every round. */
    trump: z.enum(tractorTrumpModes).optional(),
    mainSuit: z.enum(["H", "S", "C", "D", "O"]).optional(),
    /** The first round's dealer (default Alice); later dealers follow the results. */
    dealer: tractorSeatName.optional(),
    /** The teams' ranks at the start, team 1 then team 2 (default 2 and 2); high ranks make short matches. */
    startRanks: z.tuple([tractorRankOption, tractorRankOption]).optional(),
    /** Makes the match reproducible: every round's deal seed is derived from it. Without it each round gets a fresh one. */
    seed: z.number().int().min(TRACTOR_MIN_SEED).max(TRACTOR_MAX_SEED).optional(),
    /** "always-accept" (default, the statement's rule) or "check-other-hands" (a throw another hand could beat fails). */
    throws: z.enum(["always-accept", "check-other-hands"]).optional(),
    /** Rule options (rooms/tractor/ruleset.ts), each defaulting to the statement's; `throwPolicy` here overrides `throws`. */
    rules: tractorRulesOption.optional(),
    /** The turn clock: a seat that does not act in time gets its bot's move. */
    turnTimeMs: z.number().int().min(50).max(3_600_000).optional(),
    /** How long a dropped player's seat is kept for reconnection. */
    reconnectSeconds: z.number().int().min(0).max(3600).optional(),
    /** Pacing: a bot waits this long before each move (0: at once). */
    botDelayMs: z.number().int().min(0).max(60_000).optional(),
    /** Pacing of the declaration deal: the time between two dealt cards. */
    dealDelayMs: z.number().int().min(0).max(10_000).optional(),
    /** Time left to declare after the last card is dealt. */
    declareWindowMs: z.number().int().min(0).max(600_000).optional(),
    /** The pause between the last seat being taken and the first deal (so every client has its handlers in place). */
    startDelayMs: z.number().int().min(0).max(600_000).optional(),
    /** The pause between a round's end and the next deal. */
    roundPauseMs: z.number().int().min(0).max(600_000).optional(),
  })
  .superRefine((options, context) => {
    const fixed = options.trump === "fixed";
    if (fixed && options.mainSuit === undefined)
      context.addIssue({ code: "custom", path: ["mainSuit"], message: 'trump "fixed" needs a mainSuit' });
    if (!fixed && options.mainSuit !== undefined)
      context.addIssue({ code: "custom", path: ["mainSuit"], message: 'mainSuit goes with trump "fixed"' });
  });
export type TractorJoinOptions = z.infer<typeof tractorJoinOptions>;

/** How many legal plays `hint` lists when the request names no limit. */
export const TRACTOR_HINT_LIMIT = 500;

export const TRACTOR_DEFAULTS = {
  turnTimeMs: 30_000,
  reconnectSeconds: 60,
  botDelayMs: 800,
  dealDelayMs: 150,
  declareWindowMs: 5_000,
  startDelayMs: 1_000,
  roundPauseMs: 5_000,
} as const;

export type TractorPhase = "waiting" | "declaring" | "burying" | "playing" | "roundOver" | "matchOver";
export type TractorOccupant = "open" | "bot" | "person";
export type TractorTeam = 1 | 2;

/** Room → client events, sent the moment something happens (the state follows within 50 ms). */
export const tractorEvents = {
  roundStart: "roundStart",
  declared: "declared",
  trump: "trump",
  buried: "buried",
  played: "played",
  trick: "trick",
  roundEnd: "roundEnd",
  matchEnd: "matchEnd",
} as const;

export interface TractorRoundStartEvent {
  round: number;
  dealer: TractorSeatName;
  teamRanks: number[];
  currentRank: number;
  trump: TractorTrumpMode;
  /** The main suit with trump "fixed"; "" while it is still to be declared. */
  mainSuit: string;
}
export interface TractorDeclaredEvent {
  round: number;
  seat: TractorSeatName;
  cards: string[];
  /** The main suit this declaration makes ("O": none). */
  mainSuit: string;
}
export interface TractorTrumpEvent {
  round: number;
  mainSuit: string;
  /** Who declared it; "" when nobody declared. */
  declaredBy: TractorSeatName | "";
}
export interface TractorBuriedEvent {
  round: number;
  dealer: TractorSeatName;
}
export interface TractorPlayedEvent {
  round: number;
  seat: TractorSeatName;
  cards: string[];
  /** True when the turn clock ran out and the seat's bot chose the cards. */
  auto: boolean;
  /** Under "check-other-hands": the throw that failed (then `cards` is what was played instead) and its penalty. */
  failedThrow?: { attempted: string[]; penalty: number };
  /** Who plays next ("" once the round is over). */
  next: TractorSeatName | "";
}
export interface TractorTrickEvent {
  round: number;
  /** 1 for the round's first trick. */
  trick: number;
  leader: TractorSeatName;
  plays: TractorPlay[];
  winner: TractorSeatName;
  points: number;
  /** The defenders' points from tricks so far. */
  defenderPoints: number;
  /** Who leads next ("" after the last trick). */
  nextLeader: TractorSeatName | "";
}
export interface TractorRoundEndEvent extends TractorResult {
  round: number;
}
export interface TractorMatchEndEvent {
  winner: TractorTeam;
  teamRanks: number[];
  rounds: number;
}

/** Every code the room refuses a message with. */
export const TRACTOR_ERROR_CODES = [
  ...COMMON_ERROR_CODES,
  "WRONG_PHASE", // declare, bury, play: not now (no match, another phase, between rounds)
  "NOT_A_CARD", // a card name that is no card
  "ILLEGAL_DECLARATION", // declare: the engine's reason
  "ILLEGAL_BURIAL", // bury: the engine's reason
  "ILLEGAL_PLAY", // play: the engine's reason
] as const;
export type TractorErrorCode = (typeof TRACTOR_ERROR_CODES)[number];

/** Each event's payload, by name. */
export interface TractorEvents {
  roundStart: TractorRoundStartEvent;
  declared: TractorDeclaredEvent;
  trump: TractorTrumpEvent;
  buried: TractorBuriedEvent;
  played: TractorPlayedEvent;
  trick: TractorTrickEvent;
  roundEnd: TractorRoundEndEvent;
  matchEnd: TractorMatchEndEvent;
}

/** The answer to `hint`. */
export interface TractorHint {
  phase: TractorPhase;
  /** What the seat may do now: legal plays when it must play (the engine's, up to `limit`), declarations while declaring. */
  options: string[][];
  /** False when `options` stopped at the limit. */
  complete: boolean;
  /** The seat bot's choice now (a play, the 8 cards to bury, or a declaration), or empty when it has none. */
  suggestion: string[];
}

export interface TractorPlay {
  seat: TractorSeatName;
  cards: string[];
}

export interface TractorTrick {
  /** "" when no trick is under way. */
  leader: TractorSeatName | "";
  plays: TractorPlay[];
  /** Completed tricks only ("" while under way). */
  winner: TractorSeatName | "";
  points: number;
}

export interface TractorResult {
  /** The round's deal seed, revealed with its end. */
  seed: number;
  /** Everything the defenders scored, the hidden-card bonus included. */
  defenderPoints: number;
  hiddenCards: string[];
  hiddenBonus: number;
  /** "make": the declarers held the defenders under 80 and go up; "down": the teams swap. */
  make: boolean;
  /** The team that went up `levels` ranks (0 levels: nobody moved). */
  team: TractorTeam;
  levels: number;
  teamRanks: number[];
  nextDealer: TractorSeatName;
  /** 0 while the match goes on. */
  matchWinner: 0 | TractorTeam;
}

/** A seat as the table shows it: who holds it (the table kit's part). */
export interface TractorSeatHolderView {
  occupant: TractorOccupant;
  /** The person's name, or "bot". */
  player: string;
  connected: boolean;
}

/** A seat in the round (the engine's part). */
export interface TractorSeatPositionView {
  seat: TractorSeatName;
  team: TractorTeam;
  handCount: number;
  /** Only in the seat's own state. */
  hand?: string[];
  /** Only in the seat's own state: the dealer's hidden cards from the burial to the next deal (`result.hiddenCards` shows them to all at the round's end); empty for the others. */
  buried?: string[];
}

export interface TractorSeat extends TractorSeatHolderView, TractorSeatPositionView {}

/** The round as a viewer sees it: the engine's view (rooms/tractor/match.ts), the state view less the table's fields. */
export interface TractorPositionView {
  phase: TractorPhase;
  round: number;
  trump: TractorTrumpMode;
  /** "H", "S", "C", "D", "O" (no main suit), or "" while it is being declared. */
  mainSuit: string;
  /** The declarers' rank: with the main suit, it fixes the trumps. */
  currentRank: number;
  /** The ranks of team 1 (Alice, Charles) and team 2 (Bob, David). */
  teamRanks: number[];
  dealer: TractorSeatName | "";
  /** The seat expected to act now ("" when nobody is). */
  turn: TractorSeatName | "";
  /** Counts every accepted action; a client waits for it to move on after acting. */
  step: number;
  /** Cards dealt so far in the declaration phase (0..100). */
  dealt: number;
  declaration: { seat: TractorSeatName | ""; cards: string[] };
  trick: TractorTrick;
  /** The round's completed tricks, in order. */
  tricks: TractorTrick[];
  /** The defenders' points from tricks won so far. */
  defenderPoints: number;
  /** Failed-throw penalties so far (positive helps the defenders). */
  penaltyPoints: number;
  /** The finished round's result (present from its end until the next deal). */
  result?: TractorResult;
  /** 0 while the match goes on. */
  winner: 0 | TractorTeam;
  seats: TractorSeatPositionView[];
}

/** What the table shows beside the round (the table kit's part), the same for every viewer. */
export interface TractorTableView {
  /** When the turn clock runs out, in ms since the epoch (0 when no clock runs). */
  deadline: number;
  seats: TractorSeatHolderView[];
  spectators: number;
}

/** The state every client decodes: the round as it may see it with the table's fields. */
export interface TractorStateView
  extends Omit<TractorPositionView, "seats">,
    Omit<TractorTableView, "seats">,
    SealedView {
  seats: TractorSeat[];
}
