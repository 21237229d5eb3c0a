import fc from "fast-check";
import { seededRandom, shuffled } from "../../rooms/kit/random";
import { type Card, countCards, doubleDeck, parseCards } from "../../rooms/tractor/cards";
import {
  botDeclaration,
  DEAL_STEPS,
  declarationStrength,
  dealtTo,
  type Declaration,
} from "../../rooms/tractor/declaration";
import {
  declarationCandidates,
  declarationViewOf,
  finishDeal,
  sampleDeal,
  searchDeclaration,
  type DeclarationView,
} from "../../rooms/tractor/declaration-search";
import { dealRound } from "../../rooms/tractor/round";
import { checkedThrows, classic } from "../../rooms/tractor/ruleset";
import { SEATS, type Seat } from "../../rooms/tractor/scoring";
import type { SearchBudget } from "../../rooms/tractor/search";

/** A budget of sampled deals only (no clock), so that every choice is reproducible. */
const DEALS = (worlds: number): SearchBudget => ({ worlds, minWorlds: worlds, candidates: 5, confidence: 1 });

function cards(text: string): Card[] {
  const parsed = parseCards(text);
  if (parsed === undefined) throw new Error(`not cards: ${text}`);
  return parsed;
}

interface Dealing {
  readonly setup: { mainSuit: "O"; dealer: Seat; teamRanks: [number, number] };
  readonly dealing: { hands: readonly (readonly Card[])[]; steps: number };
  readonly declaration: Declaration | undefined;
}

/** A declaration deal `steps` cards in, with the first opponent of `seat` that can declare (as the seat bot would) standing. */
function dealing(seed: number, seat: Seat, steps: number): Dealing {
  const random = seededRandom(`declaration-search:${seed}`);
  const dealer = SEATS[seed % 4];
  const teamRanks: [number, number] = [2 + (seed % 13), 2 + ((seed * 7) % 13)];
  const setup = { mainSuit: "O" as const, dealer, teamRanks };
  const hands = dealRound(setup, random, classic).hands;
  const rank = teamRanks[dealer % 2];
  const declarers = SEATS.filter((other) => seed % 3 === 0 || other !== seat);
  let declaration: Declaration | undefined;
  for (const other of declarers) {
    const declared = botDeclaration(undefined, other, dealtTo(hands[other], dealer, other, steps), rank);
    if (declared !== undefined) {
      declaration = { seat: other, cards: declared };
      break;
    }
  }
  return { setup, dealing: { hands, steps }, declaration };
}

/** The same deal with every card the seat does not know dealt again at random (its future cards, the others', the kitty). */
function scrambled(deal: Dealing, seat: Seat, seed: number): Dealing {
  const { dealer } = deal.setup;
  const hands = deal.dealing.hands.map((hand) => hand.slice());
  const known = (holder: Seat, index: number) =>
    holder === seat && index < dealtTo(hands[holder], dealer, holder, deal.dealing.steps).length;
  const shown = deal.declaration && deal.declaration.seat !== seat ? deal.declaration : undefined;
  const pinned = new Set<string>();
  for (const card of shown?.cards ?? []) {
    const index = hands[shown!.seat].findIndex((held, at) => held === card && !pinned.has(`${shown!.seat}:${at}`));
    pinned.add(`${shown!.seat}:${index}`);
  }
  const open: [Seat, number][] = [];
  hands.forEach((hand, holder) =>
    hand.forEach(
      (_, index) =>
        !known(holder as Seat, index) && !pinned.has(`${holder}:${index}`) && open.push([holder as Seat, index]),
    ),
  );
  const redealt = shuffled(
    open.map(([holder, index]) => hands[holder][index]),
    seededRandom(`scramble:${seed}`),
  );
  open.forEach(([holder, index], at) => (hands[holder][index] = redealt[at]));
  return { ...deal, dealing: { ...deal.dealing, hands } };
}

