import { execFileSync } from "node:child_process";
import * as path from "node:path";
import type { ResourceLimits } from "node:worker_threads";
import { seededRandom } from "../../rooms/kit/random";
import { randomSetup } from "../../rooms/tractor/generate";
import { heuristicPolicy } from "../../rooms/tractor/policy";
import { applyPlay, buryCards, dealRound, type RoundState } from "../../rooms/tractor/round";
import { checkedThrows } from "../../rooms/tractor/ruleset";
import { seatView } from "../../rooms/tractor/seat-view";
import { TractorAiThreads } from "../../server/ai/tractor-ai-pool";
import { AI_THREAD_LIMITS } from "../../server/ai/ai-admission";
import { limitsReportingWorker, expectWarmedOnce } from "../helpers";
import { playedPosition } from "./tractor-position";
import { reviewTractor } from "../../rooms/tractor/review";
import { person, tractorRound } from "../records/fixtures";
import {
  declarationCandidates,
  declarationViewOf,
  declareAtOnce,
  type DeclarationView,
} from "../../rooms/tractor/declaration-search";
import { checkDeclaration, DEAL_STEPS } from "../../rooms/tractor/declaration";
import { SEATS } from "../../rooms/tractor/scoring";

/** The compiled worker (`npm test` builds first): the threads run what the server runs. */
const BUILT_WORKER = path.join(__dirname, "..", "..", "dist", "server", "ai", "tractor-ai-worker.js");

/** A position a few tricks into a checked-throws round, the seat on turn to decide. */
const position = (seed: number): RoundState => playedPosition(`tractor-thread:${seed}`, 10 + seed);

const taskOf = (state: RoundState) => ({ view: seatView(state, state.turn), rules: checkedThrows, context: {} });

/** Views of seats that may declare, each once its whole hand has been dealt (nobody has declared). */
function declaringViews(count: number): DeclarationView[] {
  const views: DeclarationView[] = [];
  for (let seed = 0; views.length < count && seed < 100; seed++) {
    const setup = randomSetup(seededRandom(`tractor-thread-declaration:${seed}`));
    const dealing = {
      hands: dealRound(setup, seededRandom(`declaration:${seed}`), checkedThrows).hands,
      steps: DEAL_STEPS,
    };
    const view = SEATS.map((seat) => declarationViewOf({ setup, dealing, declaration: undefined }, seat)).find(
      (seen) => declarationCandidates(seen, checkedThrows).length > 0,
    );
    if (view !== undefined) views.push(view);
  }
  return views;
}

const legalDeclaration = (view: DeclarationView, cards: number[] | undefined) =>
  cards === undefined ||
  checkDeclaration(view.standing, view.seat, cards, view.dealt, view.teamRanks[view.dealer % 2], checkedThrows).ok;

