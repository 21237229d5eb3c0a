import * as fc from "fast-check";
import { seededRandom } from "../../rooms/kit/random";
import { randomPolicy, playOut } from "../../rooms/fool/bots";
import type { Card, NaturalCard } from "../../rooms/fool/cards";
import {
  applyMove,
  laidAsItself,
  legalMoves,
  newGame,
  positionOf,
  viewFor,
  type FaceUp,
  type FoolMove,
  type FoolState,
  type MoveResult,
} from "../../rooms/fool/rules";

/** A two-player position: seat 0 to move on `faceUp`, with the given hands and deck (top first). */
function position(
  hand0: Card[],
  hand1: Card[],
  faceUp: FaceUp,
  deck: Card[] = ["2C", "3C", "4C", "5C", "9H"],
): FoolState {
  return positionOf([hand0, hand1], faceUp, deck);
}

function ok(result: MoveResult): Extract<MoveResult, { ok: true }> {
  if (!result.ok) throw new Error(result.reason);
  return result;
}

function reason(result: MoveResult): string {
  if (result.ok) throw new Error("the move was accepted");
  return result.reason;
}

const play = (card: Card, extra: Partial<Extract<FoolMove, { kind: "play" }>> = {}): FoolMove => ({
  kind: "play",
  card,
  ...extra,
});
const top = (card: NaturalCard, namedSuit: FaceUp["namedSuit"] = null) => laidAsItself(card, namedSuit);

describe("dealing", () => {
  test("five cards each, a face-up card, and the rest face down; all 54 cards accounted for", () => {
    for (const players of [2, 3, 6, 10]) {
      const state = newGame(seededRandom(players), players);
      expect(state.hands.every((hand) => hand.length >= 5)).toBe(true);
      const total = state.hands.reduce((sum, hand) => sum + hand.length, 0) + state.deck.length;
      expect(total).toBe(54);
      expect(state.faceUp.card).not.toBe("*");
    }
  });

  test("the turned-up card is the dealer's move on the player to their left", () => {
    for (let seed = 0; seed < 200; seed++) {
      const state = newGame(seededRandom(seed), 3);
      const as = state.faceUp.as;
      const skips = as[0] === "6" || as[0] === "7" || as[0] === "A" || as === "KS";
      expect(state.turn).toBe(skips ? 1 : 0);
      if (as[0] === "8") expect(state.phase).toBe("coverEight");
    }
  });

  test("refuses a player count the deck cannot deal", () => {
    expect(() => newGame(seededRandom(1), 1)).toThrow(RangeError);
    expect(() => newGame(seededRandom(1), 11)).toThrow(RangeError);
  });
});

describe("covering", () => {
  test("by suit or by value; anything else is refused with the rule in words", () => {
    const state = position(["9S", "2H", "JD"], ["3D"], top("2S"));
    expect(ok(applyMove(state, 0, play("9S"))).state.faceUp.as).toBe("9S");
    expect(ok(applyMove(state, 0, play("2H"))).state.faceUp.as).toBe("2H");
    expect(reason(applyMove(state, 0, play("JD")))).toBe("JD does not cover 2S: lay a card of suit S or value 2.");
    expect(reason(applyMove(state, 0, play("KH")))).toBe("You do not hold KH.");
    expect(reason(applyMove(state, 1, play("3D")))).toBe("It is not your turn.");
  });

  test("a laid card goes to the bottom of the looped deck", () => {
    const after = ok(applyMove(position(["9S", "2H"], ["3D"], top("2S")), 0, play("9S"))).state;
    expect(after.deck[after.deck.length - 1]).toBe("9S");
    expect(after.turn).toBe(1);
  });
});

