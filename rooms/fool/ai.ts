/**
 * The Fool AI. On its turn it first asks the exact search whether it can lay out its whole hand without the
 * opponent moving; if so it plays that sequence out. Otherwise it looks ahead through the rest of its own turn
 * (a 6, 7, Ace or King of spades gives it another card) and picks the play whose end of turn looks best to a
 * good player: fewer cards than the opponent, jokers kept for later, skip cards kept for a closing run, a hand
 * that can answer the likely next card, a Queen naming its strongest suit, and a hand shaped for a forced win.
 */
import { type Random } from "../cards/random";
import {
  isEight,
  isJoker,
  isQueen,
  isSkipCard,
  NATURAL_CARDS,
  rankOf,
  skipPenalty,
  SKIP_CARDS,
  SUITS,
  suitOf,
  type Card,
  type NaturalCard,
} from "./cards";
import { commonestSuit, drawOrPass, identityOf, immediateDamage, playsIn, type Policy, type PlayMove } from "./bots";
import { covers, legalMovesInView, withoutOne, type FaceUp, type FoolMove, type FoolView } from "./rules";
import { findWinningSequence } from "./search";

/** The weights of the end-of-turn evaluation, in tenths of a card. */
export interface AiWeights {
  /** Each card in a hand. */
  readonly card: number;
  /** Each joker kept: it answers any card later, and completes forced wins. */
  readonly joker: number;
  /** Each skip card kept for a closing run. */
  readonly skipCard: number;
  /** Each card that can answer a card of the face-up suit or value (what the opponent will likely lay). */
  readonly follow: number;
  /** Each distinct suit held. */
  readonly suit: number;
  /** Each card an opponent is expected to draw to cover an 8 (they must cover it, drawing as long as they cannot). */
  readonly eight: number;
  /** A hand with at most one card that is not a skip card or joker: one step from a forced win. */
  readonly setup: number;
  /** What a draw is expected to cost beyond the card taken. */
  readonly draw: number;
  /** Times the chance that the opponent holds nothing to cover the card left on top. */
  readonly stuck: number;
  /** Times the immediate damage of the card laid (see immediateDamage). */
  readonly damage: number;
}

export const DEFAULT_WEIGHTS: AiWeights = {
  card: 10,
  joker: 6,
  skipCard: 2,
  follow: 1.5,
  suit: 1,
  eight: 10,
  setup: 4,
  draw: 3,
  stuck: 20,
  damage: 0,
};

/** How many cards of its own turn the AI looks ahead beyond the one it is choosing. */
const LOOKAHEAD = 3;
const DECK_SIZE = 54;
const WIN = 1e6;

export function makeAiPolicy(weights: AiWeights = DEFAULT_WEIGHTS): Policy {
  return (view: FoolView, _random: Random) => chooseMove(view, weights);
}

export const aiPolicy: Policy = makeAiPolicy();

function chooseMove(view: FoolView, weights: AiWeights): FoolMove {
  const moves = legalMovesInView(view);
  const plays = playsIn(moves);
  if (plays.length === 0) return drawOrPass(moves);
  const opponents = view.handCounts.filter((count, seat) => seat !== view.seat && !view.finished.includes(seat));
  const headsUp = opponents.length === 1;
  if (headsUp) {
    const forced = findWinningSequence(view.hand, view.faceUp);
    if (forced !== null) return moveOf(forced[0]);
  }
  const look = new TurnLookahead(weights, headsUp, Math.min(...opponents));
  let best: { move: FoolMove; value: number } = { move: drawOrPass(moves), value: -Infinity };
  if (moves.some((move) => move.kind !== "play")) {
    best.value = look.endOfTurn(view.hand, view.faceUp, 0, false) - weights.draw * 10;
  }
  for (const move of candidatePlays(plays)) {
    const value = look.afterPlay(view.hand, move, 0, LOOKAHEAD) + weights.damage * immediateDamage(identityOf(move));
    if (value > best.value) best = { move, value };
  }
  return best.move;
}

function moveOf(laid: FaceUp): FoolMove {
  const base = isJoker(laid.card) ? { kind: "play" as const, card: laid.card, as: laid.as } : { kind: "play" as const, card: laid.card };
  return laid.namedSuit === null ? base : { ...base, namedSuit: laid.namedSuit };
}

/**
 * The plays worth weighing. A joker is kept while a natural card covers (measured: spending it early, even as
 * the King of spades, loses games); when only jokers cover, it is weighed under the names that do something —
 * a skip card, an 8, or a Queen naming each suit — against drawing instead.
 */
