/**
 * Hand-built deals, one per rule of Shuffling Patience. Each expected event list was worked out on paper from
 * the statement; piles are counted from 0 in grid order (left to right, top to bottom).
 */
import { parseCard, type Card, type Rank } from "../../rooms/patience/cards";
import { findCover, gridPosition, isOver, playByPlay, simulate, startDeal, step } from "../../rooms/patience/engine";
import { describeEvent } from "../../rooms/patience/notation";

function cards(text: string): Card[] {
  return text.split(" ").map((token) => {
    const card = parseCard(token);
    if (card === null) throw new Error(`bad fixture card ${token}`);
    return card;
  });
}

/** Every event of a deal, as the game log would show it. */
function gameLog(deckText: string): string[] {
  return playByPlay(cards(deckText)).events.map(describeEvent);
}

/** The deck of the original problem's sample input. */
const SAMPLE_DECK = cards(
  "TS QC 8S 8D QH 2D 3H KH 9H 2H TH KS KC 9D JH 7H JD 2S QS TD 2C 4H 5H AD 4D 5D " +
    "6D 4S 9S 5S 7S JS 8H 3D 8C 3S 4C 6S 9C AS 7C AH 6H KD JC 7D AC 5C TC QD 6C 3C",
);

describe("the statement's sample deck", () => {
  it("ends with the sample's pile sizes", () => {
    expect(simulate(SAMPLE_DECK)).toEqual({ kind: "finished", pileSizes: [8, 6, 7, 4, 3, 5, 4, 4, 2, 5, 4] });
  });

  it("opens as the statement describes: KH and 9H cover 8S and 3H", () => {
    const log = playByPlay(SAMPLE_DECK).events.slice(0, 13).map(describeEvent);
    expect(log).toEqual([
      "card 1, TS, starts pile 0",
      "card 2, QC, starts pile 1",
      "card 3, 8S, starts pile 2",
      "card 4, 8D, starts pile 3",
      "card 5, QH, starts pile 4",
      "card 6, 2D, starts pile 5",
      "card 7, 3H, starts pile 6",
      "pair on piles 2,6: 8S 3H covered by KH 9H",
      "pair on piles 5,6: 2D 9H covered by 2H TH",
      "card 12, KS, starts pile 7",
      "card 13, KC, starts pile 8",
      "card 14, 9D, starts pile 9",
      "pair on piles 5,9: 2H 9D covered by JH 7H",
    ]);
  });
});

describe("which group is covered", () => {
  it("covers a triple before a pair when the triple's first card lies nearer the start", () => {
    expect(gameLog("JS 4S QS 8S 3H KH 7H AC 2C 6C")).toEqual([
      "card 1, JS, starts pile 0",
      "card 2, 4S, starts pile 1",
      "card 3, QS, starts pile 2",
      "card 4, 8S, starts pile 3",
      "card 5, 3H, starts pile 4",
      "pair on piles 3,4: 8S 3H covered by KH 7H",
      "triple on piles 0,2,3: JS QS KH covered by AC 2C 6C",
      "finished with piles of 2 1 2 3 2",
    ]);
  });

  it("covers a pair before a triple when the pair's first card lies nearer the start", () => {
    expect(gameLog("4S JS QS 8S 3H KH 7H AC 2C 6C")).toEqual([
      "card 1, 4S, starts pile 0",
      "card 2, JS, starts pile 1",
      "card 3, QS, starts pile 2",
      "card 4, 8S, starts pile 3",
      "card 5, 3H, starts pile 4",
      "pair on piles 3,4: 8S 3H covered by KH 7H",
      "pair on piles 0,4: 4S 7H covered by AC 2C",
      "triple on piles 1,2,3: JS QS KH covered by 6C (the deck ran out)",
      "finished with piles of 2 2 1 2 3",
    ]);
  });

  it("starts from the pile nearest the start, however recently its top card was dealt", () => {
    // After the first cover the tops are 6S 4S 5S 7S: 6S (just dealt) pairs with 5S, 4S (dealt second) with 7S.
    expect(gameLog("8S 4S 5S 3S 6S 7S 2H 9H")).toEqual([
      "card 1, 8S, starts pile 0",
      "card 2, 4S, starts pile 1",
      "card 3, 5S, starts pile 2",
      "card 4, 3S, starts pile 3",
      "pair on piles 0,3: 8S 3S covered by 6S 7S",
      "pair on piles 0,2: 6S 5S covered by 2H 9H",
      "finished with piles of 3 1 2 2",
    ]);
  });

  it("takes the partner nearest the start, and covers in grid order", () => {
    expect(findCover(["6", "4", "5", "5"] as Rank[])).toEqual({ group: "pair", piles: [0, 2] });
    expect(findCover(["Q", "K", "K", "5", "J"] as Rank[])).toEqual({ group: "triple", piles: [0, 1, 4] });
    expect(findCover(["Q", "5", "K", "J", "J"] as Rank[])).toEqual({ group: "triple", piles: [0, 2, 3] });
    expect(findCover(["K", "Q", "J", "J", "Q", "K"] as Rank[])).toEqual({ group: "triple", piles: [0, 1, 2] });
  });

  it("pairs aces with tens only, and never pairs court cards", () => {
    expect(findCover(["A", "T"] as Rank[])).toEqual({ group: "pair", piles: [0, 1] });
    expect(findCover(["A", "K", "J", "9", "J"] as Rank[])).toBeNull();
    expect(findCover(["J", "J", "K", "K", "A", "9"] as Rank[])).toBeNull();
  });

  it("lets covers chain before the next pile is started", () => {
    expect(gameLog("2S JS QS KS 9S 9H 2H 3S 4S 5S 6S")).toEqual([
      "card 1, 2S, starts pile 0",
      "card 2, JS, starts pile 1",
      "card 3, QS, starts pile 2",
      "card 4, KS, starts pile 3",
      "triple on piles 1,2,3: JS QS KS covered by 9S 9H 2H",
      "pair on piles 0,1: 2S 9S covered by 3S 4S",
      "pair on piles 2,3: 9H 2H covered by 5S 6S",
      "finished with piles of 2 3 3 3",
    ]);
  });
});

