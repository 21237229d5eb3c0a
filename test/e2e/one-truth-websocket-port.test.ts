/**
 * The differential test (one-truth-suite.ts) with every client's WebSocket on the WebSocket port (uWebSockets.js,
 * server/transport/websocket-port.ts) and HTTP on the main port: ONE_TRUTH_WEBSOCKET_PORT_MATCHES (300) of each game.
 */
import { oneTruthSuite } from "./one-truth-suite";

oneTruthSuite({ matches: Number(process.env.ONE_TRUTH_WEBSOCKET_PORT_MATCHES ?? 300), webSocketPort: true });
