/**
 * Every searched AI decision carries the time its answer is due (server/ai/ai-admission.ts `answerBy`): a thread that
 * starts it late searches only what is left, and one that starts it after that makes the level's fast move. Run here
 * through the worker modules' own functions, with due times far in the past or the future, so nothing depends on
 * the machine's speed.
 */
import { ANSWER_WITHIN_MS, answerBy, timeLeft } from "../../server/ai/ai-admission";
import decideFool from "../../server/ai/fool-ai-worker";
import decideTractor, { declaration } from "../../server/ai/tractor-ai-worker";
import { seededRandom } from "../../rooms/kit/random";
import {
  aiGame,
  DEFAULT_WEIGHTS,
  immediateMove,
  makeAiPolicy,
  STRONG_BUDGET,
  strongAiPolicy,
} from "../../rooms/fool/ai";
import { greedyPolicy } from "../../rooms/fool/bots";
import { newGame, viewFor } from "../../rooms/fool/rules";
import { randomSetup } from "../../rooms/tractor/generate";
import { dealRound } from "../../rooms/tractor/round";
import { playedPosition } from "./tractor-position";
import { checkedThrows } from "../../rooms/tractor/ruleset";
import { seatView } from "../../rooms/tractor/seat-view";
import { decideAtOnce } from "../../rooms/tractor/levels";
import { declarationCandidates, declarationViewOf, declareAtOnce } from "../../rooms/tractor/declaration-search";
import { DEAL_STEPS } from "../../rooms/tractor/declaration";
import { SEATS } from "../../rooms/tractor/scoring";

const LONG_AGO = 1;
const FAR_AHEAD = Number.MAX_SAFE_INTEGER;
const unused = () => 0;

test("a decision is due ANSWER_WITHIN_MS after it is asked for, and its search gets at most what is left", () => {
  expect(answerBy(5_000)).toBe(5_000 + ANSWER_WITHIN_MS);
  expect(timeLeft(100, undefined, 5_000)).toBe(100);
  expect(timeLeft(100, 5_040, 5_000)).toBe(40);
  expect(timeLeft(100, 6_000, 5_000)).toBe(100);
  expect(timeLeft(100, 4_000, 5_000)).toBeLessThan(0);
});

describe("the Fool AI's play-outs", () => {
  /** The strong AI's positions with something to weigh, in a game against the greedy bot. */
  const positions = [...aiGame(newGame(seededRandom(7)), 0, greedyPolicy, seededRandom("answer-by"), 200)]
    .filter(({ state }) => state.turn === 0)
    .map(({ state, memory }) => ({ view: viewFor(state, 0), memory }))
    .filter(({ view, memory }) => immediateMove(view, memory) === null);

  test("with time to spare, the whole budget: the same move as the strong AI's", () => {
    expect(positions.length).toBeGreaterThan(3);
    for (const { view, memory } of positions) {
      expect(decideFool({ view, memory, level: "strong", answerBy: FAR_AHEAD })).toEqual(
        strongAiPolicy(view, unused, memory),
      );
    }
  });

  test("started after its answer was due, one world: the move the search makes with a single world", () => {
    const oneWorld = makeAiPolicy(DEFAULT_WEIGHTS, { ...STRONG_BUDGET, worlds: 1 });
    // One world chooses otherwise than the whole budget somewhere, so the deadline's effect shows.
    expect(
      positions.some(
        ({ view, memory }) =>
          JSON.stringify(oneWorld(view, unused, memory)) !== JSON.stringify(strongAiPolicy(view, unused, memory)),
      ),
    ).toBe(true);
    for (const { view, memory } of positions) {
      expect(decideFool({ view, memory, level: "strong", answerBy: LONG_AGO })).toEqual(oneWorld(view, unused, memory));
    }
  });
});

describe("the strong Tractor AI", () => {
  const position = (seed: number) => playedPosition(`answer-by:${seed}`, 6 + seed);

  test("started after its answer was due, a play or a burial is the heuristic's, made at once", () => {
    // Position 6 is one where the search, given its time, plays otherwise than the heuristic.
    for (const seed of [1, 3, 6]) {
      const state = position(seed);
      const task = {
        view: seatView(state, state.turn),
        rules: checkedThrows,
        context: {},
        timeMs: 100,
        answerBy: LONG_AGO,
      };
      expect(decideTractor(task)).toEqual(decideAtOnce(task));
    }
    const dealt = dealRound(
      randomSetup(seededRandom("answer-by:burial")),
      seededRandom("answer-by:burial:deal"),
      checkedThrows,
    );
    const burial = {
      view: seatView(dealt, dealt.turn),
      rules: checkedThrows,
      context: {},
      timeMs: 100,
      answerBy: LONG_AGO,
    };
    expect(burial.view.phase).toBe("burying");
    expect(decideTractor(burial)).toEqual(decideAtOnce(burial));
  });

  test("started after its answer was due, a declaration is the seat bot's", () => {
    let checked = 0;
    for (let seed = 0; seed < 100 && checked < 3; seed++) {
      const setup = randomSetup(seededRandom(`answer-by:declare:${seed}`));
      const dealing = {
        hands: dealRound(setup, seededRandom(`answer-by:declaration:${seed}`), checkedThrows).hands,
        steps: DEAL_STEPS,
      };
      const view = SEATS.map((seat) => declarationViewOf({ setup, dealing, declaration: undefined }, seat)).find(
        (seen) => declarationCandidates(seen, checkedThrows).length > 0,
      );
      if (view === undefined) continue;
      const task = { view, rules: checkedThrows, timeMs: 400, answerBy: LONG_AGO };
      expect(declaration(task)).toEqual(declareAtOnce(task) ?? []);
      checked++;
    }
    expect(checked).toBe(3);
  });
});
