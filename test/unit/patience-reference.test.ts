/**
 * The engine against a deliberately simple reference: the rules read the way many judge solutions write them,
 * by listing every coverable pair and triple of top cards and taking the first in lexicographic order of piles.
 * The engine instead finds the first eligible pile and its nearest partners; the two must always agree.
 */
import fc from "fast-check";
import { seededRandom } from "../../rooms/kit/random";
import { fullDeck, RANKS, shuffledDeck, type Card } from "../../rooms/patience/cards";
import { isOver, MAX_PILES, playByPlay, simulate, startDeal, step, type Outcome } from "../../rooms/patience/engine";

const TEN = 10;

function faceValue(card: Card): number {
  return RANKS.indexOf(card.rank) + 1; // ace 1 … ten 10, jack 11, queen 12, king 13
}

/** Three court cards (values 11, 12, 13), no two alike. */
function isJackQueenKing(a: number, b: number, c: number): boolean {
  return a > TEN && b > TEN && c > TEN && a !== b && b !== c && a !== c;
}

/** Every coverable group of top cards, as increasing pile numbers. */
function allGroups(tops: readonly number[]): number[][] {
  const groups: number[][] = [];
  for (let i = 0; i < tops.length; i++) {
    for (let j = i + 1; j < tops.length; j++) {
      if (tops[i] <= TEN && tops[j] <= TEN && tops[i] + tops[j] === 11) groups.push([i, j]);
      for (let k = j + 1; k < tops.length; k++) {
        if (isJackQueenKing(tops[i], tops[j], tops[k])) groups.push([i, j, k]);
      }
    }
  }
  return groups;
}

function lexicographically(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function referenceOutcome(deck: readonly Card[]): Outcome {
  const values = deck.map(faceValue);
  const tops: number[] = [];
  const sizes: number[] = [];
  let next = 0;
  while (next < values.length) {
    const group = allGroups(tops).sort(lexicographically)[0];
    if (group !== undefined) {
      for (const pile of group.slice(0, values.length - next)) {
        tops[pile] = values[next++];
        sizes[pile]++;
      }
    } else if (tops.length === 16) {
      return { kind: "overflowed", cardNumber: next + 1 };
    } else {
      tops.push(values[next++]);
      sizes.push(1);
    }
  }
  return { kind: "finished", pileSizes: sizes };
}

const anyFullDeck = fc.shuffledSubarray(fullDeck(), { minLength: 52, maxLength: 52 });
const anyPartOfADeck = fc.shuffledSubarray(fullDeck(), { minLength: 0, maxLength: 52 });

describe("the engine against the brute-force reference", () => {
  it("agrees on random full decks", () => {
    fc.assert(
      fc.property(anyFullDeck, (deck) => {
        expect(simulate(deck)).toEqual(referenceOutcome(deck));
      }),
      { numRuns: 1000 },
    );
  });

  it("agrees on random runs of fewer cards", () => {
    fc.assert(
      fc.property(anyPartOfADeck, (deck) => {
        expect(simulate(deck)).toEqual(referenceOutcome(deck));
      }),
      { numRuns: 1000 },
    );
  });

  it("agrees on seeded shuffles that include every kind of ending", () => {
    const random = seededRandom("patience reference");
    const endings = { overflowed: 0, finishedMidCover: 0, finishedAfterANewPile: 0 };
    for (let game = 0; game < 3000; game++) {
      const deck = shuffledDeck(random);
      const outcome = simulate(deck);
      expect(outcome).toEqual(referenceOutcome(deck));
      if (outcome.kind === "overflowed") endings.overflowed++;
      else if (endedMidCover(deck)) endings.finishedMidCover++;
      else endings.finishedAfterANewPile++;
    }
    expect(endings.overflowed).toBeGreaterThan(0);
    expect(endings.finishedMidCover).toBeGreaterThan(0);
    expect(endings.finishedAfterANewPile).toBeGreaterThan(0);
  });
});

/** Whether the deck ran out with a cover half done. */
function endedMidCover(deck: readonly Card[]): boolean {
  return playByPlay(deck).events.some(
    (event) => event.kind === "covered" && event.covering.length < event.piles.length,
  );
}

describe("what every deal keeps true", () => {
  it("deals every card onto at most 16 piles, and overflows only on cards 17 to 52", () => {
    fc.assert(
      fc.property(anyFullDeck, (deck) => {
        let state = startDeal(deck);
        for (let moves = 0; !isOver(state) && moves <= deck.length + 1; moves++) {
          state = step(state).state;
          const onTable = state.piles.reduce((total, pile) => total + pile.length, 0);
          expect(onTable).toBe(state.dealt);
          expect(state.piles.length).toBeLessThanOrEqual(MAX_PILES);
        }
        const outcome = state.outcome;
        if (outcome?.kind === "overflowed") {
          expect(outcome.cardNumber).toBeGreaterThanOrEqual(MAX_PILES + 1);
          expect(outcome.cardNumber).toBeLessThanOrEqual(deck.length);
        } else {
          expect(outcome?.pileSizes.reduce((total, size) => total + size, 0)).toBe(deck.length);
        }
      }),
      { numRuns: 300 },
    );
  });
});
