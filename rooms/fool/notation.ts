/**
 * The statement's notation for a laying-out position: the hand on one line ("6C QD 6S KS 7S *"), the face-up card on
 * the next ("QDS" is the Queen of diamonds with spades named, "*QHS" a joker laid as that Queen, "*6D" a joker
 * laid as the 6 of diamonds). Parsing never throws: a problem comes back as a sentence.
 */
import { isJoker, isNaturalCard, isQueen, isSuit, JOKER, type Card } from "./cards";
import { formatLaid, type FaceUp } from "./rules";

export interface Position {
  readonly hand: readonly Card[];
  readonly faceUp: FaceUp;
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

const CARD_FORMAT = "a value (2-9, T, J, Q, K, A) then a suit (S, C, D, H), or * for a joker";

export function parseHand(line: string): Parsed<Card[]> {
  const tokens = line
    .trim()
    .split(/\s+/)
    .filter((token) => token.length > 0);
  if (tokens.length === 0) return { ok: false, problem: "the hand (first line) is empty" };
  const hand: Card[] = [];
  for (const token of tokens) {
    const card = token.toUpperCase();
    if (card !== JOKER && !isNaturalCard(card))
      return { ok: false, problem: `"${token}" is not a card: expected ${CARD_FORMAT}` };
    if (!isJoker(card) && hand.includes(card)) return { ok: false, problem: `the hand holds ${card} twice` };
    hand.push(card);
  }
  if (hand.filter(isJoker).length > 2) return { ok: false, problem: "the hand holds more than the deck's two jokers" };
  return { ok: true, value: hand };
}

export function parseFaceUp(line: string): Parsed<FaceUp> {
  const text = line.trim().toUpperCase();
  const joker = text.startsWith(JOKER);
  const body = joker ? text.slice(1) : text;
  const as = body.slice(0, 2);
  const rest = body.slice(2);
  if (!isNaturalCard(as)) {
    const what = joker ? "a joker must be followed by the card it was laid as" : `expected ${CARD_FORMAT}`;
    return { ok: false, problem: `"${line.trim()}" is not a face-up card: ${what}` };
  }
  if (isQueen(as) && !(rest.length === 1 && isSuit(rest))) {
    return {
      ok: false,
      problem: `the face-up Queen "${line.trim()}" must be followed by its named suit (S, C, D or H)`,
    };
  }
  if (!isQueen(as) && rest.length > 0)
    return { ok: false, problem: `unexpected "${rest}" after the face-up card ${as}` };
  const namedSuit = isSuit(rest) ? rest : null;
  return { ok: true, value: { card: joker ? JOKER : as, as, namedSuit } };
}

/** The two lines of the statement's input; blank lines around them are ignored. */
export function parsePosition(text: string): Parsed<Position> {
  const lines = text.split(/\r?\n/).filter((line) => line.trim().length > 0);
  if (lines.length !== 2) {
    return { ok: false, problem: `expected two lines (the hand, then the face-up card), got ${lines.length}` };
  }
  const hand = parseHand(lines[0]);
  if (!hand.ok) return hand;
  const faceUp = parseFaceUp(lines[1]);
  if (!faceUp.ok) return faceUp;
  const clash = deckClash(hand.value, faceUp.value);
  if (clash) return { ok: false, problem: clash };
  return { ok: true, value: { hand: hand.value, faceUp: faceUp.value } };
}

/** A position the 54-card deck cannot produce: the face-up card also in the hand, or three jokers. */
function deckClash(hand: readonly Card[], faceUp: FaceUp): string | null {
  if (isJoker(faceUp.card)) {
    return hand.filter(isJoker).length === 2 ? "the hand holds both jokers, so the face-up card cannot be one" : null;
  }
  return hand.includes(faceUp.card) ? `the face-up card ${faceUp.card} is also in the hand` : null;
}

/** The statement's output line for a sequence: cards separated by spaces, jokers and Queens written in full. */
export function formatSequence(sequence: readonly FaceUp[]): string {
  return sequence.map(formatLaid).join(" ");
}
