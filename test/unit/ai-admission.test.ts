import type { Worker } from "node:worker_threads";
import {
  AiAdmission,
  answerWithinLimit,
  hasIdleThread,
  threadBalancer,
  threadHeaps,
  THREAD_QUEUE,
  WAIT_BOUND_MS,
} from "../../server/ai/ai-admission";

/** A decision that stays under way until `finish` is called. */
function pending(): { promise: Promise<string>; finish: () => void } {
  let finish: () => void = () => undefined;
  const promise = new Promise<string>((resolve) => (finish = () => resolve("done")));
  return { promise, finish };
}

describe("the AI threads' admission control", () => {
  test("gives the whole budget while a thread is free, a shrinking share as decisions pile up, and none past the overload", async () => {
    const admission = new AiAdmission(2, 1 / 4, 4);
    const decisions = Array.from({ length: 10 }, pending);
    const admitted = decisions.map((decision) => {
      const given = admission.admit();
      if (given.tier !== "atOnce") void admission.run(given, () => decision.promise);
      return given;
    });
    expect(admitted.map((given) => given.tier)).toEqual([
      "full",
      "full",
      "reduced",
      "reduced",
      "reduced",
      "reduced",
      "reduced",
      "least",
      "atOnce",
      "atOnce",
    ]);
    const shares = admitted.slice(2, 7).map((given) => given.share);
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
    expect(shares.every((share) => share < 1 && share > 1 / 4)).toBe(true);
    expect(admitted[7].share).toBe(1 / 4);
    expect(admission.use().budgets).toEqual({ full: 2, reduced: 5, least: 1, atOnce: 2 });

    decisions.forEach((decision) => decision.finish());
    await Promise.all(decisions.map((decision) => decision.promise));
    await new Promise((resolve) => setImmediate(resolve));
    expect(admission.admit().tier).toBe("full");
  });

  test("keeps each searched decision's wait: its p99 and the longest", async () => {
    let clock = 0;
    const admission = new AiAdmission(1, 1 / 4, 8, () => clock);
    expect(admission.use().waitMs).toEqual({ p99: 0, max: 0 });
    await admission.run(admission.admit(), async () => (clock += 20));
    await admission.run(admission.admit(), async () => (clock += 5));
    expect(admission.use().waitMs).toEqual({ p99: 20, max: 20 });
  });

  test("shrinks the budget when whole decisions take longer than the bound, even with a thread free, and recovers when they are quick", async () => {
    let clock = 0;
    const admission = new AiAdmission(4, 1 / 4, 8, () => clock);
    const decideTaking = (ms: number, cost = 1) => admission.run(admission.admit(cost), async () => (clock += ms));
    await decideTaking(WAIT_BOUND_MS * 2); // a starved machine: a whole budget took twice the bound
    expect(admission.admit()).toMatchObject({ tier: "reduced", share: 0.5 });
    expect(admission.admit(4)).toMatchObject({ tier: "least", share: 1 / 4 }); // a costlier level: less still, yet a free thread searches
    for (let quick = 0; quick < 60; quick++) await decideTaking(10);
    expect(admission.admit().tier).toBe("full");
  });

  test("with every thread busy, a decision whose wait behind the work under way would pass the bound gets none: the fast move at once", async () => {
    let clock = 0;
    const admission = new AiAdmission(1, 1 / 4, 8, () => clock);
    await admission.run(admission.admit(), async () => (clock += WAIT_BOUND_MS * 3)); // a whole budget takes three times the bound
    const busy = pending();
    const first = admission.admit();
    expect(first).toMatchObject({ tier: "reduced", threadWasFree: true });
    void admission.run(first, () => busy.promise);
    // Behind a third of a budget, the least would take over half a budget in all: past the bound, so nothing queues.
    expect(admission.admit()).toMatchObject({ tier: "atOnce", share: 0 });
    busy.finish();
  });

  test("a decision that waited for a thread to start is not a budget's time: the estimate does not learn from it", async () => {
    let clock = 0;
    const admission = new AiAdmission(1, 1 / 4, 8, () => clock);
    const noThreads = { threads: [] };
    expect(hasIdleThread(noThreads, admission)).toBe(false);
    await admission.run(
      admission.admit(),
      async () => (clock += WAIT_BOUND_MS * 3),
      hasIdleThread(noThreads, admission),
    );
    expect(admission.use().waitMs.max).toBe(WAIT_BOUND_MS * 3);
    expect(admission.admit()).toMatchObject({ tier: "full", share: 1 });

    const oneThread = { threads: [{}] };
    expect(hasIdleThread(oneThread, admission)).toBe(true);
    await admission.run(
      admission.admit(),
      async () => (clock += WAIT_BOUND_MS * 3),
      hasIdleThread(oneThread, admission),
    );
    expect(admission.admit()).toMatchObject({ tier: "reduced" });
  });

  test("a decision that fails still leaves the count of decisions under way", async () => {
    const admission = new AiAdmission(1, 1 / 4);
    await expect(admission.run(admission.admit(), () => Promise.reject(new Error("thread died")))).rejects.toThrow(
      "thread died",
    );
    expect(admission.admit().tier).toBe("full");
  });
});

