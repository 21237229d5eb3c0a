import type { Room } from "@colyseus/sdk";
import { boundedWait, RoomSession, SendPacer } from "../../client-sdk/session";
import { CLIENT_RATE_BUDGET, DEFAULT_RATE_BUDGET } from "../../rooms/kit/rate-limit";

interface CounterView {
  count: number;
}

/** Just enough of a joined SDK room for a session: a state that changes, its change listeners, and its end. */
function fakeRoom(initial: CounterView) {
  const listeners = new Set<() => void>();
  const leaveListeners: Array<(code: number) => void> = [];
  const state = { ...initial, toJSON: () => ({ count: state.count }) };
  const onStateChange = Object.assign((listener: () => void) => listeners.add(listener), {
    remove: (listener: () => void) => listeners.delete(listener),
  });
  const onLeave = (listener: (code: number) => void) => leaveListeners.push(listener);
  const room = { state, onStateChange, onLeave, onMessage: () => undefined } as unknown as Room;
  const change = (count: number) => {
    state.count = count;
    for (const listener of [...listeners]) listener();
  };
  const close = (code: number) => leaveListeners.forEach((listener) => listener(code));
  return { room, listeners, change, close };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("a session's end", () => {
  it.each([
    [4000, "LEFT"],
    [4101, "TAKEN_OVER"],
    [1006, "CONNECTION"],
    [4001, "SHUT_DOWN"],
    [4003, "CONNECTION"],
  ])(
    "after close code %i rejects the waits under way and to come with %s, and stops listening",
    async (closeCode, code) => {
      const { room, listeners, close } = fakeRoom({ count: 0 });
      const session = new RoomSession<CounterView, object>(room);
      const waiting = session.waitForView((view) => view.count > 0, 60_000);
      close(closeCode);
      await expect(waiting).rejects.toMatchObject({ code });
      await expect(session.waitForView(() => true, 60_000)).rejects.toMatchObject({ code });
      expect(session.ended?.code).toBe(code);
      await session.leave(); // resolves at once: there is nothing left to leave
      await settle();
      expect(listeners.size).toBe(0);
    },
  );
});

describe("waiting for the room's state", () => {
  it("resolves with the first view that satisfies the condition, and stops listening", async () => {
    const { room, listeners, change } = fakeRoom({ count: 0 });
    const waiting = new RoomSession<CounterView, object>(room).waitForView((view) => view.count >= 2, 5_000);
    change(1);
    change(2);
    await expect(waiting).resolves.toEqual({ count: 2 });
    await settle();
    expect(listeners.size).toBe(0);
  });

  it("rejects with ABORTED as soon as the signal aborts, and stops listening", async () => {
    const { room, listeners, change } = fakeRoom({ count: 0 });
    const stop = new AbortController();
    const waiting = new RoomSession<CounterView, object>(room).waitForView(
      (view) => view.count >= 2,
      60_000,
      undefined,
      stop.signal,
    );
    change(1);
    stop.abort();
    await expect(waiting).rejects.toMatchObject({ name: "CardhallError", code: "ABORTED" });
    await settle();
    expect(listeners.size).toBe(0);
    change(5); // a later change reaches nobody
  });

  it("rejects at once with ABORTED when the signal has already aborted", async () => {
    const { room, listeners } = fakeRoom({ count: 0 });
    const waiting = new RoomSession<CounterView, object>(room).waitForView(
      () => false,
      60_000,
      undefined,
      AbortSignal.abort(),
    );
    await expect(waiting).rejects.toMatchObject({ code: "ABORTED" });
    await settle();
    expect(listeners.size).toBe(0);
  });

  it("rejects with TIMEOUT when the condition is not met in time", async () => {
    const { room, listeners } = fakeRoom({ count: 0 });
    const waiting = new RoomSession<CounterView, object>(room).waitForView(() => false, 20);
    await expect(waiting).rejects.toMatchObject({ code: "TIMEOUT" });
    await settle();
    expect(listeners.size).toBe(0);
  });
});

describe("a bounded wait", () => {
  it("stops its watcher whether it found at once, later, timed out or was aborted", async () => {
    const stopped: string[] = [];
    const watcher = (name: string, findNow: boolean) => (found: (value: string) => void) => {
      if (findNow) found(name);
      return () => stopped.push(name);
    };
    await expect(boundedWait("now", 1_000, undefined, watcher("now", true))).resolves.toBe("now");
    let later: (value: string) => void = () => undefined;
    const waitingLater = boundedWait(
      "later",
      1_000,
      undefined,
      (found) => ((later = found), () => stopped.push("later")),
    );
    later("later");
    await expect(waitingLater).resolves.toBe("later");
    await expect(boundedWait("a turn", 10, undefined, watcher("timeout", false))).rejects.toMatchObject({
      code: "TIMEOUT",
      message: "a turn did not come within 10 ms",
    });
    const stop = new AbortController();
    const aborted = boundedWait("a card", 60_000, stop.signal, watcher("aborted", false));
    stop.abort();
    await expect(aborted).rejects.toMatchObject({ code: "ABORTED" });
    await settle();
    expect(stopped.sort()).toEqual(["aborted", "later", "now", "timeout"]);
  });

  it("does not start watching when the signal has already aborted", async () => {
    const watch = jest.fn(() => () => undefined);
    await expect(boundedWait("anything", 1_000, AbortSignal.abort(), watch)).rejects.toMatchObject({ code: "ABORTED" });
    expect(watch).not.toHaveBeenCalled();
  });
});

describe("SendPacer", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("lets a burst go at once, then holds each message until the budget allows it, in order", async () => {
    const pacer = new SendPacer();
    const sent: number[] = [];
    const turns = Array.from({ length: CLIENT_RATE_BUDGET.burst + 2 }, (_, index) =>
      pacer.turn().then(() => sent.push(index)),
    );
    await jest.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(CLIENT_RATE_BUDGET.burst);
    await jest.advanceTimersByTimeAsync(Math.ceil(1000 / CLIENT_RATE_BUDGET.perSecond) + 1);
    expect(sent).toHaveLength(CLIENT_RATE_BUDGET.burst + 1);
    await jest.advanceTimersByTimeAsync(Math.ceil(1000 / CLIENT_RATE_BUDGET.perSecond) + 1);
    await Promise.all(turns);
    expect(sent).toEqual(Array.from({ length: CLIENT_RATE_BUDGET.burst + 2 }, (_, index) => index));
  });

  test("stays within the rooms' budget whatever the pace asked of it", () => {
    expect(CLIENT_RATE_BUDGET.perSecond).toBeLessThan(DEFAULT_RATE_BUDGET.perSecond);
    expect(CLIENT_RATE_BUDGET.burst).toBeLessThan(DEFAULT_RATE_BUDGET.burst);
  });
});
