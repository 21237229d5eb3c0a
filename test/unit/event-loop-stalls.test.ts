import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { stallCause, StallWatch, STALL_OVER_MS, type GcPause } from "../../server/telemetry/event-loop-stalls";

/** V8's own `gc()`, made available to this test alone (a test process is not started with --expose-gc). */
function collectGarbage(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/** The main thread's CPU time so far, in ms. */
function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/**
 * Holds the event loop for `ms` of the main thread's own running (what a slow handler does): on a machine whose
 * other work shares the cores, it holds on until the thread has run for `ms` and for most of the time it held the
 * loop (a handler that mostly waited for a core is the watch's "noCore"). At most 10 s.
 */
function busyFor(ms: number): void {
  const start = performance.now();
  const cpuStart = threadCpuMs();
  for (;;) {
    const held = performance.now() - start;
    const ran = threadCpuMs() - cpuStart;
    if ((held >= ms && ran >= ms && ran * 4 >= held * 3) || held > 10_000) return;
  }
}

/** A stall the main thread ran through (its CPU time the stall's length). */
const working = (fromMs: number, toMs: number) => ({ fromMs, toMs, cpuMs: toMs - fromMs });
const major = (startMs: number, endMs: number): GcPause => ({ startMs, endMs, major: true });
const minor = (startMs: number, endMs: number): GcPause => ({ startMs, endMs, major: false });

describe("what held the loop in a stall from 1,000 to 1,300 ms", () => {
  it("a major collection whose pause began in it, or just after it: its marking held the loop before the pause", () => {
    expect(stallCause(working(1_000, 1_300), [major(1_280, 1_300)])).toBe("majorGc");
    expect(stallCause(working(1_000, 1_300), [major(1_320, 1_340)])).toBe("majorGc");
    expect(stallCause(working(1_000, 1_300), [minor(1_000, 1_200), major(1_290, 1_295)])).toBe("majorGc");
  });

  it("minor collections when their pauses fill half of it or more, counting only what falls inside it", () => {
    expect(stallCause(working(1_000, 1_300), [minor(990, 1_060), minor(1_100, 1_160), minor(1_250, 1_290)])).toBe(
      "minorGc",
    ); // 60 + 60 + 40 = 160 ms of 300
    expect(stallCause(working(1_000, 1_300), [minor(1_100, 1_160), minor(1_250, 1_290)])).toBe("work"); // 100 ms of 300
  });

  it("the cause of the stall just before it, when it began as that one ended: the messages held back meanwhile", () => {
    expect(stallCause(working(1_000, 1_300), [], { toMs: 990, cause: "majorGc" })).toBe("majorGc");
    expect(stallCause(working(1_000, 1_300), [], { toMs: 900, cause: "majorGc" })).toBe("work"); // the loop ran its timers between them
    expect(stallCause(working(1_000, 1_300), [minor(1_000, 1_200)], { toMs: 990, cause: "majorGc" })).toBe("minorGc"); // its own cause first
  });

  it("no core, when the main thread ran for less than half of it: the machine's other work had the cores", () => {
    expect(stallCause({ fromMs: 1_000, toMs: 1_300, cpuMs: 40 }, [])).toBe("noCore");
    expect(stallCause({ fromMs: 1_000, toMs: 1_300, cpuMs: 160 }, [])).toBe("work");
    expect(stallCause({ fromMs: 1_000, toMs: 1_300, cpuMs: null }, [])).toBe("work"); // a Node that cannot tell
    expect(stallCause({ fromMs: 1_000, toMs: 1_300, cpuMs: 40 }, [major(1_290, 1_295)])).toBe("majorGc"); // a collection first
  });

  it("the program's own work otherwise, a major collection long before or after it included", () => {
    expect(stallCause(working(1_000, 1_300), [])).toBe("work");
    expect(stallCause(working(1_000, 1_300), [major(900, 990), major(1_400, 1_420)])).toBe("work");
  });
});

describe("the watch on a running event loop", () => {
  let watch: StallWatch;
  beforeEach(() => (watch = new StallWatch()));
  afterEach(() => watch.stop());

  /** Waits until the watch has judged a stall of `cause` (it judges a quarter of a second after a stall's end). */
  async function judged(cause: string): Promise<void> {
    for (let turn = 0; turn < 100 && !watch.read().recent.some((stall) => stall.cause === cause); turn++)
      await new Promise((resolve) => setTimeout(resolve, 20));
  }

  it("counts a handler that holds the loop as the program's work, with how long and when it ended", async () => {
    collectGarbage()(); // no major collection due in the stall (the file's tests before this one left garbage)
    await new Promise((resolve) => setTimeout(resolve, 100)); // the watch's timer running, past that collection's stall
    const before = Date.now();
    busyFor(150);
    await judged("work");
    const stalls = watch.read();
    const stall = stalls.recent.find((one) => one.cause === "work" && one.ms >= 120);
    expect(stall).toBeDefined();
    expect(stall!.at).toBeGreaterThanOrEqual(before + 140);
    expect(stalls.overMs).toBe(STALL_OVER_MS);
    expect(stalls.byCause.work.count).toBeGreaterThanOrEqual(1);
    expect(stalls.byCause.work.longestMs).toBeGreaterThanOrEqual(stall!.ms);
    expect(stalls.byCause.work.totalMs).toBeGreaterThanOrEqual(stall!.ms);
  });

  it("counts a main thread that sleeps through a stall as waiting for a core", async () => {
    await new Promise((resolve) => setTimeout(resolve, 30));
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150); // the thread off its core, as when others have them
    await judged("noCore");
    expect(watch.read().recent.some((stall) => stall.cause === "noCore" && stall.ms >= 120)).toBe(true);
  });

  it("counts a stall that ends in a major collection as the collection's", async () => {
    const gc = collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 30));
    busyFor(100); // V8 marks as the program runs, then pauses to finish: here the program, then the whole collection
    gc();
    await judged("majorGc");
    const stalls = watch.read();
    expect(stalls.recent.some((stall) => stall.cause === "majorGc" && stall.ms >= 90)).toBe(true);
    expect(stalls.byCause.majorGc.count).toBeGreaterThanOrEqual(1);
  });

  it("gives copies: its counts cannot be changed through what it gives", async () => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    const stalls = watch.read();
    stalls.byCause.work.count = 99;
    stalls.recent.push({ at: 0, ms: 1, cause: "work" });
    expect(watch.read().byCause.work.count).not.toBe(99);
    expect(watch.read().recent).not.toContainEqual({ at: 0, ms: 1, cause: "work" });
  });
});
