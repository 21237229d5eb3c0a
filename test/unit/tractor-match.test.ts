import fc from "fast-check";
import { DEALER, playOut, replayMatch, SPECTATOR, type Actor } from "../../rooms/kit/engine";
import {
  roundOf,
  tractorEngine,
  type TractorAction,
  type TractorMatch,
  type TractorMatchOptions,
} from "../../rooms/tractor/match";
import { roundSeedOf } from "../../rooms/tractor/match-rounds";
import type { MainSuit } from "../../rooms/tractor/order";
import { classic, tractorRuleset } from "../../rooms/tractor/ruleset";
import type { Seat } from "../../rooms/tractor/scoring";

const MAIN_SUITS: MainSuit[] = ["H", "S", "C", "D", "O"];

function options(overrides: Partial<TractorMatchOptions> = {}): TractorMatchOptions {
  return { trump: "fixed", mainSuit: "S", dealer: 0, startRanks: [14, 14], ruleset: classic, ...overrides };
}

const matchOptions: fc.Arbitrary<TractorMatchOptions> = fc.record({
  trump: fc.constantFrom("fixed" as const, "declare" as const),
  mainSuit: fc.constantFrom(...MAIN_SUITS),
  dealer: fc.constantFrom<Seat>(0, 1, 2, 3),
  startRanks: fc.constantFrom<[number, number]>([14, 14], [13, 14], [14, 13], [14, 12], [13, 13]),
  ruleset: fc
    .record({
      throwPolicy: fc.constantFrom("always-accept" as const, "check-other-hands" as const),
      hiddenMultiplier: fc.constantFrom("longest-component" as const, "lead-cards" as const, "double" as const),
      strengthenOwnDeclaration: fc.boolean(),
      jokerPairsDeclare: fc.boolean(),
    })
    .map((rules) => tractorRuleset(rules)),
});

/** Figures of the property run, for the report (kept here, not printed). */
const figures = { games: 0, actions: 0, ms: 0 };
/** Bot matches the replay property plays: 1,000 (`npm run test:fast` plays 200: TRACTOR_REPLAY_MATCHES). */
const REPLAY_MATCHES = Number(process.env.TRACTOR_REPLAY_MATCHES ?? 1000);

function accepted(match: TractorMatch, actor: Actor, action: Parameters<typeof tractorEngine.apply>[2]) {
  const outcome = tractorEngine.apply(match, actor, action);
  if (!outcome.ok) throw new Error(`refused: ${outcome.code} ${outcome.reason}`);
  return outcome;
}

