/**
 * Legal play at a live table, which the statement leaves out.
 *
 * A lead is one or more cards, all trumps or all of one not-trump suit. A follow has as many cards as the
 * lead and meets three obligations, each "as far as the hand allows":
 * 1. suit: as many cards of the led group (the suit, or trumps) as the lead has, or all of them if fewer;
 * 2. tractors: as many of the lead's tractor pairs matched by tractors of the same lengths in the led group
 *    as the hand could match;
 * 3. pairs: as many pairs of the led group as the lead has pairs (a tractor of k pairs counts k), or all the
 *    hand holds if fewer.
 * The three can always be met together, so a follow is legal exactly when no other choice of cards from the
 * hand would do better on any of them. Rejections are sentences a player understands, never exceptions.
 */
import { type Card, cardsName, countCards, DISTINCT_CARDS, withoutCards } from "./cards";
import { type CardOrdering, groupName, sharedGroup, TRUMP_GROUP } from "./order";
import {
  type Component,
  hasTractorAbove,
  type LeadStructure,
  leadStructure,
  matchTractors,
  pairCapacity,
  placedPairs,
  shapeDemand,
} from "./structure";

export type Verdict = { ok: true } | { ok: false; reason: string };

const ACCEPTED: Verdict = { ok: true };

function rejected(reason: string): Verdict {
  return { ok: false, reason };
}

function capitalized(text: string): string {
  return text[0].toUpperCase() + text.slice(1);
}

export function cardsOfGroup(cards: readonly Card[], group: number, ordering: CardOrdering): Card[] {
  return cards.filter((card) => ordering.group[card] === group);
}

function pairsIn(cards: readonly Card[]): number {
  const seen = new Uint8Array(DISTINCT_CARDS);
  let pairs = 0;
  for (const card of cards) if (++seen[card] === 2) pairs++;
  return pairs;
}

function heldVerdict(hand: readonly Card[], cards: readonly Card[]): Verdict | undefined {
  if (cards.length === 0) return rejected("Play at least one card.");
  if (withoutCards(hand, cards) === undefined) return rejected(`You do not hold all of ${cardsName(cards)}.`);
  return undefined;
}

export function checkLead(hand: readonly Card[], cards: readonly Card[], ordering: CardOrdering): Verdict {
  const notHeld = heldVerdict(hand, cards);
  if (notHeld) return notHeld;
  if (sharedGroup(cards, ordering) === undefined)
    return rejected("A lead must be all trumps or all cards of one suit.");
  return ACCEPTED;
}

/** What a follow to this lead must contain, measured as the three obligations. */
export interface FollowDemand {
  readonly structure: LeadStructure;
  readonly group: number;
  /** Cards of the led group the follow must hold. */
  readonly groupCards: number;
  /** Lead tractor pairs the follow must match with tractors. */
  readonly tractorPairs: number;
  /** Pairs of the led group the follow must hold (counted up to the lead's pairs). */
  readonly pairs: number;
}

/** The obligations measured on some cards of the led group: what they achieve, capped by the lead. */
function achieved(groupCards: readonly Card[], structure: LeadStructure, ordering: CardOrdering): [number, number] {
  const demand = shapeDemand(structure.lengths);
  const leadPairs = demand.pairsInTractors + demand.pairs;
  const tractorPairs = placedPairs(matchTractors(pairCapacity(groupCards, ordering), demand.tractorPairs));
  return [tractorPairs, Math.min(leadPairs, pairsIn(groupCards))];
}

export function followDemand(hand: readonly Card[], lead: readonly Card[], ordering: CardOrdering): FollowDemand {
  const structure = leadStructure(lead, ordering);
  if (structure === undefined) throw new Error("the lead must be all trumps or all of one suit");
  const held = cardsOfGroup(hand, structure.group, ordering);
  const [tractorPairs, pairs] = achieved(held, structure, ordering);
  return { structure, group: structure.group, groupCards: Math.min(lead.length, held.length), tractorPairs, pairs };
}

export function checkFollow(
  hand: readonly Card[],
  lead: readonly Card[],
  cards: readonly Card[],
  ordering: CardOrdering,
): Verdict {
  const notHeld = heldVerdict(hand, cards);
  if (notHeld) return notHeld;
  if (cards.length !== lead.length) return rejected(`You must play ${lead.length} card(s), as many as the lead.`);
  const demand = followDemand(hand, lead, ordering);
  const name = groupName(demand.group);
  const played = cardsOfGroup(cards, demand.group, ordering);
  if (played.length < demand.groupCards) {
    return rejected(
      demand.groupCards === lead.length
        ? `${capitalized(name)} were led and you still hold ${name}: all ${lead.length} card(s) must be ${name}.`
        : `${capitalized(name)} were led: you must play all ${demand.groupCards} of your ${name} before other cards.`,
    );
  }
  const [tractorPairs, pairs] = achieved(played, demand.structure, ordering);
  if (tractorPairs < demand.tractorPairs) {
    return rejected(`The lead has a tractor and you hold a matching tractor in ${name}: you must play it.`);
  }
  if (pairs < demand.pairs) {
    return rejected(`The lead has pairs: you must play ${demand.pairs} pair(s) of ${name}, and you hold them.`);
  }
  return ACCEPTED;
}

