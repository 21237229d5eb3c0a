import fc from "fast-check";
import { DEALER, playOut, replayMatch, SPECTATOR } from "../../rooms/kit/engine";
import { tractorEngine, type TractorMatch, type TractorMatchOptions } from "../../rooms/tractor/match";
import type { MainSuit } from "../../rooms/tractor/order";
import { checkedThrows, classic, tractorRuleset } from "../../rooms/tractor/ruleset";
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
  ruleset: fc.record({
    throwPolicy: fc.constantFrom("always-accept" as const, "check-other-hands" as const),
    hiddenMultiplier: fc.constantFrom("longest-component" as const, "lead-cards" as const, "double" as const),
    strengthenOwnDeclaration: fc.boolean(),
    jokerPairsDeclare: fc.boolean(),
  }).map((rules) => tractorRuleset(rules)),
});

/** Figures of the property run, for the report (kept here, not printed). */
export const figures = { games: 0, actions: 0, ms: 0 };

describe("the Tractor match engine", () => {
  test("replaying a match from its seed and its actions gives every event and the final state again (1,000 bot matches)", () => {
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
      { numRuns: 1000 },
    );
    figures.ms = performance.now() - started;
  });
});
