import * as fc from "fast-check";
import { seededRandom, shuffled, type Random } from "../../rooms/kit/random";
import { aiGame, aiPolicy, immediateMove } from "../../rooms/fool/ai";
import { mayBe, remember, startMemory, type UnseenCard } from "../../rooms/fool/ai-memory";
import { greedyPolicy, playOut, randomPolicy, type Policy } from "../../rooms/fool/bots";
import { JOKER, NATURAL_CARDS, type Card } from "../../rooms/fool/cards";
import {
  applyMove,
  legalMoves,
  legalMovesInView,
  newGame,
  positionOf,
  viewFor,
  type FaceUp,
  type FoolMove,
  type FoolState,
} from "../../rooms/fool/rules";

function headsUp(hand: Card[], opponent: Card[], faceUp: FaceUp): FoolState {
  return positionOf([hand, opponent], faceUp, ["2C", "3C", "4C", "5C", "9H", "TH", "JH"]);
}

describe("the AI", () => {
  test("plays out a forced win: the opponent never gets a move", () => {
    let state = headsUp(["6C", "QD", "6S", "KS", "7S", "*"], ["3D", "4D"], { card: "*", as: "QH", namedSuit: "S" });
    const random = seededRandom(1);
    while (state.phase !== "over") {
      expect(state.turn).toBe(0);
      const result = applyMove(state, 0, aiPolicy(viewFor(state, 0), random));
      if (!result.ok) throw new Error(result.reason);
      state = result.state;
    }
    expect(state.finished).toEqual([0]);
  });

  test("keeps its joker while a natural card covers", () => {
    const state = headsUp(["9S", "*", "4H"], ["3D", "4D"], { card: "2S", as: "2S", namedSuit: null });
    expect(aiPolicy(viewFor(state, 0), seededRandom(1))).toEqual({ kind: "play", card: "9S" });
  });

  test("only ever chooses legal moves, against every opponent and with more players", () => {
    for (let seed = 1; seed <= 30; seed++) {
      const players = 2 + (seed % 3);
      const policies = Array.from({ length: players }, (_, seat) => [aiPolicy, randomPolicy, greedyPolicy][seat % 3]);
      const game = playOut(newGame(seededRandom(seed), players), policies, seededRandom(seed), 3000);
      expect(game.state.fool === null).toBe(game.capped);
    }
  });
});

/** A heads-up game of the AI (seat 0, with its memory) against `opponent`, move by move. */
function gameWithMemory(seed: number, opponent: Policy) {
  return aiGame(newGame(seededRandom(seed)), 0, opponent, seededRandom(`play ${seed}`), 400);
}

/** The same game with the opponent's hand and the deck dealt afresh from their cards: the same counts, so the same view. */
function hiddenPartReshuffled(state: FoolState, random: Random): FoolState {
  const hidden = shuffled([...state.hands[1], ...state.deck], random);
  return {
    ...state,
    hands: [state.hands[0], hidden.slice(0, state.hands[1].length)],
    deck: hidden.slice(state.hands[1].length),
  };
}

/** Whether the opponent's real cards can be matched one to one with the unseen cards the memory describes. */
function fitsMemory(cards: readonly Card[], unseen: readonly UnseenCard[]): boolean {
  const holder: number[] = unseen.map(() => -1);
  const place = (card: number, tried: boolean[]): boolean =>
    unseen.some((slot, k) => {
      if (tried[k] || !mayBe(slot, cards[card])) return false;
      tried[k] = true;
      if (holder[k] >= 0 && !place(holder[k], tried)) return false;
      holder[k] = card;
      return true;
    });
  return cards.every((_, card) => place(card, []));
}

