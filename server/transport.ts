/**
 * The WebSocket transport, tuned for thousands of quiet card-game clients on one process.
 *
 * Colyseus's own transport does two things that stall the event loop once clients number in the thousands:
 * - it pings every client in one synchronous sweep (every 3 s by default): with 2,000 clients that is 2,000
 *   socket writes, then 2,000 pongs, in one burst that every move arriving meanwhile waits behind;
 * - every message is its own socket write (a `writev` system call), so a move that sends an event and a state
 *   patch to four players costs eight system calls.
 * This transport pings a slice of the clients at a time (same interval and retries per client, no burst) and
 * holds each socket's writes until the end of the current callback, so everything a room sends one client in
 * one go leaves in one system call.
 */
import type { IncomingMessage } from "http";
import type { Socket } from "net";
import type WebSocket from "ws";
import { WebSocketTransport } from "@colyseus/ws-transport";

/** How often a slice of the clients is pinged: the sweep over all of them is spread over the ping interval. */
const PING_SLICE_MS = 100;

type RawClient = WebSocket & { pingCount: number };
type UpgradeInfo = Parameters<WebSocketTransport["onConnection"]>[2];

/** A ping to a socket that closed meanwhile is not an error worth reporting (Colyseus passes a no-op too). */
function ignoreClosed(): void {}

/** Sequence numbers, given to clients as the pinger first meets them, spread them evenly over the slices. */
let clientsNumbered = 0;
const clientNumbers = new WeakMap<WebSocket, number>();

function numberOf(client: WebSocket): number {
  let number = clientNumbers.get(client);
  if (number === undefined) clientNumbers.set(client, (number = clientsNumbered++));
  return number;
}

/** ws keeps the TCP socket private; it is the only handle on corking, which ws itself uses per frame. */
function tcpSocketOf(client: WebSocket): Socket | undefined {
  return (client as unknown as { _socket?: Socket })._socket;
}

/**
 * Wrap the client's `send` so the first send of a callback corks its socket and the end of the callback
 * uncorks it: the frames queued in between go out together. Nothing waits: the uncork runs before any I/O.
 */
export function batchWritesPerCallback(client: WebSocket): void {
  const socket = tcpSocketOf(client);
  if (!socket) return;
  const send = client.send;
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  client.send = function batchedSend(this: WebSocket, ...args: Parameters<WebSocket["send"]>) {
    if (!corked && !socket.destroyed) {
      corked = true;
      socket.cork();
      process.nextTick(uncork);
    }
    return (send as (...a: Parameters<WebSocket["send"]>) => void).apply(this, args);
  } as WebSocket["send"];
}

export class CardhallTransport extends WebSocketTransport {
  /** Ws calls this unbound (as the server's "connection" listener), so it must not rely on `this`. */
  protected override async onConnection(rawClient: RawClient, req: IncomingMessage, upgrade?: UpgradeInfo): Promise<void> {
    batchWritesPerCallback(rawClient);
    return super.onConnection(rawClient, req, upgrade);
  }

  /** Same rule as Colyseus's (terminate after `pingMaxRetries` unanswered pings), one slice at a time. */
  protected override autoTerminateUnresponsiveClients(pingInterval: number, pingMaxRetries: number): void {
    const slices = Math.max(1, Math.round(pingInterval / PING_SLICE_MS));
    let slice = 0;
    this.pingInterval = setInterval(() => {
      slice = (slice + 1) % slices;
      for (const client of this.wss.clients as Set<RawClient>) {
        if (numberOf(client) % slices !== slice) continue;
        if (client.pingCount >= pingMaxRetries) {
          client.terminate();
          continue;
        }
        client.pingCount++;
        client.ping(ignoreClosed);
      }
    }, pingInterval / slices);
  }
}
