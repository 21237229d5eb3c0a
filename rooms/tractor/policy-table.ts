/**
 * What the heuristic knows about the table, from the seat's view alone, and what it makes of cards and tricks by
 * it. The heuristic (policy.ts) and the partner-aware policy (policy-partner.ts) score with it, each with its own
 * Tuning.
 */
import { type Card, DISTINCT_CARDS, pointsOf } from "./cards";
import { type CardOrdering, TRUMP_GROUP } from "./order";
import { HAND_CARDS, HIDDEN_CARDS } from "./round";
import type { TractorRuleset } from "./ruleset";
import { nextSeat, PLAYERS, type Seat, teamOf } from "./scoring";
import { knownVoids, type SeatView, unseenCounts, viewOrdering } from "./seat-view";
import { hasTractorAbove, type LeadStructure, pairCapacity } from "./structure";

export interface Table {
  readonly view: SeatView;
  readonly ordering: CardOrdering;
  readonly ruleset: TractorRuleset;
  /** unseenByGroup[group]: the cards of that group the seat has not seen (copies listed twice). */
  readonly unseenByGroup: readonly (readonly Card[])[];
  readonly unseenPoints: number;
  readonly unseenCards: number;
  readonly voids: readonly (readonly boolean[])[];
  /** How much of the round is still ahead, 1 at the start falling to 0 as the hand empties: cards kept serve later tricks. */
  readonly future: number;
  readonly tuning: Tuning;
}

/**
 * The weights the heuristic's scores are made of. HEURISTIC_TUNING is the heuristic's own (the `normal` level);
 * the partner-aware policy (policy-partner.ts) plays with its own.
 */
export interface Tuning {
  /** What having the lead is worth, in points: the winner chooses the next trick's shape. */
  readonly leadValue: number;
  /** The chance a trick is still held when an opponent still to play could overtake it. */
  readonly overtakenHold: number;
  /** The chance the partner, last to play, takes a trick the seat second to play leaves to the opponent. */
  readonly partnerLastChance: number;
  /** What a trump is worth keeping, its lowest, and per order above the lowest; a plain card per order. */
  readonly trumpKeep: number;
  readonly trumpKeepStep: number;
  readonly plainKeepStep: number;
  /** The chance an opponent ruffs a plain lead: known void, 2 unseen cards or fewer left, 5 or fewer, more. */
  readonly ruffKnownVoid: number;
  readonly ruffThin: number;
  readonly ruffShort: number;
  readonly ruffLong: number;
}

export const HEURISTIC_TUNING: Tuning = {
  leadValue: 2,
  overtakenHold: 0.35,
  partnerLastChance: 0.2,
  trumpKeep: 2.5,
  trumpKeepStep: 0.2,
  plainKeepStep: 0.15,
  ruffKnownVoid: 0.7,
  ruffThin: 0.3,
  ruffShort: 0.1,
  ruffLong: 0.02,
};

export function tableOf(view: SeatView, ruleset: TractorRuleset, tuning: Tuning = HEURISTIC_TUNING): Table {
  const ordering = viewOrdering(view);
  const counts = unseenCounts(view);
  const unseenByGroup: Card[][] = [[], [], [], [], []];
  for (let card = 0; card < DISTINCT_CARDS; card++) {
    for (let copy = 0; copy < counts[card]; copy++) unseenByGroup[ordering.group[card]].push(card);
  }
  const unseen = unseenByGroup.flat();
  return {
    view,
    ordering,
    ruleset,
    unseenByGroup,
    unseenPoints: pointsOf(unseen),
    unseenCards: unseen.length,
    voids: knownVoids(view, ordering),
    future: Math.max(0, view.hand.length - 1) / HAND_CARDS,
    tuning,
  };
}

export function partners(a: Seat, b: Seat): boolean {
  return teamOf(a) === teamOf(b);
}

/**
 * What a card is worth keeping for later tricks, in points: jokers and the current rank most, then the other
 * trumps, then high cards of the plain suits.
 */
export function keepValue(card: Card, ordering: CardOrdering, tuning: Tuning = HEURISTIC_TUNING): number {
  const order = ordering.order[card];
  return ordering.group[card] === TRUMP_GROUP
    ? tuning.trumpKeep + tuning.trumpKeepStep * (order - lowestTrumpOrder(ordering))
    : tuning.plainKeepStep * order;
}

