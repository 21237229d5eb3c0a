/**
 * Structures of played cards: singles, pairs (two identical cards) and tractors (pairs of consecutive
 * orders in one group), the unique structure of a lead, and the exact arrangement of a follow into it.
 *
 * Everything works on "pair levels": for each order, how many distinct cards of that order are held twice.
 * A tractor of k pairs is k consecutive levels, each giving up one pair. Only the off-suit current-rank
 * level can hold more than one pair (S7S7 and D7D7 share an order), and those pairs never chain with each
 * other because their orders are equal.
 */
import { type Card, countCards, DISTINCT_CARDS } from "./cards";
import { type CardOrdering, ORDER_LIMIT, sharedGroup } from "./order";

export type ComponentKind = "single" | "pair" | "tractor";

export interface Component {
  readonly kind: ComponentKind;
  /** The cards, highest first. */
  readonly cards: readonly Card[];
  /** The order of the highest card. */
  readonly top: number;
}

export interface LeadStructure {
  /** The group every lead card belongs to (a suit index, or TRUMP_GROUP). */
  readonly group: number;
  /** Longest first; equal lengths highest first; then pairs, then singles. */
  readonly components: readonly Component[];
  /** The components' lengths in cards, in the same order: the "structure of the trick". */
  readonly lengths: readonly number[];
  /** A throw is a lead of more than one component. */
  readonly isThrow: boolean;
}

/** pairs[order] lists the cards of that order held twice; total counts them all. */
export interface PairLevels {
  readonly pairs: Card[][];
  total: number;
}

/** Shared by every order that holds no pair (it is never written to: only levels holding pairs are). */
const NO_PAIRS: Card[] = [];

export function pairLevels(cards: readonly Card[], ordering: CardOrdering): PairLevels {
  const counts = countCards(cards);
  const pairs: Card[][] = new Array<Card[]>(ORDER_LIMIT).fill(NO_PAIRS);
  let total = 0;
  for (let card = 0; card < DISTINCT_CARDS; card++) {
    if (counts[card] < 2) continue;
    const order = ordering.order[card];
    if (pairs[order] === NO_PAIRS) pairs[order] = [];
    pairs[order].push(card);
    total++;
  }
  return { pairs, total };
}

/** pairCapacity[order]: how many pairs the cards hold at that order. */
export function pairCapacity(cards: readonly Card[], ordering: CardOrdering): number[] {
  const capacity = new Array<number>(ORDER_LIMIT).fill(0);
  for (const card of cards) if (++capacitySeen[card] === 2) capacity[ordering.order[card]]++;
  for (const card of cards) capacitySeen[card] = 0;
  return capacity;
}

/** pairCapacity's scratch count of each card, cleared before it returns (the heuristic calls it in every play-out). */
const capacitySeen = new Uint8Array(DISTINCT_CARDS);

/** True when every level from top - pairs + 1 up to top holds a pair. */
export function tractorFits(capacity: readonly number[], top: number, pairs: number): boolean {
  if (top - pairs + 1 < 0 || top >= capacity.length) return false;
  for (let level = top - pairs + 1; level <= top; level++) if (capacity[level] === 0) return false;
  return true;
}

function adjustTractor(capacity: number[], top: number, pairs: number, delta: number): void {
  for (let level = top - pairs + 1; level <= top; level++) capacity[level] += delta;
}

/*
 * Scratch tables for leadStructure, which judges run for every trick: allocated once, and cleared by the function
 * that filled them before it returns (JavaScript runs one call at a time), so the function stays pure.
 */
const leadCounts = new Uint8Array(DISTINCT_CARDS);
const pairTaken = new Uint8Array(DISTINCT_CARDS);
const pairsAtLevel = new Int8Array(ORDER_LIMIT);

/**
 * The structure of a lead, built as the statement prescribes: repeatedly take the longest component available
 * (ties: the highest), so tractors first, then pairs, then singles. Undefined when the cards are not all of
 * one group (a lead must be all trumps or all one not-trump suit).
 */
