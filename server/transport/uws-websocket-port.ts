/**
 * The WebSocket port's listener on uWebSockets.js (server/transport/websocket-port.ts says what the port is and why): loaded
 * only by a server that has the port.
 *
 * Each uWebSockets.js connection is wrapped in a `UwsConnection`, which looks to Colyseus as a ws WebSocket does
 * (an event emitter of "message" and "close" with `send`, `close`, `terminate` and `readyState`), so that a client
 * on this port is Colyseus's own WebSocketClient joined to its room by Colyseus's own `connectClientToRoom`, as on
 * the main port. Colyseus's @colyseus/uwebsockets-transport was not taken: it serves HTTP on the port too (through
 * express, which this port must not: HTTP and its bounds are the main port's), imports uwebsockets-express as it
 * loads (which the test runner cannot), and needs uWebSockets.js from a GitHub tag.
 */
import {
  CloseCode,
  Protocol,
  connectClientToRoom,
  createAuthContext,
  debugAndPrintError,
  isDevMode,
  matchMaker,
  type AuthContext,
} from "@colyseus/core";
import { WebSocketClient } from "@colyseus/ws-transport";
import uWebSockets from "uWebSockets.js";
import type WebSocket from "ws";
import { EventEmitter } from "node:events";
import { leavePacer, type Pacer } from "./leave-pacer";
import { isLeaving } from "./transport";

/** What a client may send in one message: the main port's bound (Colyseus's ws transport's `maxPayload`). */
export const MAX_MESSAGE_BYTES = 4 * 1024;
/**
 * Seconds a connection may stay without a byte either way before it is closed; uWebSockets.js pings it first
 * (a multiple of 4 is what it keeps). The main port pings every 3 s and closes after two unanswered pings.
 */
export const IDLE_SECONDS = 12;
/** Bytes of frames that may wait for a slow client before it is closed: a whole Tractor state many times over. */
export const MAX_UNSENT_BYTES = 1024 * 1024;

/** ws's readyState values, which Colyseus and the rooms read. */
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

/** What a connection carries from its upgrade request to its opening: the room it asks for, and who asks. */
interface Upgrade {
  url: string;
  query: string;
  context: AuthContext;
}

/**
 * A socket's own data, which uWebSockets.js keeps on the socket for as long as it is open: the upgrade, let go once
 * the socket opened (its request's headers and auth context would otherwise stay, 0.9 KB a client).
 */
interface SocketData {
  upgrade: Upgrade | null;
}

type Socket = uWebSockets.WebSocket<SocketData>;
type ListenSocket = uWebSockets.us_listen_socket | false;

/**
 * A uWebSockets.js connection as Colyseus sees a ws WebSocket (see the module's comment): `send`, `close`,
 * `terminate`, `readyState`, and its two events, a message from the client (its bytes) and the socket's close (its
 * code), with the listeners Colyseus's room adds and takes off. What the client sends is handed on as the main port's is (server/transport/transport.ts, `watchIncoming`): a leave,
 * its message or the socket's close, waits for the leave pacer.
 */
export class UwsConnection extends EventEmitter {
  readyState: number = OPEN;
  /** Where Colyseus's room keeps its close listener to take it off later: declared, so no connection grows a property. */
  onleave: unknown = undefined;

  constructor(
    private readonly socket: Pick<Socket, "send" | "end" | "close">,
    private readonly pacer: Pacer = leavePacer,
  ) {
    super();
  }

  /** A message from the client. */
  received(message: Buffer): void {
    if (isLeaving("message", message)) this.pacer.run(() => this.emit("message", message));
    else this.emit("message", message);
  }

  /** uWebSockets.js copies the bytes before it returns: a view into a buffer the next patch reuses is safe to give. */
  send(data: Uint8Array, _options?: unknown, sent?: (error?: Error) => void): void {
    if (this.readyState === OPEN) this.socket.send(data, true, false);
    sent?.();
  }

  /** Closes with a code and a reason, after the frames already sent. */
  close(code?: number, reason?: string): void {
    if (this.readyState !== OPEN) return;
    this.readyState = CLOSING;
    this.socket.end(code, reason);
  }

  /** Closes at once, without a closing handshake. */
  terminate(): void {
    if (this.readyState === CLOSED) return;
    this.readyState = CLOSING;
    this.socket.close();
  }

  /** uWebSockets.js's own close: nothing may use the socket after it. */
  closed(code: number): void {
    this.readyState = CLOSED;
    this.pacer.run(() => this.emit("close", code));
  }
}

/**
 * uWebSockets.js's listen(host, port, options, callback), which its typings (uws-pack 20.0.8) leave out along with
 * the option itself: a port another socket listens on is refused instead of shared (SO_REUSEPORT).
 */
function listenExclusively(
  app: uWebSockets.TemplatedApp,
  host: string,
  port: number,
  listened: (socket: ListenSocket) => void,
): void {
  const { LIBUS_LISTEN_EXCLUSIVE_PORT } = uWebSockets as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number };
  const listen = app.listen as unknown as (
    host: string,
    port: number,
    options: number,
    listened: (socket: ListenSocket) => void,
  ) => void;
  listen.call(app, host, port, LIBUS_LISTEN_EXCLUSIVE_PORT, listened);
}

