import { BLACK_JOKER, type Card, parseCards, parseRank, RED_JOKER } from "../../rooms/tractor/cards";
import { cardOrdering, isTrumpCard, type MainSuit, type TrumpContext } from "../../rooms/tractor/order";
import { hiddenCardBonus, rankChange, type RecordedRound, replayRound, settleRound } from "../../rooms/tractor/scoring";
import { formatCaseResult, parseStatementInput } from "../../rooms/tractor/statement-format";
import { bestHonor, leadStructure } from "../../rooms/tractor/structure";
import { judgeTrick } from "../../rooms/tractor/trick";

function cards(text: string): Card[] {
  const parsed = parseCards(text);
  if (parsed === undefined) throw new Error(`bad cards ${text}`);
  return parsed;
}

function ordering(mainSuit: MainSuit = "H", rank = "7") {
  return cardOrdering({ mainSuit, currentRank: parseRank(rank) as number });
}

const order = (text: string, mainSuit: MainSuit = "H") => ordering(mainSuit).order[cards(text)[0]];
const shape = (text: string, mainSuit: MainSuit = "H") => leadStructure(cards(text), ordering(mainSuit))?.lengths;
/** The winner's index (0 = leader) of a trick written as the statement writes it. */
const winner = (line: string, mainSuit: MainSuit = "H") =>
  judgeTrick(line.split(" ").map(cards), ordering(mainSuit)).winner;

describe("card order (main H, current rank 7)", () => {
  it("puts trumps above not-trumps in the statement's order", () => {
    const ladder = ["S2", "S3", "S6", "S8", "SA", "H2", "H6", "H8", "HA", "S7", "H7", "BJ", "RJ"];
    const orders = ladder.map((card) => order(card));
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    expect(new Set(orders).size).toBe(ladder.length);
  });

  it("gives off-suit current-rank cards one order, and equal ranks of other suits one order", () => {
    expect(order("S7")).toBe(order("C7"));
    expect(order("D7")).toBe(order("C7"));
    expect(order("SK")).toBe(order("DK"));
    expect(order("H7")).toBe(order("S7") + 1);
  });

  it("with no main suit makes all four current-rank cards equal, just under the black joker", () => {
    expect(order("H7", "O")).toBe(order("S7", "O"));
    expect(order("BJ", "O")).toBe(order("H7", "O") + 1);
    expect(order("HA", "O")).toBe(order("SA", "O"));
  });

  it("knows the trumps", () => {
    const context: TrumpContext = { mainSuit: "H", currentRank: 7 };
    expect(cards("H2S7D7").every((card) => isTrumpCard(card, context))).toBe(true);
    expect([BLACK_JOKER, RED_JOKER].every((card) => isTrumpCard(card, context))).toBe(true);
    expect(cards("S8DA").some((card) => isTrumpCard(card, context))).toBe(false);
  });

  it("keeps main K and the off-suit ranks consecutive when the current rank is Ace", () => {
    const aces = cardOrdering({ mainSuit: "S", currentRank: 14 });
    expect(aces.order[cards("HA")[0]]).toBe(aces.order[cards("SK")[0]] + 1);
  });
});

