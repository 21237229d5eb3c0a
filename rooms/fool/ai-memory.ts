/**
 * What one seat can remember of a game of Fool from the public events alone, as plain data that never changes.
 *
 * Two things are worth remembering:
 * - The deck. Every laid card goes to the bottom of the deck in plain view, so below the cards nobody has seen
 *   lies a known run of laid cards; once the unseen ones have all been drawn, every draw — an opponent's too — is
 *   a card this seat can name.
 * - What each opponent lacks. A player may draw only when no natural card of theirs covers the card on the table;
 *   one who draws and is passed at once holds no joker either; one who draws, could lay, and passes holds a joker.
 *   Each card an opponent holds is remembered as a card already named (drawn from the known run) or as an unseen
 *   card together with the suits and values it cannot have, because its holder could not lay it when they held it.
 *
 * Usage: `startMemory(view)` with the seat's view right after the deal, then `remember(memory, events)` once for
 * every move applied in the game (anyone's, in order, with the events that move produced). The split of events into
 * moves matters: a draw followed by a pass within one move means "nothing covered", in two moves "a joker was kept".
 */
import {
  fullDeck,
  isJoker,
  isQueen,
  RANKS,
  rankOf,
  SUITS,
  suitOf,
  JOKER,
  type Card,
  type NaturalCard,
  type Rank,
  type Suit,
} from "./cards";
import { covers, withoutOne, type FaceUp, type FoolEvent, type FoolView } from "./rules";

/**
 * An opponent's card this seat has not seen, as what it cannot be, in one small integer: a bit for each suit it is
 * not (SUITS' order), one for each rank it is not (RANKS' order, above the suits'), and one for "not a joker". A
 * hand's unseen cards are a list of such integers, which V8 keeps as plain numbers in one flat array: a move that
 * teaches the memory something makes one new array, not an object a card, and a major collection has nothing in it
 * to follow (the memory outlives every move).
 */
export type UnseenCard = number;

const RANK_BITS_FROM = SUITS.length;
const NOT_A_JOKER = 1 << (RANK_BITS_FROM + RANKS.length);
const SUIT_BITS = (1 << SUITS.length) - 1;
const RANK_BITS = (1 << RANKS.length) - 1;

const notSuit = (suit: Suit): number => 1 << SUITS.indexOf(suit);
const notRank = (rank: Rank): number => 1 << (RANK_BITS_FROM + RANKS.indexOf(rank));

export interface RememberedHand {
  /** Cards this seat knows the player holds: drawn from the known run at the bottom of the deck, or a joker kept. */
  readonly named: readonly Card[];
  /** The other cards, oldest first. */
  readonly unseen: readonly UnseenCard[];
}

export interface FoolMemory {
  readonly seat: number;
  /** The card on the table as last laid (the deal's card, then every play). */
  readonly faceUp: FaceUp;
  /** How many cards at the top of the deck this seat has not seen. */
  readonly deckUnseen: number;
  /** The laid cards below them, top first: the order they will be drawn in. */
  readonly deckKnown: readonly Card[];
  /** For each seat, what this seat knows of its hand (its own entry stays empty: it sees its own hand). */
  readonly hands: readonly RememberedHand[];
  /** The seat that drew in its current turn and has neither laid nor passed since, if any. */
  readonly drewThisTurn: number | null;
}

/** A card nothing is known of. */
const NO_LACK: UnseenCard = 0;

/**
 * The memory of a game just dealt, from the seat's own view. The deal's face-up card went to the bottom of the
 * deck; everything above it is unseen (a joker turned up at the deal lies just above it, among the unseen cards).
 * Started later in a game it knows only that the card on the table, the last laid, lies at the bottom.
 */
export function startMemory(view: FoolView): FoolMemory {
  const faceUpAtBottom = view.deckCount > 0;
  return {
    seat: view.seat,
    faceUp: view.faceUp,
    deckUnseen: faceUpAtBottom ? view.deckCount - 1 : 0,
    deckKnown: faceUpAtBottom ? [view.faceUp.card] : [],
    hands: view.handCounts.map((count, seat) => ({
      named: [],
      unseen: seat === view.seat ? [] : Array.from({ length: count }, () => NO_LACK),
    })),
    drewThisTurn: null,
  };
}

