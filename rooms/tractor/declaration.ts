/**
 * The declaration phase of a live table, as pure functions: the cards are dealt one at a time, and while they
 * come a player holding a card of the current rank may show it to declare its suit the main suit.
 *
 * The rules this table plays (docs/protocol.md says the same to players):
 * - the deal: the 108 cards are shuffled and cut exactly as `dealRound` deals them; then 100 of them are dealt
 *   one by one clockwise starting with the dealer (25 each), and the dealer's last 8 cards are the kitty, taken
 *   up only when declaring is over (so they can never be declared with);
 * - a declaration shows cards the seat has been dealt: one card of the current rank (its suit becomes the main
 *   suit), a pair of the same current-rank card (stronger), a pair of black jokers, or a pair of red jokers
 *   (the strongest; either joker pair declares no main suit);
 * - a declaration stands until a strictly stronger one overrides it. A seat may not override its own
 *   declaration, except to strengthen its single into the pair of the same card;
 * - when nobody declares, the round is played with no main suit (only jokers and current-rank cards are trumps).
 * The ruleset may forbid strengthening one's own declaration (`strengthenOwnDeclaration`) and declaring with joker
 * pairs (`jokerPairsDeclare`).
 */
import { BLACK_JOKER, type Card, cardsName, RED_JOKER, type Rank, rankOf, suitOf } from "./cards";
import type { MainSuit } from "./order";
import { HAND_CARDS } from "./round";
import { classic, type TractorRuleset } from "./ruleset";
import { nextSeat, PLAYERS, type Seat, SEAT_NAMES, teamOf } from "./scoring";

/** The ruleset's declaration rules. */
export type DeclarationRules = Pick<TractorRuleset, "strengthenOwnDeclaration" | "jokerPairsDeclare">;

/** Cards dealt one at a time before the kitty: 25 to each seat. */
export const DEAL_STEPS = HAND_CARDS * PLAYERS;

export interface Declaration {
  readonly seat: Seat;
  readonly cards: readonly Card[];
}

export type DeclarationCheck = { ok: true; declaration: Declaration } | { ok: false; reason: string };

const SINGLE = 1;
const PAIR = 2;
const BLACK_JOKER_PAIR = 3;
const RED_JOKER_PAIR = 4;

/** Deal step `step` (0-based) gives the seat its card number `index` (0-based) of its hand. */
export function dealStep(dealer: Seat, step: number): { seat: Seat; index: number } {
  return { seat: nextSeat(dealer, step % PLAYERS), index: Math.floor(step / PLAYERS) };
}

/** The cards `seat` has been dealt once `steps` deal steps are done (its hand's first cards). */
export function dealtTo(hand: readonly Card[], dealer: Seat, seat: Seat, steps: number): Card[] {
  const offset = (seat - dealer + PLAYERS) % PLAYERS;
  const count = steps > offset ? Math.ceil((steps - offset) / PLAYERS) : 0;
  return hand.slice(0, Math.min(count, HAND_CARDS));
}

/** How strong a declaration these cards make (higher overrides lower), or undefined if they make none. */
export function declarationStrength(
  cards: readonly Card[],
  currentRank: Rank,
  rules: DeclarationRules = classic,
): number | undefined {
  const [first, second] = cards;
  if (cards.length === 1) return rankOf(first) === currentRank ? SINGLE : undefined;
  if (cards.length !== 2 || first !== second) return undefined;
  if (first === BLACK_JOKER) return rules.jokerPairsDeclare ? BLACK_JOKER_PAIR : undefined;
  if (first === RED_JOKER) return rules.jokerPairsDeclare ? RED_JOKER_PAIR : undefined;
  return rankOf(first) === currentRank ? PAIR : undefined;
}

/** The main suit a standing declaration makes; with none, the round has no main suit. */
export function declaredMainSuit(declaration: Declaration | undefined): MainSuit {
  return (declaration && suitOf(declaration.cards[0])) ?? "O";
}

function countOf(cards: readonly Card[], card: Card): number {
  return cards.filter((held) => held === card).length;
}

function describeStanding(standing: Declaration): string {
  return `${SEAT_NAMES[standing.seat]}'s ${cardsName(standing.cards)}`;
}

/** Checks that `seat`, holding `held`, may declare with `cards` over the standing declaration. */
export function checkDeclaration(
  standing: Declaration | undefined,
  seat: Seat,
  cards: readonly Card[],
  held: readonly Card[],
  currentRank: Rank,
  rules: DeclarationRules = classic,
): DeclarationCheck {
  const strength = declarationStrength(cards, currentRank, rules);
  if (strength === undefined) {
    const jokers = rules.jokerPairsDeclare ? ", or a pair of jokers" : "";
    return {
      ok: false,
      reason: `Declare with one card of the current rank${jokers ? ", a pair of it" : " or a pair of it"}${jokers}.`,
    };
  }
  if (cards.some((card) => countOf(cards, card) > countOf(held, card))) {
    return { ok: false, reason: `You have not been dealt ${cardsName(cards)}.` };
  }
  if (standing !== undefined) {
    const standingStrength = declarationStrength(standing.cards, currentRank, rules) as number;
    if (strength <= standingStrength)
      return { ok: false, reason: `${describeStanding(standing)} stands: only a stronger declaration overrides it.` };
    const strengthensOwn = rules.strengthenOwnDeclaration && strength === PAIR && cards[0] === standing.cards[0];
    if (standing.seat === seat && !strengthensOwn) {
      const reason = rules.strengthenOwnDeclaration
        ? "You may only strengthen your own declaration into the pair of the same card."
        : "Your own declaration stands: you may not override it.";
      return { ok: false, reason };
    }
  }
  return { ok: true, declaration: { seat, cards: cards.slice() } };
}

/** Every declaration `seat` could make now (each as its cards). */
export function declarationOptions(
  standing: Declaration | undefined,
  seat: Seat,
  held: readonly Card[],
  currentRank: Rank,
  rules: DeclarationRules = classic,
): Card[][] {
  const options: Card[][] = [];
  for (const card of new Set(held)) {
    for (const cards of [[card], [card, card]]) {
      if (checkDeclaration(standing, seat, cards, held, currentRank, rules).ok) options.push(cards);
    }
  }
  return options;
}

/**
 * The seat bot's declaration, if any: it never overrides its partner or itself; it prefers a suit to no main
 * suit, then the stronger declaration, then the suit it holds most of. Joker pairs only ever override an opponent.
 */
export function botDeclaration(
  standing: Declaration | undefined,
  seat: Seat,
  held: readonly Card[],
  currentRank: Rank,
  rules: DeclarationRules = classic,
): Card[] | undefined {
  if (standing !== undefined && teamOf(standing.seat) === teamOf(seat)) return undefined;
  const suitLength = (cards: readonly Card[]) => {
    const suit = suitOf(cards[0]);
    return suit === undefined ? -1 : held.filter((card) => suitOf(card) === suit).length;
  };
  const preference = (cards: readonly Card[]) => [
    suitOf(cards[0]) === undefined ? 0 : 1,
    declarationStrength(cards, currentRank, rules) as number,
    suitLength(cards),
  ];
  const options = declarationOptions(standing, seat, held, currentRank, rules).filter(
    (cards) => standing !== undefined || suitOf(cards[0]) !== undefined,
  );
  options.sort((a, b) => {
    const [pa, pb] = [preference(a), preference(b)];
    return pb[0] - pa[0] || pb[1] - pa[1] || pb[2] - pa[2] || a[0] - b[0];
  });
  return options[0];
}
