/**
 * The SDK's joinWhenTaken: it asks again, after the wait the server named, only while a join is refused for a
 * reason that passes (a JOIN_REFUSED with retryAfterMs), within the time it is given, and stops when asked.
 * The joins here are scripted; test/e2e/busy-guard.test.ts runs it against a real server at capacity.
 */
import { CardhallError, joinWhenTaken, waitBeforeAskingAgain } from "../../client-sdk";

const passing = () => new CardhallError("JOIN_REFUSED", "the server is at capacity", undefined, 20);

/** A join that is refused with each of `refusals` in turn, then gives "seated". */
function scriptedJoin(refusals: CardhallError[]): { join: () => Promise<string>; tries: () => number } {
  let tries = 0;
  return {
    join: async () => {
      const refusal = refusals[tries++];
      if (refusal !== undefined) throw refusal;
      return "seated";
    },
    tries: () => tries,
  };
}

test("asks again after each refusal that passes, waiting as the server asked, and says so each time", async () => {
  const { join, tries } = scriptedJoin([passing(), passing(), passing()]);
  const waits: Array<[number, number]> = [];
  const started = Date.now();
  await expect(
    joinWhenTaken(join, { onWait: (_refusal, attempt, waitMs) => waits.push([attempt, waitMs]) }),
  ).resolves.toBe("seated");
  expect(tries()).toBe(4);
  expect(waits.map(([attempt]) => attempt)).toEqual([1, 2, 3]);
  for (const [, waitMs] of waits) expect(waitMs).toBeGreaterThanOrEqual(20); // the server's wait, and up to as long again
  for (const [, waitMs] of waits) expect(waitMs).toBeLessThanOrEqual(40);
  const waited = waits.reduce((sum, [, waitMs]) => sum + waitMs, 0);
  expect(Date.now() - started).toBeGreaterThanOrEqual(waited - 3); // it waited (timers may fire a ms early)
});

test("each wait is the server's and up to as long again, at random, so that clients refused together come back apart", () => {
  expect(waitBeforeAskingAgain(5_000, () => 0)).toBe(5_000);
  expect(waitBeforeAskingAgain(5_000, () => 0.5)).toBe(7_500);
  expect(waitBeforeAskingAgain(5_000, () => 0.9999)).toBe(10_000);
  const waits = new Set(Array.from({ length: 50 }, () => waitBeforeAskingAgain(5_000)));
  expect(waits.size).toBeGreaterThan(40); // spread, not one value
});

test("a refusal that does not pass, or any other failure, ends it at once", async () => {
  for (const failure of [
    new CardhallError("JOIN_REFUSED", "there is no such room"),
    new CardhallError("CONNECTION", "cannot reach the server"),
  ]) {
    const { join, tries } = scriptedJoin([failure]);
    const onWait = jest.fn();
    await expect(joinWhenTaken(join, { onWait })).rejects.toBe(failure);
    expect(tries()).toBe(1);
    expect(onWait).not.toHaveBeenCalled();
  }
});

test("gives up with the refusal when its wait would end past the time given", async () => {
  const first = passing();
  const { join, tries } = scriptedJoin([first, passing()]);
  await expect(joinWhenTaken(join, { withinMs: 15 })).rejects.toBe(first); // every wait is 20 ms or more
  expect(tries()).toBe(1);
});

test("an abort during a wait ends it with ABORTED, and no further try is made", async () => {
  const { join, tries } = scriptedJoin([new CardhallError("JOIN_REFUSED", "at capacity", undefined, 60_000)]);
  const controller = new AbortController();
  const waiting = joinWhenTaken(join, {
    signal: controller.signal,
    withinMs: 120_000,
    onWait: () => setTimeout(() => controller.abort(), 10),
  });
  await expect(waiting).rejects.toMatchObject({ code: "ABORTED" });
  expect(tries()).toBe(1);
});
