/**
 * Policies for a Tractor seat: pure functions from what the seat sees (a SeatView) to its next action.
 *
 * - `randomPolicy`: uniformly random among the legal plays (as multisets of cards, the way the engine's
 *   `legalPlays` lists them) and a uniformly random burial.
 * - `heuristicPolicy`: scores a handful of sensible candidate plays by the points at stake, its chance of
 *   taking the trick for its team (from the cards it has not seen and the voids it has noticed) and what the
 *   cards spent would be worth later; it buries to make voids while keeping trumps and points.
 *
 * Both only ever return plays the engine accepts: every candidate is checked with the engine's own legality
 * functions, and the fallback is a follow built to meet the obligations.
 */
import { Random, randomInt, shuffled } from "../kit/random";
import { Card, cardPoints, countCards, DISTINCT_CARDS, pointsOf, withoutCards } from "./cards";
import { cardsOfGroup, checkFollow, followDemand, legalPlays } from "./legality";
import { CardOrdering, TRUMP_GROUP } from "./order";
import { applyPlay, buryCards, HAND_CARDS, HIDDEN_CARDS, RoundState, RoundUpdate } from "./round";
import { classic, TractorRuleset } from "./ruleset";
import { nextSeat, PLAYERS, Seat, teamOf } from "./scoring";
import { knownVoids, seatView, SeatView, unseenCounts, viewOrdering } from "./seat-view";
import {
  Component,
  hasTractorAbove,
  LeadStructure,
  leadStructure,
  matchTractors,
  pairCapacity,
  pairLevels,
  shapeDemand,
  TractorPlacement,
} from "./structure";
import { followHonor, judgeTrick } from "./trick";

export interface TractorPolicy {
  /** The cards to play now; the view must be the seat's own, in the playing phase, on its turn. */
  choosePlay(view: SeatView): Card[];
  /** The dealer's 8 hidden cards; the view must be the dealer's, in the burying phase. */
  chooseBurial(view: SeatView): Card[];
}

export function requirePlayTurn(view: SeatView): void {
  if (view.phase !== "playing" || view.turn !== view.seat) throw new Error(`seat ${view.seat} has no play to make now`);
}

function burialCandidates(view: SeatView): readonly Card[] {
  if (view.phase !== "burying" || view.buryFrom === undefined) throw new Error(`seat ${view.seat} has nothing to bury`);
  return view.buryFrom;
}

/** The lead of the trick under way, or undefined when the seat leads. */
export function leadOf(view: SeatView): readonly Card[] | undefined {
  return view.trick?.plays[0];
}

// ---------------------------------------------------------------------------------------------------------
// Uniform sampling of legal plays

/** Distinct cards with how many copies are held. */
type Stock = readonly (readonly [Card, number])[];

function stockOf(cards: readonly Card[]): Stock {
  return [...countCards(cards).entries()].filter(([, copies]) => copies > 0);
}

/** ways[i][k]: how many sub-multisets of k cards stock[i..] holds. */
function multisetCounts(stock: Stock, size: number): number[][] {
  const ways = Array.from({ length: stock.length + 1 }, () => new Array<number>(size + 1).fill(0));
  ways[stock.length][0] = 1;
  for (let index = stock.length - 1; index >= 0; index--) {
    for (let k = 0; k <= size; k++) {
      for (let take = 0; take <= Math.min(stock[index][1], k); take++) ways[index][k] += ways[index + 1][k - take];
    }
  }
  return ways;
}

/** A uniformly random sub-multiset of `size` cards of the stock (which must hold at least that many). */
function sampleMultiset(stock: Stock, size: number, random: Random): Card[] {
  const ways = multisetCounts(stock, size);
  const chosen: Card[] = [];
  let left = size;
  for (let index = 0; index < stock.length && left > 0; index++) {
    let ticket = random() * ways[index][left];
    let take = 0;
    for (; take < Math.min(stock[index][1], left); take++) {
      ticket -= ways[index + 1][left - take];
      if (ticket < 0) break;
    }
    for (let copy = 0; copy < take; copy++) chosen.push(stock[index][0]);
    left -= take;
  }
  return chosen;
}

