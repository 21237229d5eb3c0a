/**
 * The Tractor page's words and card order (web/src/tables/tractor-words.ts): the hand grouped by suit with the
 * trumps first in the engine's order, the point cards the defenders took, the rules line, and the page's
 * `startRanks` option read into the join option's tuple.
 */
import { parseCard } from "../../rooms/tractor/cards";
import { cardOrdering, TRUMP_GROUP } from "../../rooms/tractor/order";
import {
  cardsShort,
  handInSuits,
  pointCardsTaken,
  rulesWords,
  startRanksOption,
} from "../../web/src/tables/tractor-words";

describe("the Tractor page's words and card order", () => {
  it("groups a hand by suit, the trumps first in the round's order, each suit highest first", () => {
    const hand = ["SA", "H2", "D5", "RJ", "S2", "HK", "C3", "H9", "BJ", "DA", "SK", "H2"];
    expect(handInSuits(hand, "H", 2)).toEqual(["RJ", "BJ", "H2", "H2", "S2", "HK", "H9", "SA", "SK", "DA", "D5", "C3"]);
    // While trumps are declared only the jokers and the rank's cards are trumps; the suits alternate colours.
    expect(handInSuits(hand, "", 2)).toEqual(["RJ", "BJ", "H2", "H2", "S2", "SA", "SK", "HK", "H9", "C3", "DA", "D5"]);
    // With no trump suit, and a rank other than 2.
    const sorted = handInSuits(hand, "O", 13);
    const ordering = cardOrdering({ mainSuit: "O", currentRank: 13 });
    const groups = sorted.map((card) => ordering.group[parseCard(card)!]);
    expect(groups.slice(0, 4)).toEqual([TRUMP_GROUP, TRUMP_GROUP, TRUMP_GROUP, TRUMP_GROUP]);
    expect(sorted.slice(0, 2)).toEqual(["RJ", "BJ"]);
    expect(sorted).toHaveLength(hand.length);
  });

  it("finds the point cards of the tricks the defenders won", () => {
    const trick = (winner: string, cards: string[][]) => ({
      leader: "Alice" as const,
      winner: winner as "Bob",
      points: 0,
      plays: cards.map((held, index) => ({
        seat: (["Alice", "Bob", "Charles", "David"] as const)[index],
        cards: held,
      })),
    });
    const tricks = [trick("Bob", [["S5"], ["SK"], ["S3"], ["ST"]]), trick("Alice", [["H5"], ["H6"], ["H7"], ["H8"]])];
    expect(pointCardsTaken(tricks, ["Bob", "David"])).toEqual(["S5", "SK", "ST"]);
  });

  it("says the rules and reads the starting ranks", () => {
    expect(rulesWords({ throws: "check-other-hands" })).toBe("Checked throws, 10 points a failed throw");
    expect(rulesWords({ throws: "always-accept", startRanks: [14, 14] })).toBe(
      "Every throw stands (the statement's rule) · starting at A and A",
    );
    expect(
      rulesWords({ throws: "check-other-hands", botLevels: { Bob: "strong", Charles: "strong", David: "normal" } }),
    ).toBe("Checked throws, 10 points a failed throw · strong computer players");
    expect(startRanksOption("A,A")).toEqual(["A", "A"]);
    expect(startRanksOption("10,10")).toEqual([10, 10]);
    expect(startRanksOption("2,k")).toEqual([2, "K"]);
    expect(startRanksOption(undefined)).toBeUndefined();
    expect(() => startRanksOption("A")).toThrow(/not two ranks/);
    expect(() => startRanksOption("1,15")).toThrow(/not two ranks/);
    expect(cardsShort(["SA", "HT", "RJ"])).toBe("A♠ 10♥ red joker");
  });
});
