/**
 * Shuffling Patience (UVa 178) as a steppable state machine: a live room calls `step` once per move and shows
 * each event; `simulate` plays a whole deal at once.
 *
 * The rules, as accepted judge solutions read the statement:
 * - Cards are dealt face up onto piles in a 4×4 grid, filled left to right, top to bottom; a pile never empties,
 *   so "grid order" and "the order the piles were started" are the same thing.
 * - Only the top card of each pile is in play. Before each card is dealt, if the top cards hold a pair (ace to
 *   ten, face values adding to 11, ace counting 1) or a {jack, queen, king} triple, one of them is covered: the
 *   next cards of the deck are dealt onto its piles, one each. Covering is indivisible, so nothing is looked at
 *   again until all its cards are down; then the grid is looked at again, so covers can chain.
 * - Which group: the first card covered is the eligible top card nearest the start of play (the lowest pile in
 *   grid order, however recently its top card arrived); its partners are the nearest such cards after it, and
 *   are covered in grid order. A pair and a triple compete only through that first card.
 * - With nothing to cover, the card starts a new pile; the card about to be dealt takes no part in the search,
 *   so a 17th pile is an overflow even if that card would have made a pair. The overflow is reported with the
 *   number (from 1) of the card about to be dealt.
 * - If the deck runs out in the middle of a cover, the deal simply ends there and the piles are counted.
 *
 * The engine accepts any sequence of cards (tests and demos play short ones); a real deal uses all 52.
 */
import { FACE_RANKS, RANKS, pipValue, rankOfValue, type Card, type Rank } from "./cards";

export const GRID_COLUMNS = 4;
export const MAX_PILES = 16;

export type Outcome =
  | { readonly kind: "finished"; readonly pileSizes: readonly number[] }
  | { readonly kind: "overflowed"; readonly cardNumber: number };

export interface PatienceState {
  /** The cards in the order they are dealt. */
  readonly deck: readonly Card[];
  /** How many cards of the deck are on the table. */
  readonly dealt: number;
  /** The piles in grid order, each listed from its bottom card to its top card. */
  readonly piles: readonly (readonly Card[])[];
  /** Null while the deal goes on. */
  readonly outcome: Outcome | null;
}

/** A group of top cards to cover, named by their piles in the order they are covered. */
export interface Cover {
  readonly group: "pair" | "triple";
  readonly piles: readonly number[];
}

export type PatienceEvent =
  | { readonly kind: "dealt"; readonly card: Card; readonly cardNumber: number; readonly pile: number }
  | {
      readonly kind: "covered";
      readonly group: "pair" | "triple";
      readonly piles: readonly number[];
      /** The top cards that were covered, one per pile of `piles`. */
      readonly covered: readonly Card[];
      /** The cards dealt onto them: `covering[i]` now lies on `piles[i]`. Shorter than `piles` only when the
       * deck ran out in the middle of the cover; the remaining piles were left as they were. */
      readonly covering: readonly Card[];
    }
  | { readonly kind: "overflowed"; readonly card: Card; readonly cardNumber: number }
  | { readonly kind: "finished"; readonly pileSizes: readonly number[] };

export interface StepResult {
  readonly state: PatienceState;
  readonly event: PatienceEvent;
}

/** A deal about to begin: nothing on the table yet. */
export function startDeal(deck: readonly Card[]): PatienceState {
  return playing(deck.slice(), 0, []);
}

function playing(deck: readonly Card[], dealt: number, piles: readonly (readonly Card[])[]): PatienceState {
  return { deck, dealt, piles, outcome: null };
}

export function isOver(state: PatienceState): boolean {
  return state.outcome !== null;
}

/** One move: end the deal, cover one pair or triple, start a pile, or overflow. */
export function step(state: PatienceState): StepResult {
  if (state.outcome !== null) throw new Error("the deal is over; there is no next step");
  if (state.dealt === state.deck.length) return finish(state);
  const cover = findCover(state.piles.map((pile) => topCard(pile).rank));
  if (cover !== null) return coverPiles(state, cover);
  if (state.piles.length === MAX_PILES) return overflow(state);
  return startPile(state);
}

/**
 * Plays a whole deal and returns how it ended: the moves of `step`, on the top cards' ranks and the piles' sizes
 * only (the judges play millions of deals, and a state per move is what they cannot afford).
 */
export function simulate(deck: readonly Card[]): Outcome {
  const tops: Rank[] = [];
  const sizes: number[] = [];
  let dealt = 0;
  // Each turn deals at least one card or ends the deal, so the loop ends.
  while (dealt < deck.length) {
    const cover = findCover(tops);
    if (cover === null && tops.length === MAX_PILES) return { kind: "overflowed", cardNumber: dealt + 1 };
    if (cover === null) {
      tops.push(deck[dealt++].rank);
      sizes.push(1);
      continue;
    }
    for (let i = 0; i < cover.piles.length && dealt < deck.length; i++) {
      tops[cover.piles[i]] = deck[dealt++].rank;
      sizes[cover.piles[i]]++;
    }
  }
  return { kind: "finished", pileSizes: sizes };
}

