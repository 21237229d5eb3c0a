/**
 * The original problem's text formats: decks as lines of two-character cards ending with a `#` line, and one
 * result line per deck (`printf("%3d:", k)`, then each pile size as `%3d` or ` Overflowed on card no N`).
 */
import { CARD_NOTATION_HINT, cardIndex, formatCard, formatCards, parseCard, type Card } from "./cards";
import type { Outcome, PatienceEvent } from "./engine";
import { linesOfText, type LineSource } from "../kit/text-lines";

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

/**
 * The decks of an input. Cards are read as whitespace-separated tokens, so extra blanks, tabs, blank lines and
 * CRLF line ends do not matter and a deck need not be split exactly 13 to a line. Reading stops at the `#`
 * token (anything after it is ignored) or, leniently, at the end of the input after a whole deck.
 * Throws a DeckInputError for a token that is not a card or for a deck cut short.
 */
export function parseDecks(input: string): Card[][] {
  const reader = new DeckReader(linesOfText(input));
  const decks: Card[][] = [];
  for (let deck = reader.nextDeck(); deck !== undefined; deck = reader.nextDeck()) decks.push(deck);
  return decks;
}

/**
 * The decks of an input one at a time, read as parseDecks reads them, so that a judge can play each deck before
 * reading the next. nextDeck throws a DeckInputError as parseDecks does.
 */
export class DeckReader {
  private readonly cards: CardReader;
  private decksRead = 0;

  constructor(source: LineSource) {
    this.cards = new CardReader(source);
  }

  /** The next whole deck, or undefined when the input is over. */
  nextDeck(): Card[] | undefined {
    const deck: Card[] = [];
    for (let card = this.cards.next(); card !== undefined; card = this.cards.next()) {
      deck.push(card);
      if (deck.length === DECK_SIZE) break;
    }
    if (deck.length === 0) return undefined;
    this.decksRead++;
    if (deck.length < DECK_SIZE) {
      throw new DeckInputError(
        this.cards.lastLine,
        `deck ${this.decksRead} has only ${deck.length} of its ${DECK_SIZE} cards`,
      );
    }
    return deck;
  }
}

/**
 * The one deal a room is given: exactly 52 different cards, read like `parseDecks` reads a deck (a final `#` is
 * allowed). A live deal stands for a real deck, so unlike bin/patience it refuses repeated cards.
 * Throws a DeckInputError saying what is wrong.
 */
export function parseDeal(input: string): Card[] {
  const { cards: deck, lastLine } = readCards(input);
  if (deck.length !== DECK_SIZE)
    throw new DeckInputError(lastLine, `a deal needs ${DECK_SIZE} cards, this one has ${deck.length}`);
  const repeated = repeatedCards(deck);
  if (repeated.length > 0)
    throw new DeckInputError(lastLine, `a deal is one deck, but this one repeats ${repeated.join(", ")}`);
  return deck;
}

/** Every card up to the `#` token (or the end), and the line of the last token read, for messages. */
function readCards(input: string): { cards: Card[]; lastLine: number } {
  const reader = new CardReader(linesOfText(input));
  const cards: Card[] = [];
  for (let card = reader.next(); card !== undefined; card = reader.next()) cards.push(card);
  return { cards, lastLine: reader.lastLine };
}

/** The cards of an input token by token, up to the `#` token or the end. */
class CardReader {
  private tokens: string[] = [];
  private at = 0;
  private over = false;
  /** The line of the last token read (1 before any), for messages. */
  lastLine = 1;

  constructor(private readonly source: LineSource) {}

  /** The next card, or undefined at the `#` token or the end. Throws a DeckInputError for a token that is no card. */
  next(): Card | undefined {
    const token = this.nextToken();
    if (token === undefined || token === END_OF_INPUT) {
      this.over = true;
      return undefined;
    }
    return parseCard(token) ?? notACard(this.lastLine, token);
  }

  private nextToken(): string | undefined {
    // Each turn takes a token or a line of the source, which ends.
    while (!this.over) {
      if (this.at < this.tokens.length) {
        const token = this.tokens[this.at++];
        if (token === "") continue;
        this.lastLine = this.source.lineNumber;
        return token;
      }
      const line = this.source.nextLine();
      if (line === undefined) return undefined;
      this.tokens = line.split(/\s+/);
      this.at = 0;
    }
    return undefined;
  }
}

/** The cards that occur more than once in a deck, each named once. The game itself never looks at suits. */
export function repeatedCards(deck: readonly Card[]): string[] {
  const seen = new Uint8Array(DECK_SIZE);
  const repeated: string[] = [];
  for (const card of deck) {
    const index = cardIndex(card);
    if (seen[index] < 2 && ++seen[index] === 2) repeated.push(formatCard(card));
  }
  return repeated;
}

/** A deck as the problem writes it: lines of 13 cards. */
export function formatDeck(deck: readonly Card[]): string[] {
  const lines: string[] = [];
  for (let start = 0; start < deck.length; start += CARDS_PER_LINE) {
    lines.push(
      deck
        .slice(start, start + CARDS_PER_LINE)
        .map(formatCard)
        .join(" "),
    );
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

function notACard(line: number, token: string): never {
  throw new DeckInputError(line, `"${printable(token)}" is not a card; ${CARD_NOTATION_HINT}`);
}

/** A token as it may be quoted in a one-line message: control characters shown as escapes, long ones cut. */
function printable(text: string): string {
  const escaped = JSON.stringify(text).slice(1, -1);
  return escaped.length > 20 ? escaped.slice(0, 20) + "…" : escaped;
}