describe("the Tractor match engine", () => {
  test(`replaying a match from its seed and its actions gives every event and the final state again (${REPLAY_MATCHES.toLocaleString("en")} bot matches)`, () => {
    const started = performance.now();
    fc.assert(
      fc.property(matchOptions, fc.integer({ min: 1, max: 2_147_483_646 }), (opts, seed) => {
        const played = playOut(tractorEngine, opts, seed);
        expect(tractorEngine.waiting(played.state)).toEqual({ for: "nobody" });
        expect(tractorEngine.result(played.state)).toBeDefined();
        const replayed = replayMatch(tractorEngine, opts, seed, played.actions);
        expect(replayed.events).toEqual(played.events);
        expect(replayed.state).toEqual(played.state);
        figures.games++;
        figures.actions += played.actions.length;
      }),
      { numRuns: REPLAY_MATCHES },
    );
    figures.ms = performance.now() - started;
  });

  test("a refused action changes nothing and answers with a typed code", () => {
    const { state } = tractorEngine.start(options(), 4242);
    const copy = structuredClone(state);
    const dealerHand = tractorEngine.view(state, 0).seats[0]!.hand!;
    const refusals = [
      tractorEngine.apply(state, 1, { type: "bury", cards: dealerHand.slice(0, 8) }),
      tractorEngine.apply(state, 0, { type: "bury", cards: dealerHand.slice(0, 7) }),
      tractorEngine.apply(state, 0, { type: "bury", cards: ["S1", ...dealerHand.slice(0, 7)] }),
      tractorEngine.apply(state, 0, { type: "play", cards: dealerHand.slice(0, 1) }),
      tractorEngine.apply(state, 0, { type: "declare", cards: dealerHand.slice(0, 1) }),
      tractorEngine.apply(state, DEALER, { type: "nextRound" }),
      tractorEngine.apply(state, DEALER, { type: "play", cards: dealerHand.slice(0, 1) }),
    ];
    expect(refusals.map((outcome) => (outcome.ok ? "accepted" : outcome.code))).toEqual([
      "NOT_YOUR_TURN",
      "ILLEGAL_BURIAL",
      "NOT_A_CARD",
      "WRONG_PHASE",
      "WRONG_PHASE",
      "WRONG_PHASE",
      "NOT_YOUR_TURN",
    ]);
    for (const outcome of refusals) expect(outcome).toMatchObject({ ok: false, reason: expect.any(String) });
    expect(state).toEqual(copy);
    expect(dealerHand).toHaveLength(33);
  });

  test("a round's seed is in no spectator view before the round's end, and in the result after it", () => {
    const opts = options({ trump: "declare", startRanks: [14, 14] });
    const played = playOut(tractorEngine, opts, 31337);
    const replay = tractorEngine.start(opts, 31337);
    let state = replay.state;
    const roundSeed = state.roundSeed;
    for (const { actor, action } of played.actions) {
      const view = tractorEngine.view(state, SPECTATOR);
      if (view.phase === "roundOver" || view.phase === "matchOver") break;
      expect(view.result).toBeUndefined();
      expect(JSON.stringify(view)).not.toContain(String(roundSeed));
      expect(JSON.stringify(view)).not.toContain(String(state.seed));
      state = accepted(state, actor, action).state;
    }
    expect(tractorEngine.view(state, SPECTATOR).result?.seed).toBe(roundSeed);
  });

  test("the next round is dealt from the seed the dealer's action gives, else from the match's; a record of either replays exactly", () => {
    // Ranks low enough for a match of several rounds; the bots play round 1, up to the dealer's next round.
    const opts = options({ startRanks: [2, 2] });
    const matchSeed = 4242;
    const actions: { actor: Actor; action: TractorAction }[] = [];
    let state = tractorEngine.start(opts, matchSeed).state;
    for (;;) {
      const waiting = tractorEngine.waiting(state);
      if (waiting.for === "dealer" && waiting.action.type === "nextRound") break;
      const actor = waiting.for === "dealer" ? DEALER : waiting.for === "seat" ? waiting.seat : undefined;
      if (actor === undefined) throw new Error("the match ended in its first round");
      const action =
        actor === DEALER ? (waiting as { action: TractorAction }).action : tractorEngine.botAction(state, actor)!;
      state = accepted(state, actor, action).state;
      actions.push({ actor, action });
    }
    const roundOver = structuredClone(state);

    const given = accepted(state, DEALER, { type: "nextRound", seed: 987_654_321 }).state;
    expect(given.roundNumber).toBe(2);
    expect(given.roundSeed).toBe(987_654_321);
    const derived = accepted(state, DEALER, { type: "nextRound" }).state;
    expect(derived.roundSeed).toBe(roundSeedOf(matchSeed, 2));
    expect(tractorEngine.view(given, 0).seats[0]!.hand).not.toEqual(tractorEngine.view(derived, 0).seats[0]!.hand);

    // A seed no engine accepts is refused, and nothing changes.
    for (const seed of [0, -5, 1.5, 2_147_483_647, Number.NaN]) {
      expect(tractorEngine.apply(state, DEALER, { type: "nextRound", seed })).toMatchObject({
        ok: false,
        code: "BAD_PAYLOAD",
      });
    }
    expect(state).toEqual(roundOver);

    // The record keeps the action as made, seed and all: its replay deals round 2 again, card for card.
    const recorded = [
      ...actions,
      { actor: DEALER as Actor, action: { type: "nextRound", seed: 987_654_321 } as TractorAction },
    ];
    expect(replayMatch(tractorEngine, opts, matchSeed, recorded).state).toEqual(given);
  });

  test("a state holds only its phase's fields, and the compiler refuses the others", () => {
    const declaring = tractorEngine.start(options({ trump: "declare" }), 7).state;
    const burying = tractorEngine.start(options(), 7).state;
    if (declaring.phase !== "declaring" || burying.phase !== "burying")
      throw new Error(`the matches start ${declaring.phase} and ${burying.phase}`);
    // @ts-expect-error: no round while the cards are dealt for declaring
    expect(declaring.round).toBeUndefined();
    // @ts-expect-error: the declaration deal is over once the dealer buries
    expect(burying.dealing).toBeUndefined();
    // @ts-expect-error: only a finished round has a result
    expect(burying.round.result).toBeUndefined();
  });

  test("the events of a trick come from the play that completes it", () => {
    let { state } = tractorEngine.start(options({ startRanks: [9, 5], dealer: 2 }), 99);
    state = accepted(state, 2, tractorEngine.botAction(state, 2)!).state;
    const events: string[][] = [];
    for (let play = 0; play < 4; play++) {
      const seat = (tractorEngine.waiting(state) as { seat: Seat }).seat;
      const outcome = accepted(state, seat, tractorEngine.botAction(state, seat)!);
      events.push(outcome.events.map((event) => event.name));
      state = outcome.state;
    }
    expect(events).toEqual([["played"], ["played"], ["played"], ["played", "trick"]]);
    const trick = roundOf(state)!.tricks[0];
    const view = tractorEngine.view(state, SPECTATOR);
    expect(view.tricks).toHaveLength(1);
    expect(view.tricks[0]).toMatchObject({
      leader: "Charles",
      winner: ["Alice", "Bob", "Charles", "David"][trick.winner],
      points: trick.points,
    });
    expect(view.turn).toBe(view.tricks[0].winner);
  });
});