describe("the AI's immediate moves (made on the server's event loop, not on a thread)", () => {
  test("are the AI's own move wherever it gives one, and it gives one whenever there is no card to lay", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom<Policy>(greedyPolicy, randomPolicy),
        (seed, opponent) => {
          for (const { state, memory, move } of gameWithMemory(seed, opponent)) {
            if (state.turn !== 0) continue;
            const view = viewFor(state, 0);
            const immediate = immediateMove(view, memory);
            if (immediate !== null) expect(immediate).toEqual(move);
            if (!legalMovesInView(view).some((legal) => legal.kind === "play")) expect(immediate).not.toBeNull();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  test("leave a real choice to the weighing", () => {
    // The 9S and the TS both cover the 2S (the joker is kept while a natural card covers), and no forced win.
    const state = headsUp(["9S", "TS", "*", "4H", "5C"], ["3D", "4D"], { card: "2S", as: "2S", namedSuit: null });
    expect(immediateMove(viewFor(state, 0))).toBeNull();
  });
});

describe("the AI's memory of public events", () => {
  test("an opponent who draws on a card lacks its suit and value; drawing and being passed at once, a joker too", () => {
    const state = positionOf(
      [
        ["2C", "3C"],
        ["4H", "9D"],
      ],
      { card: "5S", as: "5S", namedSuit: null },
      ["JD", "KH"],
      1,
    );
    let memory = startMemory(viewFor(state, 0));
    const drew = applyMove(state, 1, { kind: "draw" });
    if (!drew.ok) throw new Error(drew.reason);
    expect(drew.events.map((event) => event.type)).toEqual(["drew", "passed"]);
    memory = remember(memory, drew.events);
    expect(memory.hands[1].unseen).toHaveLength(3);
    for (const card of memory.hands[1].unseen) {
      expect(mayBe(card, "9S")).toBe(false);
      expect(mayBe(card, "5H")).toBe(false);
      expect(mayBe(card, "*")).toBe(false);
      expect(mayBe(card, "9D")).toBe(true);
    }
  });

  test("never contradicts the truth: named cards are held, the unseen ones fit, the known run is the deck's bottom", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const opponent = seed % 2 === 0 ? greedyPolicy : randomPolicy;
      for (const { state, memory } of gameWithMemory(seed, opponent)) {
        const held = state.hands[1].slice();
        for (const card of memory.hands[1].named) {
          expect(held).toContain(card);
          held.splice(held.indexOf(card), 1);
        }
        expect(fitsMemory(held, memory.hands[1].unseen)).toBe(true);
        expect(held).toHaveLength(memory.hands[1].unseen.length);
        expect(memory.deckUnseen + memory.deckKnown.length).toBe(state.deck.length);
        expect(state.deck.slice(memory.deckUnseen)).toEqual(memory.deckKnown);
      }
    }
  });
});

describe("the AI never reads hidden information", () => {
  test("its move is the same whatever the opponent holds and however the deck lies, given the same observations", () => {
    let compared = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const random = seededRandom(`reshuffle ${seed}`);
      for (const { state, memory, move } of gameWithMemory(seed, greedyPolicy)) {
        if (state.turn !== 0 || legalMoves(state, 0).length < 2) continue;
        const other = hiddenPartReshuffled(state, random);
        expect(viewFor(other, 0)).toEqual(viewFor(state, 0));
        expect(aiPolicy(viewFor(other, 0), seededRandom("any"), memory)).toEqual(move);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });

  test("names, with a Queen, the suit the opponent showed it lacks, not the one it holds most", () => {
    // The opponent draws on the 5 of hearts and is passed at once: it holds no heart, no 5 and no joker. The AI
    // lays the 5 of clubs, the opponent its Jack of clubs, and only the AI's Queen of clubs covers that.
    const hand: Card[] = ["5C", "QC", "KS", "9S", "2S"];
    const opponent: Card[] = ["6D", "TD", "JC"];
    const deck: Card[] = [
      "KD",
      ...NATURAL_CARDS.filter((card) => ![...hand, ...opponent, "KD", "5H"].includes(card)),
      JOKER,
      JOKER,
    ];
    let state = positionOf([hand, opponent], { card: "5H", as: "5H", namedSuit: null }, deck, 1);
    let memory = startMemory(viewFor(state, 0));
    const moves: Array<[number, FoolMove]> = [
      [1, { kind: "draw" }],
      [0, { kind: "play", card: "5C" }],
      [1, { kind: "play", card: "JC" }],
    ];
    for (const [seat, move] of moves) {
      const result = applyMove(state, seat, move);
      if (!result.ok) throw new Error(result.reason);
      state = result.state;
      memory = remember(memory, result.events);
    }
    expect(aiPolicy(viewFor(state, 0), seededRandom(1), memory)).toEqual({ kind: "play", card: "QC", namedSuit: "H" });
    // Without the memory of that draw it names its own suit.
    expect(aiPolicy(viewFor(state, 0), seededRandom(1))).toEqual({ kind: "play", card: "QC", namedSuit: "S" });
  });
});

describe("the baseline policies", () => {
  test("greedy lays the most damaging card: the King of spades before a 6 or a plain card", () => {
    const state = headsUp(["9S", "6S", "KS"], ["3D"], { card: "2S", as: "2S", namedSuit: null });
    expect(greedyPolicy(viewFor(state, 0), seededRandom(1))).toEqual({ kind: "play", card: "KS" });
  });

  test("random picks among the legal moves", () => {
    const state = headsUp(["9S", "6S", "*", "4H"], ["3D"], { card: "2S", as: "2S", namedSuit: null });
    const legal = legalMoves(state, 0).map((move) => JSON.stringify(move));
    for (let i = 0; i < 50; i++)
      expect(legal).toContain(JSON.stringify(randomPolicy(viewFor(state, 0), seededRandom(i))));
  });
});
