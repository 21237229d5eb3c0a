/**
 * The cluster suite (cluster-suite.ts) with each process's clients' WebSockets on a WebSocket port of its own
 * (WEBSOCKET_PORT): the public address each process announces is that port, so a client matchmade through one
 * process connects to the other's WebSocket port when the room is there.
 */
import { clusterSuite } from "./cluster-suite";

clusterSuite({ webSocketPorts: true });
