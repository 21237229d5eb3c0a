import fc from "fast-check";
import { cardValue, freshDeck, isCard } from "../../rooms/evensteven/cards";
import {
  canWin,
  cardToCover,
  cardsToCover,
  newGame,
  parkMiller,
  playCard,
  shuffledDeck,
  type Game,
} from "../../rooms/evensteven/engine";
import { optimalPlay } from "../../rooms/evensteven/strategy";

/** Brute force: try every order in which the hand could answer the dealt cards. */
function someOrderWins(hand: number[], dealt: number[]): boolean {
  if (dealt.length === 0) return true;
  return hand.some(
    (value, i) => value >= dealt[0] && someOrderWins([...hand.slice(0, i), ...hand.slice(i + 1)], dealt.slice(1)),
  );
}

function play(game: Game, cards: string[]): Game {
  for (const card of cards) {
    const result = playCard(game, card);
    if (!result.ok) throw new Error(JSON.stringify(result.fault));
    game = result.game;
  }
  return game;
}

describe("the original dealer's shuffle", () => {
  test("Park–Miller gives the textbook sequence", () => {
    const next = parkMiller(1);
    expect([next(), next(), next()]).toEqual([16807, 282475249, 1622650073]);
  });

  test("reproduces both samples' hands and dealt cards", () => {
    expect(shuffledDeck(876390176).slice(0, 14)).toEqual("4h 2d Qs Jc 8c Qc 9s 6s 7c 6h 7d 4s 9d 2s".split(" "));
    expect(shuffledDeck(653723903).slice(0, 12)).toEqual("Kd 8c As 5s 3s 6h Kh 5c Jh 7h 3h 10s".split(" "));
  });

  test("every seed gives a permutation of the 52 cards", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2147483646 }), (seed) => {
        expect(shuffledDeck(seed).slice().sort()).toEqual(freshDeck().sort());
      }),
      { numRuns: 200 },
    );
  });
});

describe("the judge", () => {
  test("sample game 1 is lost necessarily", () => {
    const game = play(newGame(4, 876390176), ["Jc", "Qs", "2d"]);
    expect(game.verdict).toBe("LOSE NECESSARILY");
    expect(cardToCover(game)).toBeNull();
  });

  test("sample game 2 is won", () => {
    expect(play(newGame(4, 653723903), ["5s", "8c", "Kd", "As"]).verdict).toBe("WIN");
  });

  test("a winnable hand played badly is lost unnecessarily", () => {
    // Hand Kd 8c As 5s against 3s 6h Kh 5c: covering 3s with As and 6h with Kd leaves nothing for Kh.
    expect(play(newGame(4, 653723903), ["As", "Kd", "8c"]).verdict).toBe("LOSE UNNECESSARILY");
  });

  test("an equal value covers", () => {
    expect(canWin(["5c"], ["5d"])).toBe(true);
    expect(canWin(["4c"], ["5d"])).toBe(false);
  });

  test("canWin agrees with a search over every order of play", () => {
    const value = fc.integer({ min: 0, max: 12 });
    const cardsOf = (values: number[]) =>
      values.map((v) => ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"][v] + "c");
    fc.assert(
      fc.property(fc.array(fc.tuple(value, value), { minLength: 1, maxLength: 6 }), (pairs) => {
        const hand = pairs.map(([h]) => h);
        const dealt = pairs.map(([, d]) => d);
        expect(canWin(cardsOf(hand), cardsOf(dealt))).toBe(someOrderWins(hand, dealt));
      }),
      { numRuns: 500 },
    );
  });

  test("the optimal player wins exactly the winnable games, and never loses unnecessarily", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 13 }), fc.integer({ min: 1, max: 2147483646 }), (n, seed) => {
        let game = newGame(n, seed);
        const winnable = someOrderWins(game.hand.map(cardValue), cardsToCover(game).map(cardValue));
        for (let dealt = cardToCover(game); dealt !== null; dealt = cardToCover(game)) {
          game = play(game, [optimalPlay(game.hand, dealt)]);
        }
        expect(game.verdict).toBe(winnable ? "WIN" : "LOSE NECESSARILY");
      }),
      { numRuns: 300 },
    );
  });
});

describe("faults change nothing", () => {
  const game = newGame(4, 876390176);

  test.each([
    ["Xz", "not-a-card"],
    ["10 s", "not-a-card"],
    ["5h", "not-in-hand"],
  ])("%s is refused as %s", (card, kind) => {
    const result = playCard(game, card);
    expect(result).toEqual({ ok: false, fault: expect.objectContaining({ kind }) });
  });

  test("a card played twice is named as such", () => {
    const after = play(game, ["Jc"]);
    expect(playCard(after, "Jc")).toEqual({ ok: false, fault: { kind: "played-twice", card: "Jc" } });
  });

  test("nothing can be played after the verdict", () => {
    const over = play(game, ["Jc", "Qs", "2d"]);
    expect(playCard(over, "4h")).toEqual({ ok: false, fault: { kind: "game-over" } });
  });

  test("the notation is exact", () => {
    expect(["10s", "Jh", "2c", "Ad"].every(isCard)).toBe(true);
    expect(["1s", "jh", "JH", "11c", "T", ""].some(isCard)).toBe(false);
  });
});
