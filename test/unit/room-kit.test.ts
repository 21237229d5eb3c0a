import { ServerError, type Room } from "@colyseus/core";
import { z } from "zod";
import { clearRoomTimers, lifecycleStep, parseRoomOptions, RoomTimer } from "../../rooms/kit/room-kit";
import { takeConsole } from "../setup/console";
import { lazySeededRandom, seededRandom } from "../../rooms/kit/random";

/** Just what the kit touches of a room: its patches, and its name and id for the log. */
function fakeRoom() {
  const calls: string[] = [];
  const room = {
    roomName: "fake",
    roomId: "r1",
    broadcastPatch: jest.fn(() => (calls.push("patch"), true)),
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

  test("an action that throws is logged by its kind alone (never its message) and nothing escapes", () => {
    const { asRoom } = fakeRoom();
    new RoomTimer(asRoom).start(0, () => {
      throw new TypeError("the hidden ace of spades");
    });
    expect(() => jest.advanceTimersByTime(1)).not.toThrow();
    const logged = takeConsole(/handler_failed/);
    expect(logged).toEqual([expect.stringContaining("setTimeout failed (TypeError)")]);
    expect(logged[0]).not.toContain("ace");
  });
});

describe("lifecycleStep", () => {
  test("sends the step's changes when it returns, and hands back what it returned", () => {
    const { calls, asRoom } = fakeRoom();
    expect(lifecycleStep(asRoom, "onJoin", () => (calls.push("join ann"), 7))).toBe(7);
    expect(calls).toEqual(["join ann", "patch"]);
  });

  test("a step that throws is logged by its kind, its changes are sent, and Colyseus gets the exception", () => {
    const { calls, asRoom } = fakeRoom();
    expect(() =>
      lifecycleStep(asRoom, "onLeave", () => {
        calls.push("leave");
        throw new RangeError("seat 9 holds the queen of hearts");
      }),
    ).toThrow(RangeError);
    expect(calls).toEqual(["leave", "patch"]);
    const logged = takeConsole(/handler_failed/);
    expect(logged).toEqual([expect.stringContaining("onLeave failed (RangeError)")]);
    expect(logged[0]).not.toContain("queen");
  });

  test("a refused join (ServerError) goes back to Colyseus without a log line", () => {
    const { asRoom } = fakeRoom();
    expect(() =>
      lifecycleStep(asRoom, "onJoin", () => {
        throw new ServerError(4403, "every seat is taken");
      }),
    ).toThrow("every seat is taken");
    expect(takeConsole(/handler_failed/)).toEqual([]);
  });

  test("a step that waits has its changes sent when it starts waiting, and a rejection is logged and handed back", async () => {
    const { calls, asRoom } = fakeRoom();
    let giveUp: (error: Error) => void = () => undefined;
    const waiting = lifecycleStep(asRoom, "onDrop", async () => {
      calls.push("drop");
      await new Promise((_, reject) => (giveUp = reject));
    });
    expect(calls).toEqual(["drop", "patch"]);
    giveUp(new Error("the window closed"));
    await expect(waiting).rejects.toThrow("the window closed");
    expect(takeConsole(/handler_failed/)).toEqual([expect.stringContaining("onDrop failed (Error)")]);
    expect(calls).toEqual(["drop", "patch"]);
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

describe("parseRoomOptions", () => {
  const seatOptions = z.object({ name: z.string().max(5).optional(), seat: z.number().int().optional() });
  const otherOptions = z.object({ name: z.string().optional() });

  test("checks one options object once for a schema: the route's check, the reservation and the join read the same result", () => {
    const parse = jest.spyOn(seatOptions, "safeParse");
    const options = { name: "Ann", seat: 1 };
    const first = parseRoomOptions(seatOptions, options, "join");
    expect(first).toEqual({ name: "Ann", seat: 1 });
    expect(parseRoomOptions(seatOptions, options, "join")).toBe(first);
    expect(parseRoomOptions(seatOptions, options, "create")).toBe(first);
    expect(parse).toHaveBeenCalledTimes(1);
    // Another object with the same content is checked for itself.
    expect(parseRoomOptions(seatOptions, { name: "Ann", seat: 1 }, "join")).toEqual(first);
    expect(parse).toHaveBeenCalledTimes(2);
    parse.mockRestore();
  });

  test("the same object under another schema is checked against that schema", () => {
    const options = { name: "Annabelle" };
    expect(parseRoomOptions(otherOptions, options, "join")).toEqual({ name: "Annabelle" });
    expect(() => parseRoomOptions(seatOptions, options, "join")).toThrow(/bad options: .*name/);
  });

  test("bad options are refused every time, with the create's HTTP status or the join's close code", () => {
    const options = { seat: "two" };
    for (const [when, code] of [
      ["join", 4400],
      ["create", 400],
      ["join", 4400],
    ] as const) {
      let refusal: unknown;
      try {
        parseRoomOptions(seatOptions, options, when);
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(ServerError);
      expect((refusal as ServerError).code).toBe(code);
      expect((refusal as ServerError).message).toMatch(/bad options: .*seat/);
    }
  });

  test("no options at all are checked as empty ones", () => {
    expect(parseRoomOptions(seatOptions, undefined, "join")).toEqual({});
  });
});