describe("structures", () => {
  it.each([
    ["SJSJSQSQSKSKSASA", "H", [8]],
    ["H7H7S7S7HAHA", "H", [6]],
    ["RJRJBJBJ", "H", [4]],
    ["C6C6C8C8", "H", [4]],
    ["S7S7C7C7", "H", [2, 2]],
    ["H2H2H4H4", "H", [2, 2]],
    ["DADAD2D2", "H", [2, 2]],
    ["D2D2D3", "H", [2, 1]],
    ["H7H7S7S7", "O", [2, 2]],
    ["H7H7BJBJ", "O", [4]],
    ["RJRJBJBJH7H7HQHQHJHJH9H9H6H6HAH2", "H", [6, 4, 2, 2, 1, 1]],
    ["CACAC8C8CK", "H", [2, 2, 1]],
    ["H2H2H3H3H4H4H5H5H6H6", "H", [10]],
  ])("%s with main %s is %j", (text, mainSuit, lengths) => {
    expect(shape(text, mainSuit as MainSuit)).toEqual(lengths);
  });

  it("does not let H7H7S7S7HAHA be one tractor with no main suit (H7 and S7 are equal)", () => {
    expect(leadStructure(cards("H7H7S7S7HAHA"), ordering("O"))).toBeUndefined();
    expect(shape("H7H7S7S7BJBJ", "O")).toEqual([4, 2]);
  });

  it("refuses C7C7C6C6 as a lead at all with current rank 7 (C7 is a trump, C6 is not)", () => {
    expect(leadStructure(cards("C7C7C6C6"), ordering("H"))).toBeUndefined();
    expect(shape("C7C7C6C6", "H")).toBeUndefined();
    const rankTwo = cardOrdering({ mainSuit: "H", currentRank: 2 });
    expect(leadStructure(cards("C7C7C5C5"), rankTwo)?.lengths).toEqual([2, 2]);
  });

  it("breaks ties between equally long tractors towards the higher one", () => {
    const structure = leadStructure(cards("S2S2S3S3SQSQSKSK"), ordering());
    expect(structure?.components[0].cards).toEqual(cards("SKSKSQSQ"));
  });

  it("arranges a follow exactly, not greedily, to lift the honor card", () => {
    // The 3-pair tractor cannot take the top (HA-S7-H7): then no 2-pair tractor is left. HK-HA-S7 leaves D7-H7.
    const follow = cards("HKHKHAHAS7S7D7D7H7H7");
    expect(bestHonor(follow, [6, 4], ordering())).toBe(order("S7"));
    expect(bestHonor(cards("H2H2H3H3H4H4H5H5H6H6"), [6, 4], ordering())).toBe(order("H6"));
    expect(bestHonor(cards("H2H2H3H3H5H5H6H6H9H9"), [6, 4], ordering())).toBeUndefined();
  });

  it("treats tractors as pairs and pairs as singles when the lead asks for less", () => {
    expect(bestHonor(cards("SQSQSKSK"), [2, 2], ordering())).toBe(order("SK"));
    expect(bestHonor(cards("SQSQSKSK"), [2, 1, 1], ordering())).toBe(order("SK"));
    expect(bestHonor(cards("SQSJSKSA"), [2, 1, 1], ordering())).toBeUndefined();
  });
});

describe("trick winners (main H, current rank 7, Alice leads)", () => {
  it("the highest card wins a single; ties go to the earlier player", () => {
    expect(winner("S9 SA SK SA")).toBe(1);
    expect(winner("HA S7 D7 C7")).toBe(1);
    expect(winner("H7 S7 D7 C7", "O")).toBe(0);
    expect(winner("S2 S7 D7 H7", "O")).toBe(1);
  });

  it("a follow of another suit or of mixed groups cannot win", () => {
    expect(winner("S9 DA S2 C3")).toBe(0);
    expect(winner("S9S9 SASK H2S3 DADA")).toBe(0);
  });

  it("a trump pair beats a not-trump pair; a non-pair cannot win a pair lead", () => {
    expect(winner("S9S9 SASA H2H2 SKSK")).toBe(2);
    expect(winner("S9S9 HAHK SKSK S2S2")).toBe(2);
  });

  it("a tractor lead is beaten only by a tractor; pairs alone do not do", () => {
    expect(winner("S2S2S3S3 SASASJSJ H2H2H3H3 SKSKSQSQ")).toBe(2);
    expect(winner("S2S2S3S3 SASASJSJ H2H2H4H4 S5S5S4S4")).toBe(3);
    expect(winner("SQSQ SASK SJSJ SKSK")).toBe(3);
  });

  it("a not-trump throw is beaten only by a same-structure trump throw, the highest honor among them", () => {
    expect(winner("S2S2S3S3S9 SASASKSKSQ H2H2H3H3H4 H4H4H5H5H6")).toBe(3);
    expect(winner("S2S2S3S3S9 SASASKSKSQ H2H2H4H4H5 D2D2D3D3D4")).toBe(0);
  });

  it("the follow's honor card comes from its longest components only", () => {
    // Bob's throw is HAHA-(H2H2H3H3)...: the tractor H2-H3 is the longest; his HA pair does not count.
    expect(winner("S2S2S3S3SQSQ H2H2H3H3HAHA H4H4H5H5H6H6 C2C3C4C5C6C8")).toBe(2);
  });

  it("a trump throw cannot be beaten", () => {
    expect(winner("H2H2H3H3H9 HAHABJBJH8 RJRJBJBJS7 S2S3S4S5S6")).toBe(0);
  });

  it("equal honor cards go to the earlier player", () => {
    expect(winner("S2S2S3S3S9 H2H2H3H3H9 H2H2H3H3H8 D2D2D3D3D4")).toBe(1);
  });
});

