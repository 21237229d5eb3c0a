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
  const rank = ordinalByCode(RANK_ORDINALS, token.charCodeAt(0));
  const suit = ordinalByCode(SUIT_ORDINALS, token.charCodeAt(1));
  return rank < 0 || suit < 0 ? null : NEW_DECK_ORDER[suit * RANKS.length + rank];
}

/**
 * A number from 0 to 51 for each card (suit by suit, ace to king), so that per-card tables can be plain arrays:
 * the judges look at millions of cards.
 */
export function cardIndex(card: Card): number {
  return (
    ordinalByCode(SUIT_ORDINALS, card.suit.charCodeAt(0)) * RANKS.length +
    ordinalByCode(RANK_ORDINALS, card.rank.charCodeAt(0))
  );
}

export function formatCard(card: Card): string {
  return FORMATTED_CARDS[cardIndex(card)] ?? card.rank + card.suit;
}

export function formatCards(cards: readonly Card[]): string {
  return cards.map(formatCard).join(" ");
}

/** By character code, a rank's or a suit's place in RANKS or SUITS; -1 for other characters. */
const RANK_ORDINALS = ordinalTable(RANKS);
const SUIT_ORDINALS = ordinalTable(SUITS);

function ordinalTable(letters: readonly string[]): Int8Array {
  const table = new Int8Array(128).fill(-1);
  letters.forEach((letter, ordinal) => (table[letter.charCodeAt(0)] = ordinal));
  return table;
}

function ordinalByCode(table: Int8Array, code: number): number {
  return code < table.length ? table[code] : -1;
}

/** The 52 cards, suit by suit (S H C D) and ace to king within a suit; parsing hands out these shared, frozen cards. */
const NEW_DECK_ORDER: readonly Card[] = SUITS.flatMap((suit) => RANKS.map((rank) => Object.freeze({ rank, suit })));

/**
 * Every card's two letters, by cardIndex, spelled once: a table's piles then show these shared strings rather than a
 * new string each time a pile's top is written, which would live in the state as long as the card is on top.
 */
const FORMATTED_CARDS: readonly string[] = NEW_DECK_ORDER.map((card) => card.rank + card.suit); // in cardIndex's order

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
