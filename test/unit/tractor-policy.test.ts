import fc from "fast-check";
import { playTractorBot, type TractorSeat } from "../../client-sdk/bots/tractor";
import { CardhallError } from "../../client-sdk/errors";
import type { TractorCardLike, TractorTurn } from "../../client-sdk/tractor";
import { seededRandom, shuffled } from "../../rooms/kit/random";
import { type Card, cardPoints, countCards, parseCards, withoutCards } from "../../rooms/tractor/cards";
import { randomSetup } from "../../rooms/tractor/generate";
import { checkFollow, legalPlays } from "../../rooms/tractor/legality";
import { TRUMP_GROUP } from "../../rooms/tractor/order";
import { heuristicPolicy, playRound, type TractorPolicy } from "../../rooms/tractor/policy";
import { randomPolicy } from "../../rooms/tractor/policy-random";
import { partnerPolicy } from "../../rooms/tractor/policy-partner";
import {
  applyPlay,
  buryCards,
  dealRound,
  orderingOf,
  type RoundState,
  type RoundUpdate,
  startRound,
} from "../../rooms/tractor/round";
import { checkedThrows, classic, type TractorRuleset } from "../../rooms/tractor/ruleset";
import { PLAYERS, type RoundSetup, type Seat, SEATS, teamOf } from "../../rooms/tractor/scoring";
import { knownVoids, seatView, type SeatView, unseenCounts } from "../../rooms/tractor/seat-view";

function cards(text: string): Card[] {
  const parsed = parseCards(text);
  if (parsed === undefined) throw new Error(`bad cards ${text}`);
  return parsed;
}

function accepted(update: RoundUpdate): RoundState {
  if (!update.ok) throw new Error(update.reason);
  return update.state;
}

const sorted = (list: readonly Card[]) => list.slice().sort((a, b) => a - b);

/** Deals a seeded round and lets seeded random policies take the first `actions` actions (the burial is one). */
function roundAfter(seed: number, actions: number, ruleset: TractorRuleset = classic): RoundState {
  const random = seededRandom(seed);
  let state: RoundState = dealRound(randomSetup(random), random, ruleset);
  const policy = randomPolicy(random);
  for (let action = 0; action < actions && state.phase !== "finished"; action++) {
    const view = seatView(state, state.turn);
    state =
      state.phase === "burying"
        ? accepted(buryCards(state, state.turn, policy.chooseBurial(view)))
        : accepted(applyPlay(state, state.turn, policy.choosePlay(view)));
  }
  return state;
}

