/**
 * The kit's defences on their own: how a client's frame is read before Colyseus sees it, and how promised places
 * are held, taken and released (with the per-address count they keep).
 */
import { Protocol } from "@colyseus/core";
import { pack } from "msgpackr";
import { readFrame } from "../../rooms/kit/frames";
import { pendingJoins, PromisedPlaces } from "../../rooms/kit/reservations";

function frame(...parts: Array<number[] | Buffer>): Buffer {
  return Buffer.concat(parts.map((part) => (Buffer.isBuffer(part) ? part : Buffer.from(part))));
}

/** A msgpack fixstr, as the SDK encodes a message type. */
function fixstr(text: string): number[] {
  return [0xa0 | text.length, ...Buffer.from(text)];
}

describe("readFrame", () => {
  test("a send and a request are read with their type and payload; control frames pass", () => {
    expect(readFrame(frame([Protocol.ROOM_DATA], fixstr("move"), pack({ card: "9H" })))).toEqual({
      kind: "message",
      requestId: undefined,
      type: "move",
      payload: { card: "9H" },
    });
    expect(readFrame(frame([Protocol.ROOM_REQUEST, 7], fixstr("*"), pack({})))).toEqual({
      kind: "message",
      requestId: 7,
      type: "*",
      payload: {},
    });
    expect(readFrame(frame([Protocol.ROOM_DATA], fixstr("hint")))).toEqual({
      kind: "message",
      requestId: undefined,
      type: "hint",
      payload: undefined,
    });
    for (const code of [Protocol.JOIN_ROOM, Protocol.PING, Protocol.LEAVE_ROOM])
      expect(readFrame(frame([code]))).toEqual({ kind: "control" });
  });

  test("junk is named by kind, never decoded further", () => {
    expect(readFrame(Buffer.alloc(0))).toMatchObject({ kind: "junk", why: "empty" });
    expect(readFrame(frame([99, 1, 2]))).toMatchObject({ kind: "junk", why: "unknown kind" });
    expect(readFrame(frame([Protocol.ROOM_DATA | 0x20], fixstr("move")))).toMatchObject({
      kind: "junk",
      why: "unknown kind",
    });
    expect(readFrame(frame([Protocol.ROOM_DATA_BYTES], fixstr("x"), [1, 2]))).toMatchObject({
      kind: "junk",
      why: "bytes message",
    });
    expect(readFrame(frame([Protocol.ROOM_REQUEST]))).toMatchObject({ kind: "junk", why: "undecodable" });
    // A type cut short reads as what is there, as Colyseus reads it: a type no room defines.
    expect(readFrame(frame([Protocol.ROOM_DATA, 0xa4, 0x6d]))).toEqual({
      kind: "message",
      requestId: undefined,
      type: "m",
      payload: undefined,
    });
    expect(readFrame(frame([Protocol.ROOM_REQUEST, 3], fixstr("move"), [0x82, 0xa1]))).toMatchObject({
      kind: "junk",
      why: "undecodable",
      requestId: 3,
      type: "move",
    });
  });
});

describe("PromisedPlaces", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test("a promise holds its place until taken, and counts against its address until then", () => {
    const places = new PromisedPlaces();
    places.promise("creator", 0, "10.0.0.1", 16_000, () => undefined);
    places.promise("watcher", "watch", "10.0.0.1", 16_000, () => undefined);
    expect(places.isSeatPromised(0)).toBe(true);
    expect(places.isSeatPromised(1)).toBe(false);
    expect(places.spectators).toBe(1);
    expect(pendingJoins.count("10.0.0.1")).toBe(2);
    expect(places.take("creator")).toBe(0);
    expect(places.isSeatPromised(0)).toBe(false);
    expect(pendingJoins.count("10.0.0.1")).toBe(1);
    places.clear();
    expect(pendingJoins.count("10.0.0.1")).toBe(0);
  });

  test("a promise never taken expires and leaves nothing behind", () => {
    const places = new PromisedPlaces();
    const expired: string[] = [];
    places.promise("ghost", 1, "10.0.0.2", 16_000, () => expired.push("ghost"));
    jest.advanceTimersByTime(16_000);
    expect(expired).toEqual(["ghost"]);
    expect(places.isSeatPromised(1)).toBe(false);
    expect(places.take("ghost")).toBeUndefined();
    expect(pendingJoins.count("10.0.0.2")).toBe(0);
  });

  test("an address over its bound is full; a null address (a server-made join) never is", () => {
    const places = new PromisedPlaces();
    for (let index = 0; index < pendingJoins.limit; index++)
      places.promise(`s${index}`, "watch", "10.0.0.3", 16_000, () => undefined);
    expect(pendingJoins.isFull("10.0.0.3")).toBe(true);
    expect(pendingJoins.isFull("10.0.0.4")).toBe(false);
    expect(pendingJoins.isFull(null)).toBe(false);
    places.clear();
    expect(pendingJoins.isFull("10.0.0.3")).toBe(false);
  });
});
