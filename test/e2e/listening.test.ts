/**
 * The server listens on several sockets sharing its port (server/transport.ts), yet a port is still one server's:
 * a second server started on it by mistake says why and exits, and a stopped server leaves nothing listening.
 */
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
  const answers = await Promise.all(Array.from({ length: 64 }, () => fetch(`${first.httpUrl}/health`).then((response) => response.status)));
  expect(answers).toEqual(Array(64).fill(200));
  await first.stop();
  expect(await portAnswers(port)).toBe(false);
}, 60_000);