describe("seatView", () => {
  /** The same round with the cards this seat cannot see dealt differently among the places it cannot see into. */
  function withHiddenCardsRedealt(state: RoundState, seat: Seat, seed: number): RoundState {
    const dealerSeesHidden = seat === state.setup.dealer && state.phase !== "burying";
    const others = SEATS.filter((other) => other !== seat);
    const pool = shuffled(
      [...others.flatMap((other) => state.hands[other]), ...(dealerSeesHidden ? [] : state.hidden)],
      seededRandom(seed),
    );
    const hands = state.hands.map((hand, index) => (index === seat ? hand : pool.splice(0, hand.length)));
    return { ...state, hands, hidden: dealerSeesHidden ? state.hidden : pool };
  }

  it("shows a seat nothing of the other hands or of the hidden cards it did not bury", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        fc.integer({ min: 0, max: 101 }),
        fc.constantFrom(...SEATS),
        (seed, actions, seat) => {
          const state = roundAfter(seed, actions);
          const view = seatView(state, seat);
          expect(seatView(withHiddenCardsRedealt(state, seat, seed + 1), seat)).toEqual(view);
          expect(JSON.parse(JSON.stringify(view))).toEqual(view);
          expect(sorted(view.hand)).toEqual(sorted(state.hands[seat]));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("gives the dealer the cards to bury while burying and the buried cards afterwards, and nobody else either", () => {
    const burying = roundAfter(7, 0);
    const dealer = burying.setup.dealer;
    for (const seat of SEATS) {
      const view = seatView(burying, seat);
      expect(view.buried).toBeUndefined();
      expect(view.buryFrom).toEqual(seat === dealer ? burying.hands[dealer] : undefined);
    }
    const playing = roundAfter(7, 5);
    for (const seat of SEATS) {
      const view = seatView(playing, seat);
      expect(view.buryFrom).toBeUndefined();
      expect(view.buried).toEqual(seat === dealer ? playing.hidden : undefined);
    }
  });

  it("keeps count of the cards played by each seat and of the cards it has not seen", () => {
    const state = roundAfter(11, 30);
    const view = seatView(state, 1);
    expect(view.playedBy.map((played) => played.length)).toEqual(SEATS.map((seat) => 25 - state.hands[seat].length));
    const unseen = unseenCounts(view);
    const expected = countCards([
      ...SEATS.filter((seat) => seat !== 1).flatMap((seat) => state.hands[seat]),
      ...state.hidden,
    ]);
    expect(Array.from(unseen)).toEqual(Array.from(expected));
  });

  it("notices a seat that did not follow the led group as void in it", () => {
    const setup: RoundSetup = { mainSuit: "H", dealer: 0, teamRanks: [2, 2] };
    let state: RoundState = startRound(setup, [
      cards("SASKC3C4C5C6C7C8C9CT"),
      cards("D3D4"),
      cards("S3S4"),
      cards("D5D6"),
    ]);
    state = accepted(buryCards(state, 0, cards("C3C4C5C6C7C8C9CT")));
    state = accepted(applyPlay(state, 0, cards("SA")));
    state = accepted(applyPlay(state, 1, cards("D3")));
    const voids = knownVoids(seatView(state, 2), orderingOf(state));
    expect(voids[1][1]).toBe(true);
    expect(voids[2][1]).toBe(false);
  });
});

describe("policies only ever make legal plays", () => {
  const teams = (a: TractorPolicy, b: TractorPolicy) => SEATS.map((seat) => (teamOf(seat) === 1 ? a : b));

  it.each([
    ["classic", classic],
    ["checked throws", checkedThrows],
  ])("whole rounds of heuristic against random and against itself (%s)", (_, ruleset) => {
    for (let deal = 1; deal <= 12; deal++) {
      const random = seededRandom(`legal:${deal}`);
      const dealt = dealRound(randomSetup(random), random, ruleset);
      const heuristic = heuristicPolicy(ruleset);
      const partner = partnerPolicy(ruleset);
      for (const policies of [
        teams(heuristic, randomPolicy(random)),
        teams(randomPolicy(random), heuristic),
        teams(heuristic, heuristic),
        teams(partner, heuristic),
      ]) {
        const finished = playRound(dealt, policies); // throws if the engine refuses any choice
        expect(finished.phase).toBe("finished");
        if (ruleset === checkedThrows && !policies.some((policy) => policy !== heuristic && policy !== partner))
          expect(finished.failedThrows).toEqual([]);
      }
    }
  });

  it("every decision of either policy at random positions passes the engine's checks", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 100 }), (seed, actions) => {
        const state = roundAfter(seed, actions);
        if (state.phase !== "playing") return;
        const view = seatView(state, state.turn);
        for (const policy of [heuristicPolicy(), randomPolicy(seededRandom(seed)), partnerPolicy()]) {
          expect(applyPlay(state, state.turn, policy.choosePlay(view)).ok).toBe(true);
        }
      }),
      { numRuns: 80 },
    );
  });

  it("refuses to decide for a seat whose turn it is not", () => {
    const state = roundAfter(3, 1);
    const idle = SEATS.find((seat) => seat !== state.turn) as Seat;
    expect(() => heuristicPolicy().choosePlay(seatView(state, idle))).toThrow(/no play/);
    expect(() => randomPolicy(Math.random).chooseBurial(seatView(state, idle))).toThrow(/nothing to bury/);
  });
});

