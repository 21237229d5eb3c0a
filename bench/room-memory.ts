/**
 * npm run bench:room-memory [-- ROOT ...]
 *
 * What a table holds in memory before anyone joins it: for each build given (a project root with a compiled dist/;
 * this one by default), a server in this process opens 400 tables of each game and reports, per table, the heap
 * and the array buffers (the state encoders' buffers) they added, after a full garbage collection. Clients add
 * their own share on top (sockets, views): the load test's memory per room counts everything.
 */
import * as path from "node:path";
import type { Server } from "@colyseus/core";

const TABLES = 400;
const HERE = path.resolve(__dirname, "..", "..");

/** Options that keep each table waiting: nobody moves while it is measured. */
const WAITING_TABLES: Record<string, object> = {
  evensteven: { n: 7 },
  fool: { name: "bench", aiDelayMs: 60_000 },
  patience: { paused: true },
  tractor: { bots: ["Alice", "Bob", "Charles", "David"], botDelayMs: 60_000, startDelayMs: 600_000 },
};

interface Collectable {
  gc?: () => void;
}

function collect(): NodeJS.MemoryUsage {
  const gc = (globalThis as Collectable).gc;
  if (!gc) throw new Error("run with node --expose-gc");
  gc();
  gc();
  return process.memoryUsage();
}

async function measure(root: string): Promise<void> {
  const dist = path.join(root, "dist");
  const { matchMaker } = require(
    require.resolve("@colyseus/core", { paths: [path.join(dist, "server")] }),
  ) as typeof import("@colyseus/core");
  const { makeServer } = require(path.join(dist, "server", "app")) as { makeServer: (options: object) => Server };
  const server = makeServer({ gracefullyShutdown: false });
  await server.listen(0, "127.0.0.1");
  const rows: string[] = [];
  for (const [game, options] of Object.entries(WAITING_TABLES)) {
    const before = collect();
    const ids: string[] = [];
    for (let table = 0; table < TABLES; table++) ids.push((await matchMaker.createRoom(game, options)).roomId);
    const after = collect();
    const kb = (bytes: number) => (bytes / TABLES / 1024).toFixed(1);
    rows.push(
      `${game} ${kb(after.heapUsed - before.heapUsed)} KB heap + ${kb(after.arrayBuffers - before.arrayBuffers)} KB buffers`,
    );
    for (const id of ids) await matchMaker.getLocalRoomById(id)?.disconnect();
  }
  console.log(`${path.relative(process.cwd(), root) || "."}: a table, before anyone joins: ${rows.join("; ")}`);
}

async function main(): Promise<void> {
  const roots = process.argv.slice(2);
  // One build per process: two builds' rooms would share one matchmaker.
  if (roots.length > 1) {
    const { execFileSync } = await import("node:child_process");
    for (const root of roots)
      process.stdout.write(
        execFileSync(process.execPath, ["--expose-gc", __filename, root], {
          env: { ...process.env, LOG_LEVEL: "warn" },
        }),
      );
    return;
  }
  await measure(path.resolve(roots[0] ?? HERE));
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(`room-memory: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