/** The WebSocket port: WebSockets alone, each joined to the room its URL names. */
export class WebSocketPort {
  private readonly app = uWebSockets.App();
  private readonly connections = new WeakMap<Socket, UwsConnection>();
  private listening: uWebSockets.us_listen_socket | null = null;

  constructor() {
    this.app.ws<SocketData>("/*", {
      maxPayloadLength: MAX_MESSAGE_BYTES,
      idleTimeout: IDLE_SECONDS,
      sendPingsAutomatically: true,
      maxBackpressure: MAX_UNSENT_BYTES,
      closeOnBackpressureLimit: true,
      upgrade: (res, req, context) => {
        const headers: Record<string, string> = {};
        req.forEach((key, value) => (headers[key] = value));
        const query = req.getQuery() ?? "";
        const upgrade: Upgrade = {
          url: req.getUrl(),
          query,
          context: createAuthContext({
            headers,
            token: new URLSearchParams(query).get("_authToken"),
            remoteAddress: Buffer.from(res.getRemoteAddressAsText()).toString(),
          }),
        };
        res.upgrade<SocketData>(
          { upgrade },
          req.getHeader("sec-websocket-key"),
          req.getHeader("sec-websocket-protocol"),
          req.getHeader("sec-websocket-extensions"),
          context,
        );
      },
      open: (socket) => this.opened(socket),
      // The bytes are uWebSockets.js's only for this call, and a leave may be handled a turn later (the leave
      // pacer): the message is a copy (Buffer.from of an ArrayBuffer would be a view of it, found empty then).
      message: (socket, message) =>
        this.connections.get(socket)?.received(Buffer.copyBytesFrom(new Uint8Array(message))),
      close: (socket, code) => {
        this.connections.get(socket)?.closed(code);
        this.connections.delete(socket);
      },
    });
    // Anything but a WebSocket upgrade: HTTP is the main port's.
    this.app.any(
      "/*",
      (res) => void res.cork(() => res.writeStatus("404 Not Found").end("this port takes WebSocket connections alone")),
    );
  }

  /** Listens on `host:port`; rejects with a sentence when the port cannot be had. */
  listenOn(port: number, host: string): Promise<void> {
    return new Promise((resolve, reject) => {
      listenExclusively(this.app, host, port, (socket) => {
        if (socket === false)
          return reject(
            new Error(
              `the WebSocket port ${host}:${port} could not be listened on (in use, or not this machine's address)`,
            ),
          );
        this.listening = socket;
        resolve();
      });
    });
  }

  /**
   * Called once the rooms are closed (they close their clients' connections first): no new connection, and any left
   * (a latency probe, a connection that never joined) is closed, so that nothing keeps the process running.
   */
  shutdown(): void {
    if (this.listening !== null) uWebSockets.us_listen_socket_close(this.listening);
    this.listening = null;
    this.app.close();
  }

  private opened(socket: Socket): void {
    const connection = new UwsConnection(socket);
    this.connections.set(socket, connection);
    const data = socket.getUserData();
    const { url, query, context } = data.upgrade!;
    data.upgrade = null;
    const params = new URLSearchParams(query);
    void this.join(connection, url, params, context);
  }

  /** As Colyseus's ws transport does: a URL without a room is a latency probe, answered and closed after 1 s. */
  private async join(
    connection: UwsConnection,
    url: string,
    params: URLSearchParams,
    context: AuthContext,
  ): Promise<void> {
    const sessionId = params.get("sessionId");
    const roomId = /\/[a-zA-Z0-9_-]+\/([a-zA-Z0-9_-]+)$/.exec(url)?.[1] ?? null;
    if (!sessionId && !roomId) return answerPings(connection);
    const client = new WebSocketClient(sessionId ?? "", connection as unknown as WebSocket);
    const reconnectionToken = params.get("reconnectionToken") ?? undefined;
    try {
      await connectClientToRoom(roomId === null ? undefined : matchMaker.getLocalRoomById(roomId), client, context, {
        reconnectionToken,
        skipHandshake: params.has("skipHandshake"),
      });
    } catch (error) {
      debugAndPrintError(error as Error);
      const { code, message } = error as { code: number; message: string };
      const closeCode =
        reconnectionToken === undefined
          ? CloseCode.WITH_ERROR
          : isDevMode
            ? CloseCode.MAY_TRY_RECONNECT
            : CloseCode.FAILED_TO_RECONNECT;
      client.error(code, message, () => connection.close(closeCode));
    }
  }
}

function answerPings(connection: UwsConnection): void {
  const timeout = setTimeout(() => connection.close(CloseCode.NORMAL_CLOSURE), 1000);
  connection.on("message", () => connection.send(new Uint8Array([Protocol.PING])));
  connection.on("close", () => clearTimeout(timeout));
}
