/**
 * The WebSocket transport, tuned for thousands of quiet card-game clients on one process.
 *
 * Colyseus's own transport does two things that stall the event loop once clients number in the thousands:
 * - it pings every client in one synchronous sweep (every 3 s by default): with 2,000 clients that is 2,000
 *   socket writes, then 2,000 pongs, in one burst that every move arriving meanwhile waits behind;
 * - every message is its own socket write (a `writev` system call), so a move that sends an event and a state
 *   patch to four players costs eight system calls.
 * This transport pings a slice of the clients at a time (same interval and retries per client, no burst; none that
 * spoke since its last turn: a message is an answer) and
 * holds each socket's writes until the end of the current callback, so everything a room sends one client in
 * one go leaves in one system call.
 *
 * - When thousands of clients drop at once, their leaves are spread over several turns of the event loop
 *   (`watchIncoming`, server/transport/leave-pacer.ts) instead of running in one stretch.
 * - Node accepts one new connection per turn of its event loop, and a turn that handles thousands of clients'
 *   messages takes milliseconds: joins arriving faster than the turns queue in the kernel for seconds (a load
 *   test of 5,000 clients saw 3,900 connections waiting to be accepted and joins taking 6 s). The port is
 *   listened on by several sockets of this one process (SO_REUSEPORT, which the kernel allows only to the same
 *   user), so each turn accepts one connection per socket.
 *
 * It also bounds what a client may make the server hold (see `guardRequests`): every HTTP request's headers and
 * body must arrive within seconds, bodies are size-limited and refused early, matchmaking is served by
 * server/matchmaking.ts, and a socket's protocol errors cost at most a rate-limited log line, never a stack.
 */
import type { EventEmitter } from "node:events";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import net, { type AddressInfo } from "node:net";
import type WebSocket from "ws";
import { Protocol } from "@colyseus/core";
import { WebSocketTransport, type TransportOptions } from "@colyseus/ws-transport";
import { log, logRefusal } from "../../rooms/kit/log";
import { tcpSocketOf } from "../../rooms/kit/colyseus-internals";
import { closeAfterAnswer, isMatchmakeRequest, serveMatchmaking } from "../matchmaking";
import { leavePacer, type Pacer } from "./leave-pacer";

/** How often a slice of the clients is pinged: the sweep over all of them is spread over the ping interval. */
const PING_SLICE_MS = 100;

/** Colyseus counts a client's unanswered pings; this transport also notes whether it spoke since the last one. */
type RawClient = WebSocket & { pingCount: number; spokeSincePing?: boolean };
type UpgradeInfo = Parameters<WebSocketTransport["onConnection"]>[2];

/** A ping to a socket that closed meanwhile is not an error worth reporting (Colyseus passes a no-op too). */
function ignoreClosed(): void {}

/**
 * The clients dealt into slices as they connect, one slice pinged a turn: a turn visits its own clients alone, where
 * a scan of every client to pick out a slice's cost the main thread 2.4% at 8,000 clients.
 * A closed client leaves its slice when its turn next comes (no listener per client: memory per client counts).
 */
class PingSlices {
  private readonly slices: Set<RawClient>[];
  private dealt = 0;

  constructor(count: number) {
    this.slices = Array.from({ length: Math.max(1, count) }, () => new Set<RawClient>());
  }

  get count(): number {
    return this.slices.length;
  }

  add(client: RawClient): void {
    this.slices[this.dealt++ % this.slices.length]!.add(client);
  }

  /** The open clients of slice `index` (the closed ones are dropped from it as they are met). */
  *openIn(index: number): Generator<RawClient> {
    const slice = this.slices[index]!;
    for (const client of slice) {
      if (client.readyState === client.CLOSED) slice.delete(client);
      else yield client;
    }
  }
}

/**
 * The bytes of a frame, owned by the socket until they are written. Colyseus hands the transport its state frames
 * as views into the state encoder's own buffers (@colyseus/schema's `sharedBuffer`, the serializer's full-state
 * buffer), which the next patch overwrites in place; ws and Node's socket keep a reference to what they are given,
 * not a copy. A frame held by a corked socket (or by a socket with writes queued behind a slow client) would go
 * out with the next patch's bytes in it: a client then decodes another state than the one sent (a Fool spectator
 * saw seat names turn empty, wins of 117376131 and another seat's hidden fields; docs/architecture.md). Colyseus's
 * own messages are Buffers it made for this send alone (Buffer.from copies), so only plain views are copied.
 */
export function ownedFrame<T>(data: T): T | Buffer {
  return data instanceof Uint8Array && !Buffer.isBuffer(data) ? Buffer.from(data) : data;
}

/**
 * Wrap the client's `send` so the first send of a callback corks its socket (ws keeps it private: tcpSocketOf in
 * rooms/kit/colyseus-internals.ts) and the end of the callback
 * uncorks it: the frames queued in between go out together. Nothing waits: the uncork runs before any I/O.
 * Every frame is the socket's own copy (see ownedFrame).
 */