export function leadStructure(cards: readonly Card[], ordering: CardOrdering): LeadStructure | undefined {
  const group = sharedGroup(cards, ordering);
  if (group === undefined) return undefined;
  // The commonest lead by far, in play and in the search's play-outs: one card.
  if (cards.length === 1)
    return {
      group,
      components: [{ kind: "single", cards: [cards[0]], top: ordering.order[cards[0]] }],
      lengths: [1],
      isThrow: false,
    };
  const components: Component[] = [];
  let lowest = ORDER_LIMIT;
  let highest = -1;
  for (const card of cards)
    [lowest, highest] = [Math.min(lowest, ordering.order[card]), Math.max(highest, ordering.order[card])];
  try {
    const pairs = countCardsAndPairs(cards, ordering);
    if (pairs >= 2) takeTractors(ordering, components, lowest, highest);
    takePairsAndSingles(ordering, components, lowest, highest);
  } finally {
    for (const card of cards) leadCounts[card] = pairTaken[card] = 0;
    pairsAtLevel.fill(0, lowest, highest + 1);
  }
  const lengths = components.map((component) => component.cards.length);
  return { group, components, lengths, isThrow: components.length > 1 };
}

/** Counts the lead's cards and its pairs by level; returns how many pairs it holds. */
function countCardsAndPairs(cards: readonly Card[], ordering: CardOrdering): number {
  let pairs = 0;
  for (const card of cards) {
    if (++leadCounts[card] !== 2) continue;
    pairsAtLevel[ordering.order[card]]++;
    pairs++;
  }
  return pairs;
}

/**
 * Takes the longest run of levels holding a pair (the highest on ties) as a tractor, while one of 2+ pairs is
 * left. Only the levels from `lowest` to `highest` (the lead's) can hold one.
 */
function takeTractors(ordering: CardOrdering, components: Component[], lowest: number, highest: number): void {
  // Each turn takes two or more pairs out of the levels, so the loop ends.
  for (;;) {
    let length = 0;
    let top = -1;
    for (let order = lowest, run = 0; order <= highest; order++) {
      run = pairsAtLevel[order] > 0 ? run + 1 : 0;
      if (run === 0 || run < length) continue;
      length = run;
      top = order;
    }
    if (length < 2) return;
    const tractor: Card[] = [];
    for (let order = top; order > top - length; order--) {
      const card = takeHighestPair(order, ordering);
      tractor.push(card, card);
    }
    components.push({ kind: "tractor", cards: tractor, top });
  }
}

/** The pair of the highest card id still left at a level that holds one. */
function takeHighestPair(order: number, ordering: CardOrdering): Card {
  const candidates = ordering.cardsOfOrder[order];
  let index = candidates.length - 1;
  while (leadCounts[candidates[index]] < 2 || pairTaken[candidates[index]] === 1) index--;
  pairTaken[candidates[index]] = 1;
  pairsAtLevel[order]--;
  return candidates[index];
}

/** The pairs left after the tractors, highest first, then the singles, highest first (ties by card id). */
function takePairsAndSingles(ordering: CardOrdering, components: Component[], lowest: number, highest: number): void {
  for (let order = highest; order >= lowest; order--) {
    for (const card of ordering.cardsOfOrder[order]) {
      if (leadCounts[card] >= 2 && pairTaken[card] === 0)
        components.push({ kind: "pair", cards: [card, card], top: order });
    }
  }
  for (let order = highest; order >= lowest; order--) {
    for (const card of ordering.cardsOfOrder[order]) {
      if (leadCounts[card] === 1) components.push({ kind: "single", cards: [card], top: order });
    }
  }
}

/** The lead's tractors as pair counts (longest first), how many plain pairs and how many singles it holds. */
export interface ShapeDemand {
  readonly tractorPairs: readonly number[];
  /** The pairs inside all the tractors together. */
  readonly pairsInTractors: number;
  readonly pairs: number;
  readonly singles: number;
}

export function shapeDemand(lengths: readonly number[]): ShapeDemand {
  const tractorPairs = lengths.filter((length) => length >= 4).map((length) => length / 2);
  return {
    tractorPairs,
    pairsInTractors: tractorPairs.reduce((sum, pairs) => sum + pairs, 0),
    pairs: lengths.filter((length) => length === 2).length,
    singles: lengths.filter((length) => length === 1).length,
  };
}

/**
 * Places tractors[index..] into the capacity (mutated and restored), each one a run of levels. Equal
 * lengths are placed in non-increasing order of their tops (`ceiling`), which only removes symmetric
 * repeats of the same packing.
 */
function packTractors(capacity: number[], tractors: readonly number[], index: number, ceiling: number): boolean {
  if (index === tractors.length) return true;
  const pairs = tractors[index];
  const highest = index > 0 && tractors[index - 1] === pairs ? ceiling : capacity.length - 1;
  for (let top = highest; top >= pairs - 1; top--) {
    if (!tractorFits(capacity, top, pairs)) continue;
    adjustTractor(capacity, top, pairs, -1);
    const packed = packTractors(capacity, tractors, index + 1, top);
    adjustTractor(capacity, top, pairs, +1);
    if (packed) return true;
  }
  return false;
}

