/**
 * One truth per viewer, checked frame by frame: every state frame a table sends a client is paired with the view
 * that client must hold once it has decoded it — `stateView(viewer)` of its table when the frame leaves, the
 * engine's view of the match for that viewer with the table's fields — and every client, as it decodes the frame
 * with the plain @colyseus/sdk decoder, compares its decoded state with it.
 *
 * The server runs in this process (a real Colyseus server on 127.0.0.1, real WebSockets) so that the frame's
 * expected view can be taken at the moment it is sent. Pairing: a client's connections (its join, then each
 * reconnection with its token) follow one another, and so do the SDK rooms that decode them; the n-th SDK room of a
 * session reads the n-th connection's frames, in the order they were sent.
 */
import { Room as SdkRoom } from "@colyseus/sdk";
import { WebSocketClient } from "@colyseus/ws-transport";
import { TableRoom } from "../../rooms/kit/table";
import { canonicalJson } from "../../rooms/kit/views";

/** Colyseus's protocol codes of a state frame: a full state, a patch (the low five bits of the first byte). */
const ROOM_STATE = 14;
const ROOM_STATE_PATCH = 15;
const PROTOCOL_CODE_MASK = 0x1f;

type AnyTable = TableRoom<never, never, never, never, never, never, never>;

function protocolCode(data: unknown): number | undefined {
  const bytes =
    data instanceof ArrayBuffer
      ? new Uint8Array(data, 0, 1)
      : ArrayBuffer.isView(data)
        ? new Uint8Array(data.buffer, data.byteOffset, 1)
        : undefined;
  return bytes === undefined || bytes.length === 0 ? undefined : bytes[0]! & PROTOCOL_CODE_MASK;
}

const isStateFrame = (code: number | undefined) => code === ROOM_STATE || code === ROOM_STATE_PATCH;

/** What one game's clients were compared on. */
export interface Figures {
  frames: number;
  fullStates: number;
  clients: Set<string>;
  mismatches: string[];
}

interface Reader {
  readonly session: string;
  readonly ordinal: number;
  next: number;
}

export class OneTruth {
  private readonly tableOfSession = new Map<string, AnyTable>();
  private readonly expectedOf = new WeakMap<object, Array<string | undefined>>();
  private readonly connectionsOf = new Map<string, object[]>();
  private readonly readers = new WeakMap<SdkRoom, Reader>();
  private readonly roomsSeen = new Map<string, number>();
  private readonly figuresByGame = new Map<string, Figures>();
  private restore: Array<() => void> = [];

  figures(game: string): Figures {
    let figures = this.figuresByGame.get(game);
    if (figures === undefined)
      this.figuresByGame.set(game, (figures = { frames: 0, fullStates: 0, clients: new Set(), mismatches: [] }));
    return figures;
  }

  /** Starts watching: every table's joins, every state frame sent, every state frame decoded. */
  install(): void {
    this.wrap(
      TableRoom.prototype as unknown as Record<string, unknown>,
      "onJoin",
      (original) =>
        function (this: AnyTable, client: { sessionId: string }, ...rest: unknown[]) {
          truth.tableOfSession.set(client.sessionId, this);
          return original.call(this, client, ...rest);
        },
    );
    const truth = this;
    // Both ports' clients are Colyseus's WebSocketClient (the WebSocket port's over a UwsConnection).
    this.wrap(
      WebSocketClient.prototype as unknown as Record<string, unknown>,
      "raw",
      (original) =>
        function (this: WebSocketClient, data: Uint8Array, ...rest: unknown[]) {
          if (isStateFrame(protocolCode(data))) truth.sent(this, protocolCode(data) === ROOM_STATE);
          return original.call(this, data, ...rest);
        },
    );
    this.wrap(
      SdkRoom.prototype as unknown as Record<string, unknown>,
      "onMessageCallback",
      (original) =>
        function (this: SdkRoom, event: { data: unknown }) {
          const result = original.call(this, event);
          if (isStateFrame(protocolCode(event.data))) truth.decoded(this, protocolCode(event.data) === ROOM_STATE);
          return result;
        },
    );
  }

  uninstall(): void {
    for (const restore of this.restore.reverse()) restore();
    this.restore = [];
  }

  private wrap(
    target: Record<string, unknown>,
    name: string,
    wrapper: (original: (...args: unknown[]) => unknown) => (...args: never[]) => unknown,
  ): void {
    const original = target[name] as (...args: unknown[]) => unknown;
    target[name] = wrapper(original);
    this.restore.push(() => (target[name] = original));
  }

  /** A state frame leaves for a client: what it must decode is the table's view for that client now. */
  private sent(connection: WebSocketClient, fullState: boolean): void {
    const table = this.tableOfSession.get(connection.sessionId);
    if (table === undefined) return;
    let expected = this.expectedOf.get(connection);
    if (expected === undefined) {
      this.expectedOf.set(connection, (expected = []));
      const connections = this.connectionsOf.get(connection.sessionId) ?? [];
      connections.push(connection);
      this.connectionsOf.set(connection.sessionId, connections);
    }
    const viewer = table.viewerOf(connection.sessionId);
    expected.push(`${fullState ? "full" : "patch"} ${canonicalJson(table.stateView(viewer))}`);
  }

  /** A client has decoded a state frame: its state must be the view paired with that frame. */
  private decoded(room: SdkRoom, fullState: boolean): void {
    const session = room.sessionId;
    const table = this.tableOfSession.get(session);
    if (table === undefined) return;
    let reader = this.readers.get(room);
    if (reader === undefined) {
      const ordinal = this.roomsSeen.get(session) ?? 0;
      this.roomsSeen.set(session, ordinal + 1);
      this.readers.set(room, (reader = { session, ordinal, next: 0 }));
    }
    const figures = this.figures(table.roomName);
    figures.frames++;
    if (fullState) figures.fullStates++;
    figures.clients.add(`${session}#${reader.ordinal}`);
    const connection = this.connectionsOf.get(session)?.[reader.ordinal];
    const queue = connection === undefined ? undefined : this.expectedOf.get(connection);
    const expected = queue?.[reader.next];
    if (queue !== undefined) queue[reader.next] = undefined; // read once: let it go
    reader.next++;
    const decoded = `${fullState ? "full" : "patch"} ${canonicalJson((room.state as { toJSON(): unknown }).toJSON())}`;
    if (decoded !== expected && figures.mismatches.length < 5) {
      figures.mismatches.push(
        `${table.roomName} ${table.roomId} client ${session}#${reader.ordinal} frame ${reader.next}:\n  decoded  ${decoded}\n  expected ${expected ?? "(no frame was sent)"}`,
      );
    }
  }
}
