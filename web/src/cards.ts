/**
 * Cards drawn by the page (CSS, no images or fonts), shared by every table. Each game writes cards its own way on
 * the wire — Even-Steven `10s`, Fool and Patience `7S` and `*`, Tractor `H5`, `BJ`, `RJ` — and the notations never
 * overlap (a rank is never a suit letter), so one reader serves them all. A card's accessible name begins with
 * the game's own notation, then says it in words: "QS, queen of spades".
 */
import { h } from "./dom";

export type SuitLetter = "S" | "H" | "D" | "C";

export interface CardFace {
  /** The card as the game's protocol writes it. */
  code: string;
  /** "Q", "10", or "" for a joker. */
  rank: string;
  suit: SuitLetter | "";
  /** "queen of spades", "black joker". */
  words: string;
  red: boolean;
}

const RANK_WORDS: Record<string, string> = {
  "2": "two",
  "3": "three",
  "4": "four",
  "5": "five",
  "6": "six",
  "7": "seven",
  "8": "eight",
  "9": "nine",
  "10": "ten",
  T: "ten",
  J: "jack",
  Q: "queen",
  K: "king",
  A: "ace",
};
export const SUIT_WORDS: Record<SuitLetter, string> = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
export const SUIT_SYMBOLS: Record<SuitLetter, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED_SUITS = new Set(["H", "D"]);

const RANK_THEN_SUIT = /^(10|[2-9TJQKA])([SHDCshdc])$/;
const SUIT_THEN_RANK = /^([SHDC])([2-9TJQKA])$/;

/** Reads a card in any of the games' notations. */
export function cardFace(code: string): CardFace {
  if (code === "*") return { code, rank: "", suit: "", words: "joker", red: false };
  if (code === "BJ" || code === "RJ")
    return { code, rank: "", suit: "", words: code === "BJ" ? "black joker" : "red joker", red: code === "RJ" };
  const match = RANK_THEN_SUIT.exec(code) ?? swap(SUIT_THEN_RANK.exec(code));
  if (!match) return { code, rank: code, suit: "", words: code, red: false };
  const rank = match[1] === "T" ? "10" : match[1];
  const suit = match[2].toUpperCase() as SuitLetter;
  return { code, rank, suit, words: `${RANK_WORDS[match[1]]} of ${SUIT_WORDS[suit]}`, red: RED_SUITS.has(suit) };
}

function swap(match: RegExpExecArray | null): string[] | null {
  return match ? [match[0], match[2], match[1]] : null;
}

/** "QS, queen of spades": what a screen reader says for a card. */
export function cardName(code: string): string {
  return `${code}, ${cardFace(code).words}`;
}

function faceContent(face: CardFace): Node[] {
  // A joker is drawn as a joker: the word and a star, never a rank letter that reads as a Jack.
  if (isJoker(face))
    return [
      h("span", { class: "rank joker-word", text: "JOKER", attrs: { "aria-hidden": "true" } }),
      h("span", { class: "suit", text: "★", attrs: { "aria-hidden": "true" } }),
    ];
  return [
    h("span", { class: "rank", text: face.rank, attrs: { "aria-hidden": "true" } }),
    h("span", { class: "suit", text: SUIT_SYMBOLS[face.suit as SuitLetter] ?? "", attrs: { "aria-hidden": "true" } }),
  ];
}

function isJoker(face: CardFace): boolean {
  return face.code === "*" || face.code === "BJ" || face.code === "RJ";
}

function faceClass(face: CardFace, extra = ""): string {
  return `card${face.red ? " red" : ""}${isJoker(face) ? " joker" : ""}${extra ? ` ${extra}` : ""}`;
}

/** A card to look at (on the table, in a trick, a pile's top). */
export function cardView(code: string, extra = ""): HTMLElement {
  const face = cardFace(code);
  return h("span", { class: faceClass(face, extra), role: "img", label: cardName(code) }, ...faceContent(face));
}

/**
 * A card a person may act with: an enabled button when it may be played now, a disabled one otherwise.
 * `selected` marks a card chosen for a multi-card play (aria-pressed).
 */
export function cardButton(
  code: string,
  options: { enabled: boolean; onClick: () => void; key: string; selected?: boolean; legal?: boolean },
): HTMLButtonElement {
  const face = cardFace(code);
  const extra =
    `${options.enabled ? "playable" : ""}${options.selected ? " selected" : ""}${options.legal ? " legal" : ""}`.trim();
  const card = h(
    "button",
    {
      type: "button",
      class: faceClass(face, extra),
      label: cardName(code),
      key: options.key,
      disabled: !options.enabled,
      onClick: options.onClick,
    },
    ...faceContent(face),
  );
  if (options.selected !== undefined) card.setAttribute("aria-pressed", String(options.selected));
  return card;
}

/** The back of a card nobody here may see. */
export function cardBack(): HTMLElement {
  return h("span", { class: "card back", attrs: { "aria-hidden": "true" } });
}

/** `count` backs, drawn overlapping, named by the count alone. */
export function cardBacks(count: number, label: string): HTMLElement {
  const shown = Math.min(count, 12);
  return h(
    "span",
    { class: "backs", role: "img", label: `${label}: ${count} cards` },
    ...Array.from({ length: shown }, () => cardBack()),
  );
}

/** A row of cards to look at. */
export function cardRow(codes: readonly string[], label: string, extra = ""): HTMLElement {
  return h("span", { class: "card-row", role: "group", label }, ...codes.map((code) => cardView(code, extra)));
}

/** A suit written for people, in its colour: "♥ hearts". */
export function suitView(letter: string): HTMLElement {
  if (!(letter in SUIT_WORDS)) return h("span", { text: letter === "O" ? "no trump suit" : "not yet declared" });
  const suit = letter as SuitLetter;
  return h("span", {
    class: `suit-name${RED_SUITS.has(suit) ? " red" : ""}`,
    text: `${SUIT_SYMBOLS[suit]} ${SUIT_WORDS[suit]}`,
  });
}
