/**
 * The differential test (one-truth-suite.ts) with every client's WebSocket on the WebSocket port (uWebSockets.js,
 * server/transport/websocket-port.ts) and HTTP on the main port: ONE_TRUTH_WEBSOCKET_PORT_MATCHES (300) of each game.
 * `npm test` plays 100 of each; `npm run test:proofs` the full count.
 */
import { oneTruthSuite } from "./one-truth-suite";

oneTruthSuite({ matches: Number(process.env.ONE_TRUTH_WEBSOCKET_PORT_MATCHES ?? 300), webSocketPort: true });
