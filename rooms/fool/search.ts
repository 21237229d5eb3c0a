/**
 * The winning-sequence search of "Funny Card Game": with two players left, can the player to move lay out
 * the whole hand so that the opponent never gets a move?
 *
 * The opponent gets a move after every card except the thirteen skip cards (a 6, 7 or Ace of any suit and the
 * King of spades: the opponent draws and skips). An 8 or a Queen hands them a move too. So every card but the
 * last must count as a skip card — a natural one or a joker named as one — and the last card may be anything
 * that covers. A hand with two or more other natural cards is lost at once; a single one must go last.
 *
 * What remains is a path through the hand, each card covering the previous one. The state is the set of
 * natural skip cards laid (at most 2^13), how many jokers are laid (they are interchangeable) and the card on
 * top (one of the thirteen skip cards, or the starting face-up card). A depth-first search remembers the
 * states it failed from, so every position takes at most 2^13 · 3 · 14 states, each with at most 26 moves.
 */
import { isJoker, isQueen, isSkipCard, SKIP_CARDS, suitOf, type Card, type NaturalCard } from "./cards";
import { covers, laidAsItself, type FaceUp } from "./rules";

/** The tops the search can be on: the thirteen skip cards by index, then the starting face-up card. */
const START = SKIP_CARDS.length;

/**
 * A sequence laying out the whole hand with the opponent never moving, or null if there is none.
 * Each element is what is laid: the card, what it counts as (a joker's name) and a Queen's named suit.
 */
export function findWinningSequence(hand: readonly Card[], faceUp: FaceUp): FaceUp[] | null {
  const naturals = hand.filter((card): card is NaturalCard => !isJoker(card));
  const skips = naturals.filter(isSkipCard);
  const others = naturals.filter((card) => !isSkipCard(card));
  if (others.length > 1) return null;
  if (hand.length === 0) return [];
  const search = new LayingOutSearch(skips, hand.length - naturals.length, others[0] ?? null, faceUp);
  return search.run();
}

/** Whether a forced win exists: the same search without keeping the sequence. */
export function hasWinningSequence(hand: readonly Card[], faceUp: FaceUp): boolean {
  return findWinningSequence(hand, faceUp) !== null;
}

class LayingOutSearch {
  private readonly failed: Uint8Array;
  private readonly path: FaceUp[] = [];
  /** coversSkip[top][j]: whether skip card j may be laid on top (a skip index, or START). */
  private readonly coversSkip: boolean[][];
  /** For each natural skip card in hand, its index among the thirteen. */
  private readonly skipIndex: number[];
  private readonly fullMask: number;

  constructor(
    private readonly skips: readonly NaturalCard[],
    private readonly jokers: number,
    private readonly lastCard: NaturalCard | null,
    private readonly faceUp: FaceUp,
  ) {
    this.skipIndex = skips.map((card) => SKIP_CARDS.indexOf(card));
    this.fullMask = (1 << skips.length) - 1;
    this.coversSkip = [...SKIP_CARDS.map((card) => laidAsItself(card)), faceUp].map((top) =>
      SKIP_CARDS.map((card) => covers(top, card)),
    );
    this.failed = new Uint8Array((this.fullMask + 1) * (jokers + 1) * (START + 1));
  }

  run(): FaceUp[] | null {
    return this.layFrom(0, 0, START) ? this.path : null;
  }

  private topCard(top: number): FaceUp {
    return top === START ? this.faceUp : laidAsItself(SKIP_CARDS[top]);
  }

  private remaining(mask: number, jokersUsed: number): number {
    return this.skips.length - popCount(mask) + this.jokers - jokersUsed + (this.lastCard === null ? 0 : 1);
  }

  /** Lays the rest of the hand on `top`; on success the laid cards are in this.path. */
  private layFrom(mask: number, jokersUsed: number, top: number): boolean {
    if (this.remaining(mask, jokersUsed) === 1) return this.layLastCard(mask, jokersUsed, top);
    const key = (mask * (this.jokers + 1) + jokersUsed) * (START + 1) + top;
    if (this.failed[key]) return false;
    for (let i = 0; i < this.skips.length; i++) {
      const bit = 1 << i;
      if (mask & bit || !this.coversSkip[top][this.skipIndex[i]]) continue;
      this.path.push(laidAsItself(this.skips[i]));
      if (this.layFrom(mask | bit, jokersUsed, this.skipIndex[i])) return true;
      this.path.pop();
    }
    if (jokersUsed < this.jokers) {
      for (let j = 0; j < SKIP_CARDS.length; j++) {
        if (!this.coversSkip[top][j]) continue;
        this.path.push({ card: "*", as: SKIP_CARDS[j], namedSuit: null });
        if (this.layFrom(mask, jokersUsed + 1, j)) return true;
        this.path.pop();
      }
    }
    this.failed[key] = 1;
    return false;
  }

  /** The one card left may be any card that covers: the other natural card, the last skip card, or a joker. */
  private layLastCard(mask: number, _jokersUsed: number, top: number): boolean {
    const onTop = this.topCard(top);
    const last = this.lastCard ?? (mask === this.fullMask ? null : this.skips[lowestClearBit(mask)]);
    if (last !== null) {
      if (!covers(onTop, last)) return false;
      this.path.push(laidAsItself(last, isQueen(last) ? suitOf(last) : null));
      return true;
    }
    // A joker can always be named as the skip card of the suit that must follow (every suit has a 6).
    const name = SKIP_CARDS.find((card) => covers(onTop, card)) as NaturalCard;
    this.path.push({ card: "*", as: name, namedSuit: null });
    return true;
  }
}

function popCount(mask: number): number {
  let count = 0;
  for (let rest = mask; rest !== 0; rest &= rest - 1) count++;
  return count;
}

function lowestClearBit(mask: number): number {
  let i = 0;
  while (mask & (1 << i)) i++;
  return i;
}
