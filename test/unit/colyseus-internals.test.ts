/**
 * Every private member of Colyseus (and of @colyseus/schema, ws, @colyseus/sdk) the project relies on is there in
 * the installed version and does what the project relies on; and when one is missing, the start-up check (or the
 * room that needs it) says which, in which package and version (rooms/kit/colyseus-internals.ts,
 * client-sdk/colyseus-internals.ts).
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { AddressInfo, Socket } from "node:net";
import { LocalDriver, matchMaker, Room, type Client } from "@colyseus/core";
import { $changes, ArraySchema, Encoder, Reflection, Schema, type } from "@colyseus/schema";
import { Client as SdkClient, SchemaSerializer as SdkSerializer } from "@colyseus/sdk";
import WebSocket, { WebSocketServer } from "ws";
import {
  answerBeforeListeners,
  checkColyseusInternals,
  clearViewFramesWithoutAllocating,
  installedVersion,
  listHasPendingChanges,
  LOCAL_DRIVER_METHODS,
  localDriverRoomIds,
  matchMakerMethod,
  MissingColyseusInternal,
  schemaEncoders,
  setStateBufferSize,
  stateHandshakeOf,
  stateViewClearedWhenChanged,
  tcpSocketOf,
  useStateBuffers,
  wrapOnMessage,
  wrapReserveSeat,
  type InternalsSubjects,
} from "../../rooms/kit/colyseus-internals";
import {
  adoptDecoderTypes,
  checkHandshakeLayout,
  decoderTypesOf,
  MissingSdkInternal,
  reflectionBytes,
  SDK_WRITTEN_FOR,
} from "../../client-sdk/colyseus-internals";
import { ERROR_MESSAGE } from "../../rooms/kit/protocol";
import { MapClearedWhenFilled, OpsByIndex, SlotMap } from "../../rooms/kit/patch-maps";
import { useRoomTestServer, type RoomTestServer } from "../rooms/test-server";

let colyseus: RoomTestServer;
useRoomTestServer((server) => (colyseus = server));

/** The version in the package's own package.json, read here by its path in node_modules. */
function packageJsonVersion(name: string): string {
  const dir = path.join(process.cwd(), "node_modules", ...name.split("/"));
  return (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }).version;
}

const CORE = `@colyseus/core ${packageJsonVersion("@colyseus/core")}`;
const SCHEMA = `@colyseus/schema ${packageJsonVersion("@colyseus/schema")}`;

class Probe extends Schema {
  @type("string") name = "";
  @type(["string"]) list = new ArraySchema<string>();
}