describe("the 4x4 grid", () => {
  const SIXTEEN_WITHOUT_A_PAIR = "AS 2S 3S 4S AH 2H 3H 4H AC 2C 3C 4C AD 2D 3D 4D";

  it("overflows on the 17th pile, even when the card about to be dealt would make a pair", () => {
    const log = gameLog(`${SIXTEEN_WITHOUT_A_PAIR} 7S 8S`);
    expect(log.slice(-2)).toEqual(["card 16, 4D, starts pile 15", "overflowed on card no 17, 7S"]);
    expect(simulate(cards(`${SIXTEEN_WITHOUT_A_PAIR} 7S 8S`))).toEqual({ kind: "overflowed", cardNumber: 17 });
  });

  it("covers rather than overflows while all 16 piles are in use", () => {
    expect(gameLog("AS 2S 3S 4S AH 2H 3H 4H AC 2C 3C 4C AD 2D 3D 7S 5S 6S 5H").slice(-4)).toEqual([
      "card 16, 7S, starts pile 15",
      "pair on piles 3,15: 4S 7S covered by 5S 6S",
      "pair on piles 3,15: 5S 6S covered by 5H (the deck ran out)",
      "finished with piles of 1 1 1 3 1 1 1 1 1 1 1 1 1 1 1 2",
    ]);
  });

  it("places pile p at row p/4, column p%4", () => {
    expect(gridPosition(0)).toEqual({ row: 0, column: 0 });
    expect(gridPosition(6)).toEqual({ row: 1, column: 2 });
    expect(gridPosition(15)).toEqual({ row: 3, column: 3 });
  });
});

describe("the end of the deck", () => {
  it("ends the deal in the middle of a pair's cover, counting the piles as they are", () => {
    expect(gameLog("8S 3H KH")).toEqual([
      "card 1, 8S, starts pile 0",
      "card 2, 3H, starts pile 1",
      "pair on piles 0,1: 8S 3H covered by KH (the deck ran out)",
      "finished with piles of 2 1",
    ]);
  });

  it("reports the finish as its own last step, and refuses to step past it", () => {
    let state = startDeal(cards("5S"));
    state = step(state).state;
    const last = step(state);
    expect(last.event).toEqual({ kind: "finished", pileSizes: [1] });
    expect(isOver(last.state)).toBe(true);
    expect(() => step(last.state)).toThrow("the deal is over");
  });

  it("ends a play-by-play with the outcome simulate gives", () => {
    const { events, outcome } = playByPlay(SAMPLE_DECK);
    expect(events[events.length - 1]).toEqual(outcome);
    expect(outcome).toEqual(simulate(SAMPLE_DECK));
  });

  it("leaves the state it was given untouched", () => {
    const before = startDeal(cards("8S 3H KH 9H"));
    const afterTwo = step(step(before).state).state;
    const snapshot = JSON.stringify(afterTwo);
    step(afterTwo);
    expect(JSON.stringify(afterTwo)).toBe(snapshot);
    expect(before.piles).toEqual([]);
  });
});
