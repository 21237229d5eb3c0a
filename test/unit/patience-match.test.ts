import fc from "fast-check";
import { DEALER, playOut, replayMatch, SPECTATOR, type Viewer } from "../../rooms/kit/engine";
import { deckOfSeed, formatCard, fullDeck, type Card } from "../../rooms/patience/cards";
import { playByPlay, simulate } from "../../rooms/patience/engine";
import {
  OWNER_SEAT,
  patienceEngine as engine,
  STEP,
  STEP_PACE,
  type PatienceMatch,
  type PatienceOptions,
} from "../../rooms/patience/match";
import { describeEvent, parseDecks } from "../../rooms/patience/notation";
import { PATIENCE_ERROR_CODES, PATIENCE_MAX_SEED, PATIENCE_MIN_SEED } from "../../rooms/patience/protocol";

const seeds = fc.integer({ min: PATIENCE_MIN_SEED, max: PATIENCE_MAX_SEED });
/** A whole deck in a random order, or (the engine takes any sequence) a random run of up to 52 different cards. */
const givenDecks = fc.oneof(
  fc.shuffledSubarray(fullDeck(), { minLength: 52, maxLength: 52 }),
  fc.shuffledSubarray(fullDeck(), { minLength: 0, maxLength: 52 }),
);

/** Plays a deal out, replays it from its options, seed and recorded actions, and checks the replay is the same. */
function playAndReplay(
  options: PatienceOptions,
  seed: number,
  replaySeed: number,
  deck: readonly Card[],
  revealedSeed: number,
): void {
  const played = playOut(engine, options, seed);
  expect(played.actions.every(({ actor, action }) => actor === DEALER && action.type === "step")).toBe(true);
  const replayed = replayMatch(engine, options, replaySeed, played.actions);
  expect(replayed.events).toEqual(played.events);
  expect(replayed.state).toEqual(played.state);
  expect(engine.waiting(played.state)).toEqual({ for: "nobody" });
  const result = engine.result(played.state);
  expect(result?.outcome).toEqual(simulate(deck));
  expect(result?.steps).toBe(played.actions.length);
  expect(result?.seed).toBe(revealedSeed);
  // The moves are the engine's steps, one per action, and the deal's end comes with the last.
  const moves = played.events.slice(1).map((events) => events[0]);
  expect(moves.map((move) => move.name === "move" && move.payload.description)).toEqual(
    playByPlay(deck).events.map(describeEvent),
  );
  expect(played.events.flat().filter((event) => event.name === "dealOver")).toEqual([
    { name: "dealOver", payload: result },
  ]);
  expect(played.events.at(-1)?.at(-1)).toEqual({ name: "dealOver", payload: result });
}

describe("a Patience match replays exactly from its seed and its actions", () => {
  test("1,000 seeded deals: every event and the final state again, and the outcome simulate's", () => {
    fc.assert(
      fc.property(seeds, (seed) => {
        playAndReplay({}, seed, seed, deckOfSeed(seed), seed);
      }),
      { numRuns: 1000 },
    );
  });

  test("given decks: the start's seed is ignored, the deal has none (0)", () => {
    fc.assert(
      fc.property(givenDecks, seeds, seeds, (deck, seed, replaySeed) => {
        playAndReplay({ deck }, seed, replaySeed, deck, 0);
      }),
      { numRuns: 200 },
    );
  });
});

describe("who acts", () => {
  const started = engine.start({}, 42).state;

  test("only the dealer: it is waited for at the step pace until the outcome, then nobody", () => {
    expect(engine.seatCount({})).toBe(1);
    expect(engine.waiting(started)).toEqual({ for: "dealer", action: STEP, pace: STEP_PACE });
    expect(engine.legalActions(started, OWNER_SEAT)).toEqual({ actions: [], complete: true });
    expect(engine.botAction(started, OWNER_SEAT)).toBeUndefined();
    expect(engine.result(started)).toBeUndefined();
  });

  test("a seat's action is refused with a typed code, and nothing changes", () => {
    const before = structuredClone(started);
    const refused = engine.apply(started, OWNER_SEAT, STEP);
    expect(refused).toEqual({ ok: false, code: "NOT_YOUR_TURN", reason: expect.any(String) });
    expect(PATIENCE_ERROR_CODES).toContain(refused.ok ? "" : refused.code);
    expect(started).toEqual(before);
  });

  test("a step after the deal is over is refused: DEAL_OVER", () => {
    const over = playOut(engine, {}, 42).state;
    expect(engine.apply(over, DEALER, STEP)).toEqual({ ok: false, code: "DEAL_OVER", reason: expect.any(String) });
  });
});

describe("what a view shows", () => {
  const viewers: Viewer[] = [OWNER_SEAT, SPECTATOR];

  /** The cards a view names (two-character tokens in the notation). */
  function cardsIn(value: unknown): string[] {
    return [...JSON.stringify(value).matchAll(/"([A2-9TJQK][SHCD])"/g)].map((match) => match[1]);
  }

  /** Every state of a deal, from its start to its end. */
  function statesOf(options: PatienceOptions, seed: number): PatienceMatch[] {
    const states = [engine.start(options, seed).state];
    for (let step = engine.apply(states[0], DEALER, STEP); step.ok; step = engine.apply(states.at(-1)!, DEALER, STEP))
      states.push(step.state);
    return states;
  }

  test("the seed is in no view before the deal is over, and is revealed with it", () => {
    const seed = 1_234_567_891;
    const states = statesOf({}, seed);
    for (const state of states.slice(0, -1)) {
      for (const viewer of viewers) {
        const view = engine.view(state, viewer);
        expect(view).toMatchObject({ phase: "dealing", revealedSeed: 0 });
        expect(JSON.stringify(view)).not.toContain(String(seed));
      }
    }
    for (const viewer of viewers)
      expect(engine.view(states.at(-1)!, viewer)).toMatchObject({ phase: "over", revealedSeed: seed });
  });

  test("no view ever names an undealt card", () => {
    const overflowing = parseDecks(
      "AS 2S 3S 4S AH 2H 3H 4H AC 2C 3C 4C AD 2D 3D 4D 5S 6S 7S 8S 9S TS JS QS KS 5H " +
        "6H 7H 8H 9H TH JH QH KH 5C 6C 7C 8C 9C TC JC QC KC 5D 6D 7D 8D 9D TD JD QD KD",
    )[0];
    for (const [options, deck] of [
      [{ deck: overflowing }, overflowing],
      [{}, deckOfSeed(7)],
    ] as const) {
      for (const state of statesOf(options, 7)) {
        const dealt = new Set(deck.slice(0, state.deal.dealt).map(formatCard));
        for (const viewer of viewers)
          expect(cardsIn(engine.view(state, viewer)).filter((card) => !dealt.has(card))).toEqual([]);
      }
    }
  });
});