/** The memory after one move: `events` are exactly the events that move produced, in order. */
export function remember(memory: FoolMemory, events: readonly FoolEvent[]): FoolMemory {
  let next = memory;
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    const following = events[i + 1];
    if (event.type === "drew" && following?.type === "passed" && following.seat === event.seat) {
      next = drewAndStuck(next, event.seat, event.count);
      i++;
    } else {
      next = rememberEvent(next, event);
    }
  }
  return next;
}

function rememberEvent(memory: FoolMemory, event: FoolEvent): FoolMemory {
  switch (event.type) {
    case "played": {
      const laid = {
        ...memory,
        faceUp: event.faceUp,
        deckKnown: [...memory.deckKnown, event.faceUp.card],
        drewThisTurn: null,
      };
      return updateHand(laid, event.seat, (hand) => withoutCard(hand, event.faceUp.card));
    }
    case "drew": {
      // Drawing is allowed only while no natural card covers.
      const lacking = lack(memory, event.seat, memory.faceUp, false);
      return { ...drawCards(lacking, event.seat, event.count), drewThisTurn: event.seat };
    }
    case "penalised":
      return { ...drawCards(memory, event.seat, event.drew), drewThisTurn: null };
    case "passed": {
      // A pass needs no natural cover. After a draw that was not passed at once, something covered: a joker kept.
      const lacking = { ...lack(memory, event.seat, memory.faceUp, false), drewThisTurn: null };
      return memory.drewThisTurn === event.seat ? updateHand(lacking, event.seat, keptJoker) : lacking;
    }
    default:
      return memory;
  }
}

/** A draw after which the turn passed at once: nothing in the hand covers now, not even a joker. */
function drewAndStuck(memory: FoolMemory, seat: number, count: number): FoolMemory {
  const drawn = drawCards(lack(memory, seat, memory.faceUp, false), seat, count);
  return { ...lack(drawn, seat, memory.faceUp, true), drewThisTurn: null };
}

function updateHand(memory: FoolMemory, seat: number, change: (hand: RememberedHand) => RememberedHand): FoolMemory {
  if (seat === memory.seat) return memory;
  return { ...memory, hands: memory.hands.map((hand, k) => (k === seat ? change(hand) : hand)) };
}

/** Takes `count` cards off the top of the deck for `seat`: unseen ones first, then the known run. */
function drawCards(memory: FoolMemory, seat: number, count: number): FoolMemory {
  const fromUnseen = Math.min(count, memory.deckUnseen);
  const fromKnown = memory.deckKnown.slice(0, count - fromUnseen);
  const drawn = {
    ...memory,
    deckUnseen: memory.deckUnseen - fromUnseen,
    deckKnown: memory.deckKnown.slice(fromKnown.length),
  };
  return updateHand(drawn, seat, (hand) => ({
    named: [...hand.named, ...fromKnown],
    unseen: [...hand.unseen, ...Array.from({ length: fromUnseen }, () => NO_LACK)],
  }));
}

/** Every card `seat` holds now cannot cover `top` (nor be a joker, when `noJoker`). */
function lack(memory: FoolMemory, seat: number, top: FaceUp, noJoker: boolean): FoolMemory {
  const learnt =
    notSuit(top.namedSuit ?? suitOf(top.as)) |
    (isQueen(top.as) ? 0 : notRank(rankOf(top.as))) |
    (noJoker ? NOT_A_JOKER : 0);
  return updateHand(memory, seat, (hand) => ({ named: hand.named, unseen: hand.unseen.map((card) => card | learnt) }));
}

/**
 * The memory spelled out as the AI's first memory kept it: each unseen card as the suits and the ranks it is not
 * (bit sets over SUITS and RANKS) and whether it is not a joker. The AI seeds the dice of its play-outs from the
 * text of what it observed (ai-playouts.ts), so the same observation gives the same decision whatever form the
 * memory is held in.
 */
