/**
 * The `patience` room's messages, events and public state: the one definition shared by the room and the SDK.
 * Free of server code. docs/protocol.md describes the same in prose.
 */
import type { SealedView } from "../kit/commitment";
import { z } from "zod";
import { COMMON_ERROR_CODES, defineMessage } from "../kit/protocol";

export const PATIENCE_ROOM = "patience";

export const PATIENCE_MIN_SEED = 1;
export const PATIENCE_MAX_SEED = 2147483646;
export const PATIENCE_MAX_PACE_MS = 10_000;
export const PATIENCE_DEFAULT_PACE_MS = 500;
export const PATIENCE_DEFAULT_RECONNECT_SECONDS = 30;
/** Long enough for a deck written with generous blanks and line breaks. */
export const PATIENCE_MAX_DECK_TEXT = 2_000;

const seed = z.number().int().min(PATIENCE_MIN_SEED).max(PATIENCE_MAX_SEED);
const paceMs = z.number().int().min(0).max(PATIENCE_MAX_PACE_MS);
/** 52 cards in bin/patience's notation, e.g. "TS QC 8S …"; checked by the room (BAD_DECK / refused join). */
const deck = z.string().max(PATIENCE_MAX_DECK_TEXT);
const name = z.string().max(40);

/** A deal is given by a seed or by a deck, never both; with neither the room picks a seed. */
const dealSource = { seed: seed.optional(), deck: deck.optional(), paused: z.boolean().optional() };
const notBoth = (source: { seed?: number; deck?: string }) => source.seed === undefined || source.deck === undefined;
const NOT_BOTH = { message: "give a seed or a deck, not both" };

/** Client → room. All but `claim` are the owner's alone. */
export const patienceMessages = {
  /** Stop dealing after the current step. */
  pause: defineMessage("pause", z.strictObject({})),
  /** Deal on at the room's pace. */
  resume: defineMessage("resume", z.strictObject({})),
  /** One step while paused. */
  step: defineMessage("step", z.strictObject({})),
  /** Milliseconds between steps from now on (this deal and the next). */
  setPace: defineMessage("setPace", z.strictObject({ paceMs })),
  /** A new deal once this one is over; without seed or deck the room picks a seed. */
  restart: defineMessage("restart", z.strictObject(dealSource).refine(notBoth, NOT_BOTH)),
  /** Take over a room whose owner has left. */
  claim: defineMessage("claim", z.strictObject({ name: name.optional() })),
};

/** Options for `create`/`joinById`. The deal's options count when the room is created. */
export const patienceJoinOptions = z
  .object({
    name: name.optional(),
    /** Watch only: never become the owner on joining. */
    spectate: z.boolean().optional(),
    ...dealSource,
    paceMs: paceMs.optional(),
    /** How long the owner's place is kept after a dropped connection. */
    reconnectSeconds: z.number().int().min(0).max(600).optional(),
    /** A table of the game's solo ladder (docs/arena.md, "Solo ladders"): an identity's next deal of the period. */
    ladder: z.literal(true).optional(),
  })
  .refine(notBoth, NOT_BOTH);
export type PatienceJoinOptions = z.infer<typeof patienceJoinOptions>;

/** What a ladder table may be created with: the deal (its seed) is the ladder's, the same for everyone. */
export const patienceLadderOptions = z.strictObject({
  ladder: z.literal(true),
  name: name.optional(),
  paceMs: paceMs.optional(),
  /** Deal it paused: the owner steps it (the bridge's program does). */
  paused: z.boolean().optional(),
  reconnectSeconds: z.number().int().min(0).max(600).optional(),
});
export type PatienceRestartOptions = z.infer<(typeof patienceMessages)["restart"]["payload"]>;

/** Every code the room refuses a message with. */
export const PATIENCE_ERROR_CODES = [
  ...COMMON_ERROR_CODES,
  "NOT_OWNER", // only the room's owner may do this
  "HAS_OWNER", // claim: the room still has its owner
  "DEAL_OVER", // pause, resume or step after the deal ended
  "NOT_PAUSED", // step or resume while dealing
  "ALREADY_PAUSED",
  "DEAL_IN_PROGRESS", // restart before the deal ended
  "BAD_DECK", // restart with a deck that is not 52 different cards
  "LADDER_TABLE", // restart at a ladder table, which deals its one deal
] as const;
export type PatienceErrorCode = (typeof PATIENCE_ERROR_CODES)[number];

