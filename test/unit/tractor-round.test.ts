import { seededRandom } from "../../rooms/kit/random";
import { type Card, doubleDeck, parseCards, withoutCards } from "../../rooms/tractor/cards";
import { playRandomRound, randomSetup } from "../../rooms/tractor/generate";
import { checkFollow, checkLead, failedThrowComponent, legalPlays } from "../../rooms/tractor/legality";
import { cardOrdering } from "../../rooms/tractor/order";
import {
  applyPlay,
  buryCards,
  dealRound,
  type RoundState,
  type RoundUpdate,
  startRound,
} from "../../rooms/tractor/round";
import { checkedThrows, classic } from "../../rooms/tractor/ruleset";
import { replayRound, type RoundSetup } from "../../rooms/tractor/scoring";
import { leadStructure } from "../../rooms/tractor/structure";

function cards(text: string): Card[] {
  if (text === "") return [];
  const parsed = parseCards(text);
  if (parsed === undefined) throw new Error(`bad cards ${text}`);
  return parsed;
}

const ordering = cardOrdering({ mainSuit: "H", currentRank: 7 });
const reason = (verdict: { ok: true } | { ok: false; reason: string }) => (verdict.ok ? "ok" : verdict.reason);
const follow = (hand: string, lead: string, play: string) =>
  reason(checkFollow(cards(hand), cards(lead), cards(play), ordering));

function accepted(update: RoundUpdate): RoundState {
  if (!update.ok) throw new Error(update.reason);
  return update.state;
}

describe("leads", () => {
  it("must be held, non-empty and of one group", () => {
    expect(reason(checkLead(cards("S2S3H4"), cards("S2S3"), ordering))).toBe("ok");
    expect(reason(checkLead(cards("S2S3H4"), cards("H4S7BJ"), ordering))).toMatch(/do not hold/);
    expect(reason(checkLead(cards("S2S3H4"), [], ordering))).toMatch(/at least one/);
    expect(reason(checkLead(cards("S2S3H4"), cards("S2H4"), ordering))).toMatch(/all trumps or all cards of one suit/);
  });
});

describe("follow obligations", () => {
  it("wants as many cards as the lead", () => {
    expect(follow("S2S3S4", "SASK", "S2")).toMatch(/must play 2 card/);
  });

  it("wants the led suit while it lasts, then anything", () => {
    expect(follow("S2S3D4", "SASK", "S2D4")).toMatch(/Spades were led and you still hold spades/);
    expect(follow("S2D3D4", "SASK", "D3D4")).toMatch(/all 1 of your spades/);
    expect(follow("S2D3D4", "SASK", "S2D4")).toBe("ok");
    expect(follow("D3D4H2", "SASK", "D4H2")).toBe("ok");
  });

  it("counts the off-suit current-rank cards as trumps, not as their suit", () => {
    expect(follow("S7D3", "S9", "D3")).toBe("ok");
    expect(follow("S7D3", "H9", "D3")).toMatch(/Trumps were led/);
  });

  it("wants a pair for a pair when one is held", () => {
    expect(follow("S2S2S3S4", "SASA", "S3S4")).toMatch(/pair\(s\) of spades/);
    expect(follow("S2S2S3S4", "SASA", "S2S2")).toBe("ok");
    expect(follow("S2S3S4", "SASA", "S3S4")).toBe("ok");
  });

  it("wants a tractor for a tractor when one is held, else as many pairs as held", () => {
    expect(follow("S2S2S3S3S9S9SJ", "SKSKSQSQ", "S9S9S2S2")).toMatch(/matching tractor/);
    expect(follow("S2S2S3S3S9S9SJ", "SKSKSQSQ", "S3S3S2S2")).toBe("ok");
    expect(follow("S2S2S4S4S9SJ", "SKSKSQSQ", "S2S2S9SJ")).toMatch(/2 pair\(s\)/);
    expect(follow("S2S2S4S4S9SJ", "SKSKSQSQ", "S2S2S4S4")).toBe("ok");
  });

  it("wants the pairs of a throw matched as far as the hand allows", () => {
    expect(follow("S2S2S3S4S5", "SKSKSQ", "S2S3S4")).toMatch(/pair/);
    expect(follow("S2S2S3S4S5", "SKSKSQ", "S2S2S5")).toBe("ok");
  });

  it("lists every legal follow of a small hand", () => {
    const plays = legalPlays(cards("S2S2S3D4"), cards("SASA"), ordering);
    expect(plays).toEqual({ plays: [cards("S2S2")], complete: true });
    const void_ = legalPlays(cards("D4D5H2"), cards("SA"), ordering);
    expect(void_.plays.length).toBe(3);
  });

  it("cuts the list at the limit and says so", () => {
    const listed = legalPlays(cards("S2S3S4S5S6S8S9STSJSQ"), undefined, ordering, 20);
    expect(listed).toMatchObject({ complete: false });
    expect(listed.plays.length).toBe(20);
  });
});

describe("checked throws", () => {
  const structure = (text: string) => {
    const found = leadStructure(cards(text), ordering);
    if (!found) throw new Error("bad lead");
    return found;
  };

  it("stand when nobody holds a higher component of the same shape in that suit", () => {
    expect(
      failedThrowComponent(structure("SASASK"), [cards("SQSQ"), cards("H2H2BJ"), cards("")], ordering),
    ).toBeUndefined();
  });

  it("fail to the smallest beaten component", () => {
    const failed = failedThrowComponent(structure("SQSQSJS9"), [cards("SKSA"), cards("D2"), cards("SASA")], ordering);
    expect(failed?.cards).toEqual(cards("S9"));
  });

  it("check tractors against tractors only", () => {
    const lead = structure("S2S2S3S3SA");
    expect(failedThrowComponent(lead, [cards("S8S8S9S9"), cards(""), cards("")], ordering)?.cards).toEqual(
      cards("S3S3S2S2"),
    );
    expect(failedThrowComponent(lead, [cards("S8S8STST"), cards(""), cards("")], ordering)).toBeUndefined();
  });
});

