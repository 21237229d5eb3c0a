import type { AddressInfo } from "node:net";
import type { Socket } from "node:net";
import WebSocket, { WebSocketServer } from "ws";
import { CardhallTransport, batchWritesPerCallback } from "../../server/transport/transport";

interface FakeClient {
  pingCount: number;
  spokeSincePing?: boolean;
  ping: jest.Mock;
  terminate: jest.Mock;
  readyState: number;
  readonly CLOSED: number;
}

/** A client whose pong comes back at once (as the transport's heartbeat would record it), or never. */
function fakeClient(answers: boolean): FakeClient {
  const client: FakeClient = {
    pingCount: 0,
    ping: jest.fn(() => {
      if (answers) client.pingCount = 0;
    }),
    terminate: jest.fn(),
    readyState: WebSocket.OPEN,
    CLOSED: WebSocket.CLOSED,
  };
  return client;
}

describe("the transport's pings", () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function startPinging(clients: FakeClient[], intervalMs: number, retries: number): () => void {
    const transport = new CardhallTransport({ noServer: true, pingInterval: intervalMs });
    const internals = transport as unknown as {
      pingSlices: { add(client: FakeClient): void };
      pingInterval: NodeJS.Timeout;
      autoTerminateUnresponsiveClients(intervalMs: number, retries: number): void;
    };
    // What the transport does with each connection its WebSocket server accepts.
    clients.forEach((client) => internals.pingSlices.add(client));
    internals.autoTerminateUnresponsiveClients(intervalMs, retries);
    return () => clearInterval(internals.pingInterval);
  }

  test("each slice of the interval pings its share of the clients, and every client once per interval", () => {
    const clients = Array.from({ length: 6 }, () => fakeClient(true));
    const stop = startPinging(clients, 300, 2);
    const pinged = () => clients.filter((client) => client.ping.mock.calls.length > 0).length;
    jest.advanceTimersByTime(100);
    expect(pinged()).toBe(2);
    jest.advanceTimersByTime(100);
    expect(pinged()).toBe(4);
    jest.advanceTimersByTime(100);
    expect(clients.map((client) => client.ping.mock.calls.length)).toEqual([1, 1, 1, 1, 1, 1]);
    stop();
  });

  test("a client whose socket closed is pinged no more", () => {
    const [staying, leaving] = [fakeClient(true), fakeClient(true)];
    const stop = startPinging([staying, leaving], 300, 2);
    jest.advanceTimersByTime(300);
    leaving.readyState = WebSocket.CLOSED;
    jest.advanceTimersByTime(600);
    expect(staying.ping).toHaveBeenCalledTimes(3);
    expect(leaving.ping).toHaveBeenCalledTimes(1);
    stop();
  });

  test("a client that answers is kept; one that misses the allowed pings is terminated", () => {
    const answering = [fakeClient(true), fakeClient(true)];
    const silent = [fakeClient(false), fakeClient(false)];
    const stop = startPinging([...answering, ...silent], 300, 2);
    jest.advanceTimersByTime(900);
    for (const client of answering) {
      expect(client.ping).toHaveBeenCalledTimes(3);
      expect(client.terminate).not.toHaveBeenCalled();
    }
    for (const client of silent) {
      expect(client.ping).toHaveBeenCalledTimes(2);
      expect(client.terminate).toHaveBeenCalledTimes(1);
    }
    stop();
  });

  test("a client that sent a message since its last turn is not pinged, and a silent one is pinged again", () => {
    const speaking = fakeClient(false);
    const stop = startPinging([speaking], 300, 2);
    for (let interval = 0; interval < 4; interval++) {
      speaking.spokeSincePing = true; // a move every interval: a player at the table
      jest.advanceTimersByTime(300);
    }
    expect(speaking.ping).not.toHaveBeenCalled();
    expect(speaking.terminate).not.toHaveBeenCalled();
    // Then silence, and no pong: pinged twice, then terminated, as any silent client.
    jest.advanceTimersByTime(900);
    expect(speaking.ping).toHaveBeenCalledTimes(2);
    expect(speaking.terminate).toHaveBeenCalledTimes(1);
    stop();
  });
});

describe("batched socket writes", () => {
  let server: WebSocketServer;
  let serverSide: Promise<WebSocket>;

  beforeEach(async () => {
    server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    serverSide = new Promise((resolve) => server.once("connection", resolve));
    await new Promise((resolve) => server.once("listening", resolve));
  });
  afterEach(async () => {
    server.clients.forEach((client) => client.terminate());
    await new Promise((resolve) => server.close(resolve));
  });

  test("what one callback sends a client leaves in one system call, in order, and the next callback's separately", async () => {
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const received: string[] = [];
    const allArrived = new Promise<void>((resolve) =>
      client.on("message", (data) => {
        received.push(data.toString());
        if (received.length === 4) resolve();
      }),
    );
    const socket = await serverSide;
    batchWritesPerCallback(socket);
    type Writes = { _writev: (...args: unknown[]) => void; _write: (...args: unknown[]) => void };
    const tcp = (socket as unknown as { _socket: Socket })._socket as unknown as Writes;
    const writev = jest.spyOn(tcp, "_writev");
    const write = jest.spyOn(tcp, "_write");

    for (const text of ["event", "patch", "reply"]) socket.send(text);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writev).toHaveBeenCalledTimes(1);
    expect(write).not.toHaveBeenCalled();

    socket.send("next");
    await allArrived;
    expect(received).toEqual(["event", "patch", "reply", "next"]);
    expect(writev.mock.calls.length + write.mock.calls.length).toBe(2);
    client.close();
  });
  test("without a TCP socket to cork, a frame is still copied when sent: the rooms' shared buffers are written again", () => {
    const sent: unknown[] = [];
    const socketless = { send: (data: unknown) => sent.push(data) } as unknown as WebSocket;
    batchWritesPerCallback(socketless);
    const shared = new Uint8Array([1, 2, 3]);
    socketless.send(shared.subarray(0, 3));
    shared.set([9, 9, 9]);
    expect(sent.map((data) => [...(data as Uint8Array)])).toEqual([[1, 2, 3]]);
  });

  test("a frame that is a view into a buffer reused after the send goes out as it was when sent", async () => {
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const received: number[][] = [];
    const allArrived = new Promise<void>((resolve) =>
      client.on("message", (data: Buffer) => {
        received.push([...data]);
        if (received.length === 2) resolve();
      }),
    );
    const socket = await serverSide;
    batchWritesPerCallback(socket);
    // What @colyseus/schema's encoder does: each patch is written into one buffer and handed out as a view of it.
    const encoderBuffer = new Uint8Array(8);
    const patch = (bytes: number[]) => (encoderBuffer.set(bytes), encoderBuffer.subarray(0, bytes.length));
    socket.send(patch([1, 2, 3]));
    socket.send(patch([9, 9, 9]));
    await allArrived;
    expect(received).toEqual([
      [1, 2, 3],
      [9, 9, 9],
    ]);
    client.close();
  });
});
