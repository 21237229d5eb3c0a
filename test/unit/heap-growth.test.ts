import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { DEFAULT_HEAP_GROWTH_PERCENT, heapGrowthFromEnvironment } from "../../server/runtime/heap-growth";

/** The compiled module (`npm test` builds first), loaded by the child processes below: V8's flags are the process's. */
const BUILT = path.join(__dirname, "..", "..", "dist", "server", "runtime", "heap-growth.js");

/**
 * In a fresh Node process with the server's heap growth set to `percent`: 20 MB held live, then the same 6,000 rounds
 * of garbage (a sliding window of the last 40 rounds' objects also live). Returns the major collections V8 ran and
 * the growth the module says it set.
 */
function majorCollectionsWithGrowth(percent: number): { majors: number; reported: number | null } {
  const script = `
    const { PerformanceObserver, constants } = require("perf_hooks");
    const growth = require(${JSON.stringify(BUILT)});
    growth.limitHeapGrowth(${percent});
    let majors = 0;
    const observer = new PerformanceObserver((list) => { for (const entry of list.getEntries()) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++; });
    observer.observe({ entryTypes: ["gc"] });
    const live = [];
    for (let i = 0; i < 300000; i++) live.push({ index: i, name: "card " + i, list: [i] });
    const recent = [];
    for (let round = 0; round < 6000; round++) {
      const garbage = [];
      for (let i = 0; i < 2000; i++) garbage.push({ index: i, pair: [i, round] });
      recent.push(garbage);
      if (recent.length > 40) recent.shift();
    }
    setTimeout(() => { observer.disconnect(); process.stdout.write(JSON.stringify({ majors, reported: growth.heapGrowthPercent(), held: live.length + recent.length })); }, 50);
  `;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
}

describe("V8's heap growth between major collections (HEAP_GROWTH_PERCENT)", () => {
  test("read from the environment: 50% unless set, 0 for V8's own choice, a clear error for anything else", () => {
    expect(heapGrowthFromEnvironment({})).toBe(DEFAULT_HEAP_GROWTH_PERCENT);
    expect(DEFAULT_HEAP_GROWTH_PERCENT).toBe(50);
    expect(heapGrowthFromEnvironment({ HEAP_GROWTH_PERCENT: "" })).toBe(50);
    expect(heapGrowthFromEnvironment({ HEAP_GROWTH_PERCENT: "0" })).toBe(0);
    expect(heapGrowthFromEnvironment({ HEAP_GROWTH_PERCENT: "120" })).toBe(120);
    for (const wrong of ["-5", "1.5", "half", "301"]) {
      expect(() => heapGrowthFromEnvironment({ HEAP_GROWTH_PERCENT: wrong })).toThrow(
        `HEAP_GROWTH_PERCENT must be a whole number from 0 (V8 chooses) to 300, got "${wrong}"`,
      );
    }
  });

  test("a bound set once the process runs takes effect: the same allocations bring many more major collections than V8's own growth", () => {
    const ownChoice = majorCollectionsWithGrowth(0);
    const bounded = majorCollectionsWithGrowth(25);
    expect(ownChoice.reported).toBeNull();
    expect(bounded.reported).toBe(25);
    // V8 lets a heap this small grow far before collecting it (5 major collections here); at 25% it collects each
    // time the heap is a quarter over what the last collection left (22).
    expect(bounded.majors).toBeGreaterThanOrEqual(3 * Math.max(1, ownChoice.majors));
  });
});