export function batchWritesPerCallback(client: WebSocket): void {
  const socket = tcpSocketOf(client);
  const send = client.send;
  if (!socket) {
    // Nothing to cork, but every frame must still be the socket's own: rooms encode into buffers they share.
    client.send = function ownedSend(this: WebSocket, data: unknown, ...rest: unknown[]) {
      return (send as (...a: unknown[]) => void).call(this, ownedFrame(data), ...rest);
    } as WebSocket["send"];
    return;
  }
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  client.send = function batchedSend(this: WebSocket, data: unknown, ...rest: unknown[]) {
    if (!corked && !socket.destroyed) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return (send as (...a: unknown[]) => void).call(this, ownedFrame(data), ...rest);
  } as WebSocket["send"];
}

/**
 * What a client on the main port sends passes here first (a ws WebSocket; the WebSocket port's connections do the
 * same in their own class, server/transport/uws-websocket-port.ts, whose sockets uWebSockets.js pings by itself):
 * - any message is a sign of life, so the pinger need not ask (a player moving every few seconds is never pinged);
 * - a leave runs through the leave pacer: at once normally, spread over later turns of the event loop when thousands
 *   of clients leave together. Both ways of leaving: the socket's close (a drop; Colyseus adds its listener later)
 *   and the leave message (a consented leave, which Colyseus handles as it arrives).
 */
export function watchIncoming(client: EventEmitter, pacer: Pacer = leavePacer): void {
  const emit = client.emit;
  client.emit = function watchedEmit(
    this: EventEmitter & { spokeSincePing?: boolean },
    event: string | symbol,
    ...args: unknown[]
  ): boolean {
    if (event === "message") this.spokeSincePing = true;
    if (!isLeaving(event, args[0])) return emit.call(this, event, ...args);
    pacer.run(() => emit.call(this, event, ...args));
    return true;
  } as EventEmitter["emit"];
}

/** Whether a connection's event is a leave, which waits for the leave pacer: its close, or a message asking to leave. */
export function isLeaving(event: string | symbol, data?: unknown): boolean {
  return event === "close" || (event === "message" && isLeaveMessage(data));
}

function isLeaveMessage(data: unknown): boolean {
  return data instanceof Uint8Array && data.length === 1 && data[0] === Protocol.LEAVE_ROOM;
}

/**
 * How long a connection may take to send what it must: a request's headers, a whole request, and the next request
 * on a kept-alive connection (Node checks these once per check interval).
 */
export const HTTP_TIMEOUTS = {
  headersTimeout: 5_000,
  requestTimeout: 10_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
} as const;

/**
 * How long an HTTP connection may go without a byte either way, a connection that never sends one included (the
 * timeouts above start only with a request). An upgraded WebSocket is exempt (ws clears its socket's timeout):
 * the transport's pings watch those.
 */
export const HTTP_IDLE_MS = 5_000;

/** The body any other HTTP route may carry (none takes one today). */
export const OTHER_BODY_LIMIT = 16 * 1024;

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

function refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  const json = JSON.stringify({ code: status, error: message });
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
  res.end(json);
  closeAfterAnswer(req, res);
}

/**
 * A request with a body the route cannot want: over OTHER_BODY_LIMIT by its declared length, or of a length it
 * does not declare (a stream that could go on forever).
 */
function unwantedBody(req: IncomingMessage): [number, string] | null {
  if (req.headers["transfer-encoding"] !== undefined && req.method !== "GET" && req.method !== "HEAD")
    return [411, "a request body must declare its length"];
  if (Number(req.headers["content-length"] ?? 0) > OTHER_BODY_LIMIT)
    return [413, `the request body is over ${OTHER_BODY_LIMIT} bytes`];
  return null;
}

/**
 * Puts the server's own checks before every listener Colyseus and express put on the HTTP server (they read
 * bodies whole before their own checks): matchmaking goes to serveMatchmaking, other requests with an unwanted
 * body are refused, the rest go on as before.
 */
export function guardRequests(server: http.Server): void {
  const listeners = server.listeners("request") as RequestListener[];
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (isMatchmakeRequest(req)) return void serveMatchmaking(req, res);
    const unwanted = unwantedBody(req);
    if (unwanted !== null) return refuse(req, res, ...unwanted);
    for (const listener of listeners) listener.call(server, req, res);
  });
}

/** A WebSocket's protocol error (a bad frame, an oversize message): its code, never the bytes. */
function socketErrorKind(error: Error & { code?: string }): string {
  return error.code ?? "socket error";
}

function boundedHttpServer(): http.Server {
  const server = http.createServer({ ...HTTP_TIMEOUTS });
  // Without a 'timeout' listener Node destroys the idle socket itself.
  server.setTimeout(HTTP_IDLE_MS);
  return server;
}