export type PatiencePhase = "dealing" | "paused" | "over";

/** Room → client events. */
export const patienceEvents = {
  /** To everyone: a deal begins (at creation and after each restart). */
  dealStarted: "dealStarted",
  /** To everyone: one step of the deal, the moment it is made. */
  move: "move",
  /** To everyone: the deal's outcome, and its seed if it had one. */
  dealOver: "dealOver",
  /** To everyone: the owner paused, resumed or changed the pace, or the owner changed. */
  control: "control",
} as const;

/** How a deal ended; `cardNumber` counts from 1. */
export type PatienceOutcomeData =
  | { kind: "finished"; pileSizes: number[] }
  | { kind: "overflowed"; cardNumber: number };

/** One step as the engine reports it, with cards written as in bin/patience (e.g. "TS"). */
export type PatienceMoveData =
  | { kind: "dealt"; card: string; cardNumber: number; pile: number }
  | { kind: "covered"; group: "pair" | "triple"; piles: number[]; covered: string[]; covering: string[] }
  | { kind: "overflowed"; card: string; cardNumber: number }
  | { kind: "finished"; pileSizes: number[] };

export interface PatienceDealStartedEvent {
  deal: number;
  paceMs: number;
  phase: PatiencePhase;
}

export type PatienceMoveEvent = PatienceMoveData & {
  deal: number;
  /** 1 for the deal's first step. */
  step: number;
  /** Cards on the table after this step. */
  dealt: number;
  /** The step in words, as bin/patience --trace writes it. */
  description: string;
};

export interface PatienceDealOverEvent {
  deal: number;
  outcome: PatienceOutcomeData;
  /** The line bin/patience prints for this deck given alone, e.g. "  1:  8  6  7 …". */
  line: string;
  /** The deal's seed, revealed now; 0 when the deal was given as a deck. */
  seed: number;
  steps: number;
}

export interface PatienceControlEvent {
  deal: number;
  action: "pause" | "resume" | "setPace" | "claim" | "ownerLeft";
  phase: PatiencePhase;
  paceMs: number;
  ownerName: string;
}

/** Each event's payload, by name. */
export interface PatienceEvents {
  dealStarted: PatienceDealStartedEvent;
  move: PatienceMoveEvent;
  dealOver: PatienceDealOverEvent;
  control: PatienceControlEvent;
}

/** The public state every client sees; nothing in the room is hidden from one client and shown to another. */
/** The deal as anyone sees it (the owner and a spectator alike): the engine's view (rooms/patience/match.ts). */
export interface PatiencePositionView {
  /** "dealing" or "over"; the table shows "paused" while its owner holds the deal. */
  phase: PatiencePhase;
  /** Steps made in this deal. */
  steps: number;
  /** Cards on the table. */
  dealt: number;
  deckSize: number;
  /**
   * Each pile's top card, "" for a pile not started yet: always 16, in grid order (pile i is row floor(i / 4),
   * column i % 4). Two lists of plain values rather than sixteen objects: the sixteen objects cost the server about
   * 8 KB a table for as long as the table lived.
   */
  tops: string[];
  /** Each pile's number of cards (0 for a pile not started), in the same order as `tops`. */
  counts: number[];
  /** The cover made by the last step; `group` is "" when the last step made none. */
  cover: { group: "" | "pair" | "triple"; piles: number[]; covered: string[]; covering: string[] };
  /** `kind` is "" while the deal goes on; `overflowCard` is 0 unless it overflowed. */
  outcome: { kind: "" | "finished" | "overflowed"; pileSizes: number[]; overflowCard: number; line: string };
  /** 0 until the deal is over (and for a deal given as a deck). */
  revealedSeed: number;
}

/** What the table shows beside the deal (the room's part): the same for every viewer. */
export interface PatienceTableView {
  /** "paused" while the owner holds a deal that is not over; otherwise left to the deal. */
  phase?: "paused";
  /** 1 for the room's first deal, 2 after a restart, … */
  deal: number;
  paceMs: number;
  /** The owner's session id, or "" when the room has none. */
  owner: string;
  ownerName: string;
  ownerConnected: boolean;
  spectators: number;
}

/** The state every client decodes: the deal with the table's fields. */
export interface PatienceStateView extends PatiencePositionView, Omit<PatienceTableView, "phase">, SealedView {}
