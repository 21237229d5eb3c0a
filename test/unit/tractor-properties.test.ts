/**
 * Property tests: the exact follow arrangement, the lead decomposition and the follow obligations are held
 * against brute-force references that try every way of splitting or choosing cards.
 */
import fc from "fast-check";
import { type Card, cardsName, countCards, DISTINCT_CARDS } from "../../rooms/tractor/cards";
import { checkFollow, legalPlays } from "../../rooms/tractor/legality";
import { type CardOrdering, cardOrdering, MAIN_SUITS, type MainSuit } from "../../rooms/tractor/order";
import { bestHonor, leadStructure } from "../../rooms/tractor/structure";

/** Is this set of cards one component of the given length (single, pair, or tractor of one group)? */
function isComponent(cards: readonly Card[], ordering: CardOrdering): boolean {
  if (cards.length === 1) return true;
  if (cards.length % 2 !== 0) return false;
  const sorted = cards.slice().sort((a, b) => ordering.order[a] - ordering.order[b] || a - b);
  for (let at = 0; at < sorted.length; at += 2) {
    if (sorted[at] !== sorted[at + 1]) return false;
    if (ordering.group[sorted[at]] !== ordering.group[sorted[0]]) return false;
    if (at > 0 && ordering.order[sorted[at]] !== ordering.order[sorted[at - 2]] + 1) return false;
  }
  return true;
}

/** Every way to take `size` cards (by position) out of `cards`: [taken, rest]. */
function* choices(cards: readonly Card[], size: number, from = 0): Generator<[Card[], Card[]]> {
  if (size === 0) {
    yield [[], cards.slice()];
    return;
  }
  for (let at = from; at <= cards.length - size; at++) {
    const rest = cards.slice(0, at).concat(cards.slice(at + 1));
    for (const [taken, left] of choices(rest, size - 1, at)) yield [[cards[at], ...taken], left];
  }
}

/** Every split of the cards into components, as the components' lists. */
function* decompositions(cards: readonly Card[], ordering: CardOrdering): Generator<Card[][]> {
  if (cards.length === 0) {
    yield [];
    return;
  }
  const [first, ...others] = cards;
  for (let size = 0; size < cards.length; size++) {
    for (const [taken, rest] of choices(others, size)) {
      const component = [first, ...taken];
      if (!isComponent(component, ordering)) continue;
      for (const tail of decompositions(rest, ordering)) yield [component, ...tail];
    }
  }
}

const byLengthDescending = (parts: Card[][]) => parts.map((part) => part.length).sort((a, b) => b - a);
const lexicographic = (a: number[], b: number[]) => {
  for (let index = 0; index < Math.min(a.length, b.length); index++)
    if (a[index] !== b[index]) return a[index] - b[index];
  return a.length - b.length;
};

/** The honor card reached by trying every decomposition with exactly the lead's lengths. */
function bruteHonor(cards: readonly Card[], lengths: readonly number[], ordering: CardOrdering): number | undefined {
  let best: number | undefined;
  for (const parts of decompositions(cards, ordering)) {
    if (lexicographic(byLengthDescending(parts), lengths.slice()) !== 0) continue;
    const longest = parts.filter((part) => part.length === lengths[0]);
    const honor = Math.max(...longest.flat().map((card) => ordering.order[card]));
    if (best === undefined || honor > best) best = honor;
  }
  return best;
}

/** A small pool of cards, so that random picks hold pairs, tractors and equal orders often. */
const POOL_RANKS = [2, 3, 4, 5, 14];
const poolCards = (ordering: CardOrdering, group: number): Card[] => {
  const cards: Card[] = [];
  for (let card = 0; card < DISTINCT_CARDS; card++) {
    const rank = (card % 13) + 2;
    if (ordering.group[card] === group && (card >= 52 || POOL_RANKS.includes(rank))) cards.push(card);
  }
  return cards;
};

/** Picks a multiset (at most two copies of a card) from the pool by the given indices. */
function pickCards(pool: readonly Card[], picks: readonly number[]): Card[] {
  const counts = new Array<number>(DISTINCT_CARDS).fill(0);
  const cards: Card[] = [];
  for (const pick of picks) {
    const card = pool[pick % pool.length];
    if (counts[card] < 2) {
      counts[card]++;
      cards.push(card);
    }
  }
  return cards;
}

const contextArbitrary = fc.record({
  mainSuit: fc.constantFrom<MainSuit>(...MAIN_SUITS),
  currentRank: fc.constantFrom(3, 4, 5, 14),
});

const groupCards = (ordering: CardOrdering, group: number, picks: number[]) =>
  pickCards(poolCards(ordering, group), picks);
const GROUPS = [0, 1, 4];