/** A deal where Alice deals 33 cards; everything else fills the other hands in id order. */
function fixedDeal(aliceHand: string): { setup: RoundSetup; hands: Card[][] } {
  const alice = cards(aliceHand);
  const rest = withoutCards(doubleDeck(), alice) as Card[];
  return {
    setup: { mainSuit: "H", dealer: 0, teamRanks: [7, 5] },
    hands: [alice, rest.slice(0, 25), rest.slice(25, 50), rest.slice(50, 75)],
  };
}

describe("a round", () => {
  const aliceHand = "SASAS2S3S4S5S6S8S9STSJSQSKC2C3C4C5C6C8C9CTCJCQCKCAD2D3D4D5D6D8D9DT";

  it("deals 33 cards to the dealer and 25 to the others from a seeded deck", () => {
    const state = dealRound({ mainSuit: "O", dealer: 2, teamRanks: [2, 2] }, seededRandom(1));
    expect(state.hands.map((hand) => hand.length)).toEqual([25, 25, 33, 25]);
    expect(state.hands.flat().sort((a, b) => a - b)).toEqual(doubleDeck());
    expect(dealRound({ mainSuit: "O", dealer: 2, teamRanks: [2, 2] }, seededRandom(1)).hands).toEqual(state.hands);
  });

  it("lets only the dealer bury, exactly 8 held cards, before any play", () => {
    const { setup, hands } = fixedDeal(aliceHand);
    const state = startRound(setup, hands);
    expect(applyPlay(state, 0, cards("SA"))).toEqual({ ok: false, reason: "Alice must bury 8 cards first." });
    expect(buryCards(state, 1, cards("S2S3S4S5S6S8S9ST"))).toMatchObject({ ok: false, reason: "It is Alice's turn." });
    expect(buryCards(state, 0, cards("S2"))).toMatchObject({ ok: false });
    expect(buryCards(state, 0, cards("H2H2H2H2H2H2H2H2"))).toMatchObject({ ok: false });
    const buried = accepted(buryCards(state, 0, cards("D2D3D4D5D6D8D9DT")));
    expect(buried.hands[0]).toHaveLength(25);
    expect(buried.hidden).toEqual(cards("D2D3D4D5D6D8D9DT"));
    expect(state.phase).toBe("burying");
  });

  it("plays in turn, judges each trick and lets the winner lead", () => {
    // Bob holds only hearts (trumps): void in spades, his first legal play is the trump pair H2H2.
    const { setup, hands } = fixedDeal(aliceHand);
    let state = accepted(buryCards(startRound(setup, hands), 0, cards("D2D3D4D5D6D8D9DT")));
    expect(applyPlay(state, 1, cards("S2"))).toMatchObject({ ok: false, reason: "It is Alice's turn." });
    state = accepted(applyPlay(state, 0, cards("SASA")));
    for (const seat of [1, 2, 3] as const) {
      const options = legalPlays(
        state.hands[seat],
        cards("SASA"),
        cardOrdering({ mainSuit: "H", currentRank: 7 }),
      ).plays;
      state = accepted(applyPlay(state, seat, options[0]));
    }
    expect(state.tricks).toHaveLength(1);
    expect(state.tricks[0].plays[1]).toEqual(cards("H2H2"));
    expect(state.tricks[0].winner).toBe(1);
    expect(state.turn).toBe(1);
    expect(state.trick).toBeUndefined();
  });

  it("shrinks a failed throw under the checked policy and moves the penalty", () => {
    const { setup, hands } = fixedDeal(aliceHand);
    let state = accepted(buryCards(startRound(setup, hands, checkedThrows), 0, cards("D2D3D4D5D6D8D9DT")));
    // Charles holds the other copies of S2..SK (the rest of the deck goes out in id order), so the S2S3
    // throw fails and Alice, a declarer, plays S2 alone; the defenders get the penalty.
    state = accepted(applyPlay(state, 0, cards("S2S3")));
    expect(state.trick?.plays[0]).toEqual(cards("S2"));
    expect(state.hands[0]).toContain(cards("S3")[0]);
    expect(state.failedThrows).toEqual([{ seat: 0, attempted: cards("S2S3"), played: cards("S2"), penalty: 10 }]);
    expect(state.penaltyPoints).toBe(10);
  });

  it("accepts every throw under the classic policy", () => {
    const { setup, hands } = fixedDeal(aliceHand);
    let state = accepted(buryCards(startRound(setup, hands, classic), 0, cards("D2D3D4D5D6D8D9DT")));
    state = accepted(applyPlay(state, 0, cards("S2S3")));
    expect(state.trick?.plays[0]).toEqual(cards("S2S3"));
  });

  it("settles random rounds exactly as the statement's simulator replays them", () => {
    const random = seededRandom("rounds");
    for (let round = 0; round < 40; round++) {
      const ruleset = round % 2 === 0 ? classic : checkedThrows;
      const { state, record } = playRandomRound(randomSetup(random), random, ruleset);
      expect(state.phase).toBe("finished");
      expect(state.hands.every((hand) => hand.length === 0)).toBe(true);
      expect(record.tricks.flat().every((plays) => plays.length > 0)).toBe(true);
      if (ruleset === classic) expect(replayRound(record)).toEqual(state.result);
      expect(applyPlay(state, state.turn, cards("SA"))).toEqual({ ok: false, reason: "The round is over." });
    }
  });
});
