import { createServer } from "node:net";

/**
 * A port nothing listens on now, picked by the system (so suites that run side by side never collide). Nothing
 * holds it: use it for a server started at once, or as an address where no server is.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}