/** Is there, in any of the other hands, a higher component of the same shape in the lead's group? */
function isBeaten(
  component: Component,
  group: number,
  otherHands: readonly (readonly Card[])[],
  ordering: CardOrdering,
): boolean {
  return otherHands.some((hand) => {
    const cards = cardsOfGroup(hand, group, ordering);
    if (component.kind === "single") return cards.some((card) => ordering.order[card] > component.top);
    return hasTractorAbove(pairCapacity(cards, ordering), component.cards.length / 2, component.top);
  });
}

/**
 * Under the "check-other-hands" policy: the component a failed throw must be played as (the smallest of
 * those another player could beat: fewest cards, then lowest), or undefined when the throw stands.
 * Leads of a single component always stand.
 */
export function failedThrowComponent(
  structure: LeadStructure,
  otherHands: readonly (readonly Card[])[],
  ordering: CardOrdering,
): Component | undefined {
  if (!structure.isThrow) return undefined;
  const beaten = structure.components.filter((component) => isBeaten(component, structure.group, otherHands, ordering));
  beaten.sort((a, b) => a.cards.length - b.cards.length || a.top - b.top);
  return beaten[0];
}

/** Distinct cards with how many copies are available. */
type Stock = readonly (readonly [Card, number])[];

function stockOf(cards: readonly Card[]): Stock {
  const counts = countCards(cards);
  const stock: [Card, number][] = [];
  for (let card = 0; card < DISTINCT_CARDS; card++) if (counts[card] > 0) stock.push([card, counts[card]]);
  return stock;
}

/** Calls `visit` with every sub-multiset of `size` cards; stops as soon as `visit` returns false. */
function forEachChoice(stock: Stock, size: number, visit: (chosen: readonly Card[]) => boolean): boolean {
  const chosen: Card[] = [];
  const available = stock.map(([, count]) => count);
  for (let index = available.length - 2; index >= 0; index--) available[index] += available[index + 1];
  const walk = (index: number, left: number): boolean => {
    if (left === 0) return visit(chosen);
    if (index === stock.length || available[index] < left) return true;
    const [card, count] = stock[index];
    for (let take = Math.min(count, left); take >= 0; take--) {
      for (let copy = 0; copy < take; copy++) chosen.push(card);
      const goOn = walk(index + 1, left - take);
      chosen.length -= take;
      if (!goOn) return false;
    }
    return true;
  };
  return walk(0, size);
}

export interface LegalPlays {
  readonly plays: Card[][];
  /** False when the list stopped at the limit (then it holds the first `limit` plays found). */
  readonly complete: boolean;
}

export const DEFAULT_PLAY_LIMIT = 5000;

/**
 * The legal plays of a hand: every lead (each one group's non-empty sub-multisets) when `lead` is undefined,
 * else every legal follow. Exact while the count stays under `limit`; beyond it the list is cut.
 */
export function legalPlays(
  hand: readonly Card[],
  lead: readonly Card[] | undefined,
  ordering: CardOrdering,
  limit = DEFAULT_PLAY_LIMIT,
): LegalPlays {
  const plays: Card[][] = [];
  const collect = (cards: readonly Card[]): boolean => {
    plays.push(cards.slice());
    return plays.length < limit;
  };
  const complete =
    lead === undefined ? forEachLead(hand, ordering, collect) : forEachFollow(hand, lead, ordering, collect);
  return { plays, complete };
}

function forEachLead(
  hand: readonly Card[],
  ordering: CardOrdering,
  visit: (cards: readonly Card[]) => boolean,
): boolean {
  for (let group = 0; group <= TRUMP_GROUP; group++) {
    const stock = stockOf(cardsOfGroup(hand, group, ordering));
    const held = stock.reduce((sum, [, count]) => sum + count, 0);
    for (let size = 1; size <= held; size++) if (!forEachChoice(stock, size, visit)) return false;
  }
  return true;
}

function forEachFollow(
  hand: readonly Card[],
  lead: readonly Card[],
  ordering: CardOrdering,
  visit: (cards: readonly Card[]) => boolean,
): boolean {
  const demand = followDemand(hand, lead, ordering);
  const inGroup = cardsOfGroup(hand, demand.group, ordering);
  const outside = stockOf(hand.filter((card) => ordering.group[card] !== demand.group));
  return forEachChoice(stockOf(inGroup), demand.groupCards, (groupPart) => {
    const [tractorPairs, pairs] = achieved(groupPart, demand.structure, ordering);
    if (tractorPairs < demand.tractorPairs || pairs < demand.pairs) return true;
    return forEachChoice(outside, lead.length - groupPart.length, (rest) => visit([...groupPart, ...rest]));
  });
}
