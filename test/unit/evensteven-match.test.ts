import fc from "fast-check";
import { DEALER, playOut, replayMatch, SPECTATOR, type RecordedAction } from "../../rooms/kit/engine";
import { seededRandom } from "../../rooms/kit/random";
import {
  evenStevenEngine,
  PLAYER_SEAT,
  type EvenStevenAction,
  type EvenStevenMatch,
} from "../../rooms/evensteven/match";

const SAMPLE = { n: 4, seed: 653723903 }; // hand Kd 8c As 5s, then 3s 6h Kh 5c are dealt

/** A player that answers with a random card of its hand, or (now and then) lets its time run out. */
function randomPlayer(random: () => number) {
  return (match: EvenStevenMatch, seat: number): RecordedAction<EvenStevenAction> => {
    if (random() < 0.05) return evenStevenEngine.timedOut(match, seat);
    const { actions } = evenStevenEngine.legalActions(match, seat);
    return { actor: seat, action: actions[Math.floor(random() * actions.length)]! };
  };
}

describe("the Even-Steven match engine", () => {
  test("plays the sample game: the hand to the player alone, each card dealt, played and judged", () => {
    const started = evenStevenEngine.start({ n: SAMPLE.n }, SAMPLE.seed);
    expect(started.events).toEqual([
      { name: "hand", payload: { cards: ["Kd", "8c", "As", "5s"] }, to: PLAYER_SEAT },
      { name: "deal", payload: { card: "3s", index: 1 } },
    ]);
    let match = started.state;
    const events = [];
    for (const card of ["5s", "8c", "Kd", "As"]) {
      const outcome = evenStevenEngine.apply(match, PLAYER_SEAT, { type: "play", card });
      if (!outcome.ok) throw new Error(outcome.reason);
      match = outcome.state;
      events.push(...outcome.events);
    }
    expect(events.map((event) => event.name)).toEqual([
      "played",
      "deal",
      "played",
      "deal",
      "played",
      "deal",
      "played",
      "verdict",
    ]);
    expect(evenStevenEngine.result(match)).toEqual({
      outcome: "WIN",
      n: 4,
      seed: SAMPLE.seed,
      dealt: ["3s", "6h", "Kh", "5c"],
      played: ["5s", "8c", "Kd", "As"],
    });
    expect(evenStevenEngine.waiting(match)).toEqual({ for: "nobody" });
  });

  test("refusals are typed and change nothing", () => {
    const { state } = evenStevenEngine.start({ n: SAMPLE.n }, SAMPLE.seed);
    const frozen = JSON.stringify(state);
    expect(evenStevenEngine.apply(state, PLAYER_SEAT, { type: "play", card: "2h" })).toMatchObject({
      ok: false,
      code: "NOT_IN_HAND",
    });
    expect(evenStevenEngine.apply(state, PLAYER_SEAT, { type: "play", card: "Xs" })).toMatchObject({
      ok: false,
      code: "NOT_A_CARD",
    });
    expect(evenStevenEngine.apply(state, PLAYER_SEAT, { type: "timeout" })).toMatchObject({
      ok: false,
      code: "NOT_YOUR_TURN",
    });
    expect(evenStevenEngine.apply(state, DEALER, { type: "play", card: "Kd" })).toMatchObject({
      ok: false,
      code: "NOT_A_PLAYER",
    });
    expect(JSON.stringify(state)).toBe(frozen);
  });

  test("a spectator's view holds no hand and no seed until the verdict; the dealer's time-out forfeits", () => {
    const { state } = evenStevenEngine.start({ n: SAMPLE.n }, SAMPLE.seed);
    const watching = JSON.stringify(evenStevenEngine.view(state, SPECTATOR));
    for (const hidden of ["Kd", "8c", "As", "5s", "6h", String(SAMPLE.seed)]) expect(watching).not.toContain(hidden);
    const timedOut = evenStevenEngine.apply(state, DEALER, evenStevenEngine.timedOut(state, PLAYER_SEAT).action);
    if (!timedOut.ok) throw new Error(timedOut.reason);
    expect(timedOut.events).toEqual([
      { name: "verdict", payload: { outcome: "TIME OUT", n: 4, seed: SAMPLE.seed, dealt: ["3s"], played: [] } },
    ]);
    expect(evenStevenEngine.view(timedOut.state, SPECTATOR).revealedSeed).toBe(SAMPLE.seed);
  });

  test("2,000 seeded games, by the optimal bot or by random players that sometimes time out, replay exactly from the seed and their actions", () => {
    let games = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 13 }),
        fc.integer({ min: 1, max: 2147483646 }),
        fc.boolean(),
        fc.integer(),
        (n, seed, byBot, dice) => {
          const played = playOut(evenStevenEngine, { n }, seed, byBot ? undefined : randomPlayer(seededRandom(dice)));
          const replayed = replayMatch(evenStevenEngine, { n }, seed, played.actions);
          expect(replayed.events).toEqual(played.events);
          expect(replayed.state).toEqual(played.state);
          expect(evenStevenEngine.result(played.state)).toBeDefined();
          games++;
        },
      ),
      { numRuns: 2000 },
    );
    expect(games).toBe(2000);
  });
});
