/**
 * Simple players for Fool, as pure functions of what a seat can see, and a loop that plays a game out.
 * They are the baselines the AI is measured against and the stand-ins a room can seat for absent players.
 */
import { randomInt, type Random } from "../kit/random";
import {
  isJoker,
  isQueen,
  KING_OF_SPADES,
  rankOf,
  SUITS,
  suitOf,
  type Card,
  type NaturalCard,
  type Suit,
} from "./cards";
import {
  applyMove,
  legalMovesInView,
  viewFor,
  withoutOne,
  type FoolMove,
  type FoolState,
  type FoolView,
} from "./rules";

/** Chooses a move for the seat whose view it is; it is only asked on that seat's turn. */
export type Policy = (view: FoolView, random: Random) => FoolMove;

export type PlayMove = Extract<FoolMove, { kind: "play" }>;

export function playsIn(moves: readonly FoolMove[]): PlayMove[] {
  return moves.filter((move): move is PlayMove => move.kind === "play");
}

/** What a play counts as: the card itself, or a joker's name. */
export function identityOf(move: PlayMove): NaturalCard {
  return isJoker(move.card) ? (move.as as NaturalCard) : move.card;
}

/** Draw when allowed, otherwise pass: what a player does who will not or cannot lay a card. */
export function drawOrPass(moves: readonly FoolMove[]): FoolMove {
  return moves.find((move) => move.kind === "draw") ?? { kind: "pass" };
}

function pick<T>(items: readonly T[], random: Random): T {
  return items[randomInt(random, items.length)];
}

/**
 * Uniform over the distinct decisions (lay this card, draw, pass), then uniform over how to lay it, so that a
 * joker's many possible names do not make it the card laid most often.
 */
export const randomPolicy: Policy = (view, random) => {
  const moves = legalMovesInView(view);
  const decisions = new Map<string, FoolMove[]>();
  for (const move of moves) {
    const key = move.kind === "play" ? move.card : move.kind;
    decisions.set(key, [...(decisions.get(key) ?? []), move]);
  }
  return pick(pick([...decisions.values()], random), random);
};

/** How much laying a card hurts the next player at once: the cards they take, and a lost turn. */
export function immediateDamage(identity: NaturalCard): number {
  if (identity === KING_OF_SPADES) return 10;
  switch (rankOf(identity)) {
    case "7":
      return 6;
    case "6":
      return 5;
    case "A":
      return 4;
    case "8":
      return 3;
    default:
      return 0;
  }
}

/** The suit held most often in `hand` (ties to the first in S, C, D, H order). */
export function commonestSuit(hand: readonly Card[]): Suit {
  const count = (suit: Suit) => hand.filter((card) => !isJoker(card) && suitOf(card) === suit).length;
  return SUITS.reduce((best, suit) => (count(suit) > count(best) ? suit : best), SUITS[0]);
}

/**
 * Lays the natural card that hurts the opponent most right now (ties broken at random), a joker only when
 * nothing else covers (named as the most damaging card), and names its commonest suit with a Queen.
 */
export const greedyPolicy: Policy = (view, random) => {
  const moves = legalMovesInView(view);
  const plays = playsIn(moves);
  const naturals = plays.filter((move) => !isJoker(move.card));
  const candidates = naturals.length > 0 ? naturals : plays;
  if (candidates.length === 0) return drawOrPass(moves);
  const best = Math.max(...candidates.map((move) => immediateDamage(identityOf(move))));
  const chosen = pick(
    candidates.filter((move) => immediateDamage(identityOf(move)) === best),
    random,
  );
  if (!isQueen(identityOf(chosen))) return chosen;
  return { ...chosen, namedSuit: commonestSuit(withoutOne(view.hand, chosen.card)) };
};

export interface PlayedGame {
  readonly state: FoolState;
  /** True when the game hit the move cap before anyone was left the Fool. */
  readonly capped: boolean;
}

/** Plays a game out with one policy per seat, stopping after `maxMoves` moves. */
export function playOut(start: FoolState, policies: readonly Policy[], random: Random, maxMoves: number): PlayedGame {
  let state = start;
  while (state.phase !== "over") {
    if (state.moveCount >= maxMoves) return { state, capped: true };
    const seat = state.turn;
    const move = policies[seat](viewFor(state, seat), random);
    const result = applyMove(state, seat, move);
    if (!result.ok) throw new Error(`seat ${seat} chose an illegal move: ${result.reason}`);
    state = result.state;
  }
  return { state, capped: false };
}