/** Sockets listening on the server's port, the HTTP server's own included: connections accepted per loop turn. */
export const ACCEPTING_SOCKETS = 8;

/** Where Node can share a port between sockets (elsewhere `reusePort` is an error, and the server keeps one socket). */
const SHARES_PORTS = new Set<NodeJS.Platform>(["linux", "freebsd"]);

/**
 * Claims the port as the only listener (SO_REUSEPORT alone would let a second server started on the same port by
 * mistake share it silently instead of failing with EADDRINUSE), then lets it go for the sockets that share it,
 * handing `claimed` the port (the one the system chose, for port 0).
 */
function claimPort(
  port: number,
  host: string | undefined,
  claimed: (port: number) => void,
  failed: (error: Error) => void,
): void {
  const probe = net.createServer();
  probe.once("error", failed);
  probe.listen({ port, host, exclusive: true }, () => {
    const chosen = (probe.address() as AddressInfo).port;
    probe.close(() => claimed(chosen));
  });
}

/**
 * More sockets on the HTTP server's port, each handing what it accepts to the HTTP server (which serves a
 * connection however it came in).
 */
function moreAcceptingSockets(
  server: http.Server,
  port: number,
  host: string | undefined,
  backlog: number | undefined,
): net.Server[] {
  return Array.from({ length: ACCEPTING_SOCKETS - 1 }, () => {
    const acceptor = net.createServer((socket) => server.emit("connection", socket));
    acceptor.on("error", (error: Error & { code?: string }) => {
      log.warn(
        { event: "acceptor_failed", code: error.code ?? null },
        "one more socket on the port could not listen; the server accepts through the others",
      );
      acceptor.close();
    });
    return acceptor.listen({ port, host, backlog, reusePort: true });
  });
}

export class CardhallTransport extends WebSocketTransport {
  private acceptors: net.Server[] = [];

  private readonly pingSlices: PingSlices;

  constructor(options: TransportOptions = {}) {
    super({ server: boundedHttpServer(), ...options });
    this.pingSlices = new PingSlices(Math.round(this.pingIntervalMS / PING_SLICE_MS));
    this.wss.on("connection", (client: RawClient) => this.pingSlices.add(client));
  }

  /**
   * Listens (on several sockets: see the module's comment), then, once Colyseus has bound its routes in the
   * callback, puts the server's checks in front.
   */
  override listen(
    port: number,
    hostname?: string,
    backlog?: number,
    listeningListener?: (error?: unknown) => void,
  ): this {
    const server = this.server!;
    const listening = () => {
      listeningListener?.();
      guardRequests(server);
    };
    if (!SHARES_PORTS.has(process.platform)) return super.listen(port, hostname, backlog, listening);
    claimPort(
      port,
      hostname,
      (claimed) => {
        server.listen({ port: claimed, host: hostname, backlog, reusePort: true }, () => {
          this.acceptors = moreAcceptingSockets(server, claimed, hostname, backlog);
          listening();
        });
      },
      // Colyseus rejects its listen() with the error given to this callback: the server says why and exits.
      (error) => listeningListener?.(error),
    );
    return this;
  }

  override shutdown(): void {
    for (const acceptor of this.acceptors) acceptor.close();
    super.shutdown();
  }

  /** Ws calls this unbound (as the server's "connection" listener), so it must not rely on `this`. */
  protected override async onConnection(
    rawClient: RawClient,
    req: IncomingMessage,
    upgrade?: UpgradeInfo,
  ): Promise<void> {
    batchWritesPerCallback(rawClient);
    watchIncoming(rawClient);
    const joining = super.onConnection(rawClient, req, upgrade);
    // Colyseus's own error listener (added at once, above) prints each protocol error with its stack.
    rawClient.removeAllListeners("error");
    rawClient.on("error", (error) => logRefusal({ event: "connection_refused", kind: socketErrorKind(error) }));
    return joining;
  }

  /**
   * Same rule as Colyseus's (terminate after `pingMaxRetries` unanswered pings), one slice at a time; a client that
   * sent a message since its last turn answered already, and is not pinged.
   */
  protected override autoTerminateUnresponsiveClients(pingInterval: number, pingMaxRetries: number): void {
    let turn = 0;
    this.pingInterval = setInterval(() => {
      turn = (turn + 1) % this.pingSlices.count;
      for (const client of this.pingSlices.openIn(turn)) {
        if (client.spokeSincePing) {
          client.spokeSincePing = false;
          client.pingCount = 0;
          continue;
        }
        if (client.pingCount >= pingMaxRetries) {
          client.terminate();
          continue;
        }
        client.pingCount++;
        client.ping(ignoreClosed);
      }
    }, pingInterval / this.pingSlices.count);
  }
}
