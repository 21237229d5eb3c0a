/**
 * The order of the cards in one round, fixed by the main suit and the current rank (CR).
 *
 * Every card gets an integer order so that "consecutive-ordered" (what tractors need) is simply `order + 1`:
 * - not-trumps: 0..11, by rank with the CR rank left out (so with CR 7, a 6 and an 8 are consecutive);
 * - trumps: the main suit's other ranks 20..31, then the off-suit CR cards (all one order), the main-suit CR
 *   card, the black joker and the red joker, each one higher. With no main suit ("O") the four CR cards share
 *   one order just below the black joker.
 * Cards also belong to a group: the trumps, or one not-trump suit. Tractors, leads and winning follows
 * never mix groups.
 */
import {
  BLACK_JOKER,
  type Card,
  DISTINCT_CARDS,
  LOWEST_RANK,
  type Rank,
  RED_JOKER,
  type Suit,
  SUITS,
  rankOf,
  suitOf,
} from "./cards";

/** The main suit of a round, or "O" when the round has none. */
export type MainSuit = Suit | "O";
export const MAIN_SUITS: readonly MainSuit[] = ["H", "S", "C", "D", "O"];

export interface TrumpContext {
  readonly mainSuit: MainSuit;
  /** The declarers' current rank, 2..14 (A). */
  readonly currentRank: Rank;
}

/** Group 0..3 are the not-trump suits H S C D; this one is the trumps. */
export const TRUMP_GROUP = 4;
/** Every order is below this, so arrays indexed by order can be allocated once. */
export const ORDER_LIMIT = 40;
const FIRST_TRUMP_ORDER = 20;
/** Ranks left in a suit once the current rank is taken out. */
const PLAIN_RANKS = 12;

export interface CardOrdering {
  readonly context: TrumpContext;
  /** order[card]: higher beats lower; equal orders tie. */
  readonly order: readonly number[];
  /** group[card]: the suit index for not-trumps, TRUMP_GROUP for trumps. */
  readonly group: readonly number[];
  /** cardsOfOrder[order]: the cards of that order, by card id, so that cards can be visited in order without sorting. */
  readonly cardsOfOrder: readonly (readonly Card[])[];
}

export function isTrumpCard(card: Card, context: TrumpContext): boolean {
  return rankOf(card) === undefined || rankOf(card) === context.currentRank || suitOf(card) === context.mainSuit;
}

/** Position of a rank among 2..A once the current rank is taken out: 0..11. */
function plainRankPosition(rank: Rank, currentRank: Rank): number {
  return rank - LOWEST_RANK - (rank > currentRank ? 1 : 0);
}

function orderOf(card: Card, context: TrumpContext): number {
  const offSuitRankOrder = FIRST_TRUMP_ORDER + PLAIN_RANKS;
  const mainRankOrder = context.mainSuit === "O" ? offSuitRankOrder : offSuitRankOrder + 1;
  if (card === BLACK_JOKER) return mainRankOrder + 1;
  if (card === RED_JOKER) return mainRankOrder + 2;
  const rank = rankOf(card) as Rank;
  if (rank === context.currentRank) return suitOf(card) === context.mainSuit ? mainRankOrder : offSuitRankOrder;
  const position = plainRankPosition(rank, context.currentRank);
  return suitOf(card) === context.mainSuit ? FIRST_TRUMP_ORDER + position : position;
}

const orderingCache = new Map<string, CardOrdering>();

/** The (cached) order and group tables of a round. */
export function cardOrdering(context: TrumpContext): CardOrdering {
  const key = `${context.mainSuit}${context.currentRank}`;
  const cached = orderingCache.get(key);
  if (cached) return cached;
  const order: number[] = [];
  const group: number[] = [];
  for (let card = 0; card < DISTINCT_CARDS; card++) {
    order.push(orderOf(card, context));
    group.push(isTrumpCard(card, context) ? TRUMP_GROUP : SUITS.indexOf(suitOf(card) as Suit));
  }
  const cardsOfOrder = Array.from({ length: ORDER_LIMIT }, (): Card[] => []);
  for (let card = 0; card < DISTINCT_CARDS; card++) cardsOfOrder[order[card]].push(card);
  const ordering: CardOrdering = { context: { ...context }, order, group, cardsOfOrder };
  orderingCache.set(key, ordering);
  return ordering;
}

/** The group all the cards share, or undefined when they mix trumps and not-trumps or two suits. */
export function sharedGroup(cards: readonly Card[], ordering: CardOrdering): number | undefined {
  if (cards.length === 0) return undefined;
  const group = ordering.group[cards[0]];
  return cards.every((card) => ordering.group[card] === group) ? group : undefined;
}

/** The cards from highest to lowest order (ties by card id, so the result is reproducible). */
export function sortedHighFirst(cards: readonly Card[], ordering: CardOrdering): Card[] {
  return cards.slice().sort((a, b) => ordering.order[b] - ordering.order[a] || a - b);
}

/** A group's name for messages: "trumps" or the suit's name. */
export function groupName(group: number): string {
  return group === TRUMP_GROUP ? "trumps" : ["hearts", "spades", "clubs", "diamonds"][group];
}
