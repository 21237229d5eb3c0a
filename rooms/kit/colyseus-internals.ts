/**
 * Every use the server makes of a member of Colyseus (or of @colyseus/schema, or of ws under Colyseus's transport)
 * that is not public API, and of behaviour of theirs that no public API promises. Each is one small function here,
 * saying what it does, why nothing public serves, and which version it was written for; nothing else in the server
 * reaches past a public API. (The client SDK's own such use is client-sdk/colyseus-internals.ts: the SDK is bundled
 * for browsers and cannot import this module's @colyseus/core, fs or path.)
 *
 * An upgrade that renames or drops one of them would otherwise go on without a word (a room whose seat guard or
 * frame screen silently stopped working, a handshake made per room again, state buffers of 16 KB again). So:
 * - `checkColyseusInternals()` looks for every one when the server composes (server/app.ts, makeServer) and throws
 *   one error naming each package, its installed version and the member missing;
 * - the room-level ones are looked for again on the room itself when it is created, by the function that uses them,
 *   with the same error: the first room of a kind fails at once, loudly.
 * test/unit/colyseus-internals.test.ts checks that each member is there and does what the server relies on.
 *
 * Written for @colyseus/core 0.18.17, @colyseus/schema 5.0.34, @colyseus/ws-transport 0.18.4 (ws 8.23.0).
 */
import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import type { Socket } from "node:net";
import { LocalDriver, matchMaker, Room, SchemaSerializer, type AuthContext, type Client } from "@colyseus/core";
import {
  $changes,
  $childType,
  $numFields,
  $values,
  ArraySchema,
  ChangeTree,
  Encoder,
  Schema,
  StateView,
  type,
  view,
} from "./schema";
import { MapClearedWhenFilled, OpsByIndex, SlotMap } from "./patch-maps";
import WebSocket from "ws";

/** The versions the functions below were written against (and checked with). */
export const WRITTEN_FOR = {
  "@colyseus/core": "0.18.17",
  "@colyseus/schema": "5.0.34",
  ws: "8.23.0",
} as const;

export type InternalsPackage = keyof typeof WRITTEN_FOR;

/** Where `ws` is resolved from: the copy Colyseus's transport uses. */
function wsResolvedFrom(): string | undefined {
  try {
    return path.dirname(require.resolve("@colyseus/ws-transport"));
  } catch {
    return undefined;
  }
}

/**
 * The installed version of `name`, read from its package.json (found from the entry point `require.resolve` gives:
 * these packages' export maps do not all let their package.json be required).
 */
