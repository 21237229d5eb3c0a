/**
 * Cards of a Tractor (Shengji) table in the statement's notation: a suit letter (H S C D) and a rank letter
 * (2-9, T, J, Q, K, A), or the jokers BJ and RJ. Two decks are used, so every card exists twice.
 *
 * A card is a small integer (0..53) so that hands and counts are cheap arrays; the two copies of a card
 * share one id.
 */

export type Suit = "H" | "S" | "C" | "D";
/** A card's rank as a number: 2..10, J = 11, Q = 12, K = 13, A = 14. */
export type Rank = number;
export type Card = number;

export const SUITS: readonly Suit[] = ["H", "S", "C", "D"];
export const LOWEST_RANK = 2;
export const ACE = 14;
export const BLACK_JOKER: Card = 52;
export const RED_JOKER: Card = 53;
export const DISTINCT_CARDS = 54;
export const COPIES_PER_CARD = 2;
export const DECK_SIZE = DISTINCT_CARDS * COPIES_PER_CARD;

const RANK_LETTERS = "23456789TJQKA";

export function suitCard(suit: Suit, rank: Rank): Card {
  return SUITS.indexOf(suit) * 13 + (rank - LOWEST_RANK);
}

export function isJoker(card: Card): boolean {
  return card >= BLACK_JOKER;
}

/** The card's suit, or undefined for a joker. */
export function suitOf(card: Card): Suit | undefined {
  return isJoker(card) ? undefined : SUITS[Math.floor(card / 13)];
}

/** The card's rank; jokers have none (undefined). */
export function rankOf(card: Card): Rank | undefined {
  return isJoker(card) ? undefined : (card % 13) + LOWEST_RANK;
}

/** Parses a rank letter ("2".."9", "T", "J", "Q", "K", "A"); "10" is accepted for T. */
export function parseRank(text: string): Rank | undefined {
  if (text === "10") return 10;
  const index = text.length === 1 ? RANK_LETTERS.indexOf(text) : -1;
  return index < 0 ? undefined : index + LOWEST_RANK;
}

/** The statement's letter for a rank; ten is written T. */
export function rankLetter(rank: Rank): string {
  return RANK_LETTERS[rank - LOWEST_RANK];
}

export function cardName(card: Card): string {
  return CARD_NAMES[card] ?? spelledName(card);
}

function spelledName(card: Card): string {
  if (card === BLACK_JOKER) return "BJ";
  if (card === RED_JOKER) return "RJ";
  return `${suitOf(card)}${rankLetter(rankOf(card) as Rank)}`;
}

/**
 * Every card's name, spelled once: the names a table's views hold (hands, tricks, the kitty) are then these shared
 * strings, not a new string each time a view is written, which would live in the state as long as the card is shown.
 */
const CARD_NAMES: readonly string[] = Array.from({ length: DISTINCT_CARDS }, (_, card) => spelledName(card));

export function parseCard(text: string): Card | undefined {
  if (text === "BJ") return BLACK_JOKER;
  if (text === "RJ") return RED_JOKER;
  const suit = SUITS.find((candidate) => candidate === text[0]);
  const rank = text.length === 2 ? parseRank(text[1]) : undefined;
  return suit === undefined || rank === undefined ? undefined : suitCard(suit, rank);
}

/** By character code: a suit letter's suit index, a rank letter's rank; -1 for other characters. */
const SUIT_INDEX_BY_CODE = codeTable(SUITS.join(""), (index) => index);
const RANK_BY_CODE = codeTable(RANK_LETTERS, (index) => index + LOWEST_RANK);

function codeTable(letters: string, valueAt: (index: number) => number): Int8Array {
  const table = new Int8Array(128).fill(-1);
  for (let index = 0; index < letters.length; index++) table[letters.charCodeAt(index)] = valueAt(index);
  return table;
}

/** The card written by the two characters at `at` (as parseCard reads them), or undefined. */
function cardAt(text: string, at: number): Card | undefined {
  const first = text.charCodeAt(at);
  const second = text.charCodeAt(at + 1);
  if (second === 74 /* J */ && (first === 66 /* B */ || first === 82) /* R */)
    return first === 66 ? BLACK_JOKER : RED_JOKER;
  const suit = first < 128 ? SUIT_INDEX_BY_CODE[first] : -1;
  const rank = second < 128 ? RANK_BY_CODE[second] : -1;
  return suit < 0 || rank < 0 ? undefined : suit * 13 + (rank - LOWEST_RANK);
}

/** Parses a run of two-letter cards such as "S6S6S7S7"; undefined if any part is not a card. */
export function parseCards(text: string): Card[] | undefined {
  if (text.length === 0 || text.length % 2 !== 0) return undefined;
  const cards: Card[] = [];
  for (let at = 0; at < text.length; at += 2) {
    const card = cardAt(text, at);
    if (card === undefined) return undefined;
    cards.push(card);
  }
  return cards;
}

export function cardsName(cards: readonly Card[]): string {
  return cards.map(cardName).join("");
}

/** Points a card is worth: 5s score 5, tens and kings score 10, everything else nothing. */
export function cardPoints(card: Card): number {
  const rank = rankOf(card);
  if (rank === 5) return 5;
  return rank === 10 || rank === 13 ? 10 : 0;
}

export function pointsOf(cards: readonly Card[]): number {
  let total = 0;
  for (const card of cards) total += cardPoints(card);
  return total;
}

/** The 108 cards of two full decks, in id order. */
export function doubleDeck(): Card[] {
  const deck: Card[] = [];
  for (let card = 0; card < DISTINCT_CARDS; card++) {
    for (let copy = 0; copy < COPIES_PER_CARD; copy++) deck.push(card);
  }
  return deck;
}

/** How many copies of each card id the list holds. */
export function countCards(cards: readonly Card[]): Uint8Array {
  const counts = new Uint8Array(DISTINCT_CARDS);
  for (const card of cards) counts[card]++;
  return counts;
}

/** The cards of `from` left after taking out `taken` (as a multiset); undefined if `taken` is not inside `from`. */
export function withoutCards(from: readonly Card[], taken: readonly Card[]): Card[] | undefined {
  const counts = countCards(taken);
  const rest: Card[] = [];
  for (const card of from) {
    if (counts[card] > 0) counts[card]--;
    else rest.push(card);
  }
  return rest.length + taken.length === from.length ? rest : undefined;
}