function candidatePlays(plays: readonly PlayMove[]): PlayMove[] {
  const naturals = plays.filter((move) => !isJoker(move.card));
  return naturals.length > 0 ? naturals : plays.filter((move) => isSpecial(identityOf(move)));
}

function isSpecial(card: NaturalCard): boolean {
  return isSkipCard(card) || isEight(card) || isQueen(card);
}

class TurnLookahead {
  constructor(
    private readonly weights: AiWeights,
    private readonly headsUp: boolean,
    private readonly opponentCards: number,
  ) {}

  /** The value of laying `move` from `hand`, with `penalties` cards already given to the opponent this turn. */
  afterPlay(hand: readonly Card[], move: PlayMove, penalties: number, depth: number): number {
    const rest = withoutOne(hand, move.card);
    if (rest.length === 0) return WIN;
    const laid: FaceUp = { card: move.card, as: identityOf(move), namedSuit: move.namedSuit ?? null };
    const penalty = skipPenalty(laid.as);
    if (penalty === null || !this.headsUp) return this.endOfTurn(rest, laid, penalties + (penalty ?? 0), true);
    return this.continueTurn(rest, laid, penalties + penalty, depth);
  }

  /** After a skip card the turn comes back: cover it again, or draw if nothing natural covers. */
  private continueTurn(hand: readonly Card[], top: FaceUp, penalties: number, depth: number): number {
    const natural = hand.some((card) => !isJoker(card) && covers(top, card));
    let best = natural ? -Infinity : this.endOfTurn(hand, top, penalties, false) - this.weights.draw * 10;
    if (depth === 0) return Math.max(best, this.endOfTurn(hand, top, penalties, false));
    for (const move of chainPlays(hand, top)) best = Math.max(best, this.afterPlay(hand, move, penalties, depth - 1));
    return best;
  }

  /** How good the position looks when the opponent is about to move (or this player is about to draw). */
  endOfTurn(hand: readonly Card[], top: FaceUp, penalties: number, laidByMe: boolean): number {
    const w = this.weights;
    const naturals = hand.filter((card): card is NaturalCard => !isJoker(card));
    const jokers = hand.length - naturals.length;
    const skips = naturals.filter(isSkipCard).length;
    const followSuit = top.namedSuit ?? suitOf(top.as);
    const follow = naturals.filter((card) => suitOf(card) === followSuit || rankOf(card) === rankOf(top.as)).length;
    const suits = SUITS.filter((suit) => naturals.some((card) => suitOf(card) === suit)).length;
    const setup = naturals.length - skips <= 1 ? w.setup : 0;
    const { stuckChance, coverFraction } = laidByMe ? this.opponentOutlook(hand, top) : { stuckChance: 0, coverFraction: 1 };
    // Under an 8 a stuck opponent draws until they can cover: about 1 / coverFraction cards.
    const eight = isEight(top.as) ? (w.eight * stuckChance) / coverFraction : 0;
    const stuck = w.stuck * stuckChance;
    return (
      stuck +
      w.card * (this.opponentCards + penalties - hand.length) +
      w.joker * jokers +
      w.skipCard * skips +
      w.follow * follow +
      w.suit * suits +
      setup +
      eight
    );
  }

  /**
   * The chance that none of the opponent's cards covers `top`, as if their hand were drawn at random from the
   * cards this player cannot see (a joker always covers).
   */
  private opponentOutlook(hand: readonly Card[], top: FaceUp): { stuckChance: number; coverFraction: number } {
    const unseen = DECK_SIZE - hand.length - 1;
    const jokersUnseen = 2 - hand.filter(isJoker).length - (isJoker(top.card) ? 1 : 0);
    const naturalCovers = NATURAL_CARDS.filter((card) => card !== top.card && !hand.includes(card) && covers(top, card));
    const coverFraction = Math.max(0.02, (naturalCovers.length + jokersUnseen) / Math.max(1, unseen));
    return { stuckChance: Math.pow(Math.max(0, 1 - coverFraction), this.opponentCards), coverFraction };
  }
}

/** Inside a run of skip cards: each natural card that covers, and a joker named as each covering skip card. */
function chainPlays(hand: readonly Card[], top: FaceUp): PlayMove[] {
  const plays: PlayMove[] = [];
  for (const card of new Set(hand)) {
    if (isJoker(card)) {
      for (const as of SKIP_CARDS) if (covers(top, as)) plays.push({ kind: "play", card, as });
    } else if (covers(top, card)) {
      plays.push(isQueen(card) ? { kind: "play", card, namedSuit: commonestSuit(withoutOne(hand, card)) } : { kind: "play", card });
    }
  }
  return plays;
}