export function installedVersion(name: string, from?: string): string {
  let dir: string;
  try {
    dir = path.dirname(require.resolve(name, from === undefined ? undefined : { paths: [from] }));
  } catch {
    return "(not installed)";
  }
  for (;;) {
    const file = path.join(dir, "package.json");
    try {
      const json = JSON.parse(fs.readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (json.name === name && typeof json.version === "string") return json.version;
    } catch {
      // no package.json here (or not this package's): look further up
    }
    const up = path.dirname(dir);
    if (up === dir) return "(version unknown)";
    dir = up;
  }
}

function versionOf(pkg: InternalsPackage): string {
  return installedVersion(pkg, pkg === "ws" ? wsResolvedFrom() : undefined);
}

/** A member the server relies on is missing (or no longer does what it did) in the installed package. */
export class MissingColyseusInternal extends Error {
  constructor(
    readonly pkg: InternalsPackage,
    readonly member: string,
    readonly use: string,
    readonly problem = "is missing",
    readonly installed: string = versionOf(pkg),
  ) {
    super(
      `${pkg} ${installed}: ${member} ${problem} (needed by ${use}; written for ${pkg} ${WRITTEN_FOR[pkg]}: see rooms/kit/colyseus-internals.ts)`,
    );
    this.name = "MissingColyseusInternal";
  }
}

/** Several members missing at once: the start-up check reports every one. */
export class MissingColyseusInternals extends Error {
  constructor(readonly missing: readonly MissingColyseusInternal[]) {
    super(
      `the installed Colyseus lacks what cardhall relies on:\n${missing.map((each) => `- ${each.message}`).join("\n")}`,
    );
    this.name = "MissingColyseusInternals";
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Room#_reserveSeat (@colyseus/core 0.18.17): rooms/kit/reservations.ts

/** Colyseus's (private) reservation of a seat for a session, between the matchmaking request and the connection. */
export type ReserveSeat = (
  sessionId: string,
  joinOptions?: unknown,
  authData?: unknown,
  seconds?: number,
  allowReconnection?: boolean,
  ...rest: unknown[]
) => Promise<boolean>;

const RESERVE_SEAT = {
  pkg: "@colyseus/core",
  member: "Room#_reserveSeat()",
  use: "the seat guard of rooms/kit/reservations.ts",
} as const;

/**
 * Puts `wrap(original)` in place of the room's `_reserveSeat`, the method the matchmaker calls (on the instance) to
 * reserve a seat; given a room class's prototype, in place of every room's of that class. Colyseus 0.18 has no public hook between a reservation and its room: onAuth runs later, at the
 * connection, and an exception thrown in `_reserveSeat` is turned into "room is full". Throws if it is gone.
 */
export function wrapReserveSeat(room: Room, wrap: (original: ReserveSeat) => ReserveSeat): void {
  const original = (room as unknown as { _reserveSeat?: ReserveSeat })._reserveSeat;
  if (typeof original !== "function")
    throw new MissingColyseusInternal(RESERVE_SEAT.pkg, RESERVE_SEAT.member, RESERVE_SEAT.use);
  Object.assign(room, { _reserveSeat: wrap(original) });
}

// ---------------------------------------------------------------------------------------------------------------
// Room#_events, its "dispose" (@colyseus/core 0.18.17): rooms/kit/table.ts

const DISPOSAL = {
  pkg: "@colyseus/core",
  member: 'Room#_events (its "dispose" event)',
  use: "the table's stop at the start of its disposal, rooms/kit/table.ts",
} as const;

/**
 * Calls `listener` once, when Colyseus decides to dispose of the room: before it awaits the driver's removal of the
 * room's listing (a round trip to Redis in a cluster) and only then calls onDispose. Colyseus 0.18 has no public hook
 * at that moment, and whatever the room does between the two (its bots' moves, their timers) is for nobody. Throws
 * if it is gone.
 */
export function whenDisposalBegins(room: Room, listener: () => void): void {
  const events = (room as unknown as { _events?: { once?: unknown } })._events;
  if (typeof events?.once !== "function")
    throw new MissingColyseusInternal(DISPOSAL.pkg, DISPOSAL.member, DISPOSAL.use);
  (events as { once: (event: string, listener: () => void) => void }).once("dispose", listener);
}

// ---------------------------------------------------------------------------------------------------------------
// Room#_onMessage (@colyseus/core 0.18.17): rooms/kit/frames.ts

/** Colyseus's (private) dispatch of one frame a client sent. */
export type OnMessage = (client: Client, buffer: Buffer) => void;

const ON_MESSAGE = {
  pkg: "@colyseus/core",
  member: "Room#_onMessage()",
  use: "the frame screen of rooms/kit/frames.ts",
} as const;

/**
 * Puts `wrap(original)` in place of the room's `_onMessage`, which Colyseus binds to each client as it joins
 * (`this._onMessage.bind(this, client)`, so whatever the room holds then is the one bound); given a room class's
 * prototype, in place of every room's of that class. No public API sees a
 * frame before Colyseus decodes and dispatches it (onMessage("*") sees only plain sends of decoded payloads).
 * Throws if it is gone.
 */
export function wrapOnMessage(room: Room, wrap: (original: OnMessage) => OnMessage): void {
  const original = (room as unknown as { _onMessage?: OnMessage })._onMessage;
  if (typeof original !== "function")
    throw new MissingColyseusInternal(ON_MESSAGE.pkg, ON_MESSAGE.member, ON_MESSAGE.use);
  Object.assign(room, { _onMessage: wrap(original) });
}

// ---------------------------------------------------------------------------------------------------------------
// Room#_serializer, SchemaSerializer#handshake and #handshakeCache (@colyseus/core 0.18.17): rooms/kit/room-kit.ts

/** A room's state handshake: made by the serializer, or handed to it ready-made. */
export interface StateHandshake {
  /** Makes the handshake (the reflection of the state's types), as Colyseus does at a room's first join. */
  make(): Uint8Array;
  /** Gives the serializer a handshake made before: it sends that instead of making its own. */
  use(bytes: Uint8Array): void;
}

interface HandshakingSerializer {
  handshake?: () => Uint8Array;
  handshakeCache?: Uint8Array;
}

const HANDSHAKE = {
  pkg: "@colyseus/core",
  member: "Room#_serializer with SchemaSerializer#handshake() and #handshakeCache",
  use: "the handshake shared by a game's rooms, rooms/kit/room-kit.ts",
} as const;

/**
 * The state handshake of `room` (its state set): the room's private `_serializer` and that serializer's cache of
 * its handshake (`handshakeCache`, protected). Colyseus makes the reflection once per room and offers no way to
 * hand it one made before. Throws if either is gone.
 */
export function stateHandshakeOf(room: Room): StateHandshake {
  const serializer = (room as unknown as { _serializer?: HandshakingSerializer })._serializer;
  if (serializer === undefined || typeof serializer.handshake !== "function")
    throw new MissingColyseusInternal(HANDSHAKE.pkg, HANDSHAKE.member, HANDSHAKE.use);
  return {
    make: () => serializer.handshake!(),
    use: (bytes) => {
      serializer.handshakeCache = bytes;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Encoder.BUFFER_SIZE on every copy of @colyseus/schema (5.0.34): rooms/kit/table.ts

const BUFFER_SIZE = { pkg: "@colyseus/schema", use: "the state buffers' size, rooms/kit/table.ts" } as const;

/** Whether @colyseus/core runs as an ES module here (its "module-sync" build, under Node; not under jest). */
function coreIsEsModule(): boolean {
  try {
    return require.resolve("@colyseus/core").endsWith(".mjs");
  } catch {
    return false;
  }
}

/**
 * Every copy of @colyseus/schema's Encoder the process has. Under Node, @colyseus/core runs as an ES module and so
 * uses the schema's ES build, while this CommonJS code loads its CommonJS build: two copies, each with its own
 * static BUFFER_SIZE. The ES build is required by its path (`index.mjs` beside the `index.cjs` that `require`
 * resolves), which no public API gives. Where core itself is CommonJS (jest) there is one copy. Throws if core is
 * an ES module and the ES build cannot be found there.
 */
export function schemaEncoders(): Array<{ build: string; Encoder: typeof Encoder }> {
  const encoders: Array<{ build: string; Encoder: typeof Encoder }> = [{ build: "CommonJS build", Encoder }];
  if (!coreIsEsModule()) return encoders;
  const esPath = require.resolve("@colyseus/schema").replace(/index\.cjs$/, "index.mjs");
  let esBuild: { Encoder?: typeof Encoder } | undefined;
  try {
    esBuild = require(esPath) as { Encoder?: typeof Encoder };
  } catch {
    esBuild = undefined;
  }
  if (typeof esBuild?.Encoder !== "function")
    throw new MissingColyseusInternal(
      BUFFER_SIZE.pkg,
      `an ES build at ${esPath} with an Encoder`,
      BUFFER_SIZE.use,
      "is missing (the build @colyseus/core uses)",
    );
  if (esBuild.Encoder !== Encoder) encoders.push({ build: "ES build", Encoder: esBuild.Encoder });
  return encoders;
}

/**
 * Sets `Encoder.BUFFER_SIZE` (the bytes of each new state encoder's patch buffer and of the serializer's full-state
 * buffer) on each copy of the schema. It is public on the Encoder class, but nothing public sets it on the copy
 * @colyseus/core uses (see schemaEncoders). Throws if a copy has no such number.
 */
export function setStateBufferSize(bytes: number): void {
  for (const copy of schemaEncoders()) {
    if (typeof copy.Encoder.BUFFER_SIZE !== "number")
      throw new MissingColyseusInternal(
        BUFFER_SIZE.pkg,
        `Encoder.BUFFER_SIZE of its ${copy.build}`,
        BUFFER_SIZE.use,
        "is not a number",
      );
    copy.Encoder.BUFFER_SIZE = bytes;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// SchemaSerializer#encoder.sharedBuffer, #fullEncodeBuffer and #needFullEncode (@colyseus/core 0.18.17,
// @colyseus/schema 5.0.34): rooms/kit/room-kit.ts

const STATE_BUFFERS = {
  pkg: "@colyseus/core",
  member:
    "Room#_serializer with SchemaSerializer#encoder.sharedBuffer, #fullEncodeBuffer, #needFullEncode and #getFullState()",
  use: "the state buffers shared by every room, rooms/kit/room-kit.ts",
} as const;

/** The buffers a room's state is encoded into: every room's patches into one, every room's full states into the other. */
export interface StateBuffers {
  readonly patch: Uint8Array;
  readonly full: Uint8Array;
}

interface BufferedSerializer {
  encoder: { sharedBuffer: Uint8Array };
  fullEncodeBuffer: Uint8Array;
  needFullEncode: boolean;
  getFullState: (client?: unknown, timing?: unknown) => Uint8Array;
}

function isBufferedSerializer(serializer: unknown): serializer is BufferedSerializer {
  const candidate = serializer as Partial<BufferedSerializer> | undefined;
  return (
    candidate?.encoder?.sharedBuffer instanceof Uint8Array &&
    candidate.fullEncodeBuffer instanceof Uint8Array &&
    typeof candidate.needFullEncode === "boolean" &&
    typeof candidate.getFullState === "function"
  );
}

/**
 * A full state encoded now, never the copy the serializer keeps from an earlier join: that copy is a view into the
 * full-state buffer, which every room now shares, so another room's join may have written over it since.
 */
function fullStateEncodedNow(this: BufferedSerializer, client?: unknown, timing?: unknown): Uint8Array {
  this.needFullEncode = true;
  const ownGetFullState = (Object.getPrototypeOf(this) as BufferedSerializer).getFullState;
  return ownGetFullState.call(this, client, timing);
}

/**
 * Points `room`'s state serializer (its state set) at `buffers` instead of the two it made for itself: its
 * encoder's patch buffer (`encoder.sharedBuffer`, public on the Encoder but reached through the room's private
 * `_serializer`) and its full-state buffer (`fullEncodeBuffer`, protected), and makes its `getFullState` encode
 * afresh each time (`needFullEncode`, protected). Colyseus gives each room its own buffers and offers no option to
 * share them. Throws if any of these is gone.
 */
export function useStateBuffers(room: Room, buffers: StateBuffers): void {
  const serializer = (room as unknown as { _serializer?: unknown })._serializer;
  if (!isBufferedSerializer(serializer))
    throw new MissingColyseusInternal(STATE_BUFFERS.pkg, STATE_BUFFERS.member, STATE_BUFFERS.use);
  // The serializer wrote its message code (a full state) at the head of its own full-state buffer once, when set up.
  buffers.full[0] = serializer.fullEncodeBuffer[0];
  serializer.encoder.sharedBuffer = buffers.patch;
  serializer.fullEncodeBuffer = buffers.full;
  serializer.getFullState = fullStateEncodedNow;
}

// ---------------------------------------------------------------------------------------------------------------
// Maps cleared at every patch: SchemaSerializer#encodedViews (@colyseus/core 0.18.17) and StateView#changes
// (@colyseus/schema 5.0.34): rooms/kit/patch-maps.ts, rooms/kit/table.ts

const ENCODED_VIEWS = {
  pkg: "@colyseus/core",
  member: "SchemaSerializer#encodedViews (a Map, get, set and clear only)",
  use: "the patch frames by view, cleared without allocating, rooms/kit/table.ts",
} as const;
const VIEW_CHANGES = {
  pkg: "@colyseus/schema",
  member: "StateView#changes (a Map)",
  use: "a client's view changes, cleared without allocating, rooms/kit/table.ts",
} as const;

/**
 * Gives `room`'s state serializer a SlotMap for the frame it encodes for each view at a patch (`encodedViews`,
 * protected; made when the state is set, only for a state with @view fields), in place of the Map it clears after
 * every patch. Nothing public reaches it. Throws if a state with views has no such map. Call once the state is set.
 */
export function clearViewFramesWithoutAllocating(room: Room): void {
  const serializer = (room as unknown as { _serializer?: { hasFilters?: boolean; encodedViews?: unknown } })
    ._serializer;
  if (serializer?.hasFilters !== true) return;
  if (!(serializer.encodedViews instanceof Map))
    throw new MissingColyseusInternal(ENCODED_VIEWS.pkg, ENCODED_VIEWS.member, ENCODED_VIEWS.use);
  serializer.encodedViews = new SlotMap<unknown, Uint8Array>();
}

/** A client's StateView whose change list (`changes`, cleared by the encoder at every patch) is cleared only when it holds something. */
export function stateViewClearedWhenChanged(): StateView {
  const view = new StateView();
  if (!(view.changes instanceof Map) || view.changes.size !== 0)
    throw new MissingColyseusInternal(VIEW_CHANGES.pkg, VIEW_CHANGES.member, VIEW_CHANGES.use);
  view.changes = new MapClearedWhenFilled();
  return view;
}

// ---------------------------------------------------------------------------------------------------------------
// A list's change tree, `list[$changes].collDirty` (@colyseus/schema 5.0.34): rooms/kit/schema-lists.ts

const COLL_DIRTY = {
  pkg: "@colyseus/schema",
  member: "a collection's change tree (list[$changes]) with its collDirty map",
  use: "syncList's check for a list already changed, rooms/kit/schema-lists.ts",
} as const;

/**
 * Whether `list` has changes not yet sent: the operations its change tree holds for the next patch (`collDirty`, a
 * field of the tree behind the exported `$changes` symbol). The schema says nothing public about what a list has
 * pending. A list without a tree (or a tree without the map) has nothing pending.
 */
export function listHasPendingChanges(list: ArraySchema<unknown>): boolean {
  const tree = (list as unknown as Record<symbol, { collDirty?: { readonly size: number } } | undefined>)[$changes];
  return (tree?.collDirty?.size ?? 0) > 0;
}

/**
 * The items a list holds now, read in place (its `items` array, behind the proxy every ArraySchema is): `toArray()`
 * copies them, and the state writer compares every list of every view at every patch, nearly always to find it
 * unchanged (copies made 2–4% of a loaded server's garbage). Read only, and only until the
 * list is next changed: a caller about to change the list takes a copy first.
 */
export function listItemsInPlace<T>(list: ArraySchema<T>): readonly T[] {
  return (list as unknown as { items: T[] }).items;
}

// ---------------------------------------------------------------------------------------------------------------
// A list's change records, cleared in place at every patch (@colyseus/schema 5.0.34): rooms/kit/table.ts

const LIST_CHANGES = {
  pkg: "@colyseus/schema",
  member: "ChangeTree#reset, #insertAt, #removeAt and a list tree's collDirty (a Map)",
  use: "a list's pending operations cleared in place, rooms/kit/table.ts",
} as const;
const LIST_STAGING = {
  pkg: "@colyseus/schema",
  member: 'ArraySchema#["~onEncodeEnd"] with its items, tmpItems and deletedIndexes',
  use: "a list's staged items copied in place, rooms/kit/table.ts",
} as const;
const ON_ENCODE_END = "~onEncodeEnd";

interface ListChangeTree {
  _isSchema: boolean;
  collDirty: Map<number, number> | OpsByIndex | undefined;
  reset(): void;
  insertAt(at: number, count: number): void;
  removeAt(at: number, count: number): void;
}

interface ListTarget {
  items: unknown[];
  tmpItems: unknown[];
  deletedIndexes: boolean[];
  [$childType]: unknown;
}

type ChangeTreeMethods = Pick<ListChangeTree, "reset" | "insertAt" | "removeAt">;
let listChangesKeptInPlace = false;

/**
 * Makes every list's change records cost nothing to clear at a patch. After each patch @colyseus/schema clears the
 * pending operations of every list that changed (`ChangeTree#reset`: `collDirty.clear()`, a new hash table each
 * time) and stages a copy of its items (`ArraySchema#["~onEncodeEnd"]`: `tmpItems = items.slice()`). Both live on
 * objects that live as long as their table, so each new table and copy lives until the list's next change, seconds
 * later: promoted to the old generation, where only a major collection frees it. Here the map becomes an OpsByIndex,
 * cleared by emptying its slots; a list tree's rebuilds of its map
 * (an insert or a cancelled add: `insertAt`, `removeAt`) are copied back into it; and a list of plain values copies
 * its items into the staged array it has. A list of schema objects stages as before: its children's slots are
 * re-pointed from the old staged array. Installed once, on the classes every state's lists are made of; nothing
 * public offers either.
 */
export function keepListChangesInPlace(): void {
  if (listChangesKeptInPlace) return;
  const tree = ChangeTree.prototype as unknown as ChangeTreeMethods;
  const list = ArraySchema.prototype as unknown as Record<string, unknown>;
  const { reset, insertAt, removeAt } = tree;
  const stageItems = list[ON_ENCODE_END];
  if (typeof reset !== "function" || typeof insertAt !== "function" || typeof removeAt !== "function")
    throw new MissingColyseusInternal(LIST_CHANGES.pkg, LIST_CHANGES.member, LIST_CHANGES.use);
  if (typeof stageItems !== "function")
    throw new MissingColyseusInternal(LIST_STAGING.pkg, LIST_STAGING.member, LIST_STAGING.use);
  tree.reset = function resetInPlace(this: ListChangeTree) {
    // The first reset of a list's tree gives it its own map, empty: what the reset leaves it.
    if (!this._isSchema && !(this.collDirty instanceof OpsByIndex)) this.collDirty = new OpsByIndex();
    reset.call(this);
  };
  tree.insertAt = keepingOwnMap(insertAt);
  tree.removeAt = keepingOwnMap(removeAt);
  list[ON_ENCODE_END] = function stageItemsInPlace(this: ListTarget) {
    if (typeof this[$childType] !== "string") return (stageItems as () => void).call(this);
    // A list of plain values: no child to re-point, so the staged items need only equal the items.
    const staged = this.tmpItems;
    const items = this.items;
    staged.length = items.length;
    for (let index = 0; index < items.length; index++) staged[index] = items[index];
    if (this.deletedIndexes.length > 0) this.deletedIndexes.length = 0;
  };
  listChangesKeptInPlace = true;
}

// ---------------------------------------------------------------------------------------------------------------
// Schema.initialize, a state object's values array (@colyseus/schema 5.0.34): rooms/kit/table.ts

const VALUES_SIZED = {
  pkg: "@colyseus/schema",
  member: "Schema.initialize (a state object's $values array, made empty)",
  use: "the state objects' values arrays sized to their fields, rooms/kit/table.ts",
} as const;

type SchemaStatics = { initialize?: (instance: object) => void };
type Metadata = Record<string, unknown> | undefined;
let valuesSized = false;

/**
 * Makes each state object's values array (where @colyseus/schema keeps a field's value, at the field's index) as
 * long as its class has fields. Schema's constructor (`Schema.initialize`) makes it empty, and V8 gives an array 17
 * slots at its first value: about 180 bytes for any class, kept for as long as its table lives and marked by every
 * major collection; sized, it is 32 bytes and 8 a field.
 * Installed once, on Schema itself: a common base class of the states would have done it too, but the schema's
 * handshake then described every game's classes to every client (a class's handshake holds its parent's subclasses).
 */
export function sizeStateValues(): void {
  if (valuesSized) return;
  const statics = Schema as unknown as SchemaStatics;
  const initialize = statics.initialize;
  if (typeof initialize !== "function")
    throw new MissingColyseusInternal(VALUES_SIZED.pkg, VALUES_SIZED.member, VALUES_SIZED.use);
  statics.initialize = function initializeSized(this: unknown, instance: object): void {
    initialize.call(this, instance);
    const metadata = (instance.constructor as unknown as Record<symbol, Metadata>)[Symbol.metadata];
    const lastField = metadata?.[$numFields];
    if (typeof lastField === "number")
      (instance as Record<symbol, unknown>)[$values] = new Array<unknown>(lastField + 1);
  };
  valuesSized = true;
}

/** `rebuild` (insertAt or removeAt) with the map it makes copied back into the tree's own OpsByIndex. */
function keepingOwnMap(rebuild: (this: ListChangeTree, at: number, count: number) => void) {
  return function keptInPlace(this: ListChangeTree, at: number, count: number): void {
    const own = this.collDirty;
    rebuild.call(this, at, count);
    const rebuilt = this.collDirty;
    if (own instanceof OpsByIndex && rebuilt !== own && rebuilt !== undefined) {
      own.copyFrom(rebuilt);
      this.collDirty = own;
    }
  };
}

// ---------------------------------------------------------------------------------------------------------------
// ws's WebSocket#_socket (ws 8.23.0, under @colyseus/ws-transport 0.18.4): server/transport/transport.ts

/**
 * The TCP socket under a ws WebSocket (its private `_socket`): ws gives no other handle on corking, which it uses
 * itself per frame. Undefined for a WebSocket not (or no longer) connected.
 */
export function tcpSocketOf(client: WebSocket): Socket | undefined {
  return (client as unknown as { _socket?: Socket | null })._socket ?? undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Node's http.Server#emit, patched to answer before Colyseus's router: server/app.ts

/**
 * Runs `answer` before any 'request' listener of `server` (Colyseus's router, Express, the transport's guard); when
 * it returns true the request is answered and no listener sees it. Colyseus 0.18 adds its router as a 'request'
 * listener in listen() and it answers /matchmake/ itself, so neither a listener added first nor an Express route
 * could stop it answering too: the server's own `emit` is wrapped (public in Node, but Colyseus offers no hook).
 */
export function answerBeforeListeners(
  server: http.Server,
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => boolean,
): void {
  const emit = server.emit.bind(server);
  server.emit = ((event: string, ...args: unknown[]) => {
    if (event === "request" && answer(args[0] as http.IncomingMessage, args[1] as http.ServerResponse)) return true;
    return emit(event, ...args);
  }) as http.Server["emit"];
}

// ---------------------------------------------------------------------------------------------------------------
// LocalDriver's list of rooms and its mutators (@colyseus/core 0.18.17): server/cluster/local-driver.ts

/**
 * The methods of Colyseus's in-memory driver, as of 0.18.17. server/cluster/local-driver.ts keeps an index of its rooms by
 * id beside its public `rooms` list and relies on insert, persist, remove and clear being the only ways a room
 * enters or leaves that list (cleanup goes through remove); a method it does not know might change the list behind
 * the index's back, so the check refuses one. No public API indexes the list.
 */
export const LOCAL_DRIVER_METHODS: readonly string[] = [
  "has",
  "query",
  "cleanup",
  "findOne",
  "findByIds",
  "update",
  "insert",
  "persist",
  "remove",
  "clear",
  "shutdown",
];

/** The methods the index overrides, which must all still be Colyseus's. */
const LOCAL_DRIVER_OVERRIDES: readonly string[] = ["findOne", "insert", "persist", "remove", "clear"];

/**
 * LocalDriver's set of the ids it lists (private `roomIds`, which its `has` and `insert` read). Its `remove` finds
 * the room by comparing every listed room's id in turn from the front; at a mass disconnect the rooms go in any
 * order and that made the teardown quadratic in the tables. The indexed driver removes a room it knows by its
 * entry, and must then forget its id here as Colyseus's `remove` would.
 */
export function localDriverRoomIds(driver: LocalDriver): Set<string> {
  return (driver as unknown as { roomIds: Set<string> }).roomIds;
}

// ---------------------------------------------------------------------------------------------------------------
// matchMaker's methods by name (@colyseus/core 0.18.17): server/matchmaking.ts

/** One of Colyseus's matchmaking methods a client may call (joinOrCreate, create, join, joinById, reconnect). */
export type MatchmakeMethod = (
  name: string,
  options: Record<string, unknown>,
  context?: AuthContext,
) => Promise<unknown>;

/**
 * The matchmaker's function named `method`, one of `matchMaker.controller.exposedMethods` (the caller checks that):
 * the matchmaker is a module of functions, and Colyseus's own route looks them up by name the same way; no public
 * API maps a name to its method.
 */
export function matchMakerMethod(method: string): MatchmakeMethod {
  return (matchMaker as unknown as Record<string, MatchmakeMethod>)[method];
}

// ---------------------------------------------------------------------------------------------------------------
// The start-up check

/** What the check looks at: the installed packages' own, or stubs (a test's, to see a missing member reported). */
export interface InternalsSubjects {
  /** Room.prototype. */
  roomPrototype: object;
  /** Makes a room with a serializer set (public setSerializer), to find where the room keeps it. */
  roomWithSerializer: (serializer: object) => object;
  /** Makes a state serializer for a small state. */
  stateSerializer: () => HandshakingSerializer;
  /** The same for a state with @view fields. */
  viewedStateSerializer: () => SchemaSerializer<Schema>;
  /** A client's view of such a state. */
  stateView: () => { changes?: unknown };
  encoders: () => Array<{ build: string; Encoder: { BUFFER_SIZE?: unknown } }>;
  /** A list in a state whose encoder has sent everything; `change` pushes an item into it. */
  listInState: () => { list: ArraySchema<string>; change: () => void };
  /** Schema itself (its statics). */
  schemaStatics: object;
  /** A new state object. */
  stateObject: () => object;
  /** A list of strings and its change tree (its `$changes`). */
  listChangeTree: () => { tree: object; list: object };
  /** A WebSocket as ws's server makes one before it has a socket. */
  serverWebSocket: () => object;
  localDriverPrototype: object;
  /** A LocalDriver holding one room, `probe`. */
  localDriverWithRoom: () => LocalDriver;
  matchMaker: Record<string, unknown> & { controller: { exposedMethods: readonly string[] } };
}

class ProbeState extends Schema {
  @type(["string"]) list = new ArraySchema<string>();
}

/** A state with a field only some clients see, as every game with hidden cards has. */
class ProbeViewedState extends Schema {
  @view() @type("string") hidden = "";
}

/** The installed packages' own subjects. */
export function installedSubjects(): InternalsSubjects {
  return {
    roomPrototype: Room.prototype,
    roomWithSerializer: (serializer) => {
      const room = new Room();
      room.setSerializer(serializer as SchemaSerializer<Schema>);
      return room;
    },
    stateView: () => new StateView(),
    viewedStateSerializer: () => {
      const serializer = new SchemaSerializer<ProbeViewedState>();
      serializer.reset(new ProbeViewedState());
      return serializer as unknown as SchemaSerializer<Schema>;
    },
    stateSerializer: () => {
      const serializer = new SchemaSerializer<ProbeState>();
      serializer.reset(new ProbeState());
      return serializer as unknown as HandshakingSerializer;
    },
    encoders: schemaEncoders,
    listInState: () => {
      const state = new ProbeState();
      const encoder = new Encoder(state);
      encoder.encode();
      encoder.discardChanges();
      return { list: state.list, change: () => void state.list.push("probe") };
    },
    schemaStatics: Schema,
    stateObject: () => new ProbeState(),
    listChangeTree: () => {
      const { list } = new ProbeState();
      return { tree: (list as unknown as Record<symbol, object>)[$changes]!, list };
    },
    // As ws's server makes one (its typings offer only `new WebSocket(null)`, which fails without options).
    serverWebSocket: () =>
      new (WebSocket as unknown as new (address: null, protocols: undefined, options: object) => WebSocket)(
        null,
        undefined,
        {},
      ),
    localDriverPrototype: LocalDriver.prototype,
    localDriverWithRoom: () => {
      const driver = new LocalDriver();
      driver.persist({ roomId: "probe" } as Parameters<LocalDriver["persist"]>[0], true);
      return driver;
    },
    matchMaker: matchMaker as unknown as InternalsSubjects["matchMaker"],
  };
}

type Check = (subjects: InternalsSubjects) => MissingColyseusInternal | null;

const missing = (pkg: InternalsPackage, member: string, use: string, problem?: string) =>
  new MissingColyseusInternal(pkg, member, use, problem);

const CHECKS: readonly Check[] = [
  ({ roomPrototype }) =>
    typeof (roomPrototype as { _reserveSeat?: unknown })._reserveSeat === "function"
      ? null
      : missing(RESERVE_SEAT.pkg, RESERVE_SEAT.member, RESERVE_SEAT.use),
  ({ roomPrototype }) =>
    typeof (roomPrototype as { _onMessage?: unknown })._onMessage === "function"
      ? null
      : missing(ON_MESSAGE.pkg, ON_MESSAGE.member, ON_MESSAGE.use),
  ({ roomWithSerializer }) => {
    const events = (roomWithSerializer({}) as { _events?: { once?: unknown } })._events;
    return typeof events?.once === "function" ? null : missing(DISPOSAL.pkg, DISPOSAL.member, DISPOSAL.use);
  },
  ({ roomWithSerializer }) => {
    const serializer = {};
    return (roomWithSerializer(serializer) as { _serializer?: unknown })._serializer === serializer
      ? null
      : missing(
          HANDSHAKE.pkg,
          "Room#_serializer",
          HANDSHAKE.use,
          "is not where the room keeps the serializer setSerializer gives it",
        );
  },
  ({ stateSerializer }) => {
    const serializer = stateSerializer();
    if (typeof serializer.handshake !== "function")
      return missing(HANDSHAKE.pkg, "SchemaSerializer#handshake()", HANDSHAKE.use);
    const made = serializer.handshake();
    if (serializer.handshakeCache !== made)
      return missing(
        HANDSHAKE.pkg,
        "SchemaSerializer#handshakeCache",
        HANDSHAKE.use,
        "does not keep the handshake once made",
      );
    const given = new Uint8Array([0]);
    serializer.handshakeCache = given;
    return serializer.handshake() === given
      ? null
      : missing(
          HANDSHAKE.pkg,
          "SchemaSerializer#handshakeCache",
          HANDSHAKE.use,
          "is not what handshake() gives once set",
        );
  },
  ({ stateSerializer }) =>
    isBufferedSerializer(stateSerializer())
      ? null
      : missing(STATE_BUFFERS.pkg, STATE_BUFFERS.member, STATE_BUFFERS.use),
  ({ viewedStateSerializer }) => {
    const serializer = viewedStateSerializer() as unknown as { hasFilters?: boolean; encodedViews?: unknown };
    return serializer.hasFilters === true && serializer.encodedViews instanceof Map
      ? null
      : missing(
          ENCODED_VIEWS.pkg,
          ENCODED_VIEWS.member,
          ENCODED_VIEWS.use,
          "is not a Map on a state with @view fields",
        );
  },
  ({ stateView }) =>
    stateView().changes instanceof Map
      ? null
      : missing(VIEW_CHANGES.pkg, VIEW_CHANGES.member, VIEW_CHANGES.use, "is not a Map"),
  ({ encoders }) => {
    for (const copy of encoders())
      if (typeof copy.Encoder.BUFFER_SIZE !== "number")
        return missing(BUFFER_SIZE.pkg, `Encoder.BUFFER_SIZE of its ${copy.build}`, BUFFER_SIZE.use, "is not a number");
    return null;
  },
  ({ listInState }) => {
    const { list, change } = listInState();
    if (listHasPendingChanges(list))
      return missing(
        COLL_DIRTY.pkg,
        COLL_DIRTY.member,
        COLL_DIRTY.use,
        "reports changes in a list after its patch was sent",
      );
    change();
    return listHasPendingChanges(list)
      ? null
      : missing(
          COLL_DIRTY.pkg,
          COLL_DIRTY.member,
          COLL_DIRTY.use,
          "is missing or does not report a change not yet sent",
        );
  },
  ({ listInState }) => {
    const { list, change } = listInState();
    change();
    const items: unknown = listItemsInPlace(list);
    const inStep =
      Array.isArray(items) && items.length === list.length && items.every((item, index) => item === list.at(index));
    return inStep
      ? null
      : missing(
          "@colyseus/schema",
          "ArraySchema#items (a list's items, in order)",
          "the state writer's reads of its lists, rooms/kit/state-writer.ts",
        );
  },
  ({ schemaStatics, stateObject }) => {
    if (typeof (schemaStatics as SchemaStatics).initialize !== "function")
      return missing(VALUES_SIZED.pkg, VALUES_SIZED.member, VALUES_SIZED.use);
    return Array.isArray((stateObject() as Record<symbol, unknown>)[$values])
      ? null
      : missing(
          VALUES_SIZED.pkg,
          VALUES_SIZED.member,
          VALUES_SIZED.use,
          "is not where a state object keeps its values",
        );
  },
  ({ listChangeTree }) => {
    const { tree, list } = listChangeTree();
    const methods = ["reset", "insertAt", "removeAt"] as const;
    if (methods.some((method) => typeof (tree as Record<string, unknown>)[method] !== "function"))
      return missing(LIST_CHANGES.pkg, LIST_CHANGES.member, LIST_CHANGES.use);
    const { collDirty } = tree as { collDirty?: unknown };
    if (!(collDirty instanceof Map || collDirty instanceof OpsByIndex))
      return missing(
        LIST_CHANGES.pkg,
        LIST_CHANGES.member,
        LIST_CHANGES.use,
        "holds no map of a list's pending operations",
      );
    const target = list as unknown as Partial<ListTarget> & Record<string, unknown>;
    const staging =
      typeof target[ON_ENCODE_END] === "function" &&
      Array.isArray(target.items) &&
      Array.isArray(target.tmpItems) &&
      Array.isArray(target.deletedIndexes) &&
      typeof target[$childType] === "string";
    return staging ? null : missing(LIST_STAGING.pkg, LIST_STAGING.member, LIST_STAGING.use);
  },
  ({ serverWebSocket }) =>
    "_socket" in serverWebSocket()
      ? null
      : missing(
          "ws",
          "WebSocket#_socket (its TCP socket)",
          "the transport's corked writes, server/transport/transport.ts",
        ),
  ({ localDriverPrototype }) => {
    const use = "the rooms indexed by id, server/cluster/local-driver.ts";
    for (const method of LOCAL_DRIVER_OVERRIDES)
      if (typeof (localDriverPrototype as Record<string, unknown>)[method] !== "function")
        return missing("@colyseus/core", `LocalDriver#${method}`, use);
    const unknown = Object.getOwnPropertyNames(localDriverPrototype).filter(
      (name) => name !== "constructor" && !LOCAL_DRIVER_METHODS.includes(name),
    );
    return unknown.length === 0
      ? null
      : missing("@colyseus/core", "LocalDriver", use, `has methods the index does not know: ${unknown.join(", ")}`);
  },
  ({ localDriverWithRoom }) => {
    const ids = localDriverRoomIds(localDriverWithRoom());
    return ids instanceof Set && ids.has("probe")
      ? null
      : missing(
          "@colyseus/core",
          "LocalDriver#roomIds (the set of listed ids)",
          "removing a room by its entry, server/cluster/local-driver.ts",
        );
  },
  ({ matchMaker: maker }) => {
    const methods = maker.controller?.exposedMethods;
    if (!Array.isArray(methods))
      return missing(
        "@colyseus/core",
        "matchMaker.controller.exposedMethods",
        "the matchmaking route, server/matchmaking.ts",
      );
    const absent = methods.filter((method) => typeof maker[method] !== "function");
    return absent.length === 0
      ? null
      : missing(
          "@colyseus/core",
          `matchMaker.${absent.join(", matchMaker.")}`,
          "the matchmaking route, server/matchmaking.ts",
          "(exposed to clients) is missing",
        );
  },
];

/**
 * Looks for every member above on the installed packages (or on `subjects`) and throws one error listing each that
 * is missing, with its package and installed version. Call when the server composes.
 */
export function checkColyseusInternals(subjects: Partial<InternalsSubjects> = {}): void {
  const all = { ...installedSubjects(), ...subjects };
  const found: MissingColyseusInternal[] = [];
  for (const check of CHECKS) {
    let result: MissingColyseusInternal | null;
    try {
      result = check(all);
    } catch (error) {
      if (!(error instanceof MissingColyseusInternal))
        throw new Error(
          `checking what cardhall relies on in Colyseus failed: ${error instanceof Error ? error.message : String(error)} (rooms/kit/colyseus-internals.ts)`,
          { cause: error },
        );
      result = error;
    }
    if (result !== null) found.push(result);
  }
  if (found.length > 0) throw new MissingColyseusInternals(found);
}
