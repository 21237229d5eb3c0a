import fc from "fast-check";
import { seededRandom, shuffled } from "../../rooms/kit/random";
import { type Card, COPIES_PER_CARD, countCards, doubleDeck, DISTINCT_CARDS } from "../../rooms/tractor/cards";
import { randomSetup } from "../../rooms/tractor/generate";
import { checkFollow, checkLead } from "../../rooms/tractor/legality";
import { easyPolicy, levelPolicy } from "../../rooms/tractor/levels";
import { heuristicPolicy, rankedBurials, rankedPlays, type TractorPolicy } from "../../rooms/tractor/policy";
import { randomPolicy } from "../../rooms/tractor/policy-random";
import { applyPlay, buryCards, dealRound, type RoundState } from "../../rooms/tractor/round";
import { checkedThrows, classic, type TractorRuleset } from "../../rooms/tractor/ruleset";
import { SEATS, type Seat } from "../../rooms/tractor/scoring";
import {
  burialBudgetOf,
  candidatePlays,
  DEFAULT_SEARCH_BUDGET,
  evidenceWeight,
  searchBurial,
  searchPlay,
  type SearchBudget,
} from "../../rooms/tractor/search";
import { roundInWorld, sampleWorld } from "../../rooms/tractor/search-worlds";
import { partnerPolicy } from "../../rooms/tractor/policy-partner";
import { knownVoids, seatView, viewOrdering, type SeatView } from "../../rooms/tractor/seat-view";

/** A budget of sampled deals only (no clock), so that every choice is reproducible. */
const SMALL: SearchBudget = { worlds: 3, minWorlds: 3, candidates: 3 };
/** The same with the strong level's own team playing the partner-aware policy, as the default does. */
const PARTNER: SearchBudget = { ...SMALL, ownPolicy: "partner" };

/** A round dealt from `seed`, buried and played `plays` plays on by a mix of the heuristic and random players. */
function positionAfter(seed: number, plays: number, ruleset: TractorRuleset): RoundState {
  const random = seededRandom(`search-test:${seed}`);
  const setup = randomSetup(random);
  let state: RoundState = dealRound(setup, random, ruleset);
  const players: TractorPolicy[] = [heuristicPolicy(ruleset), randomPolicy(random)];
  const buried = buryCards(state, state.turn, players[seed % 2].chooseBurial(seatView(state, state.turn)));
  if (!buried.ok) throw new Error(buried.reason);
  state = buried.state;
  for (let play = 0; play < plays && state.phase === "playing"; play++) {
    const seat = state.turn;
    const update = applyPlay(state, seat, players[(seed + play) % 2].choosePlay(seatView(state, seat)));
    if (!update.ok) throw new Error(update.reason);
    state = update.state;
  }
  return state;
}

/** The same round with everything the seat cannot see dealt again at random: the others' hands and the hidden cards. */
function scrambled(state: RoundState, seat: Seat, seed: number): RoundState {
  const random = seededRandom(`scramble:${seed}`);
  const dealer = state.setup.dealer;
  const hiddenToo = seat !== dealer;
  const pool = shuffled(
    [
      ...SEATS.filter((other) => other !== seat).flatMap((other) => state.hands[other]),
      ...(hiddenToo ? state.hidden : []),
    ],
    random,
  );
  let next = 0;
  const take = (count: number) => pool.slice(next, (next += count));
  const hands = SEATS.map((other) => (other === seat ? state.hands[seat].slice() : take(state.hands[other].length)));
  return { ...state, hands, hidden: hiddenToo ? take(state.hidden.length) : state.hidden };
}

function sameCards(a: readonly Card[], b: readonly Card[]): boolean {
  return countCards(a).every((copies, card) => copies === countCards(b)[card]);
}

const positions = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  plays: fc.integer({ min: 0, max: 95 }),
  checked: fc.boolean(),
});

