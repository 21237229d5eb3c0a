/**
 * Even-Steven cards in the original notation: a value (2..10, J, Q, K, A) followed by a suit (c, d, h, s),
 * e.g. `10s`, `Jh`. Only values matter for play; suits only tell cards apart.
 */
export const VALUES = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"] as const;
export const SUITS = ["c", "d", "h", "s"] as const;

export type Card = string;

const CARD_PATTERN = /^(10|[2-9JQKA])([cdhs])$/;

/** True when the text is a card in the original notation, exactly (no spaces, suits in lower case). */
export function isCard(text: string): boolean {
  return CARD_PATTERN.test(text);
}

/** The card's value rank: 0 for a 2 up to 12 for an Ace. Suits do not count. */
export function cardValue(card: Card): number {
  return VALUES.indexOf(card.slice(0, -1) as (typeof VALUES)[number]);
}

/** A card covers a dealt card when its value is equal or higher. */
export function covers(played: Card, dealt: Card): boolean {
  return cardValue(played) >= cardValue(dealt);
}

/** The fresh deck in the original dealer's order: value-major, suits c d h s within each value. */
export function freshDeck(): Card[] {
  return FRESH_DECK.slice();
}

/** The 52 cards spelled once: every deal's deck and hands hold these shared strings, not 52 new ones a deal. */
const FRESH_DECK: readonly Card[] = VALUES.flatMap((value) => SUITS.map((suit) => value + suit));