describe("the random policy", () => {
  const setup: RoundSetup = { mainSuit: "H", dealer: 0, teamRanks: [2, 2] };
  const key = (play: readonly Card[]) => sorted(play).join(",");

  function viewOf(hand: string, lead?: string): SeatView {
    let state: RoundState = startRound(setup, [
      cards(`S9D9${lead ?? ""}C3C4C5C6C7C8C9CT`),
      cards(hand),
      cards("D3"),
      cards("D4"),
    ]);
    state = accepted(buryCards(state, 0, cards("C3C4C5C6C7C8C9CT")));
    if (lead === undefined) return seatView({ ...state, turn: 1 }, 1);
    return seatView(accepted(applyPlay(state, 0, cards(lead))), 1);
  }

  function frequencies(view: SeatView, draws: number): Map<string, number> {
    const policy = randomPolicy(seededRandom("uniform"));
    const seen = new Map<string, number>();
    for (let draw = 0; draw < draws; draw++) {
      const play = key(policy.choosePlay(view));
      seen.set(play, (seen.get(play) ?? 0) + 1);
    }
    return seen;
  }

  it("draws every legal lead about equally often", () => {
    const view = viewOf("S2S3S3D4");
    const seen = frequencies(view, 6000);
    const legal = legalPlays(view.hand, undefined, orderingOf(startRound(setup, [[], [], [], []]))).plays.map(key);
    expect([...seen.keys()].sort()).toEqual(legal.sort());
    for (const count of seen.values()) expect(Math.abs(count - 6000 / legal.length)).toBeLessThan(150);
  });

  it("draws every legal follow about equally often, the topping-up cards included", () => {
    const view = viewOf("S3D4D4C5", "SASK");
    const seen = frequencies(view, 4000);
    expect([...seen.keys()].sort()).toEqual([key(cards("S3D4")), key(cards("S3C5"))].sort());
    for (const count of seen.values()) expect(Math.abs(count - 2000)).toBeLessThan(150);
  });

  it("samples legal follows when there are too many to list", () => {
    const hand = "S2S3S4S5S6S7S8S9STSJSQSKD4D5";
    const view = viewOf(hand, "SAS9");
    const ordering = orderingOf(startRound(setup, [[], [], [], []]));
    const seen = frequencies(view, 300);
    for (const play of seen.keys())
      expect(checkFollow(cards(hand), cards("SAS9"), play.split(",").map(Number), ordering).ok).toBe(true);
    expect(seen.size).toBeGreaterThan(20);
  });
});

const fixtureSetup: RoundSetup = { mainSuit: "H", dealer: 0, teamRanks: [2, 2] };
const fixtureBurial = "C3C4C5C6C7C8C9CT";

/**
 * Alice deals, buries the clubs and leads; the given plays follow in turn (Alice leading again after her first
 * trick when she wins it); then the next seat decides with `policy`.
 */
function decideWith(policy: TractorPolicy, hands: readonly string[], plays: readonly string[]): Card[] {
  let state: RoundState = startRound(fixtureSetup, [cards(hands[0] + fixtureBurial), ...hands.slice(1).map(cards)]);
  state = accepted(buryCards(state, 0, cards(fixtureBurial)));
  for (const play of plays) state = accepted(applyPlay(state, state.turn, cards(play)));
  return sorted(policy.choosePlay(seatView(state, state.turn)));
}

describe("the heuristic policy", () => {
  const setup = fixtureSetup;
  const decide = (hands: readonly string[], plays: readonly string[]) => decideWith(heuristicPolicy(), hands, plays);

  it("gives points to a partner who holds the trick", () => {
    // Alice's SA cannot be beaten in spades; Charles gives his king rather than his four.
    expect(decide(["SAD6", "S3D7", "SKS4", "S6D8"], ["SA", "S3"])).toEqual(cards("SK"));
  });

  it("wins a trick with points in it, with the cheapest card that does", () => {
    // Charles holds the trick with SQ over Bob's ten; David, last, takes it with SA rather than SJ or S4.
    expect(decide(["S9D6D9", "STD7DJ", "SQD8DQ", "SAS4SJ"], ["S9", "ST", "SQ"])).toEqual(cards("SA"));
    // Void in spades, David ruffs with his lowest trump, neither a joker nor a plain card.
    expect(decide(["S9D6D9", "STD7DJ", "SQD8DQ", "H3BJD4"], ["S9", "ST", "SQ"])).toEqual(cards("H3"));
  });

  it("throws off a low card that scores nothing when the trick is lost", () => {
    // Alice's SA cannot be beaten in spades: Bob keeps his king and his five.
    expect(decide(["SAD6D9", "S5S4SK", "S6D8D7", "S7D3DJ"], ["SA"])).toEqual(cards("S4"));
    expect(decide(["SAD6D9", "DKD8D3", "S6D8D7", "S7D4DJ"], ["SA"])).toEqual(cards("D3"));
  });

  it("buries to make a void, keeping trumps and points", () => {
    const hand = cards("H3H4H6H7H8H9HJHQHABJRJS3S3S4S6S7S8S9SJSQSASTSKD3D3D4D6D7D8D9DJC3C4");
    const state = startRound(setup, [hand, [], [], []]);
    const buried = heuristicPolicy().chooseBurial(seatView(state, 0));
    expect(withoutCards(hand, buried)).toBeDefined();
    expect(buried).toHaveLength(8);
    const ordering = orderingOf(state);
    expect(buried.filter((card) => ordering.group[card] === TRUMP_GROUP)).toEqual([]);
    expect(buried.filter((card) => cardPoints(card) > 0)).toEqual([]);
    const left = withoutCards(hand, buried) as Card[];
    expect([0, 1, 2, 3].filter((suit) => !left.some((card) => ordering.group[card] === suit)).length).toBeGreaterThan(
      0,
    );
  });
});