describe("the strong Tractor AI's sampled deals", () => {
  test("are consistent with everything the seat has seen (property over many positions)", () => {
    fc.assert(
      fc.property(positions, fc.integer({ min: 0, max: 3 }), ({ seed, plays, checked }, offset) => {
        const state = positionAfter(seed, plays, checked ? checkedThrows : classic);
        if (state.phase !== "playing") return;
        const seat = ((state.turn + offset) % 4) as Seat;
        const view = seatView(state, seat);
        const world = sampleWorld(view, seededRandom(`world:${seed}`));
        expect(world.consistent).toBe(true);
        // The seat's own hand, and the hidden cards if it buried them, are what it knows them to be.
        expect(world.hands[seat]).toEqual(view.hand);
        if (view.buried) expect(world.hidden).toEqual(view.buried);
        // Every hand has its size, and the deal with the cards played is the two decks exactly.
        SEATS.forEach((other) => expect(world.hands[other]).toHaveLength(view.handCounts[other]));
        expect(world.hidden).toHaveLength(8);
        expect(sameCards([...world.hands.flat(), ...world.hidden, ...view.playedBy.flat()], doubleDeck())).toBe(true);
        // No seat holds a card of a group it showed it lacks.
        const ordering = viewOrdering(view);
        const voids = knownVoids(view, ordering);
        SEATS.forEach((other) =>
          world.hands[other].forEach((card) => expect(voids[other][ordering.group[card]]).toBe(false)),
        );
        // The round in that deal shows the seat exactly the view it decided from.
        expect(seatView(roundInWorld(view, world, state.ruleset), seat)).toEqual(view);
      }),
      { numRuns: 1000, seed: 33 },
    );
  });

  test("fit tight voids where dealing card by card runs into dead ends (found by the property above)", () => {
    const state = positionAfter(999_982, 65, checkedThrows);
    const seat = ((state.turn + 3) % 4) as Seat;
    const view = seatView(state, seat);
    const ordering = viewOrdering(view);
    const voids = knownVoids(view, ordering);
    for (let draw = 0; draw < 10; draw++) {
      const world = sampleWorld(view, seededRandom(draw === 0 ? "world:999982" : `tight:${draw}`));
      expect(world.consistent).toBe(true);
      SEATS.forEach((other) =>
        world.hands[other].forEach((card) => expect(voids[other][ordering.group[card]]).toBe(false)),
      );
      expect(seatView(roundInWorld(view, world, state.ruleset), seat)).toEqual(view);
    }
  });

  test("keep a declaration's cards in the declarer's hand until it plays them", () => {
    const state = positionAfter(5, 6, classic);
    const seat = state.turn;
    const declarer = ([1, 2, 3] as const)
      .map((step) => ((seat + step) % 4) as Seat)
      .find((other) => other !== state.setup.dealer)!;
    const shown = state.hands[declarer].slice(0, 2);
    const view = seatView(state, seat);
    for (let draw = 0; draw < 20; draw++) {
      const world = sampleWorld(view, seededRandom(`declared:${draw}`), {
        declaration: { seat: declarer, cards: shown },
      });
      expect(world.consistent).toBe(true);
      expect(
        sameCards(
          shown.filter((card) => world.hands[declarer].includes(card)),
          shown,
        ),
      ).toBe(true);
    }
  });

  test("never rule out the real deal when weighed by the others' plays", () => {
    fc.assert(
      fc.property(positions, ({ seed, plays, checked }) => {
        const ruleset = checked ? checkedThrows : classic;
        const state = positionAfter(seed, plays, ruleset);
        if (state.phase !== "playing") return;
        const seat = state.turn;
        const real = { hands: state.hands, hidden: state.hidden, consistent: true };
        expect(evidenceWeight(seatView(state, seat), real, ruleset, heuristicPolicy(ruleset), 12)).toBeGreaterThan(0);
      }),
      { numRuns: 60, seed: 36 },
    );
  });
});

describe("the strong Tractor AI", () => {
  /** Its own team playing the heuristic in the play-outs (the strong level before), and the partner-aware policy (now). */
  const budgets = [
    ["the heuristic", SMALL],
    ["the partner-aware policy", PARTNER],
  ] as const;

  test.each(budgets)(
    "decides from the seat's view only: the same choice when the hidden parts of the full state are scrambled (own team: %s)",
    (_, budget) => {
      fc.assert(
        fc.property(positions, fc.integer({ min: 1, max: 1_000_000 }), ({ seed, plays, checked }, scramble) => {
          const ruleset = checked ? checkedThrows : classic;
          const state = positionAfter(seed, plays, ruleset);
          if (state.phase !== "playing") return;
          const seat = state.turn;
          const other = scrambled(state, seat, scramble);
          expect(seatView(other, seat)).toEqual(seatView(state, seat));
          expect(searchPlay(seatView(other, seat), ruleset, budget).cards).toEqual(
            searchPlay(seatView(state, seat), ruleset, budget).cards,
          );
        }),
        { numRuns: 30, seed: 34 },
      );
    },
  );

  test.each(budgets)(
    "plays only what the engine accepts, among its candidates: the heuristic's best, after the own policy's play (own team: %s)",
    (_, budget) => {
      fc.assert(
        fc.property(positions, ({ seed, plays, checked }) => {
          const ruleset = checked ? checkedThrows : classic;
          const state = positionAfter(seed, plays, ruleset);
          if (state.phase !== "playing") return;
          const view = seatView(state, state.turn);
          const choice = searchPlay(view, ruleset, budget);
          const ordering = viewOrdering(view);
          const lead = view.trick?.plays[0];
          expect(
            (lead === undefined
              ? checkLead(view.hand, choice.cards, ordering)
              : checkFollow(view.hand, lead, choice.cards, ordering)
            ).ok,
          ).toBe(true);
          const candidates = candidatePlays(view, ruleset, budget);
          expect(candidates).toContainEqual(choice.cards);
          const own = budget.ownPolicy === "partner" ? partnerPolicy(ruleset) : heuristicPolicy(ruleset);
          expect(candidates[0]).toEqual(own.choosePlay(view));
          for (const cards of rankedPlays(view, ruleset).slice(0, budget.candidates))
            expect(candidates.some((candidate) => sameCards(candidate, cards))).toBe(true);
          expect(applyPlay(state, state.turn, choice.cards).ok).toBe(true);
        }),
        { numRuns: 30, seed: 35 },
      );
    },
  );

  test("plays its own team with the partner-aware policy by default", () => {
    expect(DEFAULT_SEARCH_BUDGET.ownPolicy).toBe("partner");
  });

  test("the heuristic's ranking starts with the heuristic's own choice", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const state = positionAfter(seed, seed * 3, checkedThrows);
      if (state.phase !== "playing") continue;
      const view = seatView(state, state.turn);
      expect(rankedPlays(view, checkedThrows)[0]).toEqual(heuristicPolicy(checkedThrows).choosePlay(view));
    }
  });

  test("with one sensible play, plays it without sampling", () => {
    const state = positionAfter(7, 99, classic);
    if (state.phase !== "playing") return;
    const view: SeatView = seatView(state, state.turn);
    if (rankedPlays(view, classic).length === 1) expect(searchPlay(view, classic, SMALL).worlds).toBe(0);
  });
});

