/**
 * Random valid rounds: random setups, random leads of every shape (singles, pairs, tractors, throws) and
 * random follows that meet the obligations by construction (and ruff with trumps when void, so trump
 * throws over not-trump throws happen). Used by the benchmark and as a source of statement-format test inputs.
 */
import { type Random, randomInt, shuffled } from "../kit/random";
import { ACE, type Card, countCards, DISTINCT_CARDS, LOWEST_RANK, withoutCards } from "./cards";
import { cardsOfGroup, followDemand } from "./legality";
import { type CardOrdering, MAIN_SUITS, TRUMP_GROUP } from "./order";
import {
  applyPlay,
  buryCards,
  dealRound,
  type FinishedRound,
  HIDDEN_CARDS,
  orderingOf,
  type RoundState,
} from "./round";
import { classic, type TractorRuleset } from "./ruleset";
import { type RecordedRound, type RoundSetup, type Seat, SEATS } from "./scoring";
import { leadStructure, matchTractors, pairLevels, shapeDemand } from "./structure";

function pick<T>(items: readonly T[], random: Random): T {
  return items[randomInt(random, items.length)];
}

/** Ranks lean towards the top so that rounds past Ace (a match winner) come up often. */
export function randomSetup(random: Random): RoundSetup {
  const rank = (): number => (random() < 0.3 ? ACE - randomInt(random, 3) : LOWEST_RANK + randomInt(random, ACE - 1));
  return { mainSuit: pick(MAIN_SUITS, random), dealer: pick(SEATS, random), teamRanks: [rank(), rank()] };
}

/** Takes one tractor of `pairs` pairs from the top of a run in the levels (the levels lose those pairs). */
function takeTractor(levels: Card[][], top: number, pairs: number): Card[] {
  const cards: Card[] = [];
  for (let order = top; order > top - pairs; order--) {
    const card = levels[order].pop() as Card;
    cards.push(card, card);
  }
  return cards;
}

/** The most tractor pairs, then pairs, of `cards` that fit the lead, plus random others up to `size`. */
function shapedChoice(
  cards: readonly Card[],
  lengths: readonly number[],
  size: number,
  ordering: CardOrdering,
  random: Random,
): Card[] {
  if (cards.length <= size) return cards.slice();
  const demand = shapeDemand(lengths);
  const { pairs: levels } = pairLevels(cards, ordering);
  const chosen: Card[] = [];
  for (const { top, pairs } of matchTractors(
    levels.map((level) => level.length),
    demand.tractorPairs,
  )) {
    chosen.push(...takeTractor(levels, top, pairs));
  }
  const sparePairs = shuffled(levels.flat(), random);
  const wantedPairs = Math.min(demand.pairsInTractors + demand.pairs - chosen.length / 2, sparePairs.length);
  for (const card of sparePairs.slice(0, Math.max(0, wantedPairs))) chosen.push(card, card);
  const rest = shuffled(withoutCards(cards, chosen) as Card[], random);
  return [...chosen, ...rest.slice(0, size - chosen.length)];
}

/** A random follow that is always legal; when void in the led suit it often ruffs with trumps. */
export function randomFollow(
  hand: readonly Card[],
  lead: readonly Card[],
  ordering: CardOrdering,
  random: Random,
): Card[] {
  const demand = followDemand(hand, lead, ordering);
  const lengths = demand.structure.lengths;
  const inGroup = cardsOfGroup(hand, demand.group, ordering);
  const groupPart = shapedChoice(inGroup, lengths, lead.length, ordering, random);
  if (groupPart.length === lead.length) return groupPart;
  const outside = withoutCards(hand, groupPart) as Card[];
  const trumps = cardsOfGroup(outside, TRUMP_GROUP, ordering);
  const missing = lead.length - groupPart.length;
  const ruff = groupPart.length === 0 && random() < 0.6 ? shapedChoice(trumps, lengths, missing, ordering, random) : [];
  const filler = shuffled(withoutCards(outside, ruff) as Card[], random).slice(0, missing - ruff.length);
  return [...groupPart, ...ruff, ...filler];
}

/** A random lead: a single, a pair, a tractor or a throw of one group of the hand. */
export function randomLead(hand: readonly Card[], ordering: CardOrdering, random: Random): Card[] {
  const group = ordering.group[pick(hand, random)];
  const cards = cardsOfGroup(hand, group, ordering);
  const shape = random();
  if (shape < 0.45) return [pick(cards, random)];
  const structure = leadStructure(cards, ordering);
  const multiples = structure?.components.filter((component) => component.kind !== "single") ?? [];
  if (shape < 0.8 && multiples.length > 0) return pick(multiples, random).cards.slice();
  const counts = countCards(cards);
  const throwCards: Card[] = [];
  for (let card = 0; card < DISTINCT_CARDS; card++) {
    for (let copy = 0; copy < counts[card]; copy++) if (random() < 0.5) throwCards.push(card);
  }
  return throwCards.length > 0 ? throwCards : [cards[0]];
}

export interface PlayedRound {
  readonly state: FinishedRound;
  readonly record: RecordedRound;
}

function refusedPlay(reason: string): never {
  throw new Error(`the generator made a play the engine refused: ${reason}`);
}

/** Deals, buries 8 random cards and plays a whole round of random legal plays through the round engine. */
export function playRandomRound(setup: RoundSetup, random: Random, ruleset: TractorRuleset = classic): PlayedRound {
  let state: RoundState = dealRound(setup, random, ruleset);
  const buried = shuffled(state.hands[setup.dealer], random).slice(0, HIDDEN_CARDS);
  const afterBurial = buryCards(state, setup.dealer, buried);
  state = afterBurial.ok ? afterBurial.state : refusedPlay(afterBurial.reason);
  const ordering = orderingOf(state);
  while (state.phase === "playing") {
    const seat: Seat = state.turn;
    const hand = state.hands[seat];
    const lead = state.trick?.plays[0];
    const cards = lead === undefined ? randomLead(hand, ordering, random) : randomFollow(hand, lead, ordering, random);
    const update = applyPlay(state, seat, shuffled(cards, random));
    state = update.ok ? update.state : refusedPlay(update.reason);
  }
  return { state, record: { setup, tricks: state.tricks.map((trick) => trick.plays) } };
}

/** A random round in the statement's terms (throws always accepted), ready to print in its input format. */
export function randomRecordedRound(random: Random): PlayedRound {
  return playRandomRound(randomSetup(random), random, classic);
}
