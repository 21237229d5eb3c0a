import { seededRandom } from "../../rooms/cards/random";
import { aiPolicy } from "../../rooms/fool/ai";
import { greedyPolicy, playOut, randomPolicy } from "../../rooms/fool/bots";
import type { Card } from "../../rooms/fool/cards";
import { applyMove, legalMoves, newGame, positionOf, viewFor, type FaceUp, type FoolState } from "../../rooms/fool/rules";

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

describe("the baseline policies", () => {
  test("greedy lays the most damaging card: the King of spades before a 6 or a plain card", () => {
    const state = headsUp(["9S", "6S", "KS"], ["3D"], { card: "2S", as: "2S", namedSuit: null });
    expect(greedyPolicy(viewFor(state, 0), seededRandom(1))).toEqual({ kind: "play", card: "KS" });
  });

  test("random picks among the legal moves", () => {
    const state = headsUp(["9S", "6S", "*", "4H"], ["3D"], { card: "2S", as: "2S", namedSuit: null });
    const legal = legalMoves(state, 0).map((move) => JSON.stringify(move));
    for (let i = 0; i < 50; i++) expect(legal).toContain(JSON.stringify(randomPolicy(viewFor(state, 0), seededRandom(i))));
  });
});