export function spelledOut(memory: FoolMemory): object {
  return { ...memory, hands: memory.hands.map((hand) => ({ ...hand, unseen: hand.unseen.map(spelledOutCard) })) };
}

function spelledOutCard(card: UnseenCard): { notSuits: number; notRanks: number; notJoker: boolean } {
  return {
    notSuits: card & SUIT_BITS,
    notRanks: (card >> RANK_BITS_FROM) & RANK_BITS,
    notJoker: (card & NOT_A_JOKER) !== 0,
  };
}

export function mayBe(unseen: UnseenCard, card: Card): boolean {
  if (isJoker(card)) return (unseen & NOT_A_JOKER) === 0;
  return (unseen & (notSuit(suitOf(card)) | notRank(rankOf(card)))) === 0;
}

/**
 * The hand after its holder laid `card`: a named card if it was one, else the unseen card held longest among
 * those that may be it. Every lack is learnt by all the cards held at the time, so an older card cannot be
 * whatever a newer one cannot be: the real card of the one dropped fits the place of the one laid, and the memory
 * never contradicts the hand. (A card nothing allows could only follow a wrong memory: the oldest is dropped.)
 */
function withoutCard(hand: RememberedHand, card: Card): RememberedHand {
  if (hand.named.includes(card)) return { ...hand, named: withoutOne(hand.named, card) };
  const index = hand.unseen.findIndex((unseen) => mayBe(unseen, card));
  if (index >= 0 || hand.unseen.length > 0) {
    const dropped = Math.max(0, index);
    return { ...hand, unseen: hand.unseen.filter((_, k) => k !== dropped) };
  }
  return { ...hand, named: hand.named.slice(1) };
}

/**
 * A joker was kept: one of the unseen cards that may be a joker is one. As in withoutCard it is taken to be the
 * oldest: what an older card cannot be, a newer one cannot be either, so the guess never contradicts the hand.
 */
function keptJoker(hand: RememberedHand): RememberedHand {
  if (hand.named.includes(JOKER)) return hand;
  const index = hand.unseen.findIndex((unseen) => mayBe(unseen, JOKER));
  if (index < 0) return hand;
  return { named: [...hand.named, JOKER], unseen: hand.unseen.filter((_, k) => k !== index) };
}

/**
 * How many of each card this seat has not seen anywhere: the whole deck less its own hand, the known run of the
 * deck and every opponent's named cards. These are the cards the unseen part of the deck and the opponents'
 * unseen cards are made of.
 */
export function unseenPool(memory: FoolMemory, ownHand: readonly Card[]): Map<Card, number> {
  const pool = new Map<Card, number>();
  for (const card of fullDeck()) pool.set(card, (pool.get(card) ?? 0) + 1);
  const seen = [...ownHand, ...memory.deckKnown, ...memory.hands.flatMap((hand) => hand.named)];
  for (const card of seen) pool.set(card, Math.max(0, (pool.get(card) ?? 0) - 1));
  return pool;
}

/**
 * The chance that `seat` holds nothing that covers `top` (no natural cover and no joker), taking each unseen card
 * as drawn at random from the pool among the cards its memory allows, independently.
 */
export function chanceCannotCover(
  memory: FoolMemory,
  pool: ReadonlyMap<Card, number>,
  seat: number,
  top: FaceUp,
): number {
  const hand = memory.hands[seat];
  if (hand.named.some((card) => isJoker(card) || covers(top, card))) return 0;
  let chance = 1;
  for (const unseen of hand.unseen) {
    let allowed = 0;
    let harmless = 0;
    for (const [card, count] of pool) {
      if (count === 0 || !mayBe(unseen, card)) continue;
      allowed += count;
      if (!isJoker(card) && !covers(top, card as NaturalCard)) harmless += count;
    }
    chance *= allowed === 0 ? 1 : harmless / allowed;
  }
  return chance;
}
