import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { ResourceLimits } from "node:worker_threads";
import { seededRandom } from "../../rooms/kit/random";
import { aiGame, aiPolicy, immediateMove } from "../../rooms/fool/ai";
import type { FoolMemory } from "../../rooms/fool/ai-memory";
import { AiThreads, LEAST_SHARE } from "../../server/ai/fool-ai-pool";
import { AI_THREAD_LIMITS, AiAdmission } from "../../server/ai/ai-admission";
import { expectConsole, limitsReportingWorker, expectWarmedOnce } from "../helpers";
import { greedyPolicy } from "../../rooms/fool/bots";
import { legalMovesInView, newGame, viewFor, type FoolMove, type FoolView } from "../../rooms/fool/rules";
import { reviewFool } from "../../rooms/fool/review";
import { finishedGame, person } from "../records/fixtures";
import { scratchDirectory } from "../setup/scratch";

/** The compiled worker (`npm test` builds first): the threads run what the server runs. */
const BUILT_WORKER = path.join(__dirname, "..", "..", "dist", "server", "ai", "fool-ai-worker.js");

/** The AI's positions in one game against the greedy bot, with its memory at each. */
function aiPositions(seed: number): Array<{ view: FoolView; memory: FoolMemory }> {
  const moves = [...aiGame(newGame(seededRandom(seed)), 0, greedyPolicy, seededRandom(`thread ${seed}`), 200)];
  return moves
    .filter(({ state }) => state.turn === 0)
    .map(({ state, memory }) => ({ view: viewFor(state, 0), memory }));
}

/** A worker module written for the test: `body` is the task function's body. */
function workerFile(name: string, body: string): string {
  const file = path.join(scratchDirectory("cardhall-ai-"), `${name}.js`);
  fs.writeFileSync(file, `module.exports = function decide(task) { ${body} };\n`);
  return file;
}

/** A worker module that runs `first` (the test's), then answers the greedy bot's move as AiThreads plays it at once. */
function greedyWorker(name: string, first: string): string {
  const dist = path.join(__dirname, "..", "..", "dist", "rooms");
  return workerFile(
    name,
    `${first}
    const { greedyPolicy } = require(${JSON.stringify(path.join(dist, "fool", "bots.js"))});
    const { seededRandom } = require(${JSON.stringify(path.join(dist, "kit", "random.js"))});
    return greedyPolicy(task.view, seededRandom(task.view.hand.join(" ")));`,
  );
}