describe("the special cards", () => {
  test.each([
    ["6", "6S", 1],
    ["7", "7S", 2],
    ["Ace", "AS", 0],
    ["King of spades", "KS", 4],
  ])("a %s makes the next player take its cards and skip", (_name, card, drew) => {
    const state = position([card as Card, "9D"], ["3D"], top("2S"));
    const result = ok(applyMove(state, 0, play(card as Card)));
    expect(result.events).toContainEqual({ type: "penalised", seat: 1, drew });
    expect(result.state.hands[1]).toHaveLength(1 + drew);
    expect(result.state.turn).toBe(0);
  });

  test("a 7 or the King of spades takes only what the deck holds", () => {
    const state = position(["KS", "9D"], ["3D"], top("2S"), ["4C"]);
    const result = ok(applyMove(state, 0, play("KS")));
    expect(result.events).toContainEqual({ type: "penalised", seat: 1, drew: 3 }); // 4C, the 2S and the KS just laid
  });

  test("another King does nothing special", () => {
    const result = ok(applyMove(position(["KH", "9D"], ["3D"], top("KD")), 0, play("KH")));
    expect(result.state.turn).toBe(1);
    expect(result.events.some((event) => event.type === "penalised")).toBe(false);
  });

  test("after a skip the player covers their own card, and the penalty is not paid twice", () => {
    let state = ok(applyMove(position(["6S", "9D"], ["3D"], top("2S")), 0, play("6S"))).state;
    expect(state.turn).toBe(0);
    state = ok(applyMove(state, 0, { kind: "draw" })).state; // 9D does not cover 6S; the drawn 2C does not either
    expect(state.turn).toBe(1);
    expect(state.phase).toBe("cover");
    expect(state.hands[1]).toHaveLength(2);
  });

  test("an 8 must be covered: the next player draws until able, and may not pass", () => {
    const state = ok(applyMove(position(["8S", "9D"], ["3D"], top("2S"), ["4C", "5H", "JS"]), 0, play("8S"))).state;
    expect(state.phase).toBe("coverEight");
    expect(legalMoves(state, 1)).toEqual([{ kind: "draw" }]);
    expect(reason(applyMove(state, 1, { kind: "pass" }))).toBe("An 8 must be covered: draw until you can.");
    let after = ok(applyMove(state, 1, { kind: "draw" })).state;
    after = ok(applyMove(after, 1, { kind: "draw" })).state;
    expect(after.turn).toBe(1);
    after = ok(applyMove(after, 1, { kind: "draw" })).state; // JS covers
    expect(legalMoves(after, 1)).toContainEqual(play("JS"));
    expect(legalMoves(after, 1)).not.toContainEqual({ kind: "draw" });
  });

  test("a Queen names the suit that must follow; its own suit and other Queens no longer count", () => {
    const state = position(["QH", "9D"], ["3H", "QS", "5D"], top("2H"));
    expect(reason(applyMove(state, 0, play("QH")))).toBe("Name the suit that must follow your Queen (S, C, D or H).");
    const after = ok(applyMove(state, 0, play("QH", { namedSuit: "D" }))).state;
    expect(reason(applyMove(after, 1, play("3H")))).toBe("3H does not cover QHD: lay a card of the named suit D.");
    expect(reason(applyMove(after, 1, play("QS")))).toMatch(/does not cover/);
    expect(ok(applyMove(after, 1, play("5D"))).state.faceUp.as).toBe("5D");
    expect(reason(applyMove(state, 0, play("9D", { namedSuit: "S" })))).toMatch(/does not cover|Only a Queen/);
  });

  test("a joker is laid as a card its player names, which must itself cover, and acts as that card", () => {
    const state = position(["*", "9D"], ["3D"], top("2S"));
    expect(reason(applyMove(state, 0, play("*")))).toMatch(/Say which card your joker stands for/);
    expect(reason(applyMove(state, 0, play("*", { as: "6H" })))).toBe(
      "6H does not cover 2S: lay a card of suit S or value 2.",
    );
    const result = ok(applyMove(state, 0, play("*", { as: "6S" })));
    expect(result.state.faceUp).toEqual({ card: "*", as: "6S", namedSuit: null });
    expect(result.events).toContainEqual({ type: "penalised", seat: 1, drew: 1 });
    const queen = ok(applyMove(state, 0, play("*", { as: "QS", namedSuit: "H" }))).state;
    expect(queen.faceUp).toEqual({ card: "*", as: "QS", namedSuit: "H" });
  });

  test("a joker drawn again is a plain joker, but the card on the table keeps its name", () => {
    const jokerAsSeven: FaceUp = { card: "*", as: "7S", namedSuit: null };
    const after = ok(applyMove(position(["9C"], ["3D"], jokerAsSeven, []), 0, { kind: "draw" })).state;
    expect(after.hands[0]).toContain("*");
    expect(after.faceUp.as).toBe("7S");
    expect(legalMoves(after, 0)).toContainEqual(play("*", { as: "9S" }));
  });

  test("the looped deck can hand a player the very card they must cover", () => {
    const state = position(["9C"], ["3D"], top("2S"), []);
    const after = ok(applyMove(state, 0, { kind: "draw" })).state;
    expect(after.hands[0]).toEqual(["9C", "2S"]);
    expect(ok(applyMove(after, 0, play("2S"))).state.faceUp.as).toBe("2S");
  });
});