describe("the strong AI's declarations (declaration-search.ts)", () => {
  test("read only what the seat may know: the same view and the same choice when every card it does not know is dealt again", () => {
    let searched = 0;
    for (let seed = 0; seed < 24 && searched < 4; seed++) {
      const seat = SEATS[(seed + 1) % 4];
      const deal = dealing(seed, seat, 40 + seed * 2);
      const view = declarationViewOf(deal, seat);
      if (declarationCandidates(view).length === 0) continue;
      const other = scrambled(deal, seat, seed);
      expect(other.dealing.hands).not.toEqual(deal.dealing.hands);
      expect(declarationViewOf(other, seat)).toEqual(view);
      expect(searchDeclaration(declarationViewOf(other, seat), checkedThrows, DEALS(2))).toEqual(
        searchDeclaration(view, checkedThrows, DEALS(2)),
      );
      searched++;
    }
    expect(searched).toBe(4);
  });

  test("sample completions of the deal consistent with the view: 108 cards, the seat's cards as dealt, the shown cards with their declarer", () => {
    fc.assert(
      fc.property(
        fc.nat(10_000),
        fc.constantFrom(...SEATS),
        fc.integer({ min: 0, max: DEAL_STEPS }),
        (seed, seat, steps) => {
          const deal = dealing(seed, seat, steps);
          const view = declarationViewOf(deal, seat);
          const hands = sampleDeal(view, seededRandom(seed));
          expect(hands.map((hand) => hand.length)).toEqual(SEATS.map((holder) => (holder === view.dealer ? 33 : 25)));
          expect(countCards(hands.flat())).toEqual(countCards(doubleDeck()));
          expect(hands[seat].slice(0, view.dealt.length)).toEqual(view.dealt);
          const shown = view.standing;
          if (shown !== undefined) {
            const soFar = dealtTo(hands[shown.seat], view.dealer, shown.seat, steps);
            for (const card of shown.cards)
              expect(soFar.filter((held) => held === card).length).toBeGreaterThanOrEqual(
                shown.cards.filter((other) => other === card).length,
              );
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  /** The mean value the search gave `declared` (a declaration's cards, or "-" for "not now"). */
  const weightOf = (choice: ReturnType<typeof searchDeclaration>, declared: string) =>
    choice.weighed.find(({ cards: weighed }) =>
      weighed === undefined || declared === "-"
        ? weighed === undefined && declared === "-"
        : weighed.join() === cards(declared).join(),
    )!.value;

  test("declare the suit a hand is long and strong in, holding its current-rank card, over a lone card of another suit", () => {
    // Bob, a defender at rank 2, 15 cards in: hearts long and high with H2, a lone S2.
    const view: DeclarationView = {
      seat: 1,
      dealer: 0,
      teamRanks: [2, 2],
      steps: 60,
      dealt: cards("H2HAHKHQHJHTH9H8S2C3C5D6D7C8D9"),
    };
    const choice = searchDeclaration(view, checkedThrows, DEALS(40));
    expect(choice.cards).toEqual(cards("H2"));
    expect(weightOf(choice, "H2")).toBeGreaterThan(weightOf(choice, "S2"));
    expect(weightOf(choice, "H2")).toBeGreaterThan(weightOf(choice, "-"));
  });

  test("a clearly better declaration is preferred to the heuristic's worse one", () => {
    // Alice, the dealer at rank 2, 15 cards in: the pair S2S2 (the heuristic's: the stronger) with no other spade,
    // and H2 with hearts long and high.
    const view: DeclarationView = {
      seat: 0,
      dealer: 0,
      teamRanks: [2, 2],
      steps: 60,
      dealt: cards("S2S2H2HAHAHKHKHQHQHJHTH9C3D4C5"),
    };
    const choice = searchDeclaration(view, checkedThrows, DEALS(40));
    expect(choice.weighed[0].cards).toEqual(cards("S2S2"));
    expect(weightOf(choice, "H2")).toBeGreaterThan(weightOf(choice, "S2S2"));
    expect(choice.cards).toEqual(cards("H2"));
  });

  test("finish the deal as the table's bots would: after 'not now' with a complete hand the seat never declares; a declaration stands unless a stronger one overrides it", () => {
    for (let seed = 0; seed < 12; seed++) {
      const view = { ...declarationViewOf(dealing(seed, 2, DEAL_STEPS), 2), standing: undefined };
      const hands = dealing(seed, 2, DEAL_STEPS).dealing.hands;
      expect(finishDeal(view, hands, undefined)?.seat).not.toBe(2);
      for (const candidate of declarationCandidates(view)) {
        if (candidate === undefined) continue;
        const standing = finishDeal(view, hands, candidate)!;
        const rank = view.teamRanks[view.dealer % 2];
        if (standing.seat !== 2)
          expect(declarationStrength(standing.cards, rank)!).toBeGreaterThan(declarationStrength(candidate, rank)!);
        else expect(standing.cards).toEqual(candidate);
      }
    }
  });
});