const lowestTrumpOrders = new WeakMap<CardOrdering, number>();

/** Every trump's order is at least this, and every plain card's below it. */
function lowestTrumpOrder(ordering: CardOrdering): number {
  let lowest = lowestTrumpOrders.get(ordering);
  if (lowest === undefined) {
    lowest = Math.min(...ordering.order.filter((_, card) => ordering.group[card] === TRUMP_GROUP));
    lowestTrumpOrders.set(ordering, lowest);
  }
  return lowest;
}

export function keepValueOf(cards: readonly Card[], table: Table): number {
  return cards.reduce((sum, card) => sum + keepValue(card, table.ordering, table.tuning), 0) * table.future;
}

/** Could cards the seat has not seen form `length` cards of one shape (single, pair, tractor) above `honor`? */
export function unseenShapeAbove(table: Table, group: number, length: number, honor: number): boolean {
  const cards = table.unseenByGroup[group];
  if (length === 1) return cards.some((card) => table.ordering.order[card] > honor);
  return hasTractorAbove(pairCapacity(cards, table.ordering), length / 2, honor);
}

/**
 * Could `seat`, still to play, take a trick now held with `honor` (an order, so a trump honor is above every
 * plain one)? Only what is possible is asked: a higher same-shape combination among the unseen cards, in the
 * led group while the seat may still hold it, or in trumps once it is known to be void in the led group.
 */
function couldOvertake(table: Table, seat: Seat, structure: LeadStructure, honor: number): boolean {
  const led = structure.group;
  const voidInLed = table.voids[seat][led];
  const mayRuff = led !== TRUMP_GROUP && voidInLed && !table.voids[seat][TRUMP_GROUP];
  if (structure.isThrow) {
    // A plain throw falls only to an all-trump follow of its shape; a trump throw to nothing.
    return (
      mayRuff && table.unseenByGroup[TRUMP_GROUP].length >= structure.lengths.reduce((sum, length) => sum + length, 0)
    );
  }
  const length = structure.lengths[0];
  const heldInTrumps = honor >= lowestTrumpOrder(table.ordering);
  if (mayRuff) return unseenShapeAbove(table, TRUMP_GROUP, length, heldInTrumps ? honor : -1);
  return !voidInLed && (!heldInTrumps || led === TRUMP_GROUP) && unseenShapeAbove(table, led, length, honor);
}

/** The chance that a team holding the trick with `honor` after `position` plays still holds it at the end. */
export function holdChance(
  table: Table,
  structure: LeadStructure,
  leader: Seat,
  position: number,
  honor: number,
  team: Seat,
): number {
  for (let later = position + 1; later < PLAYERS; later++) {
    const seat = nextSeat(leader, later);
    if (!partners(seat, team) && couldOvertake(table, seat, structure, honor)) return table.tuning.overtakenHold;
  }
  return 1;
}

/** Points the players still to act will probably add: their share of the unseen points, card for card. */
export function expectedLaterPoints(table: Table, players: number, cards: number): number {
  return table.unseenCards === 0 ? 0 : (players * cards * table.unseenPoints) / table.unseenCards;
}

/** In the last trick the defenders, if they win it, add the hidden cards' points times 2^w. */
export function hiddenStake(table: Table, structure: LeadStructure, cardsPerPlay: number): number {
  if (table.view.hand.length !== cardsPerPlay) return 0;
  return hiddenPoints(table) * 2 ** structure.lengths[0];
}

/** The hidden cards' points: known to the dealer, else the unseen cards' share. */
export function hiddenPoints(table: Table): number {
  if (table.view.buried) return pointsOf(table.view.buried);
  return table.unseenCards === 0 ? 0 : (HIDDEN_CARDS * table.unseenPoints) / table.unseenCards;
}

/**
 * The value of an outcome where the seat's team takes a trick of `stake` points with probability `chance`:
 * points won by one side are as good as points kept from the other, so a lost trick counts as -stake.
 */
export function outcomeValue(chance: number, stake: number, tuning: Tuning): number {
  return (2 * chance - 1) * stake + tuning.leadValue * chance;
}
