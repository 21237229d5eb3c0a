/** A cardhall server in the script's own process, for the page's screenshots script and its benchmark. */
import { makeServer } from "../server/app";
import { freePort } from "../test/e2e/ports";

/** A cardhall server in this process on a free port of 127.0.0.1, serving the built page; `stop()` closes it. */
export async function startServer(): Promise<{ httpUrl: string; url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const server = makeServer({ gracefullyShutdown: false });
  await server.listen(port, "127.0.0.1");
  return { httpUrl: `http://127.0.0.1:${port}`, url: `ws://127.0.0.1:${port}`, stop: () => server.gracefullyShutdown(false) };
}