describe("the Tractor AI's threads", () => {
  test("warm starts a thread before any decision, once however often it is asked, and counts no decision", async () => {
    const threads = new TractorAiThreads(BUILT_WORKER, 1);
    try {
      await expectWarmedOnce(threads);
      expect(threads.decisions).toEqual({ onThreads: 0, inProcess: 0, shrunk: 0, abandoned: 0 });
    } finally {
      await threads.close();
    }
  });

  test("under overload play the heuristic at once instead of queueing; every answer is a play the engine accepts", async () => {
    const threads = new TractorAiThreads(BUILT_WORKER, 1);
    try {
      // The thread starts (and loads the search) with a first decision, so the burst measures the queue alone. That
      // decision is not timed (its time is the start), so the burst is admitted by count alone, however slow the machine.
      const first = position(9);
      expect(applyPlay(first, first.turn, await threads.decide(taskOf(first))).ok).toBe(true);
      const states = [1, 2, 3, 4, 5, 6, 7, 8].map(position);
      const answers = await Promise.all(states.map((state) => threads.decide(taskOf(state))));
      answers.forEach((cards, index) => expect(applyPlay(states[index], states[index].turn, cards).ok).toBe(true));
      expect(threads.decisions.onThreads).toBe(5);
      expect(threads.decisions.shrunk).toBe(4);
      expect(threads.decisions.abandoned).toBe(0);
    } finally {
      await threads.close();
    }
  });

  test("bury for a strong dealer on a thread, and at once with the heuristic under overload", async () => {
    const threads = new TractorAiThreads(BUILT_WORKER, 1);
    try {
      const dealt = [1, 2, 3, 4, 5].map((seed) =>
        dealRound(
          randomSetup(seededRandom(`tractor-thread-burial:${seed}`)),
          seededRandom(`burial:${seed}`),
          checkedThrows,
        ),
      );
      const burials = await Promise.all(dealt.map((state) => threads.decide(taskOf(state))));
      burials.forEach((cards, index) => expect(buryCards(dealt[index], dealt[index].turn, cards).ok).toBe(true));
      expect(threads.decisions.onThreads).toBe(4);
      expect(threads.decisions.shrunk).toBe(1);
      const last = dealt[4];
      expect(burials[4]).toEqual(heuristicPolicy(checkedThrows).chooseBurial(seatView(last, last.turn)));
    } finally {
      await threads.close();
    }
  });

  test('declare for a strong seat on a thread, and at once as the seat bot under overload; every answer a legal declaration or "not now"', async () => {
    const threads = new TractorAiThreads(BUILT_WORKER, 1);
    try {
      const [first, ...views] = declaringViews(9);
      expect(legalDeclaration(first, await threads.declaration({ view: first, rules: checkedThrows }))).toBe(true);
      const answers = await Promise.all(views.map((view) => threads.declaration({ view, rules: checkedThrows })));
      answers.forEach((cards, index) => expect(legalDeclaration(views[index], cards)).toBe(true));
      expect(threads.decisions.onThreads).toBe(5);
      expect(threads.decisions.shrunk).toBe(4);
      // The last four came past the overload: the seat bot's declarations, made at once.
      views
        .slice(4)
        .forEach((view, index) => expect(answers[4 + index]).toEqual(declareAtOnce({ view, rules: checkedThrows })));
      expect(answers.slice(4).some((cards) => cards !== undefined)).toBe(true);
    } finally {
      await threads.close();
    }
  });

  test("decide in-process when there is no compiled worker", async () => {
    const threads = new TractorAiThreads(null, 1);
    const state = position(3);
    expect(applyPlay(state, state.turn, await threads.decide(taskOf(state))).ok).toBe(true);
    expect(threads.decisions.inProcess).toBe(1);
    const [view] = declaringViews(1);
    expect(legalDeclaration(view, await threads.declaration({ view, rules: checkedThrows }))).toBe(true);
    expect(threads.decisions.inProcess).toBe(2);
  });

  test("each thread's young generation is held to AI_THREAD_LIMITS", async () => {
    const threads = new TractorAiThreads(limitsReportingWorker(), 1);
    try {
      const record = tractorRound(
        21,
        [0, 1, 2, 3].map((seat) => person(seat, `p${seat}`)),
        1_000,
      );
      const limits = (await threads.review(record, 3)) as unknown as ResourceLimits;
      expect(limits.maxYoungGenerationSizeMb).toBe(AI_THREAD_LIMITS.maxYoungGenerationSizeMb);
    } finally {
      await threads.close();
    }
  });

  test("review a recorded game on a thread, as the review does in-process", async () => {
    const threads = new TractorAiThreads(BUILT_WORKER, 1);
    try {
      const record = tractorRound(
        21,
        [0, 1, 2, 3].map((seat) => person(seat, `p${seat}`)),
        1_000,
      );
      const review = await threads.review(record, 3);
      expect(review.complete).toBe(true);
      expect(review).toEqual(reviewTractor(record, 3));
    } finally {
      await threads.close();
    }
  });
});

test("a thread loads the engine and its search alone: no package, not the message schemas (zod)", () => {
  const script = `
    require(${JSON.stringify(BUILT_WORKER)});
    const packages = new Set(Object.keys(require.cache).map((file) => /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(file)?.[1]).filter(Boolean));
    process.stdout.write(JSON.stringify([...packages]));
  `;
  const packages = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" })) as string[];
  expect(packages).toEqual([]);
});
