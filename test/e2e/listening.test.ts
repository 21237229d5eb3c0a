/**
 * The server listens on several sockets sharing its port (server/transport/transport.ts), yet a port is still one server's:
 * a second server started on it by mistake says why and exits, and a stopped server leaves nothing listening.
 */
import { connect as netConnect } from "node:net";
import { freePort, ServerProcess } from "./server-process";
import { portAnswers } from "./ports";

test("a second server on a port in use exits with EADDRINUSE; the first serves on, and leaves the port free when stopped", async () => {
  const port = await freePort();
  const first = new ServerProcess(port);
  await first.start();
  const second = new ServerProcess(port, { RECORDS: "off" });
  await expect(second.start()).rejects.toThrow(/EADDRINUSE/);
  expect(second.output).toMatch(/cardhall could not start: listen EADDRINUSE/);
  expect(await second.terminate()).toBe(1);
  const health = await fetch(`${first.httpUrl}/health`).then((response) => response.json() as Promise<{ ok: boolean }>);
  expect(health.ok).toBe(true);
  // Many connections at once are all accepted and served, whichever of the port's sockets takes each.
  const answers = await Promise.all(
    Array.from({ length: 64 }, () => fetch(`${first.httpUrl}/health`).then((response) => response.status)),
  );
  expect(answers).toEqual(Array(64).fill(200));
  await first.stop();
  expect(await portAnswers(port)).toBe(false);
}, 60_000);

test("whichever socket of the port accepts a connection, the server's HTTP limits hold: headers sent slowly are cut off", async () => {
  const server = new ServerProcess(await freePort(), { RECORDS: "off" });
  await server.start();
  const timers: NodeJS.Timeout[] = [];
  try {
    // Sixteen connections spread over the port's sockets by the kernel, each sending a header line a second.
    const closed = await Promise.all(
      Array.from({ length: 16 }, () => {
        const socket = netConnect(server.port, "127.0.0.1", () => {
          socket.write("GET /health HTTP/1.1\r\nHost: cardhall\r\n");
          timers.push(setInterval(() => socket.writable && socket.write("X-Slow: yes\r\n"), 1000));
        });
        socket.on("error", () => undefined);
        return new Promise<boolean>((resolve) => {
          socket.once("close", () => resolve(true));
          timers.push(setTimeout(() => (socket.destroy(), resolve(false)), 20_000));
        });
      }),
    );
    expect(closed).toEqual(Array(16).fill(true));
  } finally {
    timers.forEach(clearTimeout);
    await server.stop();
  }
}, 60_000);
