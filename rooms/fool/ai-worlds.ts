/**
 * Whole positions a seat cannot tell from the real one: its own hand, the public state, and for the hidden part —
 * the opponent's hand and the unseen top of the deck — a random deal of the cards it has not seen that fits
 * everything it remembers (ai-memory.ts). The AI plays its candidate moves out on such worlds.
 */
import { shuffled, type Random } from "../kit/random";
import type { Card } from "./cards";
import { mayBe, unseenPool, type FoolMemory } from "./ai-memory";
import type { FoolState, FoolView } from "./rules";

/**
 * A two-player position consistent with `memory` as seen in `view` (the seat to move is the view's seat).
 * The unseen cards are shuffled; each of the opponent's unseen cards, oldest (most constrained) first, takes the
 * first of them its memory allows; the rest, in shuffled order, make the unseen top of the deck above the known run.
 * (In a real game exactly as many are left as the deck hides; a position made up for a test may hold fewer cards
 * in all, and then the deck is cut to its remembered size.)
 */
export function sampleWorld(view: FoolView, memory: FoolMemory, random: Random): FoolState {
  const opponent = 1 - view.seat;
  const unseen = shuffled(poolCards(memory, view.hand), random);
  const opponentHand: Card[] = [...memory.hands[opponent].named];
  for (const card of memory.hands[opponent].unseen) {
    const fitting = unseen.findIndex((candidate) => mayBe(card, candidate));
    opponentHand.push(...unseen.splice(Math.max(0, fitting), 1));
  }
  const hands: Card[][] = view.seat === 0 ? [view.hand.slice(), opponentHand] : [opponentHand, view.hand.slice()];
  return {
    players: 2,
    dealer: opponent,
    hands,
    deck: [...unseen.slice(0, memory.deckUnseen), ...memory.deckKnown],
    faceUp: view.faceUp,
    turn: view.seat,
    phase: view.phase,
    finished: [],
    fool: null,
    moveCount: 0,
  };
}

function poolCards(memory: FoolMemory, hand: readonly Card[]): Card[] {
  const cards: Card[] = [];
  for (const [card, count] of unseenPool(memory, hand)) for (let i = 0; i < count; i++) cards.push(card);
  return cards;
}