/** Up to this many candidate follows are listed exactly; beyond it they are sampled and checked. */
const LISTING_LIMIT = 2000;
const SAMPLING_ATTEMPTS = 400;

/** A uniformly random lead: every non-empty one-group sub-multiset of the hand is equally likely. */
function uniformLead(hand: readonly Card[], ordering: CardOrdering, random: Random): Card[] {
  const stocks = [0, 1, 2, 3, TRUMP_GROUP].map((group) => stockOf(cardsOfGroup(hand, group, ordering)));
  const leads = stocks.map((stock) => stock.reduce((product, [, count]) => product * (count + 1), 1) - 1);
  let ticket = random() * leads.reduce((sum, count) => sum + count, 0);
  const stock = stocks.find((_, index) => (ticket -= leads[index]) < 0) ?? stocks[stocks.length - 1];
  for (;;) {
    const cards = stock.flatMap(([card, count]) => new Array<Card>(randomInt(random, count + 1)).fill(card));
    if (cards.length > 0) return cards;
  }
}

/**
 * A uniformly random legal follow. With fewer cards of the led group than the lead, all of them must be
 * played and the rest is any choice of the other cards; otherwise the follow is a choice of the group's
 * cards that meets the obligations: listed exactly when there are few, else sampled until one is legal
 * (and, should sampling find none, drawn from the first LISTING_LIMIT listed).
 */
function uniformFollow(hand: readonly Card[], lead: readonly Card[], ordering: CardOrdering, random: Random): Card[] {
  const group = followDemand(hand, lead, ordering).group;
  const inGroup = cardsOfGroup(hand, group, ordering);
  if (inGroup.length <= lead.length) {
    const others = stockOf(hand.filter((card) => ordering.group[card] !== group));
    return [...inGroup, ...sampleMultiset(others, lead.length - inGroup.length, random)];
  }
  const stock = stockOf(inGroup);
  if (multisetCounts(stock, lead.length)[0][lead.length] > LISTING_LIMIT) {
    for (let attempt = 0; attempt < SAMPLING_ATTEMPTS; attempt++) {
      const cards = sampleMultiset(stock, lead.length, random);
      if (checkFollow(hand, lead, cards, ordering).ok) return cards;
    }
  }
  const { plays } = legalPlays(hand, lead, ordering, LISTING_LIMIT);
  return plays[randomInt(random, plays.length)];
}