describe("the partner-aware policy", () => {
  const decide = (hands: readonly string[], plays: readonly string[]) => decideWith(partnerPolicy(), hands, plays);

  it("leads a low card of a suit its partner has shown void in, for the partner to ruff", () => {
    // Charles showed no spades on Alice's ace and still may hold trumps: Alice leads her five of spades.
    const hands = ["SAS5D6D5", "S3SKD7DA", "D8H3D9H4", "S4SQDJS6"];
    // (The policy told throws are checked, so that it does not lead its diamonds whole.)
    expect(decideWith(partnerPolicy(checkedThrows), hands, ["SA", "S3", "D8", "S4"])).toEqual(cards("S5"));
    expect(decideWith(heuristicPolicy(checkedThrows), hands, ["SA", "S3", "D8", "S4"])).not.toEqual(cards("S5"));
  });

  it("gives points second to play when its partner, last, can ruff the trick", () => {
    // David leads a spade; Charles showed no spades and may hold trumps; Alice, second, gives her ten, not her four.
    const hands = ["S5STS4D6", "S9S7D7DA", "D8H3D9H4", "SASQDJS6"];
    expect(decide(hands, ["S5", "S9", "D8", "SA", "SQ"])).toEqual(cards("ST"));
    expect(decideWith(heuristicPolicy(), hands, ["S5", "S9", "D8", "SA", "SQ"])).toEqual(cards("S4"));
  });

  it("still gives points to a partner who holds the trick, and throws off cheaply into a lost one", () => {
    expect(decide(["SAD6", "S3D7", "SKS4", "S6D8"], ["SA", "S3"])).toEqual(cards("SK"));
    expect(decide(["SAD6D9", "S5S4SK", "S6D8D7", "S7D3DJ"], ["SA"])).toEqual(cards("S4"));
  });

  it("decides from the seat's view only: the same play whatever the hands it cannot see hold", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 100 }), (seed, actions) => {
        const state = roundAfter(seed, actions, checkedThrows);
        if (state.phase !== "playing") return;
        const seat = state.turn;
        const others = SEATS.filter((other) => other !== seat);
        const pool = shuffled(
          others.flatMap((other) => state.hands[other]),
          seededRandom(seed + 7),
        );
        const redealt: RoundState = {
          ...state,
          hands: state.hands.map((hand, index) => (index === seat ? hand : pool.splice(0, hand.length))),
        };
        expect(partnerPolicy(checkedThrows).choosePlay(seatView(redealt, seat))).toEqual(
          partnerPolicy(checkedThrows).choosePlay(seatView(state, seat)),
        );
      }),
      { numRuns: 80 },
    );
  });
});