function stubbed(subjects: Partial<InternalsSubjects>): string {
  try {
    checkColyseusInternals(subjects);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the check found nothing missing");
}

describe("on the installed versions", () => {
  test("the start-up check finds every member", () => {
    expect(() => checkColyseusInternals()).not.toThrow();
  });

  test("installed versions are read from the packages' package.json", () => {
    expect(installedVersion("@colyseus/core")).toBe(packageJsonVersion("@colyseus/core"));
    expect(installedVersion("@colyseus/schema")).toBe(packageJsonVersion("@colyseus/schema"));
    expect(installedVersion("no-such-package-here")).toBe("(not installed)");
  });

  test("Room#_reserveSeat: the wrapper is what the matchmaker calls to reserve a seat", async () => {
    const room = await colyseus.createRoom("evensteven", {});
    const reserved: string[] = [];
    wrapReserveSeat(room, (original) => (sessionId, ...rest) => {
      reserved.push(sessionId);
      return original.call(room, sessionId, ...rest);
    });
    const client = await colyseus.connectTo(room, { name: "probe" });
    expect(reserved).toEqual([client.sessionId]);
  });

  test("Room#_onMessage: the wrapper sees every frame a client sends, before Colyseus dispatches it", async () => {
    const room = await colyseus.createRoom("evensteven", {});
    const frames: string[] = [];
    // Colyseus binds the room's dispatch to each client as it joins: a client joining now gets the wrapper.
    wrapOnMessage(room, (original) => (who: Client, buffer: Buffer) => {
      frames.push(who.sessionId);
      original.call(room, who, buffer);
    });
    const client = await colyseus.connectTo(room, { name: "probe" });
    const refused = new Promise((resolve) => client.onMessage(ERROR_MESSAGE, resolve));
    client.send("no-such-message", {});
    await refused;
    expect(frames).toContain(client.sessionId);
  });

  test("Room#_serializer's handshake: made once, shared by a kind's rooms, and a handshake given is the one sent", async () => {
    const first = await colyseus.createRoom("evensteven", {});
    const second = await colyseus.createRoom("evensteven", {});
    const made = stateHandshakeOf(first).make();
    expect(made.length).toBeGreaterThan(0);
    expect(stateHandshakeOf(second).make()).toBe(made);
    const given = new Uint8Array(made);
    stateHandshakeOf(second).use(given);
    expect(stateHandshakeOf(second).make()).toBe(given);
  });

  test("SchemaSerializer's state buffers: every table encodes into the same two, and a full state is its own room's", async () => {
    type Serializing = {
      encoder: { sharedBuffer: Uint8Array };
      fullEncodeBuffer: Uint8Array;
      getFullState: () => Uint8Array;
    };
    const serializerOf = (room: Room) => (room as unknown as { _serializer: Serializing })._serializer;
    const first = await colyseus.createRoom("evensteven", {});
    const second = await colyseus.createRoom("evensteven", {});
    expect(serializerOf(second).encoder.sharedBuffer).toBe(serializerOf(first).encoder.sharedBuffer);
    expect(serializerOf(second).fullEncodeBuffer).toBe(serializerOf(first).fullEncodeBuffer);
    await colyseus.connectTo(first, { name: "alice" });
    await colyseus.connectTo(second, { name: "bob" });
    // Full states of the first table with nothing sent in between (Colyseus would reuse the one it encoded for
    // alice's join), after and around the second table's, encoded into the same buffer.
    const firstState = Uint8Array.from(serializerOf(first).getFullState());
    expect(Buffer.from(firstState).includes("alice")).toBe(true);
    expect(Buffer.from(serializerOf(second).getFullState()).includes("bob")).toBe(true);
    expect(Uint8Array.from(serializerOf(first).getFullState())).toEqual(firstState);
  });

  test("the maps cleared at every patch: a table's frames by view in a SlotMap, a seated person's view changes cleared only when filled", async () => {
    const room = await colyseus.createRoom("evensteven", {});
    const client = await colyseus.connectTo(room, { name: "alice" });
    expect((room as unknown as { _serializer: { encodedViews: unknown } })._serializer.encodedViews).toBeInstanceOf(
      SlotMap,
    );
    const seated = room.clients.find((each: Client) => each.sessionId === client.sessionId)!;
    expect(seated.view!.changes).toBeInstanceOf(MapClearedWhenFilled);
    // What the person sees is unchanged: their own hand, the field only their view holds (test/e2e/one-truth.test.ts
    // proves every view, every patch).
    const handOf = () => (client.state as unknown as { player?: { hand?: unknown[] } }).player?.hand?.length ?? 0;
    for (let wait = 0; wait < 50 && handOf() === 0; wait++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(handOf()).toBeGreaterThan(0);
  });

  test("a list's change records in place: a table's lists keep one OpsByIndex and one staged array from patch to patch", async () => {
    const room = await colyseus.createRoom("evensteven", {});
    const client = await colyseus.connectTo(room, { name: "alice" });
    const handOf = () => (client.state as unknown as { player?: { hand?: unknown[] } }).player?.hand?.length ?? 0;
    for (let wait = 0; wait < 50 && handOf() === 0; wait++) await new Promise((resolve) => setTimeout(resolve, 50));
    const hand = (room.state as unknown as { player: { hand: object } }).player.hand;
    const tree = (hand as Record<symbol, { collDirty: unknown }>)[$changes]!;
    expect(tree.collDirty).toBeInstanceOf(OpsByIndex);
    // A list of plain values: its staged items are copied into the array it has (test/unit/list-changes-in-place.test.ts
    // proves the bytes the same as without it).
    const staged = (hand as { tmpItems: unknown[] }).tmpItems;
    expect(staged).toEqual([...(hand as Iterable<unknown>)]);
  });

  test("Encoder.BUFFER_SIZE: a state encoder made after it is set takes the size", () => {
    const copies = schemaEncoders();
    const before = copies.map((copy) => copy.Encoder.BUFFER_SIZE);
    try {
      setStateBufferSize(3 * 1024);
      for (const copy of copies) expect(copy.Encoder.BUFFER_SIZE).toBe(3 * 1024);
      expect(new Encoder(new Probe()).sharedBuffer.byteLength).toBe(3 * 1024);
    } finally {
      copies.forEach((copy, index) => (copy.Encoder.BUFFER_SIZE = before[index]!));
    }
  });

  test("a list's change record: empty once its patch is sent, holding a change until the next", () => {
    const state = new Probe();
    const encoder = new Encoder(state);
    encoder.encode();
    encoder.discardChanges();
    expect(listHasPendingChanges(state.list)).toBe(false);
    state.list.push("a");
    expect(listHasPendingChanges(state.list)).toBe(true);
    encoder.encode();
    encoder.discardChanges();
    expect(listHasPendingChanges(state.list)).toBe(false);
    state.name = "only the name changed";
    expect(listHasPendingChanges(state.list)).toBe(false);
  });

  test("ws's WebSocket#_socket: the TCP socket under a server-side WebSocket, which corks", async () => {
    const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
    await new Promise((resolve) => wss.once("listening", resolve));
    const accepted = new Promise<WebSocket>((resolve) => wss.once("connection", resolve));
    const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    await new Promise((resolve) => client.once("open", resolve));
    try {
      const socket = tcpSocketOf(await accepted) as Socket;
      expect(typeof socket.cork).toBe("function");
      expect(socket.remotePort).toBeGreaterThan(0);
    } finally {
      client.terminate();
      await new Promise((resolve) => wss.close(resolve));
    }
    expect(
      tcpSocketOf(
        new (WebSocket as unknown as new (a: null, p: undefined, o: object) => WebSocket)(null, undefined, {}),
      ),
    ).toBeUndefined();
  });

  test("http.Server#emit: an answer given first is the only one; other requests reach the listeners", async () => {
    const heard: string[] = [];
    const server = http.createServer((req, res) => {
      heard.push(req.url ?? "");
      res.end("listener");
    });
    answerBeforeListeners(server, (req, res) => {
      if (req.url !== "/first") return false;
      res.end("first");
      return true;
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(await (await fetch(`${base}/first`)).text()).toBe("first");
      expect(await (await fetch(`${base}/other`)).text()).toBe("listener");
      expect(heard).toEqual(["/other"]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("LocalDriver: its methods are the ones the index knows, and insert lists a room in its public list", async () => {
    const names = Object.getOwnPropertyNames(LocalDriver.prototype).filter((name) => name !== "constructor");
    expect([...names].sort()).toEqual([...LOCAL_DRIVER_METHODS].sort());
    const driver = new LocalDriver();
    const room = { roomId: "r1", name: "evensteven" } as Parameters<LocalDriver["insert"]>[0];
    await driver.insert(room);
    expect(driver.rooms).toEqual([room]);
    expect([...localDriverRoomIds(driver)]).toEqual(["r1"]);
    driver.remove("r1");
    expect(localDriverRoomIds(driver).size).toBe(0);
  });

  test("matchMaker's exposed methods are its functions by name", () => {
    for (const method of matchMaker.controller.exposedMethods)
      expect(matchMakerMethod(method)).toBe((matchMaker as unknown as Record<string, unknown>)[method]);
    expect(matchMakerMethod("joinOrCreate")).toBe(matchMaker.joinOrCreate);
  });

  test("@colyseus/sdk's handshake: the reflection runs to the end of what it is handed, and its types can be reused", () => {
    const state = new Probe();
    state.name = "shared";
    state.list.push("x", "y");
    const encoder = new Encoder(state);
    const reflection = Reflection.encode(encoder);
    const message = new Uint8Array([9, 9, ...reflection]);
    const first = new SdkSerializer();
    const it = { offset: 2 };
    expect(reflectionBytes(message, it)).toEqual(reflection);
    first.handshake(message, it);
    expect(() => checkHandshakeLayout(message, it)).not.toThrow();
    const types = decoderTypesOf(first);
    const second = new SdkSerializer();
    const again = { offset: 2 };
    adoptDecoderTypes(second, types, message, again);
    expect(again.offset).toBe(message.byteLength);
    expect(second.state).toBeInstanceOf(types.rootClass);
    expect(second.state).not.toBe(first.state);
    second.setState(encoder.encodeAll());
    expect((second.state as { name: string }).name).toBe("shared");
    expect([...(second.state as { list: string[] }).list]).toEqual(["x", "y"]);
  });
});

describe("a member missing is reported with its package, installed version and name", () => {
  test("Room#_reserveSeat and Room#_onMessage, at start-up", () => {
    const message = stubbed({ roomPrototype: { _onMessage() {} } });
    expect(message).toContain(`${CORE}: Room#_reserveSeat() is missing`);
    expect(message).not.toContain("_onMessage");
    expect(stubbed({ roomPrototype: { _reserveSeat() {}, _onMessageRenamed() {} } })).toContain(
      `${CORE}: Room#_onMessage() is missing`,
    );
  });

  test("Room#_reserveSeat, Room#_onMessage and Room#_serializer, as a room is created", () => {
    const room = new Room();
    delete (room as unknown as Record<string, unknown>)._serializer;
    Object.assign(room, { _reserveSeat: undefined, _onMessage: undefined });
    expect(() => wrapReserveSeat(room, (original) => original)).toThrow(
      `${CORE}: Room#_reserveSeat() is missing (needed by the seat guard of rooms/kit/reservations.ts`,
    );
    expect(() => wrapOnMessage(room, (original) => original)).toThrow(
      `${CORE}: Room#_onMessage() is missing (needed by the frame screen of rooms/kit/frames.ts`,
    );
    expect(() => stateHandshakeOf(room)).toThrow(MissingColyseusInternal);
    expect(() => stateHandshakeOf(room)).toThrow(
      `${CORE}: Room#_serializer with SchemaSerializer#handshake() and #handshakeCache is missing`,
    );
  });

  test("Schema.initialize gone, or a state object's values kept elsewhere", () => {
    expect(stubbed({ schemaStatics: {} })).toContain(
      `${SCHEMA}: Schema.initialize (a state object's $values array, made empty) is missing (needed by the state objects' values arrays sized to their fields`,
    );
    expect(stubbed({ stateObject: () => ({}) })).toContain(
      `${SCHEMA}: Schema.initialize (a state object's $values array, made empty) is not where a state object keeps its values`,
    );
  });

  test("the serializer kept elsewhere, or a handshake not kept", () => {
    expect(stubbed({ roomWithSerializer: (serializer) => ({ serializer }) })).toContain(
      `${CORE}: Room#_serializer is not where the room keeps the serializer`,
    );
    const made = new Uint8Array([1]);
    expect(stubbed({ stateSerializer: () => ({ handshake: () => made }) })).toContain(
      `${CORE}: SchemaSerializer#handshakeCache does not keep the handshake once made`,
    );
    expect(stubbed({ stateSerializer: () => ({ makeHandshake: () => made }) as object })).toContain(
      `${CORE}: SchemaSerializer#handshake() is missing`,
    );
  });

  test("the state buffers, at start-up and as a room is created", () => {
    const made = new Uint8Array([1]);
    expect(stubbed({ stateSerializer: () => ({ handshake: () => made, handshakeCache: made }) })).toContain(
      `${CORE}: Room#_serializer with SchemaSerializer#encoder.sharedBuffer, #fullEncodeBuffer, #needFullEncode and #getFullState() is missing`,
    );
    const room = new Room();
    expect(() => useStateBuffers(room, { patch: new Uint8Array(8), full: new Uint8Array(8) })).toThrow(
      `${CORE}: Room#_serializer with SchemaSerializer#encoder.sharedBuffer`,
    );
  });

  test("the maps cleared at every patch, at start-up and as a room is created", () => {
    expect(stubbed({ viewedStateSerializer: () => ({ hasFilters: true, encodedViews: {} }) as never })).toContain(
      `${CORE}: SchemaSerializer#encodedViews (a Map, get, set and clear only) is not a Map on a state with @view fields`,
    );
    expect(stubbed({ stateView: () => ({ changes: [] }) })).toContain(
      `${SCHEMA}: StateView#changes (a Map) is not a Map`,
    );
    const room = new Room();
    (room as unknown as { _serializer: object })._serializer = { hasFilters: true, frames: new Map() };
    expect(() => clearViewFramesWithoutAllocating(room)).toThrow(
      `${CORE}: SchemaSerializer#encodedViews (a Map, get, set and clear only) is missing`,
    );
    expect(stateViewClearedWhenChanged().changes).toBeInstanceOf(MapClearedWhenFilled);
  });

  test("a list's change records kept in place", () => {
    const { list } = new Probe();
    const tree = () => ({ reset() {}, insertAt() {}, removeAt() {}, collDirty: new Map() });
    expect(stubbed({ listChangeTree: () => ({ tree: { reset() {}, collDirty: new Map() }, list }) })).toContain(
      `${SCHEMA}: ChangeTree#reset, #insertAt, #removeAt and a list tree's collDirty (a Map) is missing`,
    );
    expect(stubbed({ listChangeTree: () => ({ tree: { ...tree(), collDirty: [] }, list }) })).toContain(
      `${SCHEMA}: ChangeTree#reset, #insertAt, #removeAt and a list tree's collDirty (a Map) holds no map of a list's pending operations`,
    );
    expect(stubbed({ listChangeTree: () => ({ tree: tree(), list: { items: [], tmpItems: [] } }) })).toContain(
      `${SCHEMA}: ArraySchema#["~onEncodeEnd"] with its items, tmpItems and deletedIndexes is missing`,
    );
    expect(() => checkColyseusInternals({ listChangeTree: () => ({ tree: tree(), list }) })).not.toThrow();
  });

  test("Encoder.BUFFER_SIZE", () => {
    expect(
      stubbed({ encoders: () => [{ build: "CommonJS build", Encoder: { BUFFER_SIZE_BYTES: 4096 } as object }] }),
    ).toContain(`${SCHEMA}: Encoder.BUFFER_SIZE of its CommonJS build is not a number`);
  });

  test("a list's change record", () => {
    // As if a later schema renamed the record: the change is made, the map is elsewhere.
    const listInState = () => {
      const state = new Probe();
      const encoder = new Encoder(state);
      encoder.encode();
      encoder.discardChanges();
      const change = () => {
        state.list.push("a");
        const tree = (state.list as unknown as Record<symbol, unknown>)[$changes] as unknown as Record<string, unknown>;
        tree.pendingOps = tree.collDirty;
        delete tree.collDirty;
      };
      return { list: state.list, change };
    };
    expect(stubbed({ listInState })).toContain(
      `${SCHEMA}: a collection's change tree (list[$changes]) with its collDirty map is missing or does not report a change not yet sent`,
    );
  });

  test("ws's WebSocket#_socket", () => {
    expect(stubbed({ serverWebSocket: () => ({ socket: null }) })).toContain(
      `ws ${installedVersion("ws", path.dirname(require.resolve("@colyseus/ws-transport")))}: WebSocket#_socket (its TCP socket) is missing`,
    );
  });

  test("LocalDriver: a method the index overrides gone, or one it does not know", () => {
    const { findOne: _findOne, ...withoutFindOne } = Object.fromEntries(
      LOCAL_DRIVER_METHODS.map((name) => [name, () => undefined]),
    );
    expect(stubbed({ localDriverPrototype: withoutFindOne })).toContain(
      `${CORE}: LocalDriver#findOne is missing (needed by the rooms indexed by id, server/cluster/local-driver.ts`,
    );
    const withMore = Object.fromEntries([...LOCAL_DRIVER_METHODS, "sweep"].map((name) => [name, () => undefined]));
    expect(stubbed({ localDriverPrototype: withMore })).toContain(
      `${CORE}: LocalDriver has methods the index does not know: sweep`,
    );
  });

  test("LocalDriver's set of listed ids", () => {
    const driver = new LocalDriver();
    Object.assign(driver, { roomIds: [] });
    expect(stubbed({ localDriverWithRoom: () => driver })).toContain(
      `${CORE}: LocalDriver#roomIds (the set of listed ids) is missing (needed by removing a room by its entry, server/cluster/local-driver.ts`,
    );
  });

  test("matchMaker's exposed methods", () => {
    const maker = { controller: { exposedMethods: ["joinOrCreate", "join"] }, joinOrCreate: () => undefined };
    expect(stubbed({ matchMaker: maker })).toContain(`${CORE}: matchMaker.join (exposed to clients) is missing`);
  });

  test("every member missing at once is listed in one error", () => {
    const message = stubbed({ roomPrototype: {}, serverWebSocket: () => ({}) });
    expect(message.split("\n").filter((line) => line.startsWith("- "))).toHaveLength(3);
  });

  test("@colyseus/sdk's handshake layout and decoder members", () => {
    const it = { offset: 1 };
    expect(() => checkHandshakeLayout(new Uint8Array(4), it)).toThrow(MissingSdkInternal);
    expect(() => checkHandshakeLayout(new Uint8Array(4), it)).toThrow(
      `@colyseus/sdk ${SdkClient.VERSION}: SchemaSerializer#handshake(bytes, it) was handed 3 bytes more than the reflection`,
    );
    expect(() => decoderTypesOf(new SdkSerializer())).toThrow(
      `@colyseus/sdk ${SdkClient.VERSION}: SchemaSerializer#decoder is missing after a handshake (needed by the shared state types, client-sdk/known-types.ts; written for @colyseus/sdk ${SDK_WRITTEN_FOR}`,
    );
    const noContext = Object.assign(new SdkSerializer(), { decoder: {}, state: {} });
    expect(() => decoderTypesOf(noContext)).toThrow("Decoder#context is missing");
  });
});
