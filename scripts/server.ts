/** A cardhall server in the script's own process, for the page's screenshots script and its benchmark. */
import { makeServer } from "../server/app";
import { Records, recordsConfig } from "../server/records";
import { freePort } from "../test/e2e/ports";

/**
 * A cardhall server in this process on a free port of 127.0.0.1, serving the built page; `stop()` closes it.
 * With `recordsIn` (a directory), it keeps the finished games there, for their replays.
 */
export async function startServer(
  options: { recordsIn?: string } = {},
): Promise<{ httpUrl: string; url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const config = options.recordsIn === undefined ? null : recordsConfig({ DATA_DIR: options.recordsIn });
  const records = config === null ? null : await Records.open(config);
  const server = makeServer({ gracefullyShutdown: false, records });
  await server.listen(port, "127.0.0.1");
  return {
    httpUrl: `http://127.0.0.1:${port}`,
    url: `ws://127.0.0.1:${port}`,
    stop: () => server.gracefullyShutdown(false),
  };
}