describe("the SDK bots", () => {
  /** A table in memory that hands out turns the way the SDK's TractorPlayer does: once per step, from the seat's own view. */
  function tableOf(initial: RoundState): TractorSeat[] {
    let state = initial;
    let step = 0;
    const actedAt = SEATS.map(() => -1);
    let waiting: (() => void)[] = [];
    const turnFor = (seat: Seat): TractorTurn | undefined => {
      if (state.phase === "finished")
        return { kind: "matchOver", winner: state.result.change.team, teamRanks: [...state.result.teamRanks] };
      if (state.turn !== seat || step <= actedAt[seat]) return undefined;
      return { kind: state.phase === "burying" ? "bury" : "play", round: 1, step, view: seatView(state, seat) };
    };
    const act = async (seat: Seat, chosen: readonly TractorCardLike[], move: typeof applyPlay): Promise<void> => {
      const update = move(
        state,
        seat,
        chosen.map((card) => (typeof card === "number" ? card : cards(card)[0])),
      );
      if (!update.ok) throw new CardhallError(seat === state.turn ? "ILLEGAL_PLAY" : "NOT_YOUR_TURN", update.reason);
      [state, actedAt[seat], step] = [update.state, step, step + 1];
      const woken = waiting;
      waiting = [];
      setImmediate(() => woken.forEach((wake) => wake()));
    };
    return SEATS.map((seat) => ({
      nextTurn: () =>
        new Promise<TractorTurn>((resolve) => {
          const check = () => {
            const turn = turnFor(seat);
            if (turn) resolve(turn);
            else waiting.push(check);
          };
          check();
        }),
      play: (chosen) => act(seat, chosen, applyPlay),
      bury: (chosen) => act(seat, chosen, buryCards),
    }));
  }

  it("play a whole round, each seat acting once per turn from its own view", async () => {
    const random = seededRandom("sdk-bots");
    const seats = tableOf(dealRound(randomSetup(random), random));
    const results = await Promise.all(
      seats.map((seat, index) => playTractorBot(seat, index % 2 === 0 ? "heuristic" : "random", { botSeed: index })),
    );
    const winners = new Set(results.map((result) => result.matchWinner));
    expect(winners.size).toBe(1);
    const actions = results.reduce((sum, result) => sum + result.actions, 0);
    expect(actions).toBeGreaterThan(4);
    expect(actions % PLAYERS).toBe(1); // the burial, then four plays a trick
  });

  it("stop waiting for a turn that never comes once told to stop, and end without an error", async () => {
    let playing = true;
    let signalSeen: AbortSignal | undefined;
    const silentSeat: TractorSeat = {
      // Like the SDK's nextTurn: no turn arrives (the other seats stopped); only the signal ends the wait.
      nextTurn: (_timeoutMs, signal) =>
        new Promise<TractorTurn>((_resolve, reject) => {
          signalSeen = signal;
          signal?.addEventListener("abort", () => reject(new CardhallError("ABORTED", "stopped")));
        }),
      play: async () => undefined,
      bury: async () => undefined,
    };
    const bot = playTractorBot(silentSeat, "random", { keepPlaying: () => playing, timeoutMs: 60_000 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(signalSeen?.aborted).toBe(false);
    playing = false;
    await expect(bot).resolves.toEqual({ actions: 0 });
    expect(signalSeen?.aborted).toBe(true);
  });

  it("not act on a turn once told to stop while thinking about it", async () => {
    const random = seededRandom("stop-while-thinking");
    let playing = true;
    let buried = 0;
    // Four bots at a fresh deal: only the dealer has a turn (its burial), the others wait for theirs.
    const seats = tableOf(dealRound(randomSetup(random), random));
    const counted: TractorSeat[] = seats.map((seat) => ({
      // Like the SDK's nextTurn: a wait ends with ABORTED when the bot stops waiting.
      nextTurn: (timeoutMs, signal) =>
        Promise.race([
          seat.nextTurn(timeoutMs),
          new Promise<never>((_resolve, reject) =>
            signal?.addEventListener("abort", () => reject(new CardhallError("ABORTED", "stopped"))),
          ),
        ]),
      play: (cards) => seat.play(cards),
      bury: (cards) => ((buried += 1), seat.bury(cards)),
    }));
    const bots = counted.map((seat, index) =>
      playTractorBot(seat, "random", { thinkMs: 200, botSeed: index, keepPlaying: () => playing, timeoutMs: 60_000 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20)); // the dealer has its turn and is thinking (100–300 ms)
    playing = false;
    await expect(Promise.all(bots)).resolves.toEqual(SEATS.map(() => ({ actions: 0 })));
    expect(buried).toBe(0);
  });

  it("pass on a wait's failure other than a stop", async () => {
    const brokenSeat: TractorSeat = {
      nextTurn: async () => {
        throw new CardhallError("TIMEOUT", "no turn came");
      },
      play: async () => undefined,
      bury: async () => undefined,
    };
    await expect(playTractorBot(brokenSeat, "random", { keepPlaying: () => true })).rejects.toMatchObject({
      code: "TIMEOUT",
    });
  });
});
