import { AiAdmission } from "../../server/ai-admission";

/** A decision that stays under way until `finish` is called. */
function pending(): { promise: Promise<string>; finish: () => void } {
  let finish = () => undefined as void;
  const promise = new Promise<string>((resolve) => (finish = () => resolve("done")));
  return { promise, finish };
}

describe("the AI threads' admission control", () => {
  test("gives the whole budget while a thread is free, a shrinking share as decisions pile up, and none past the overload", async () => {
    const admission = new AiAdmission(2, 1 / 4, 4);
    const decisions = Array.from({ length: 10 }, pending);
    const admitted = decisions.map((decision) => {
      const given = admission.admit();
      if (given.tier !== "atOnce") void admission.run(() => decision.promise);
      return given;
    });
    expect(admitted.map((given) => given.tier)).toEqual(["full", "full", "reduced", "reduced", "reduced", "reduced", "reduced", "least", "atOnce", "atOnce"]);
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
    const admission = new AiAdmission(1, 1 / 4);
    expect(admission.use().waitMs).toEqual({ p99: 0, max: 0 });
    await admission.run(() => new Promise((resolve) => setTimeout(resolve, 20)));
    await admission.run(async () => "at once");
    const { p99, max } = admission.use().waitMs;
    expect(max).toBeGreaterThan(0);
    expect(p99).toBeLessThanOrEqual(max);
  });

  test("a decision that fails still leaves the count of decisions under way", async () => {
    const admission = new AiAdmission(1, 1 / 4);
    await expect(admission.run(() => Promise.reject(new Error("thread died")))).rejects.toThrow("thread died");
    expect(admission.admit().tier).toBe("full");
  });
});
