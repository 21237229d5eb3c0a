/**
 * The 54-card deck of "Japanese Fool": 52 natural cards written as value + suit ("6C", "TD", "KS")
 * and two jokers, both written "*". Cards are plain strings so that states serialise as they are.
 */

export const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"] as const;
export const SUITS = ["S", "C", "D", "H"] as const;

export type Rank = (typeof RANKS)[number];
export type Suit = (typeof SUITS)[number];
export type NaturalCard = `${Rank}${Suit}`;
export const JOKER = "*";
export type Joker = typeof JOKER;
export type Card = NaturalCard | Joker;

export const NATURAL_CARDS: readonly NaturalCard[] = SUITS.flatMap((suit) =>
  RANKS.map((rank): NaturalCard => `${rank}${suit}`),
);

/** The whole deck in a fixed order: the 52 natural cards, then the two jokers. */
export function fullDeck(): Card[] {
  return [...NATURAL_CARDS, JOKER, JOKER];
}

export function isJoker(card: Card): card is Joker {
  return card === JOKER;
}

export function rankOf(card: NaturalCard): Rank {
  return card[0] as Rank;
}

export function suitOf(card: NaturalCard): Suit {
  return card[1] as Suit;
}

export function isRank(text: string): text is Rank {
  return (RANKS as readonly string[]).includes(text);
}

export function isSuit(text: string): text is Suit {
  return (SUITS as readonly string[]).includes(text);
}

export function isNaturalCard(text: string): text is NaturalCard {
  return text.length === 2 && isRank(text[0]) && isSuit(text[1]);
}

export function isCard(text: string): text is Card {
  return text === JOKER || isNaturalCard(text);
}

export const KING_OF_SPADES: NaturalCard = "KS";

/**
 * How many cards the next player takes when this card is laid, for the four cards that also make
 * them skip their turn (6, 7, Ace and the King of spades); null for every other card.
 */
export function skipPenalty(card: NaturalCard): number | null {
  if (card === KING_OF_SPADES) return 4;
  switch (rankOf(card)) {
    case "6":
      return 1;
    case "7":
      return 2;
    case "A":
      return 0;
    default:
      return null;
  }
}

/** A card after which the next player skips: the only cards that keep the turn with a two-player laying-out. */
export function isSkipCard(card: NaturalCard): boolean {
  return skipPenalty(card) !== null;
}

/** The thirteen skip cards: a 6, a 7 and an Ace of each suit, and the King of spades. */
export const SKIP_CARDS: readonly NaturalCard[] = NATURAL_CARDS.filter(isSkipCard);

export function isEight(card: NaturalCard): boolean {
  return rankOf(card) === "8";
}

export function isQueen(card: NaturalCard): boolean {
  return rankOf(card) === "Q";
}