describe("the AI's worker threads", () => {
  const allPositions = [1, 2, 3].flatMap(aiPositions);
  /** The positions with something to weigh: only these reach a thread. */
  const positions = allPositions.filter(({ view, memory }) => immediateMove(view, memory) === null);

  test("warm starts a thread before any decision, once however often it is asked, and counts no decision", async () => {
    const threads = new AiThreads(BUILT_WORKER, 1);
    try {
      await expectWarmedOnce(threads);
      expect(threads.decisions).toEqual({ immediate: 0, onThreads: 0, inProcess: 0, abandoned: 0 });
      expect(threads.admission.use().budgets).toEqual({ full: 0, reduced: 0, least: 0, atOnce: 0 });
    } finally {
      await threads.close();
    }
  });

  test("the games hold both kinds of decision", () => {
    expect(positions.length).toBeGreaterThan(1);
    expect(positions.length).toBeLessThan(allPositions.length);
  });

  test("decide exactly as the AI does in-process; only the decisions with something to weigh go to a thread", async () => {
    expect(fs.existsSync(BUILT_WORKER)).toBe(true);
    // A clock that never moves: every decision seems instant, so none is shrunk for taking long on a busy machine.
    const threads = new AiThreads(BUILT_WORKER, 2, undefined, new AiAdmission(2, LEAST_SHARE, undefined, () => 0));
    try {
      // One at a time, as a quiet server asks: a thread is always free, so every decision gets the whole budget.
      const moves: FoolMove[] = [];
      for (const { view, memory } of allPositions) moves.push(await threads.decide(view, memory));
      expect(moves).toEqual(allPositions.map(({ view, memory }) => aiPolicy(view, seededRandom(0), memory)));
      expect(threads.admission.use().budgets).toEqual({ full: positions.length, reduced: 0, least: 0, atOnce: 0 });
      const immediate = allPositions.length - positions.length;
      expect(threads.decisions).toEqual({ immediate, onThreads: positions.length, inProcess: 0, abandoned: 0 });
    } finally {
      await threads.close();
    }
  });

  test("a deep queue shrinks the budgets instead of waiting: past the overload the greedy move is made at once, and nothing is abandoned", async () => {
    const threads = new AiThreads(BUILT_WORKER, 1);
    try {
      const many = positions.slice(0, 12);
      expect(many.length).toBe(12);
      const moves = await Promise.all(many.map(({ view, memory }) => threads.decide(view, memory, "strong")));
      moves.forEach((move, index) => expect(legalMovesInView(many[index].view)).toContainEqual(move));
      // One thread: the first gets the whole budget, the next a shrinking share down to a quarter (the fourth
      // waiting), and the ninth onwards, eight under way, the greedy move at once.
      expect(threads.admission.use().budgets).toEqual({ full: 1, reduced: 2, least: 5, atOnce: 4 });
      expect(moves.slice(8)).toEqual(
        many.slice(8).map(({ view }) => greedyPolicy(view, seededRandom(view.hand.join(" ")))),
      );
      expect(threads.decisions).toEqual({ immediate: 0, onThreads: 8, inProcess: 0, abandoned: 0 });
    } finally {
      await threads.close();
    }
  });

  test.each([
    ["throws", 'throw new Error("broken worker");'],
    ["ends its thread", "process.exit(3);"],
    ["answers nonsense", "return 42;"],
  ])("a worker that %s: the decision is made in-process instead, and the pool goes on", async (_what, body) => {
    const threads = new AiThreads(workerFile("bad-worker", body), 1);
    try {
      const [first, second] = positions;
      expect(await threads.decide(first.view, first.memory)).toEqual(
        aiPolicy(first.view, seededRandom(0), first.memory),
      );
      expect(await threads.decide(second.view, second.memory)).toEqual(
        aiPolicy(second.view, seededRandom(0), second.memory),
      );
      expect(threads.decisions).toEqual({ immediate: 0, onThreads: 0, inProcess: 2, abandoned: 0 });
      await expectConsole(/"event":"ai_thread_failed"/, 2);
    } finally {
      await threads.close();
    }
  });

  test("a worker stuck in a loop: the decision is abandoned at its limit for the greedy bot's move, and the pool goes on", async () => {
    const threads = new AiThreads(workerFile("stuck-worker", "for (;;) {}"), 1, 300);
    try {
      for (const { view, memory } of positions.slice(0, 2)) {
        expect(await threads.decide(view, memory)).toEqual(greedyPolicy(view, seededRandom(view.hand.join(" "))));
      }
      expect(threads.decisions).toEqual({ immediate: 0, onThreads: 0, inProcess: 0, abandoned: 2 });
      await expectConsole(/"event":"ai_decision_abandoned"/, 2);
    } finally {
      await threads.close();
    }
  });

  test("a thread holds the decisions admitted for it: it goes on to the next while the main thread is busy", async () => {
    const arrivals = path.join(scratchDirectory("cardhall-ai-"), "arrivals");
    const threads = new AiThreads(
      greedyWorker("arrival-worker", `require("fs").appendFileSync(${JSON.stringify(arrivals)}, Date.now() + "\\n");`),
      1,
    );
    try {
      await threads.decide(positions[0].view, positions[0].memory); // the thread started
      const four = positions.slice(1, 5);
      const decisions = four.map(({ view, memory }) => threads.decide(view, memory));
      // The main thread busy: it picks up no answer and hands over no decision meanwhile.
      const busyUntil = Date.now() + 500;
      while (Date.now() < busyUntil);
      const moves = await Promise.all(decisions);
      expect(moves).toEqual(four.map(({ view }) => greedyPolicy(view, seededRandom(view.hand.join(" ")))));
      const arrived = fs.readFileSync(arrivals, "utf8").trim().split("\n").map(Number).slice(1);
      expect(arrived).toHaveLength(4);
      for (const at of arrived) expect(at).toBeLessThan(busyUntil);
      expect(threads.decisions).toEqual({ immediate: 0, onThreads: 5, inProcess: 0, abandoned: 0 });
    } finally {
      await threads.close();
    }
  });

  test("with two threads, a decision asked for while the first thinks goes to a second thread, not behind the first", async () => {
    const threadsSeen = path.join(scratchDirectory("cardhall-ai-"), "threads");
    const thinkThenNoteThread = `
      const thinkUntil = Date.now() + 1500;
      while (Date.now() < thinkUntil);
      require("fs").appendFileSync(${JSON.stringify(threadsSeen)}, require("worker_threads").threadId + "\\n");`;
    const threads = new AiThreads(greedyWorker("slow-worker", thinkThenNoteThread), 2);
    try {
      await threads.decide(positions[0].view, positions[0].memory); // one thread started, idle again
      await Promise.all(positions.slice(1, 3).map(({ view, memory }) => threads.decide(view, memory)));
      const [, ...thenOn] = fs.readFileSync(threadsSeen, "utf8").trim().split("\n");
      expect(new Set(thenOn).size).toBe(2);
    } finally {
      await threads.close();
    }
  });

  test("a thread stuck with decisions queued on it: each is abandoned for the greedy move, none searched again on the main thread", async () => {
    const threads = new AiThreads(workerFile("stuck-worker", "for (;;) {}"), 1, 1_000);
    try {
      const [first, second] = positions;
      const stuck = threads.decide(first.view, first.memory);
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Queued behind the stuck one; its answer is due 750 ms after it was asked for, before the first's limit.
      const queued = threads.decide(second.view, second.memory);
      expect(await stuck).toEqual(greedyPolicy(first.view, seededRandom(first.view.hand.join(" "))));
      expect(await queued).toEqual(greedyPolicy(second.view, seededRandom(second.view.hand.join(" "))));
      expect(threads.decisions).toEqual({ immediate: 0, onThreads: 0, inProcess: 0, abandoned: 2 });
      await expectConsole(/"event":"ai_decision_abandoned"/);
      await expectConsole(/"event":"ai_thread_failed","late":true/);
    } finally {
      await threads.close();
    }
  });

  test("without a compiled worker the AI decides in-process", async () => {
    const threads = new AiThreads(path.join(os.tmpdir(), "no-such-worker.js"));
    const [first] = positions;
    expect(await threads.decide(first.view, first.memory)).toEqual(aiPolicy(first.view, seededRandom(0), first.memory));
    expect(threads.decisions).toEqual({ immediate: 0, onThreads: 0, inProcess: 1, abandoned: 0 });
  });

  test("each thread's young generation is held to AI_THREAD_LIMITS", async () => {
    const threads = new AiThreads(limitsReportingWorker(), 1);
    try {
      const limits = (await threads.review(
        finishedGame("fool", 7, [person(0, "ann"), person(1, "bob")], 1_000),
        1,
      )) as unknown as ResourceLimits;
      expect(limits.maxYoungGenerationSizeMb).toBe(AI_THREAD_LIMITS.maxYoungGenerationSizeMb);
    } finally {
      await threads.close();
    }
  });

  test("review a recorded game on a thread, as the review does in-process", async () => {
    const threads = new AiThreads(BUILT_WORKER, 1);
    try {
      const record = finishedGame("fool", 7, [person(0, "ann"), person(1, "bob")], 1_000);
      const review = await threads.review(record, 1);
      expect(review.complete).toBe(true);
      expect(review).toEqual(reviewFool(record, 1));
    } finally {
      await threads.close();
    }
  });
});