/** Plays uniformly at random among the legal plays; buries 8 cards chosen uniformly at random. */
export function randomPolicy(random: Random): TractorPolicy {
  return {
    choosePlay(view) {
      requirePlayTurn(view);
      const lead = leadOf(view);
      const ordering = viewOrdering(view);
      return lead === undefined ? uniformLead(view.hand, ordering, random) : uniformFollow(view.hand, lead, ordering, random);
    },
    chooseBurial(view) {
      return shuffled(burialCandidates(view), random).slice(0, HIDDEN_CARDS);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// What the heuristic knows about the table

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

function partners(a: Seat, b: Seat): boolean {
  return teamOf(a) === teamOf(b);
}

/**
 * What a card is worth keeping for later tricks, in points: jokers and the current rank most, then the other
 * trumps, then high cards of the plain suits.
 */
function keepValue(card: Card, ordering: CardOrdering, tuning: Tuning = HEURISTIC_TUNING): number {
  const order = ordering.order[card];
  return ordering.group[card] === TRUMP_GROUP ? tuning.trumpKeep + tuning.trumpKeepStep * (order - lowestTrumpOrder(ordering)) : tuning.plainKeepStep * order;
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
function unseenShapeAbove(table: Table, group: number, length: number, honor: number): boolean {
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
    return mayRuff && table.unseenByGroup[TRUMP_GROUP].length >= structure.lengths.reduce((sum, length) => sum + length, 0);
  }
  const length = structure.lengths[0];
  const heldInTrumps = honor >= lowestTrumpOrder(table.ordering);
  if (mayRuff) return unseenShapeAbove(table, TRUMP_GROUP, length, heldInTrumps ? honor : -1);
  return !voidInLed && (!heldInTrumps || led === TRUMP_GROUP) && unseenShapeAbove(table, led, length, honor);
}

/** The chance that a team holding the trick with `honor` after `position` plays still holds it at the end. */
function holdChance(table: Table, structure: LeadStructure, leader: Seat, position: number, honor: number, team: Seat): number {
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

// ---------------------------------------------------------------------------------------------------------
// Shaping cards into a lead's structure

type Preference = (card: Card) => number;

function byPreference(cards: readonly Card[], prefer: Preference): Card[] {
  return cards.slice().sort((a, b) => prefer(a) - prefer(b) || a - b);
}

/** One packing of the most tractor pairs the cards can match, placed as high, or as low, as possible. */
function tractorPacking(cards: readonly Card[], tractorPairs: readonly number[], high: boolean, ordering: CardOrdering): TractorPlacement[] {
  const capacity = pairCapacity(cards, ordering);
  if (high) return matchTractors(capacity, tractorPairs);
  // Packing the mirrored levels from the top packs the real ones from the bottom.
  const last = capacity.length - 1;
  return matchTractors(capacity.slice().reverse(), tractorPairs).map(({ top, pairs }) => ({ top: last - top + pairs - 1, pairs }));
}

/**
 * `size` of the cards (all of them when there are fewer) arranged to meet a lead of shape `lengths` as far
 * as they can: the most tractor pairs, then as many pairs as the lead has, then singles. Which pairs and
 * singles is left to `prefer` (lowest first); tractors go high or low.
 */
function shapedChoice(cards: readonly Card[], lengths: readonly number[], size: number, prefer: Preference, highTractors: boolean, ordering: CardOrdering): Card[] {
  if (cards.length <= size) return cards.slice();
  const demand = shapeDemand(lengths);
  const { pairs: levels } = pairLevels(cards, ordering);
  const chosen: Card[] = [];
  for (const { top, pairs } of tractorPacking(cards, demand.tractorPairs, highTractors, ordering)) {
    for (let order = top; order > top - pairs; order--) {
      const card = levels[order].pop() as Card;
      chosen.push(card, card);
    }
  }
  const morePairs = demand.pairsInTractors + demand.pairs - chosen.length / 2;
  for (const card of byPreference(levels.flat(), prefer).slice(0, Math.max(0, morePairs))) chosen.push(card, card);
  const rest = byPreference(withoutCards(cards, chosen) as Card[], prefer);
  return [...chosen, ...rest.slice(0, size - chosen.length)];
}

/** A follow meeting the obligations: the led group's cards shaped by `prefer`, topped up from the others. */
function shapedFollow(table: Table, structure: LeadStructure, size: number, prefer: Preference, high: boolean, ruff: boolean): Card[] {
  const { ordering, view } = table;
  const inGroup = cardsOfGroup(view.hand, structure.group, ordering);
  const groupPart = shapedChoice(inGroup, structure.lengths, size, prefer, high, ordering);
  const missing = size - groupPart.length;
  if (missing === 0) return groupPart;
  const others = withoutCards(view.hand, groupPart) as Card[];
  const trumps = cardsOfGroup(others, TRUMP_GROUP, ordering);
  const ruffing = ruff && groupPart.length === 0 ? shapedChoice(trumps, structure.lengths, missing, prefer, high, ordering) : [];
  const filler = byPreference(withoutCards(others, ruffing) as Card[], prefer).slice(0, missing - ruffing.length);
  return [...groupPart, ...ruffing, ...filler];
}

// ---------------------------------------------------------------------------------------------------------
// Following

/** Lowest keep value first, points last: what to throw off into a trick the seat's team will not take. */
function cheapFirst(table: Table): Preference {
  return (card) => keepValue(card, table.ordering, table.tuning) + 3 * cardPoints(card);
}

/** Points first (tens and kings, then fives), then the cheapest: what to give a partner who holds the trick. */
function pointsFirst(table: Table): Preference {
  return (card) => keepValue(card, table.ordering, table.tuning) - 3 * cardPoints(card);
}

function highFirst(table: Table): Preference {
  return (card) => -table.ordering.order[card];
}

/** Few enough legal follows to score them all? Counted as the choices the obligations pick among. */
const SCORED_FOLLOW_LIMIT = 300;

/** The trick under way as it stands before the seat plays, judged once for all the candidates. */
export interface TrickStanding {
  readonly leader: Seat;
  readonly lead: readonly Card[];
  readonly structure: LeadStructure;
  /** The seat's index in the playing order (1..3). */
  readonly position: number;
  /** The index of the play holding the trick so far, and its honor. */
  readonly holder: number;
  readonly honor: number;
  readonly points: number;
}

export function standingOf(table: Table): TrickStanding {
  const { leader, plays } = table.view.trick as NonNullable<SeatView["trick"]>;
  const judgement = judgeTrick(plays, table.ordering);
  const honor = judgement.honors[judgement.winner] as number;
  return { leader, lead: plays[0], structure: judgement.structure, position: plays.length, holder: judgement.winner, honor, points: judgement.points };
}

/**
 * A few follows built for a purpose (throw off cheaply, give points, go high, ruff), each checked, and every
 * legal follow as well when there are few.
 */
export function followCandidates(table: Table, standing: TrickStanding): Card[][] {
  const { ordering, view } = table;
  const { lead, structure } = standing;
  const built = [
    shapedFollow(table, structure, lead.length, cheapFirst(table), false, false),
    shapedFollow(table, structure, lead.length, pointsFirst(table), false, false),
    shapedFollow(table, structure, lead.length, highFirst(table), true, true),
    shapedFollow(table, structure, lead.length, cheapFirst(table), false, true),
    shapedFollow(table, structure, lead.length, pointsFirst(table), false, true),
  ].filter((cards) => checkFollow(view.hand, lead, cards, ordering).ok);
  const listed = legalPlays(view.hand, lead, ordering, SCORED_FOLLOW_LIMIT);
  return listed.complete ? [...built, ...listed.plays] : built;
}

export function scoreFollow(table: Table, standing: TrickStanding, cards: readonly Card[]): number {
  const { view } = table;
  const { structure, position } = standing;
  const honor = followHonor(cards, structure, table.ordering);
  const takes = honor !== undefined && honor > standing.honor;
  const holder = nextSeat(standing.leader, takes ? position : standing.holder);
  const held = takes ? (honor as number) : standing.honor;
  let chance = partners(holder, view.seat) ? holdChance(table, structure, standing.leader, position, held, view.seat) : 0;
  if (chance === 0 && position === 1) chance = table.tuning.partnerLastChance; // the partner, last to play, may still take it
  const stillToPlay = PLAYERS - 1 - position;
  const points = standing.points + pointsOf(cards);
  const stake = points + expectedLaterPoints(table, stillToPlay, cards.length) + hiddenStake(table, structure, cards.length);
  return outcomeValue(chance, stake, table.tuning) - keepValueOf(cards, table);
}

// ---------------------------------------------------------------------------------------------------------
// Leading

/** Is the component out of reach of every combination of the same shape the seat has not seen? */
function isMaster(table: Table, component: Component, group: number): boolean {
  return !unseenShapeAbove(table, group, component.cards.length, component.top);
}

/** The chance that an opponent is void in a plain suit and ruffs: known voids weigh most, then a thin suit. */
function ruffRisk(table: Table, group: number): number {
  if (group === TRUMP_GROUP || table.unseenByGroup[TRUMP_GROUP].length === 0) return 0;
  const unseenInSuit = table.unseenByGroup[group].length;
  let safe = 1;
  for (const offset of [1, 3]) {
    const opponent = nextSeat(table.view.seat, offset);
    if (table.voids[opponent][TRUMP_GROUP]) continue;
    const { ruffKnownVoid, ruffThin, ruffShort, ruffLong } = table.tuning;
    const risk = table.voids[opponent][group] ? ruffKnownVoid : unseenInSuit <= 2 ? ruffThin : unseenInSuit <= 5 ? ruffShort : ruffLong;
    safe *= 1 - risk;
  }
  return 1 - safe;
}

/** The chance that the seat's team takes the trick it leads with these cards. */
export function leadChance(table: Table, structure: LeadStructure): number {
  const { group } = structure;
  const ruffed = ruffRisk(table, group);
  if (structure.isThrow) return group === TRUMP_GROUP ? 1 : 1 - ruffed;
  const component = structure.components[0];
  if (isMaster(table, component, group)) return 1 - ruffed;
  const above = table.unseenByGroup[group].filter((card) => table.ordering.order[card] > component.top).length;
  return (1 - ruffed) * (component.kind === "single" ? 1 / (1 + above) : 0.5 ** Math.ceil(above / 2));
}

/** Points the three followers will probably play to a lead of `size` cards of the group. */
export function expectedFollowPoints(table: Table, group: number, size: number): number {
  const unseen = table.unseenByGroup[group];
  if (unseen.length === 0) return 0;
  return Math.min(1, (3 * size) / unseen.length) * pointsOf(unseen);
}

function scoreLead(table: Table, cards: readonly Card[]): number {
  const structure = leadStructure(cards, table.ordering) as LeadStructure;
  const stake = pointsOf(cards) + expectedFollowPoints(table, structure.group, cards.length) + hiddenStake(table, structure, cards.length);
  return outcomeValue(leadChance(table, structure), stake, table.tuning) - keepValueOf(cards, table);
}

/**
 * Leads worth weighing in each group held: every tractor and pair, the highest and lowest single, the
 * components no unseen combination can beat thrown together, and (when throws always stand) the whole group.
 * Under checked throws a throw is offered only when every component is out of reach, so it never fails.
 */
export function leadCandidates(table: Table): Card[][] {
  const { ordering, view } = table;
  const candidates: Card[][] = [];
  for (let group = 0; group <= TRUMP_GROUP; group++) {
    const held = cardsOfGroup(view.hand, group, ordering);
    const structure = leadStructure(held, ordering);
    if (structure === undefined) continue;
    const singles = structure.components.filter((component) => component.kind === "single");
    for (const component of structure.components) if (component.kind !== "single") candidates.push(component.cards.slice());
    if (singles.length > 0) candidates.push(singles[0].cards.slice(), singles[singles.length - 1].cards.slice());
    const masters = structure.components.filter((component) => isMaster(table, component, group));
    if (masters.length > 1) candidates.push(masters.flatMap((component) => component.cards));
    if (table.ruleset.throwPolicy === "always-accept" && structure.isThrow) candidates.push(held);
  }
  return candidates;
}

// ---------------------------------------------------------------------------------------------------------
// Burying

/** Making a plain suit void lets the dealer ruff it later. */
const VOID_VALUE = 4;

/** What burying a card costs: trumps and pairs are strength, points risk being doubled for the defenders. */
function buryingCost(card: Card, hand: Uint8Array, ordering: CardOrdering): number {
  const trump = ordering.group[card] === TRUMP_GROUP ? 10 : 0;
  const pair = hand[card] >= 2 ? 2 : 0;
  return trump + pair + keepValue(card, ordering) + 0.8 * cardPoints(card);
}

/**
 * The burials the heuristic weighs, best first by its own value, each once: for every set of plain suits that
 * fits in 8 cards, those suits voided and the burial topped up with the cheapest other cards; value = the voids
 * made minus what the buried cards cost. The first is the heuristic's burial; the strong AI (search.ts) plays the
 * first few out on sampled deals.
 */
export function rankedBurials(view: SeatView): Card[][] {
  const hand = burialCandidates(view);
  const ordering = viewOrdering(view);
  const counts = countCards(hand);
  const cost = (card: Card) => buryingCost(card, counts, ordering);
  const suits = [0, 1, 2, 3].map((group) => cardsOfGroup(hand, group, ordering));
  const weighed = new Map<string, { burial: Card[]; value: number }>();
  for (let mask = 0; mask < 16; mask++) {
    const voided = suits.filter((_, group) => (mask >> group) & 1).flat();
    if (voided.length > HIDDEN_CARDS) continue;
    const burial = [...voided, ...byPreference(withoutCards(hand, voided) as Card[], cost).slice(0, HIDDEN_CARDS - voided.length)];
    const left = withoutCards(hand, burial) as Card[];
    const voids = suits.filter((cards) => cards.length > 0 && !left.some((card) => ordering.group[card] === ordering.group[cards[0]])).length;
    const value = VOID_VALUE * voids - burial.reduce((sum, card) => sum + cost(card), 0);
    const key = burial.slice().sort((a, b) => a - b).join(",");
    if (!weighed.has(key)) weighed.set(key, { burial, value });
  }
  // Stable: among equal values the first found stays first, as the heuristic's own burial always did.
  return [...weighed.values()].sort((a, b) => b.value - a.value).map(({ burial }) => burial);
}

export function heuristicBurial(view: SeatView): Card[] {
  return rankedBurials(view)[0];
}

// ---------------------------------------------------------------------------------------------------------

export function bestBy(candidates: readonly Card[][], score: (cards: readonly Card[]) => number): Card[] {
  let best = candidates[0];
  let bestScore = -Infinity;
  for (const cards of candidates) {
    const value = score(cards);
    if (value > bestScore) [best, bestScore] = [cards, value];
  }
  return best;
}

/**
 * Plays sensibly from the seat's view alone: takes tricks worth points when it cheaply can, gives points to a
 * partner who holds the trick, throws off low cards that score nothing when the trick is lost, spends trumps
 * only when the points justify it, and leads what the others cannot beat. `ruleset` must be the table's: it
 * decides whether a throw can fail.
 */
export function heuristicPolicy(ruleset: TractorRuleset = classic): TractorPolicy {
  return {
    choosePlay(view) {
      requirePlayTurn(view);
      const table = tableOf(view, ruleset);
      const lead = leadOf(view);
      if (lead === undefined) return bestBy(leadCandidates(table), (cards) => scoreLead(table, cards)).slice();
      const standing = standingOf(table);
      const candidates = followCandidates(table, standing);
      if (candidates.length === 0) return legalPlays(view.hand, lead, table.ordering, 1).plays[0];
      return bestBy(candidates, (cards) => scoreFollow(table, standing, cards)).slice();
    },
    chooseBurial: heuristicBurial,
  };
}

// ---------------------------------------------------------------------------------------------------------

/**
 * The plays the heuristic weighs on the seat's turn, each once, best first by its own score: the first is the
 * heuristic's choice. The search (search.ts) plays the first few out on sampled deals.
 */
export function rankedPlays(view: SeatView, ruleset: TractorRuleset = classic): Card[][] {
  requirePlayTurn(view);
  const table = tableOf(view, ruleset);
  const lead = leadOf(view);
  let scored: { cards: Card[]; score: number }[];
  if (lead === undefined) scored = leadCandidates(table).map((cards) => ({ cards, score: scoreLead(table, cards) }));
  else {
    const standing = standingOf(table);
    const candidates = followCandidates(table, standing);
    if (candidates.length === 0) return [legalPlays(view.hand, lead, table.ordering, 1).plays[0]];
    scored = candidates.map((cards) => ({ cards, score: scoreFollow(table, standing, cards) }));
  }
  // Stable: among equal scores the first listed stays first, as `bestBy` picks it.
  scored.sort((a, b) => b.score - a.score);
  const seen = new Set<string>();
  const ranked: Card[][] = [];
  for (const { cards } of scored) {
    const key = cards.slice().sort((a, b) => a - b).join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    ranked.push(cards.slice());
  }
  return ranked;
}

// ---------------------------------------------------------------------------------------------------------

function accepted(update: RoundUpdate, seat: Seat): RoundState {
  if (!update.ok) throw new Error(`the engine refused seat ${seat}'s choice: ${update.reason}`);
  return update.state;
}

/** As many actions as a round can take: one burial and 4 plays for each of at most 25 tricks. */
const ACTIONS_PER_ROUND = 1 + PLAYERS * HAND_CARDS;

/**
 * Plays a dealt round to its end through the engine, each seat deciding with its own policy from its own
 * SeatView only. Throws if a policy makes a choice the engine refuses.
 */
export function playRound(state: RoundState, policies: readonly TractorPolicy[]): RoundState {
  for (let action = 0; action < ACTIONS_PER_ROUND && state.phase !== "finished"; action++) {
    const seat = state.turn;
    const view = seatView(state, seat);
    state =
      state.phase === "burying"
        ? accepted(buryCards(state, seat, policies[seat].chooseBurial(view)), seat)
        : accepted(applyPlay(state, seat, policies[seat].choosePlay(view)), seat);
  }
  return state;
}
