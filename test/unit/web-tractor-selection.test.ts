/**
 * The Tractor page's choice of cards from the hint's legal plays (web/src/tables/tractor-selection.ts): each card
 * chosen narrows the rest to the plays that hold it, Play needs one whole play, and an incomplete list leaves the
 * judging to the room.
 */
import { selectionOf, type ListedPlays } from "../../web/src/tables/tractor-selection";

const HAND = ["S5", "S5", "S6", "S6", "S9", "H3"];
/** Following a pair of spades led by another seat: the pairs held must be played (a made-up but typical list). */
const FOLLOW_PAIR: ListedPlays = {
  options: [
    ["S5", "S5"],
    ["S6", "S6"],
  ],
  complete: true,
};

const enabledOf = (chosen: number[], plays: ListedPlays) =>
  [...selectionOf(HAND, new Set(chosen), plays).enabled].sort();

describe("choosing Tractor cards from the hint", () => {
  it("enables the cards of some legal play and nothing else, with Play off until a whole play is chosen", () => {
    const none = selectionOf(HAND, new Set(), FOLLOW_PAIR);
    expect([...none.enabled].sort()).toEqual([0, 1, 2, 3]);
    expect(none.playable).toBe(false);
    expect(none.roomJudges).toBe(false);
  });

  it("narrows the rest to the plays that hold the cards chosen", () => {
    // One five chosen: only the other five may join it; the sixes are no longer possible.
    expect(enabledOf([0], FOLLOW_PAIR)).toEqual([0, 1]);
    expect(selectionOf(HAND, new Set([0]), FOLLOW_PAIR).playable).toBe(false);
    const pair = selectionOf(HAND, new Set([0, 1]), FOLLOW_PAIR);
    expect([...pair.enabled].sort()).toEqual([0, 1]);
    expect(pair.playable).toBe(true);
  });

  it("counts copies: a card chosen once leaves its twin possible only where a play holds it twice", () => {
    const singles: ListedPlays = { options: [["S5"], ["S6"], ["S5", "S6"]], complete: true };
    expect(enabledOf([0], singles)).toEqual([0, 2, 3]);
    expect(selectionOf(HAND, new Set([0, 2]), singles).playable).toBe(true);
  });

  it("leaves an impossible choice (made before the hint changed) clickable to undo, and not playable", () => {
    const choice = selectionOf(HAND, new Set([4, 5]), FOLLOW_PAIR);
    expect([...choice.enabled].sort()).toEqual([4, 5]);
    expect(choice.playable).toBe(false);
  });

  it("lets the room judge when the list stopped at its limit", () => {
    const cut: ListedPlays = { options: [["S5"]], complete: false };
    const choice = selectionOf(HAND, new Set([4, 5]), cut);
    expect([...choice.enabled].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(choice.playable).toBe(true);
    expect(choice.roomJudges).toBe(true);
    expect(selectionOf(HAND, new Set(), cut).playable).toBe(false);
  });
});
