/** The load test's baseline: a plain `ws` server that echoes every message, in its own process. */
import { WebSocketServer } from "ws";

const port = Number(process.argv[2]);
const server = new WebSocketServer({ host: "127.0.0.1", port });
server.on("connection", (socket) => socket.on("message", (data, isBinary) => socket.send(data, { binary: isBinary })));
server.on("listening", () => process.send?.("listening"));
process.on("disconnect", () => server.close(() => process.exit(0)));
