/**
 * The `highcard` room's messages, options, events, error codes and state view: the kit's example game
 * (docs/architecture.md). Free of server code, like every game's protocol.
 */
import type { SealedView } from "../kit/commitment";
import { z } from "zod";
import { COMMON_ERROR_CODES, defineMessage } from "../kit/protocol";

export const HIGHCARD_ROOM = "highcard";

export const highCardMessages = {
  /** Play a card from the hand, e.g. `{ card: "QH" }`. */
  play: defineMessage("play", z.strictObject({ card: z.string().min(2).max(2) })),
};

export const highCardJoinOptions = z.object({
  name: z.string().max(40).optional(),
  spectate: z.boolean().optional(),
  seat: z.union([z.literal(0), z.literal(1)]).optional(),
  /** Room options: seats the bots hold from the start, the seed, and the table's timings. */
  bots: z
    .array(z.union([z.literal(0), z.literal(1)]))
    .max(2)
    .optional(),
  seed: z.number().int().min(1).max(2_147_483_646).optional(),
  turnTimeMs: z.number().int().min(50).max(600_000).optional(),
  botDelayMs: z.number().int().min(0).max(60_000).optional(),
  dealDelayMs: z.number().int().min(0).max(10_000).optional(),
  reconnectSeconds: z.number().int().min(0).max(600).optional(),
});
export type HighCardJoinOptions = z.infer<typeof highCardJoinOptions>;

export const HIGHCARD_ERROR_CODES = [...COMMON_ERROR_CODES, "WRONG_PHASE", "NOT_IN_HAND"] as const;
export type HighCardErrorCode = (typeof HIGHCARD_ERROR_CODES)[number];

/** Each event's payload, by name. `dealt` goes to the seat dealt the card alone; `dealtTo` tells everyone who got one. */
export interface HighCardEvents {
  dealt: { seat: number; card: string };
  dealtTo: { seat: number };
  played: { seat: number; card: string; by: "person" | "bot" | "clock" };
  trick: { cards: string[]; winner: number };
  over: { winner: number; tricksWon: number[]; seed: number };
}

/** A seat as the table shows it: who holds it (the table kit's part). */
export interface HighCardSeatHolderView {
  name: string;
  holder: "open" | "bot" | "person";
  connected: boolean;
}

/** A seat in the position (the engine's part); `hand` only in the seat's own view. */
export interface HighCardSeatPositionView {
  handCount: number;
  tricksWon: number;
  hand?: string[];
}

export interface HighCardSeatView extends HighCardSeatHolderView, HighCardSeatPositionView {}

/** The position as a viewer sees it: the engine's view (match.ts), the state view less the table's fields. */
export interface HighCardPositionView {
  phase: "waiting" | "dealing" | "playing" | "over";
  turn: number;
  trick: string[];
  seats: HighCardSeatPositionView[];
  winner: number;
  revealedSeed: number;
}

/** What the table shows beside the position, the same for every viewer. */
export interface HighCardTableView {
  deadline: number;
  seats: HighCardSeatHolderView[];
  spectators: number;
}

/** The state every client decodes. */
export interface HighCardStateView
  extends Omit<HighCardPositionView, "seats">,
    Omit<HighCardTableView, "seats">,
    SealedView {
  seats: HighCardSeatView[];
}