describe("drawing and passing", () => {
  test("a player who can cover with a natural card may not draw", () => {
    const state = position(["9S", "*"], ["3D"], top("2S"));
    expect(reason(applyMove(state, 0, { kind: "draw" }))).toMatch(/You can cover 2S, so you must/);
    expect(legalMoves(state, 0).some((move) => move.kind === "draw")).toBe(false);
  });

  test("a player whose only cover is a joker may keep it and draw", () => {
    const state = position(["9D", "*"], ["3D"], top("2S"));
    expect(legalMoves(state, 0)).toContainEqual({ kind: "draw" });
  });

  test("one draw, then cover if able; a card that does not help passes the turn at once", () => {
    const helped = ok(applyMove(position(["9D"], ["3D"], top("2S"), ["5S"]), 0, { kind: "draw" })).state;
    expect(helped.phase).toBe("afterDraw");
    expect(legalMoves(helped, 0)).toEqual([play("5S")]);
    const useless = ok(applyMove(position(["9D"], ["3D"], top("2S"), ["5H"]), 0, { kind: "draw" }));
    expect(useless.events).toContainEqual({ type: "passed", seat: 0 });
    expect(useless.state.turn).toBe(1);
  });

  test("after drawing, a joker as the only cover may be kept by passing", () => {
    const state = ok(applyMove(position(["9D", "*"], ["3D"], top("2S"), ["5H"]), 0, { kind: "draw" })).state;
    expect(legalMoves(state, 0)).toContainEqual({ kind: "pass" });
    expect(reason(applyMove(state, 0, { kind: "draw" }))).toMatch(/already drawn/);
    expect(ok(applyMove(state, 0, { kind: "pass" })).state.turn).toBe(1);
  });
});

describe("the end of the game", () => {
  test("the player who lays the last card wins and the other is the Fool", () => {
    const result = ok(applyMove(position(["9S"], ["3D"], top("2S")), 0, play("9S")));
    expect(result.state.phase).toBe("over");
    expect(result.state.finished).toEqual([0]);
    expect(result.state.fool).toBe(1);
    expect(result.events).toContainEqual({ type: "fool", seat: 1 });
    expect(reason(applyMove(result.state, 1, play("3D")))).toBe("The game is over.");
  });

  test("with three players the game goes on without the winner, whose last card still takes effect", () => {
    const state = positionOf([["6S"], ["3D"], ["4D", "5D"]], top("2S"), ["2C", "3C"]);
    const result = ok(applyMove(state, 0, play("6S")));
    expect(result.state.finished).toEqual([0]);
    expect(result.events).toContainEqual({ type: "penalised", seat: 1, drew: 1 });
    expect(result.state.turn).toBe(2);
    expect(result.state.phase).toBe("cover");
  });
});

describe("views", () => {
  test("a seat sees its own hand, only the counts of the others, and the table", () => {
    const state = newGame(seededRandom(7));
    const view = viewFor(state, 1);
    expect(view.hand).toEqual(state.hands[1]);
    expect(view.handCounts).toEqual(state.hands.map((hand) => hand.length));
    expect(view.deckCount).toBe(state.deck.length);
    expect(JSON.stringify(view)).not.toContain(JSON.stringify(state.hands[0]));
  });
});

describe("random games (property tests)", () => {
  test("every card stays in play, the legal moves are accepted, and games end", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 2, max: 4 }), (seed, players) => {
        let state = newGame(seededRandom(seed), players);
        const random = seededRandom(seed + 1);
        for (let step = 0; step < 400 && state.phase !== "over"; step++) {
          const moves = legalMoves(state, state.turn);
          expect(moves.length).toBeGreaterThan(0);
          state = ok(applyMove(state, state.turn, moves[Math.floor(random() * moves.length)])).state;
          const total = state.hands.reduce((sum, hand) => sum + hand.length, 0) + state.deck.length;
          expect(total).toBe(54);
        }
      }),
      { numRuns: 40, seed: 54 },
    );
  });

  test("the random policy plays whole games that finish with a Fool", () => {
    const game = playOut(newGame(seededRandom(3)), [randomPolicy, randomPolicy], seededRandom(4), 5000);
    expect(game.capped).toBe(false);
    expect(game.state.fool).not.toBeNull();
  });
});
