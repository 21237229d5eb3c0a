import { TimedEventException, type Room } from "@colyseus/core";
import { clearRoomTimers, patchOnChange, RoomTimer, SWEEP_PATCH_MS } from "../../rooms/kit/room-kit";
import { lazySeededRandom, seededRandom } from "../../rooms/kit/random";

/** Just what the kit touches of a room: its patches, its sweep, its error hook and its lifecycle steps. */
function fakeRoom() {
  const calls: string[] = [];
  const room = {
    patchRate: 50 as number | null,
    broadcastPatch: jest.fn(() => (calls.push("patch"), true)),
    onUncaughtException: jest.fn(),
    onJoin: jest.fn((name: string) => (calls.push(`join ${name}`), undefined)),
    onLeave: jest.fn(() => {
      calls.push("leave");
      throw new Error("leave failed");
    }),
    onDrop: jest.fn(async () => {
      calls.push("drop");
      await new Promise(() => undefined); // waits for a return that never comes
    }),
  };
  return { room, calls, asRoom: room as unknown as Room };
}

describe("RoomTimer", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("runs its action once after the delay, then sends the room's patch", () => {
    const { room, calls, asRoom } = fakeRoom();
    const timer = new RoomTimer(asRoom);
    timer.start(200, () => calls.push("action"));
    expect(timer.isPending).toBe(true);
    jest.advanceTimersByTime(199);
    expect(calls).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(calls).toEqual(["action", "patch"]);
    expect(timer.isPending).toBe(false);
    jest.advanceTimersByTime(10_000);
    expect(room.broadcastPatch).toHaveBeenCalledTimes(1);
  });

  test("a new start replaces the pending action; clear cancels it", () => {
    const { calls, asRoom } = fakeRoom();
    const timer = new RoomTimer(asRoom);
    timer.start(100, () => calls.push("first"));
    timer.start(100, () => calls.push("second"));
    jest.advanceTimersByTime(100);
    expect(calls).toEqual(["second", "patch"]);
    timer.start(100, () => calls.push("third"));
    timer.clear();
    jest.advanceTimersByTime(1000);
    expect(calls).toEqual(["second", "patch"]);
  });

  test("clearing a room's timers cancels every one of them, and only that room's", () => {
    const disposed = fakeRoom();
    const other = fakeRoom();
    new RoomTimer(disposed.asRoom).start(100, () => disposed.calls.push("turn clock"));
    new RoomTimer(disposed.asRoom).start(5_000, () => disposed.calls.push("start delay"));
    const survivor = new RoomTimer(other.asRoom);
    survivor.start(100, () => other.calls.push("other room"));
    clearRoomTimers(disposed.asRoom);
    jest.advanceTimersByTime(10_000);
    expect(disposed.calls).toEqual([]);
    expect(other.calls).toEqual(["other room", "patch"]);
  });

  test("an action that throws goes to the room's onUncaughtException and nothing escapes", () => {
    const { room, asRoom } = fakeRoom();
    new RoomTimer(asRoom).start(0, () => {
      throw new Error("broken");
    });
    expect(() => jest.advanceTimersByTime(1)).not.toThrow();
    expect(room.onUncaughtException).toHaveBeenCalledTimes(1);
    const [exception, method] = room.onUncaughtException.mock.calls[0];
    expect(exception).toBeInstanceOf(TimedEventException);
    expect((exception as TimedEventException).cause).toEqual(new Error("broken"));
    expect(method).toBe("setTimeout");
  });
});

describe("patchOnChange", () => {
  test("slows the sweep to SWEEP_PATCH_MS", () => {
    const { room, asRoom } = fakeRoom();
    patchOnChange(asRoom);
    expect(room.patchRate).toBe(SWEEP_PATCH_MS);
  });

  test("each lifecycle step sends its changes when it returns, throws or starts waiting", async () => {
    const { room, calls, asRoom } = fakeRoom();
    patchOnChange(asRoom);
    room.onJoin("ann");
    expect(calls).toEqual(["join ann", "patch"]);
    expect(() => room.onLeave()).toThrow("leave failed");
    expect(calls).toEqual(["join ann", "patch", "leave", "patch"]);
    void room.onDrop();
    expect(calls).toEqual(["join ann", "patch", "leave", "patch", "drop", "patch"]);
  });

  test("a room without a step does not get one", () => {
    const { asRoom } = fakeRoom();
    patchOnChange(asRoom);
    expect((asRoom as unknown as Record<string, unknown>).onReconnect).toBeUndefined();
  });
});

describe("dice made when first thrown (lazySeededRandom)", () => {
  test("throw the seeded generator's sequence, from the first number on", () => {
    const eager = seededRandom("42:policies");
    const lazy = lazySeededRandom("42:policies");
    const draws = 50;
    expect(Array.from({ length: draws }, () => lazy())).toEqual(Array.from({ length: draws }, () => eager()));
    expect(lazySeededRandom("43:policies")()).not.toBe(seededRandom("42:policies")());
  });
});
