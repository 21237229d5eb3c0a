/**
 * The WebSocket port (WEBSOCKET_PORT, server/transport/websocket-port.ts): a real server as `npm start` runs it, its clients'
 * WebSockets on uWebSockets.js on a port of their own, HTTP on the main port. The clients here are raw
 * @colyseus/sdk ones that follow the seat reservation, as the cardhall SDK, the page and the bridge do; one truth per
 * viewer through this port is one-truth-websocket-port.test.ts.
 */
import { spawn } from "node:child_process";
import * as http from "node:http";
import * as path from "node:path";
import { Client, type Room } from "@colyseus/sdk";
import { webSocketPortConfig } from "../../server/transport/websocket-port";
import { waitUntil } from "../helpers";
import { consume, OpenRooms, reserveNewTable, socketOf, socketPortOf, stateOf, type Reservation } from "./raw-client";
import { finished, freePort, ServerProcess } from "./server-process";

const ROOT = path.resolve(__dirname, "..", "..");

let server: ServerProcess;
let webSocketPort: number;
const rooms = new OpenRooms();
const track = (room: Room) => rooms.track(room);

beforeAll(async () => {
  webSocketPort = await freePort();
  server = new ServerProcess(await freePort(), {
    NODE_ENV: "",
    WEBSOCKET_PORT: String(webSocketPort),
    DRAIN_TIMEOUT: "1",
  });
  await server.start();
});

afterEach(() => rooms.leaveAll());

afterAll(async () => {
  const code = await server.stop();
  if (code !== 0) throw new Error(`the server stopped with ${code}:\n${server.output.slice(-3000)}`);
});

const create = (game: string, options: Record<string, unknown> = {}): Promise<Reservation> =>
  reserveNewTable(server.httpUrl, game, options);

/** The status of an HTTP request with no body. */
function statusOf(port: number, method: "GET" | "POST", path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, path, method }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", reject);
    request.end();
  });
}

describe("the clients' WebSockets on a port of their own", () => {
  test("a seat reservation names the WebSocket port, and the client plays through it", async () => {
    const reservation = await create("evensteven");
    expect((reservation as unknown as { publicAddress: string }).publicAddress).toBe(`127.0.0.1:${webSocketPort}`);
    const room = track(await consume(server.url, reservation));
    expect(socketPortOf(room)).toBe(webSocketPort);
    expect(stateOf(room).phase).toBe("playing");
    expect(server.output).toContain(`clients' WebSocket connections on ws://127.0.0.1:${webSocketPort}`);
  });

  test("HTTP stays on the main port: the WebSocket port serves no page, route or matchmaking", async () => {
    expect(await statusOf(server.port, "GET", "/health")).toBe(200);
    expect(await statusOf(webSocketPort, "GET", "/health")).toBe(404);
    expect(await statusOf(webSocketPort, "GET", "/")).toBe(404);
    expect(await statusOf(webSocketPort, "POST", "/matchmake/create/evensteven")).toBe(404);
  });

  test("a message over 4 KB closes its own connection, and no other", async () => {
    const loud = track(await consume(server.url, await create("evensteven")));
    const quiet = track(await consume(server.url, await create("evensteven")));
    loud.reconnection.enabled = false; // the SDK would try again, and say so on the console
    const closed = new Promise<number>((resolve) => loud.onLeave((code) => resolve(code)));
    socketOf(loud).send(new Uint8Array(5 * 1024).fill(13));
    expect(await closed).not.toBe(1000);
    await waitUntil(() => socketOf(loud).readyState === 3, 5000, "the loud socket closed");
    expect(socketOf(quiet).readyState).toBe(1);
    const next = track(await consume(server.url, await create("patience")));
    expect(stateOf(next).deal).toBeGreaterThan(0);
  });

  test("a second connection with the seat's token takes it; the first is closed with 4101", async () => {
    const first = track(await consume(server.url, await create("fool", { mode: "two-players", name: "first" })));
    const closed = new Promise<number>((resolve) => first.onLeave((code) => resolve(code)));
    const second = track(await new Client(server.url).reconnect(first.reconnectionToken));
    expect(second.sessionId).toBe(first.sessionId);
    expect(socketPortOf(second)).toBe(webSocketPort);
    expect(await closed).toBe(4101);
  });
});

describe("WEBSOCKET_PORT and WEBSOCKET_PUBLIC_ADDRESS", () => {
  test("unset, there is no WebSocket port; set, the port and the address clients are told", () => {
    expect(webSocketPortConfig({}, "127.0.0.1", 2567)).toBeNull();
    expect(webSocketPortConfig({ WEBSOCKET_PORT: "2568" }, "127.0.0.1", 2567)).toEqual({
      port: 2568,
      host: "127.0.0.1",
      publicAddress: "127.0.0.1:2568",
    });
    expect(
      webSocketPortConfig({ WEBSOCKET_PORT: "2568", WEBSOCKET_PUBLIC_ADDRESS: "cards.example:443" }, "0.0.0.0", 2567)
        ?.publicAddress,
    ).toBe("cards.example:443");
  });

  test("a value that cannot be right is refused with what is wrong", () => {
    expect(() => webSocketPortConfig({ WEBSOCKET_PORT: "ws" }, "127.0.0.1", 2567)).toThrow(
      'WEBSOCKET_PORT must be a port number, got "ws"',
    );
    expect(() => webSocketPortConfig({ WEBSOCKET_PORT: "2567" }, "127.0.0.1", 2567)).toThrow(
      "WEBSOCKET_PORT must differ from PORT",
    );
    expect(() =>
      webSocketPortConfig(
        { WEBSOCKET_PORT: "2568", WEBSOCKET_PUBLIC_ADDRESS: "ws://cards.example" },
        "127.0.0.1",
        2567,
      ),
    ).toThrow("WEBSOCKET_PUBLIC_ADDRESS must be host:port");
  });

  test("a WebSocket port already taken stops the start with a sentence", async () => {
    const node = path.join(ROOT, "node_modules", ".bin", "node");
    const child = spawn(node, [path.join(ROOT, "dist", "server", "main.js")], {
      env: {
        ...process.env,
        HOST: "127.0.0.1",
        PORT: String(await freePort()),
        WEBSOCKET_PORT: String(server.port),
        RECORDS: "off",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const { status, stdout, stderr } = await finished(child, 30_000);
    expect(status).toBe(1);
    expect(stdout + stderr).toContain(`the WebSocket port 127.0.0.1:${server.port} could not be listened on`);
  });
});