test("a pool's threads' heaps are added up; a thread that fails or does not answer within a second is left out", async () => {
  const heap = (physical: number, used: number) => ({ total_physical_size: physical, used_heap_size: used });
  const thread = (answer: () => Promise<unknown>) => ({ getHeapStatistics: answer }) as unknown as Worker;
  const answering = [thread(async () => heap(20, 12)), thread(async () => heap(5, 3))];
  expect(await threadHeaps({ threads: answering })).toEqual({ threads: 2, physicalBytes: 25, usedBytes: 15 });
  expect(await threadHeaps(null)).toEqual({ threads: 0, physicalBytes: 0, usedBytes: 0 });
  jest.useFakeTimers();
  try {
    const silent = thread(() => new Promise(() => undefined));
    const ended = thread(async () => Promise.reject(new Error("Worker is not running")));
    const heaps = threadHeaps({ threads: [...answering, silent, ended] });
    await jest.advanceTimersByTimeAsync(1_000);
    expect(await heaps).toEqual({ threads: 2, physicalBytes: 25, usedBytes: 15 });
  } finally {
    jest.useRealTimers();
  }
});

test("a thread's answer is awaited up to the limit: past it the decision is over time, and the pool is called stuck once", async () => {
  const stuck = jest.fn();
  expect(await answerWithinLimit(async () => "move", 1_000, stuck)).toEqual({ answer: "move", overTime: false });
  expect(await answerWithinLimit(async () => Promise.reject(new Error("thread ended")), 1_000, stuck)).toEqual({
    answer: undefined,
    overTime: false,
  });
  expect(stuck).not.toHaveBeenCalled();
  jest.useFakeTimers();
  try {
    const never = answerWithinLimit(() => new Promise<string>(() => undefined), 1_000, stuck);
    await jest.advanceTimersByTimeAsync(999);
    expect(stuck).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(await never).toEqual({ answer: undefined, overTime: true });
    expect(stuck).toHaveBeenCalledTimes(1);
  } finally {
    jest.useRealTimers();
  }
});

test("a task goes to an idle thread; else a new thread while the pool may start one; else the least busy with room", () => {
  const balance = threadBalancer(3);
  type Task = Parameters<typeof balance>[0];
  type Thread = Parameters<typeof balance>[1][number];
  const thread = (currentUsage: number, isRunningAbortableTask = false) =>
    ({ currentUsage, isRunningAbortableTask }) as Thread;
  const decision = { isAbortable: false } as Task;
  const review = { isAbortable: true } as Task;
  const [busy, busier, idle] = [thread(2), thread(5), thread(0)];
  expect(balance(decision, [busy, idle])).toBe(idle);
  expect(balance(review, [busy, idle])).toBe(idle);
  // Two of three threads running, both busy: none, so that the pool starts the third.
  expect(balance(decision, [busier, busy])).toBeNull();
  // All three running: the least busy that has room; never one running a review; a review waits for an idle thread.
  expect(balance(decision, [busier, busy, thread(4)])).toBe(busy);
  expect(balance(decision, [busier, thread(1, true), thread(3)])).toEqual(thread(3));
  expect(balance(review, [busier, busy, thread(4)])).toBeNull();
  expect(balance(decision, [thread(THREAD_QUEUE), thread(THREAD_QUEUE), thread(THREAD_QUEUE)])).toBeNull();
});
