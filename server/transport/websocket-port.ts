/**
 * The clients' WebSocket connections on a port of their own, served by uWebSockets.js (WEBSOCKET_PORT; off by
 * default). HTTP stays where it is: the page, the records, /metrics and matchmaking with every bound of
 * server/transport/transport.ts and server/matchmaking.ts are served on the main port by Node's HTTP server, which also still
 * takes WebSocket connections. A seat reservation names this port (Colyseus's `publicAddress`), so the SDK, the
 * page and the bridge connect to it without being told.
 *
 * Why: at 8,000 clients on two cores, Node's sockets and ws cost the main thread about a fifth of its work and each
 * client about 3 KB; uWebSockets.js reads, frames, pings and writes in C++, which took a tenth off the main thread's
 * work and three quarters of its stalls over 50 ms. Its connections get what the main port's have (server/transport/uws-websocket-port.ts,
 * which sets the bounds named below):
 * - a message is a sign of life and a leave runs through the leave pacer, as on the main port;
 * - a message over MAX_MESSAGE_BYTES closes the connection (uWebSockets.js refuses it before any JavaScript runs);
 * - a silent connection is pinged by uWebSockets.js and closed after IDLE_SECONDS without a byte;
 * - a client that does not read its frames is closed once MAX_UNSENT_BYTES wait for it: uWebSockets.js would
 *   otherwise drop frames past that bound, and a client missing a state patch decodes a wrong state from then on;
 * - any other request to this port is answered 404: HTTP is the main port's.
 *
 * uWebSockets.js comes from the npm registry as uws-pack's binaries (packages/uwebsockets-binary): the project's
 * installs reach the npm registry alone, and uWebSockets.js itself is published on GitHub.
 */
import { isPublicAddress } from "../cluster/cluster";
import type { WebSocketPort } from "./uws-websocket-port";

/** Where the WebSocket port listens, and the address clients are told to connect to. */
export interface WebSocketPortConfig {
  port: number;
  host: string;
  /** host:port as clients reach it (Colyseus's publicAddress): the listening address by default. */
  publicAddress: string;
}

/**
 * WEBSOCKET_PORT, with WEBSOCKET_PUBLIC_ADDRESS when clients reach it by another name (a proxy, a public host):
 * null when the port is not set, an error that says what is wrong when a value is.
 */
export function webSocketPortConfig(
  env: NodeJS.ProcessEnv,
  host: string,
  mainPort: number,
): WebSocketPortConfig | null {
  const text = env.WEBSOCKET_PORT;
  if (text === undefined || text === "") return null;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new Error(`WEBSOCKET_PORT must be a port number, got "${text}"`);
  if (port === mainPort) throw new Error(`WEBSOCKET_PORT must differ from PORT (${mainPort}): HTTP stays on PORT`);
  const publicAddress = env.WEBSOCKET_PUBLIC_ADDRESS || `${host}:${port}`;
  if (!isPublicAddress(publicAddress))
    throw new Error(`WEBSOCKET_PUBLIC_ADDRESS must be host:port, got "${publicAddress}"`);
  return { port, host, publicAddress };
}

/**
 * The port's transport, loaded only when a server has one: uWebSockets.js is a native module with binaries for the
 * common platforms and Node versions alone, and a server without the port must start without it.
 */
export function makeWebSocketPort(): WebSocketPort {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { WebSocketPort: Port } = require("./uws-websocket-port") as typeof import("./uws-websocket-port");
  return new Port();
}