/**
 * The honor card's order when the cards are arranged into the lead's structure (`lengths`) so that the
 * highest card among the longest components is as high as possible; undefined when no arrangement exists.
 * The search is exact: every placement of the longest tractor is tried from the top down, and the rest of
 * the tractors are packed by backtracking. The cards' group is not checked here.
 */
export function bestHonor(
  cards: readonly Card[],
  lengths: readonly number[],
  ordering: CardOrdering,
): number | undefined {
  const total = lengths.reduce((sum, length) => sum + length, 0);
  if (cards.length !== total || total === 0) return undefined;
  // Lengths are longest first: a lead of singles asks for nothing but the highest card.
  if (lengths[0] === 1) return highestOrder(cards, ordering);
  const demand = shapeDemand(lengths);
  const capacity = pairCapacity(cards, ordering);
  const pairsHeld = capacity.reduce((sum, held) => sum + held, 0);
  if (pairsHeld - demand.pairsInTractors < demand.pairs) return undefined;
  if (lengths[0] === 2) return highestPair(capacity);
  const longest = demand.tractorPairs[0];
  for (let top = capacity.length - 1; top >= longest - 1; top--) {
    if (!tractorFits(capacity, top, longest)) continue;
    adjustTractor(capacity, top, longest, -1);
    const packed = packTractors(capacity, demand.tractorPairs, 1, top);
    adjustTractor(capacity, top, longest, +1);
    if (packed) return top;
  }
  return undefined;
}

function highestOrder(cards: readonly Card[], ordering: CardOrdering): number {
  let highest = -Infinity;
  for (const card of cards) highest = Math.max(highest, ordering.order[card]);
  return highest;
}

function highestPair(capacity: readonly number[]): number {
  for (let order = capacity.length - 1; order >= 0; order--) if (capacity[order] > 0) return order;
  return -1;
}

/** A tractor placed into pair levels: its top order and its number of pairs. */
export interface TractorPlacement {
  readonly top: number;
  readonly pairs: number;
}

/**
 * The largest number of the lead's tractor pairs the cards can match at once with tractors of the exact
 * lengths (some of the lead's tractors, packed without overlap), and one packing that does it. The follow
 * obligations use it: a follower must match as many tractor pairs as the hand allows.
 */
export function matchTractors(capacity: readonly number[], tractorPairs: readonly number[]): TractorPlacement[] {
  const levels = capacity.slice();
  const goal = tractorPairs.reduce((sum, pairs) => sum + pairs, 0);
  const placed: TractorPlacement[] = [];
  let best: TractorPlacement[] = [];
  let bestPairs = 0;
  const search = (index: number, ceiling: number, matched: number, remaining: number): void => {
    if (matched > bestPairs) [best, bestPairs] = [placed.slice(), matched];
    if (index === tractorPairs.length || bestPairs === goal || matched + remaining <= bestPairs) return;
    const pairs = tractorPairs[index];
    const highest = index > 0 && tractorPairs[index - 1] === pairs ? ceiling : levels.length - 1;
    for (let top = highest; top >= pairs - 1; top--) {
      if (!tractorFits(levels, top, pairs)) continue;
      adjustTractor(levels, top, pairs, -1);
      placed.push({ top, pairs });
      search(index + 1, top, matched + pairs, remaining - pairs);
      placed.pop();
      adjustTractor(levels, top, pairs, +1);
    }
    // Leaving this tractor unmatched means leaving every later one of the same length unmatched too:
    // matching a later one instead is the same packing under another name.
    let next = index;
    let skipped = 0;
    while (next < tractorPairs.length && tractorPairs[next] === pairs) skipped += tractorPairs[next++];
    search(next, levels.length - 1, matched, remaining - skipped);
  };
  search(0, levels.length - 1, 0, goal);
  return best;
}

export function placedPairs(placements: readonly TractorPlacement[]): number {
  return placements.reduce((sum, placement) => sum + placement.pairs, 0);
}

/** True when the cards hold a tractor of exactly `pairs` pairs whose top is above `top`. */
export function hasTractorAbove(capacity: readonly number[], pairs: number, top: number): boolean {
  for (let candidate = top + 1; candidate < capacity.length; candidate++) {
    if (tractorFits(capacity, candidate, pairs)) return true;
  }
  return false;
}