describe("the strong Tractor AI's burial", () => {
  /** A dealt round, waiting for its dealer to bury. */
  const dealtFrom = (seed: number, ruleset: TractorRuleset) =>
    dealRound(randomSetup(seededRandom(`burial-test:${seed}`)), seededRandom(`burial-deal:${seed}`), ruleset);

  test("buries 8 of the dealer's cards the engine accepts, among the heuristic's best burials, the heuristic's first", () => {
    for (let seed = 1; seed <= 6; seed++) {
      const ruleset = seed % 2 === 0 ? checkedThrows : classic;
      const state = dealtFrom(seed, ruleset);
      const view = seatView(state, state.turn);
      const ranked = rankedBurials(view);
      expect(ranked[0]).toEqual(heuristicPolicy(ruleset).chooseBurial(view));
      const choice = searchBurial(view, ruleset, SMALL);
      expect(choice.cards).toHaveLength(8);
      expect(ranked.slice(0, SMALL.candidates)).toContainEqual(choice.cards);
      expect(buryCards(state, state.turn, choice.cards).ok).toBe(true);
    }
  });

  test("decides from the dealer's view only: the same burial when the other hands are scrambled", () => {
    for (let seed = 1; seed <= 4; seed++) {
      const state = dealtFrom(seed, checkedThrows);
      const other = scrambled(state, state.turn, seed);
      expect(searchBurial(seatView(other, other.turn), checkedThrows, SMALL).cards).toEqual(
        searchBurial(seatView(state, state.turn), checkedThrows, SMALL).cards,
      );
    }
  });

  test("its budget is a play's time several times over, three burials weighed, no evidence (nobody has played)", () => {
    const burial = burialBudgetOf({ worlds: 16, minWorlds: 2, candidates: 4, timeMs: 100, pool: 4, evidence: 24 });
    expect(burial).toMatchObject({ worlds: 16, minWorlds: 2, candidates: 3, pool: 1 });
    expect(burial.timeMs).toBeGreaterThan(100);
    expect(burial.timeMs).toBeLessThan(1000);
  });
});

describe("the Tractor bot levels", () => {
  test("normal is the heuristic; easy and strong play legal cards", () => {
    const state = positionAfter(11, 20, checkedThrows);
    if (state.phase !== "playing") throw new Error("the round ended early");
    const view = seatView(state, state.turn);
    expect(levelPolicy("normal", checkedThrows).choosePlay(view)).toEqual(
      heuristicPolicy(checkedThrows).choosePlay(view),
    );
    for (const policy of [
      easyPolicy(checkedThrows, seededRandom("easy")),
      levelPolicy("strong", checkedThrows, Math.random, SMALL),
    ]) {
      expect(applyPlay(state, state.turn, policy.choosePlay(view)).ok).toBe(true);
    }
    const dealt = dealRound(
      randomSetup(seededRandom("levels-burial")),
      seededRandom("levels-burial-deal"),
      checkedThrows,
    );
    const burial = levelPolicy("strong", checkedThrows, Math.random, SMALL).chooseBurial(seatView(dealt, dealt.turn));
    expect(buryCards(dealt, dealt.turn, burial).ok).toBe(true);
    expect(DISTINCT_CARDS * COPIES_PER_CARD).toBe(doubleDeck().length);
  });
});
