/**
 * The original problem's text formats: decks as lines of two-character cards ending with a `#` line, and one
 * result line per deck (`printf("%3d:", k)`, then each pile size as `%3d` or ` Overflowed on card no N`).
 */
import { CARD_NOTATION_HINT, formatCard, formatCards, parseCard, type Card } from "./cards";
import type { Outcome, PatienceEvent } from "./engine";

export const DECK_SIZE = 52;
export const CARDS_PER_LINE = 13;
export const END_OF_INPUT = "#";

/** What is wrong with an input, naming the line (from 1) where it shows. */
export class DeckInputError extends Error {
  constructor(
    readonly line: number,
    problem: string,
  ) {
    super(`line ${line}: ${problem}`);
    this.name = "DeckInputError";
  }
}

interface Token {
  readonly text: string;
  readonly line: number;
}

/**
 * The decks of an input. Cards are read as whitespace-separated tokens, so extra blanks, tabs, blank lines and
 * CRLF line ends do not matter and a deck need not be split exactly 13 to a line. Reading stops at the `#`
 * token (anything after it is ignored) or, leniently, at the end of the input after a whole deck.
 * Throws a DeckInputError for a token that is not a card or for a deck cut short.
 */
export function parseDecks(input: string): Card[][] {
  const { cards, lastLine } = readCards(input);
  const decks: Card[][] = [];
  for (let start = 0; start < cards.length; start += DECK_SIZE) decks.push(cards.slice(start, start + DECK_SIZE));
  const last = decks.at(-1);
  if (last !== undefined && last.length < DECK_SIZE) {
    throw new DeckInputError(lastLine, `deck ${decks.length} has only ${last.length} of its ${DECK_SIZE} cards`);
  }
  return decks;
}

/**
 * The one deal a room is given: exactly 52 different cards, read like `parseDecks` reads a deck (a final `#` is
 * allowed). A live deal stands for a real deck, so unlike bin/patience it refuses repeated cards.
 * Throws a DeckInputError saying what is wrong.
 */
export function parseDeal(input: string): Card[] {
  const { cards: deck, lastLine } = readCards(input);
  if (deck.length !== DECK_SIZE) throw new DeckInputError(lastLine, `a deal needs ${DECK_SIZE} cards, this one has ${deck.length}`);
  const repeated = repeatedCards(deck);
  if (repeated.length > 0) throw new DeckInputError(lastLine, `a deal is one deck, but this one repeats ${repeated.join(", ")}`);
  return deck;
}

/** Every card up to the `#` token (or the end), and the line of the last token read, for messages. */
function readCards(input: string): { cards: Card[]; lastLine: number } {
  const cards: Card[] = [];
  let lastLine = 1;
  for (const token of tokens(input)) {
    lastLine = token.line;
    if (token.text === END_OF_INPUT) break;
    cards.push(cardOf(token));
  }
  return { cards, lastLine };
}

/** The cards that occur more than once in a deck, each named once. The game itself never looks at suits. */
export function repeatedCards(deck: readonly Card[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const name of deck.map(formatCard)) (seen.has(name) ? repeated : seen).add(name);
  return [...repeated];
}

/** A deck as the problem writes it: lines of 13 cards. */
export function formatDeck(deck: readonly Card[]): string[] {
  const lines: string[] = [];
  for (let start = 0; start < deck.length; start += CARDS_PER_LINE) {
    lines.push(deck.slice(start, start + CARDS_PER_LINE).map(formatCard).join(" "));
  }
  return lines;
}

/** The output line for deck number `deckNumber` (from 1). Every number is right justified in 3 columns. */
export function formatResult(deckNumber: number, outcome: Outcome): string {
  const body =
    outcome.kind === "overflowed"
      ? ` Overflowed on card no${field(outcome.cardNumber)}`
      : outcome.pileSizes.map(field).join("");
  return `${field(deckNumber)}:${body}`;
}

/** One line for a game log, e.g. `pair on piles 2,6: 8S 3H covered by KH 9H` (piles counted from 0). */
export function describeEvent(event: PatienceEvent): string {
  switch (event.kind) {
    case "dealt":
      return `card ${event.cardNumber}, ${formatCard(event.card)}, starts pile ${event.pile}`;
    case "covered": {
      const ranOut = event.covering.length < event.piles.length ? " (the deck ran out)" : "";
      const coveredBy = `${formatCards(event.covered)} covered by ${formatCards(event.covering)}`;
      return `${event.group} on piles ${event.piles.join(",")}: ${coveredBy}${ranOut}`;
    }
    case "overflowed":
      return `overflowed on card no ${event.cardNumber}, ${formatCard(event.card)}`;
    case "finished":
      return `finished with piles of ${event.pileSizes.join(" ")}`;
  }
}

function field(value: number): string {
  return String(value).padStart(3);
}

function* tokens(input: string): Generator<Token> {
  const lines = input.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  for (const [index, line] of lines.entries()) {
    for (const text of line.split(/\s+/)) {
      if (text !== "") yield { text, line: index + 1 };
    }
  }
}

function cardOf(token: Token): Card {
  const card = parseCard(token.text);
  if (card === null) throw new DeckInputError(token.line, `"${printable(token.text)}" is not a card; ${CARD_NOTATION_HINT}`);
  return card;
}

/** A token as it may be quoted in a one-line message: control characters shown as escapes, long ones cut. */
function printable(text: string): string {
  const escaped = JSON.stringify(text).slice(1, -1);
  return escaped.length > 20 ? escaped.slice(0, 20) + "…" : escaped;
}
