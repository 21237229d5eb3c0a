/**
 * The cards of Shuffling Patience and the two-character notation the original problem writes them in:
 * a rank (A 2-9 T J Q K) followed by a suit (S H C D), e.g. `TS` is the ten of spades.
 */
import { seededRandom, shuffled, type Random } from "../kit/random";

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"] as const;
export type Rank = (typeof RANKS)[number];

export const SUITS = ["S", "H", "C", "D"] as const;
export type Suit = (typeof SUITS)[number];

export interface Card {
  readonly rank: Rank;
  readonly suit: Suit;
}

/** The court cards, which are covered as a {jack, queen, king} triple instead of as pairs. */
export const FACE_RANKS: readonly Rank[] = ["J", "Q", "K"];

/** A card's face value for pairing (ace 1 … ten 10), or null for a jack, queen or king. */
export function pipValue(rank: Rank): number | null {
  const index = RANKS.indexOf(rank);
  return index < 10 ? index + 1 : null;
}

/** The rank of the pip card worth `value` (1 … 10). */
export function rankOfValue(value: number): Rank {
  return RANKS[value - 1];
}

export function isRank(text: string): text is Rank {
  return (RANKS as readonly string[]).includes(text);
}

export function isSuit(text: string): text is Suit {
  return (SUITS as readonly string[]).includes(text);
}

/** A sentence-ending explanation of the notation, for error messages. */
export const CARD_NOTATION_HINT = "a card is a rank (A 2-9 T J Q K) followed by a suit (S H C D), e.g. TS";

/** The card a two-character token names, or null when it names none. Case matters: `ts` is not a card. */
export function parseCard(token: string): Card | null {
  if (token.length !== 2) return null;
  const [rank, suit] = [token[0], token[1]];
  return isRank(rank) && isSuit(suit) ? { rank, suit } : null;
}

export function formatCard(card: Card): string {
  return card.rank + card.suit;
}

export function formatCards(cards: readonly Card[]): string {
  return cards.map(formatCard).join(" ");
}

/** The 52 cards, suit by suit (S H C D) and ace to king within a suit. */
const NEW_DECK_ORDER: readonly Card[] = SUITS.flatMap((suit) => RANKS.map((rank) => Object.freeze({ rank, suit })));

export function fullDeck(): Card[] {
  return NEW_DECK_ORDER.slice();
}

/** A full deck in a uniformly random order drawn from `random`. */
export function shuffledDeck(random: Random): Card[] {
  return shuffled(NEW_DECK_ORDER, random);
}

/** The deck a seed deals (a live room's seeded deal): `shuffledDeck` drawing from `seededRandom(seed)`. */
export function deckOfSeed(seed: number): Card[] {
  return shuffledDeck(seededRandom(seed));
}