describe("scoring", () => {
  it.each([
    [0, { make: true, team: 1, levels: 3 }],
    [35, { make: true, team: 1, levels: 2 }],
    [40, { make: true, team: 1, levels: 1 }],
    [75, { make: true, team: 1, levels: 1 }],
    [80, { make: false, team: 2, levels: 0 }],
    [115, { make: false, team: 2, levels: 0 }],
    [120, { make: false, team: 2, levels: 1 }],
    [255, { make: false, team: 2, levels: 4 }],
  ])("defenders with %i points", (points, change) => {
    expect(rankChange(1, points)).toEqual(change);
  });

  it("hands the deal to the partner on make and to the next seat on down", () => {
    expect(settleRound({ mainSuit: "H", dealer: 0, teamRanks: [5, 5] }, 20, 0).nextDealer).toBe(2);
    expect(settleRound({ mainSuit: "H", dealer: 0, teamRanks: [5, 5] }, 80, 0).nextDealer).toBe(1);
    expect(settleRound({ mainSuit: "H", dealer: 3, teamRanks: [5, 5] }, 90, 0).nextDealer).toBe(0);
  });

  it("declares a match winner once a rank passes Ace", () => {
    expect(settleRound({ mainSuit: "H", dealer: 1, teamRanks: [5, 13] }, 10, 0).matchWinner).toBe(2);
    expect(settleRound({ mainSuit: "H", dealer: 1, teamRanks: [12, 13] }, 200, 0).matchWinner).toBe(1);
    expect(settleRound({ mainSuit: "H", dealer: 1, teamRanks: [12, 12] }, 60, 0).matchWinner).toBeUndefined();
  });

  it("multiplies the hidden cards by 2^w, w the longest component of the last lead", () => {
    expect(hiddenCardBonus(cards("S5SKD2D3D4D6D8D9"), 1)).toBe(30);
    expect(hiddenCardBonus(cards("S5SKD2D3D4D6D8D9"), 6)).toBe(15 * 64);
  });

  it("applies the hidden-card multiplier of a last-trick throw (w = its longest component)", () => {
    // Alice (declarer) throws spades; Bob (defender) ruffs with the same structure of trumps and wins.
    const trick = "S2S2S3S3S9 H2H2H3H3H4 S4S6S8SJSQ D2D3D4D6D8".split(" ").map(cards);
    const round: RecordedRound = { setup: { mainSuit: "H", dealer: 0, teamRanks: [7, 7] }, tricks: [trick] };
    const hiddenPoints = 200 - 0; // the trick holds no 5, 10 or K
    const result = replayRound(round);
    expect(result.hiddenBonus).toBe(hiddenPoints * 2 ** 4);
    expect(result.defenderPoints).toBe(hiddenPoints * 2 ** 4);
    expect(result.matchWinner).toBe(2);
  });

  it("gives no bonus when the declarers win the last trick", () => {
    const trick = "S2S2S3S3S9 H2H2H3H3H4 RJRJBJBJHA D2D3D4D6D8".split(" ").map(cards);
    const round: RecordedRound = { setup: { mainSuit: "H", dealer: 0, teamRanks: [7, 7] }, tricks: [trick] };
    expect(replayRound(round)).toMatchObject({ hiddenBonus: 0, defenderPoints: 0, nextDealer: 2 });
  });
});

/** The statement's sample, in its real layout (see the original documents' notes: T, a blank line, then the case). */
const SAMPLE_INPUT = `1

O Charles 2 2
S6S6S7S7 SASKSJST STS8S4S4 S3S5SJSQ
S9S9 H3D3 S3DT SAD3
DA DQ DK D4
SKS8S5S3 RJC2D2H2 C6C8CJD9 H3CKDTD5
H7H7 H6H4 HJHQ H9H9
DJDJ DKH5 D5D4 D6D6
D8D8 C4C3 HTH5 D9D7
C5C5 C6CT H8HQ C7C4
H8 C7 HA HA
H2 RJ BJ CK
DA BJ C8 HK
S2S2C2 CQCAD2 HTHJHK C9CQCA
`;

describe("the seed sample", () => {
  it("prints the sample output", () => {
    const parsed = parseStatementInput(SAMPLE_INPUT);
    if (!parsed.ok) throw new Error(parsed.reason);
    const output = parsed.rounds.map((round, index) => formatCaseResult(index + 1, replayRound(round))).join("");
    expect(output).toBe("Case #1:\n50\n3 2 Alice\n");
  });
});