/** A whole deal move by move: every event in order (the last one tells the outcome), and the outcome. */
export function playByPlay(deck: readonly Card[]): { events: PatienceEvent[]; outcome: Outcome } {
  const events: PatienceEvent[] = [];
  let state = startDeal(deck);
  while (state.outcome === null) {
    const result = step(state);
    events.push(result.event);
    state = result.state;
  }
  return { events, outcome: state.outcome };
}

/** The row and column (both from 0) of a pile in the 4×4 grid. */
export function gridPosition(pile: number): { row: number; column: number } {
  return { row: Math.floor(pile / GRID_COLUMNS), column: pile % GRID_COLUMNS };
}

export function topCard(pile: readonly Card[]): Card {
  return pile[pile.length - 1];
}

/**
 * The group to cover next among the top cards `tops` (in grid order), or null when there is none.
 *
 * The first eligible pile always comes before all its partners: a partner lying earlier would itself have been
 * eligible first. So the partners are simply the nearest pile of each partner rank, and grid order is the order
 * they are covered in.
 */
export function findCover(tops: readonly Rank[]): Cover | null {
  const nearestPile = nearestPileOfEachRank(tops);
  for (let pile = 0; pile < tops.length; pile++) {
    const partners = PARTNER_ORDINALS[ordinalOf(tops[pile])];
    if (partners.every((partner) => nearestPile[partner] !== NOWHERE)) {
      const piles = [pile, ...partners.map((partner) => nearestPile[partner])].sort((a, b) => a - b);
      return { group: piles.length === 2 ? "pair" : "triple", piles };
    }
  }
  return null;
}

/** Each rank's place in RANKS, looked up by its one character: the simulator's innermost lookup. */
const ORDINAL_BY_CHAR_CODE = new Int8Array(128);
RANKS.forEach((rank, ordinal) => (ORDINAL_BY_CHAR_CODE[rank.charCodeAt(0)] = ordinal));

/** A rank's place in RANKS, so that per-rank tables can be plain arrays. */
function ordinalOf(rank: Rank): number {
  return ORDINAL_BY_CHAR_CODE[rank.charCodeAt(0)];
}

/** By rank ordinal, the ranks a card needs beside it to be covered: the pip card making 11, or the other two
 * court cards. */
const PARTNER_ORDINALS: readonly (readonly number[])[] = RANKS.map((rank) => {
  const value = pipValue(rank);
  const partners = value === null ? FACE_RANKS.filter((face) => face !== rank) : [rankOfValue(11 - value)];
  return partners.map(ordinalOf);
});

const NOWHERE = -1;

/** Filled anew by each call of nearestPileOfEachRank (the simulator's innermost table, so it is made once). */
const nearestPileScratch = new Int8Array(RANKS.length);

/** By rank ordinal, the first pile whose top card has that rank, or NOWHERE; valid until the next call. */
function nearestPileOfEachRank(tops: readonly Rank[]): Int8Array {
  nearestPileScratch.fill(NOWHERE);
  for (let pile = tops.length - 1; pile >= 0; pile--) nearestPileScratch[ordinalOf(tops[pile])] = pile;
  return nearestPileScratch;
}

function coverPiles(state: PatienceState, cover: Cover): StepResult {
  const covering = state.deck.slice(state.dealt, state.dealt + cover.piles.length);
  const piles = state.piles.slice();
  for (let i = 0; i < covering.length; i++) {
    const pile = cover.piles[i];
    piles[pile] = [...piles[pile], covering[i]];
  }
  const covered = cover.piles.map((pile) => topCard(state.piles[pile]));
  return {
    state: playing(state.deck, state.dealt + covering.length, piles),
    event: { kind: "covered", group: cover.group, piles: cover.piles, covered, covering },
  };
}

function startPile(state: PatienceState): StepResult {
  const card = state.deck[state.dealt];
  return {
    state: playing(state.deck, state.dealt + 1, [...state.piles, [card]]),
    event: { kind: "dealt", card, cardNumber: state.dealt + 1, pile: state.piles.length },
  };
}

function overflow(state: PatienceState): StepResult {
  const cardNumber = state.dealt + 1;
  return {
    state: { ...state, outcome: { kind: "overflowed", cardNumber } },
    event: { kind: "overflowed", card: state.deck[state.dealt], cardNumber },
  };
}

function finish(state: PatienceState): StepResult {
  const pileSizes = state.piles.map((pile) => pile.length);
  return { state: { ...state, outcome: { kind: "finished", pileSizes } }, event: { kind: "finished", pileSizes } };
}