describe("the exact arrangement against brute force", () => {
  it("finds the same honor card as trying every decomposition", () => {
    fc.assert(
      fc.property(
        contextArbitrary,
        fc.constantFrom(...GROUPS),
        fc.constantFrom(...GROUPS),
        fc.array(fc.nat(40), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(40), { minLength: 8, maxLength: 8 }),
        (context, leadGroup, followGroup, leadPicks, followPicks) => {
          const ordering = cardOrdering(context);
          const lead = groupCards(ordering, leadGroup, leadPicks);
          const follow = groupCards(ordering, followGroup, followPicks).slice(0, lead.length);
          const structure = leadStructure(lead, ordering);
          if (structure === undefined || follow.length !== lead.length) return;
          expect(bestHonor(follow, structure.lengths, ordering)).toBe(bruteHonor(follow, structure.lengths, ordering));
        },
      ),
      { numRuns: 300, seed: 20090101 },
    );
  });

  it("decomposes a lead into the lexicographically longest components, with the highest honor", () => {
    fc.assert(
      fc.property(
        contextArbitrary,
        fc.constantFrom(...GROUPS),
        fc.array(fc.nat(40), { minLength: 1, maxLength: 8 }),
        (context, group, picks) => {
          const ordering = cardOrdering(context);
          const lead = groupCards(ordering, group, picks);
          const structure = leadStructure(lead, ordering);
          if (lead.length === 0) return;
          if (structure === undefined) throw new Error("one group's cards always make a lead");
          let greatest: number[] = [];
          for (const parts of decompositions(lead, ordering)) {
            const lengths = byLengthDescending(parts);
            if (lexicographic(lengths, greatest) > 0) greatest = lengths;
          }
          expect(structure.lengths).toEqual(greatest);
          expect(structure.components[0].top).toBe(bruteHonor(lead, structure.lengths, ordering));
        },
      ),
      { numRuns: 300, seed: 4749 },
    );
  });
});

/** Brute force: the most lead tractor pairs any tractors drawn from `cards` can match at once. */
function bruteTractorPairs(cards: readonly Card[], tractorPairs: readonly number[], ordering: CardOrdering): number {
  if (tractorPairs.length === 0) return 0;
  const [pairs, ...others] = tractorPairs;
  let best = bruteTractorPairs(cards, others, ordering);
  for (const [taken, rest] of choices(cards, pairs * 2)) {
    if (isComponent(taken, ordering)) best = Math.max(best, pairs + bruteTractorPairs(rest, others, ordering));
  }
  return best;
}

/** Every distinct sub-multiset of `size` cards. */
function subMultisets(cards: readonly Card[], size: number): Card[][] {
  const seen = new Map<string, Card[]>();
  for (const [taken] of choices(
    cards.slice().sort((a, b) => a - b),
    size,
  ))
    seen.set(cardsName(taken), taken);
  return [...seen.values()];
}

/** The follow obligations, measured by brute force: led-group cards, tractor pairs matched, pairs (capped). */
function bruteProfile(play: readonly Card[], lead: readonly Card[], ordering: CardOrdering): number[] {
  const structure = leadStructure(lead, ordering);
  if (!structure) throw new Error("bad lead");
  const inGroup = play.filter((card) => ordering.group[card] === structure.group);
  const tractorPairs = structure.lengths.filter((length) => length >= 4).map((length) => length / 2);
  const leadPairs = structure.lengths.filter((length) => length >= 2).reduce((sum, length) => sum + length / 2, 0);
  const pairs = countCards(inGroup).filter((count) => count === 2).length;
  return [inGroup.length, bruteTractorPairs(inGroup, tractorPairs, ordering), Math.min(leadPairs, pairs)];
}

describe("follow obligations against brute force", () => {
  it("accepts exactly the plays no other choice of cards beats on suit, then tractors, then pairs", () => {
    fc.assert(
      fc.property(
        contextArbitrary,
        fc.constantFrom(...GROUPS),
        fc.array(fc.nat(40), { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(80), { minLength: 1, maxLength: 8 }),
        (context, leadGroup, leadPicks, handPicks) => {
          const ordering = cardOrdering(context);
          const lead = groupCards(ordering, leadGroup, leadPicks);
          const trimmed = pickCards(
            GROUPS.flatMap((group) => poolCards(ordering, group)),
            handPicks,
          );
          if (lead.length === 0 || trimmed.length < lead.length) return;
          const candidates = subMultisets(trimmed, lead.length);
          const profiles = candidates.map((play) => bruteProfile(play, lead, ordering));
          const best = profiles.reduce((top, profile) => (lexicographic(profile, top) > 0 ? profile : top));
          const expected = candidates
            .filter((_, index) => lexicographic(profiles[index], best) === 0)
            .map(cardsName)
            .sort();
          const listed = legalPlays(trimmed, lead, ordering);
          expect(listed.complete).toBe(true);
          expect(listed.plays.map((play) => cardsName(play.slice().sort((a, b) => a - b))).sort()).toEqual(expected);
          for (const play of candidates) {
            expect(checkFollow(trimmed, lead, play, ordering).ok).toBe(expected.includes(cardsName(play)));
          }
        },
      ),
      { numRuns: 200, seed: 2009 },
    );
  });
});
