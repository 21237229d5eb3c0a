import {
  BUSY_RELEASE_MARGIN,
  BUSY_SAMPLES_TO_REFUSE,
  BusyGuard,
  busyGuardFromEnvironment,
} from "../../server/capacity/busy-guard";

test("joins are refused only after the main thread ran at or over its share for two samples in a row, and again taken once a sample is under it", () => {
  expect(BUSY_SAMPLES_TO_REFUSE).toBe(2);
  const guard = new BusyGuard(0.9);
  expect(guard.refusing).toBe(false);
  guard.observe(0.95); // one busy second may be a burst of joins
  expect(guard.refusing).toBe(false);
  guard.observe(0.89);
  guard.observe(0.9);
  expect(guard.refusing).toBe(false); // the count starts again after a second under the share
  guard.observe(1);
  expect(guard.refusing).toBe(true);
  guard.observe(0.97);
  expect(guard.refusing).toBe(true);
  guard.observe(0.5);
  expect(guard.refusing).toBe(false);
});

test("once busy, the main thread must run a margin under its share for a second before joins are taken again", () => {
  const guard = new BusyGuard(0.9);
  guard.observe(0.95);
  guard.observe(0.92);
  expect(guard.busy).toBe(true);
  guard.observe(0.85); // under the share, but not by the margin: the refused clients would come straight back
  expect(guard.busy).toBe(true);
  guard.observe(0.9 - BUSY_RELEASE_MARGIN - 0.01);
  expect(guard.busy).toBe(false);
  guard.observe(0.85); // not busy: counting starts at the share itself again
  guard.observe(0.85);
  expect(guard.busy).toBe(false);

  const small = new BusyGuard(0.1); // a share under the margin: half of it is the margin, so the guard can let go
  small.observe(0.2);
  small.observe(0.2);
  small.observe(0.06);
  expect(small.busy).toBe(true);
  small.observe(0.04);
  expect(small.busy).toBe(false);
});

test("in a cluster a busy process refuses new tables only while no other process takes them, and knows which others are busy", () => {
  const guard = new BusyGuard(0.8);
  guard.learnCluster(new Set(["b"]), true); // "b" is busy, another process is not
  expect([guard.busy, guard.refusing, guard.anyOtherBusy, guard.saidBusy("b"), guard.saidBusy("c")]).toEqual([
    false,
    false,
    true,
    true,
    false,
  ]);
  guard.observe(0.9);
  guard.observe(0.9);
  expect([guard.busy, guard.refusing]).toEqual([true, false]); // busy: its new tables go to the free process
  guard.learnCluster(new Set(["b", "c"]), false); // every other process is busy too
  expect([guard.busy, guard.refusing]).toEqual([true, true]);
  guard.learnCluster(new Set(), false); // what it learns with Redis away: it judges alone
  expect([guard.refusing, guard.anyOtherBusy]).toEqual([true, false]);
});

test("the guard counts the joins it refused and says so in its state", () => {
  const guard = new BusyGuard(0.8);
  guard.observe(0.85);
  guard.observe(0.85);
  guard.countRefusal();
  guard.countRefusal();
  expect(guard.state()).toEqual({ refuseAt: 0.8, busy: true, refusing: true, refused: 2 });
});

test("BUSY_REFUSE_AT: unset, empty or 0 is no guard; a share over 0 and at most 1 is one; anything else stops the start with a sentence", () => {
  expect(busyGuardFromEnvironment({})).toBeNull();
  expect(busyGuardFromEnvironment({ BUSY_REFUSE_AT: "" })).toBeNull();
  expect(busyGuardFromEnvironment({ BUSY_REFUSE_AT: "0" })).toBeNull();
  expect(busyGuardFromEnvironment({ BUSY_REFUSE_AT: "0.9" })?.refuseAt).toBe(0.9);
  expect(busyGuardFromEnvironment({ BUSY_REFUSE_AT: "1" })?.refuseAt).toBe(1);
  for (const text of ["1.5", "-0.2", "ninety", "90%"]) {
    expect(() => busyGuardFromEnvironment({ BUSY_REFUSE_AT: text })).toThrow(
      `BUSY_REFUSE_AT must be a share of the main thread over 0 and at most 1 (0.9 for 90%), or 0 for none, got "${text}"`,
    );
  }
  expect(() => new BusyGuard(0)).toThrow("a busy share must be over 0 and at most 1, got 0");
});

test("the guard's sampler reads the main thread while it runs, and stops", async () => {
  const guard = new BusyGuard(0.5);
  const observed: number[] = [];
  const observe = guard.observe.bind(guard);
  guard.observe = (share: number) => {
    observed.push(share);
    observe(share);
  };
  guard.watchMainThread();
  // Two seconds of a main thread kept running, each ended by a turn of the event loop so that the sampler runs.
  for (let second = 0; second < 2; second++) {
    const until = Date.now() + 1_100;
    while (Date.now() < until) Math.sqrt(Math.random());
    await new Promise((resolve) => setImmediate(resolve));
  }
  guard.stop();
  expect(observed.length).toBeGreaterThanOrEqual(1);
  expect(Math.max(...observed)).toBeGreaterThan(0.5);
  const seen = observed.length;
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  expect(observed.length).toBe(seen);
});
