/**
 * The random policy: the easy level's slips (levels.ts) and the baseline the tests and benches play the others
 * against. It counts the legal plays rather than listing them, so that a large hand's follows stay cheap to draw.
 */
import { type Random, randomInt, shuffled } from "../kit/random";
import { type Card, countCards } from "./cards";
import { cardsOfGroup, checkFollow, followDemand, legalPlays } from "./legality";
import { type CardOrdering, TRUMP_GROUP } from "./order";
import { burialCandidates, leadOf, requirePlayTurn, type TractorPolicy } from "./policy";
import { HIDDEN_CARDS } from "./round";
import { viewOrdering } from "./seat-view";

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
      return lead === undefined
        ? uniformLead(view.hand, ordering, random)
        : uniformFollow(view.hand, lead, ordering, random);
    },
    chooseBurial(view) {
      return shuffled(burialCandidates(view), random).slice(0, HIDDEN_CARDS);
    },
  };
}
