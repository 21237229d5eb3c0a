/**
 * bin/cluster --processes N [--port P] [--websocket-port W]: a local cardhall cluster. Starts a private redis-server
 * on 127.0.0.1 and N server processes on consecutive ports from P (each announcing its own address, each with its
 * share of the CPUs for the Fool AI's threads), prints their addresses, and stops them all on Ctrl-C (or SIGTERM, or
 * SIGINT sent to this process alone, as a supervisor does): the processes drain (DRAIN_TIMEOUT, 10 s here unless
 * set), then Redis stops. With `--websocket-port W` each process also takes its clients' WebSockets on a port of its
 * own, consecutive from W (WEBSOCKET_PORT, server/transport/websocket-port.ts), and announces that one.
 *
 * The processes keep one record store, as a cluster must (a game is listed by /games on every process): the SQLite
 * file a lone server keeps (DATA_DIR, data/ by default), shared in WAL mode, or the PostgreSQL of DATABASE_URL when
 * it is set. SQLite rather than a PostgreSQL started here: the processes are on one machine, a record is one small
 * write when a game ends (a writer waits out another's lock, and the write queue tries again later), WAL lets every
 * process read while one writes, and `bin/replay ID` and a later `npm start` find the cluster's games where they
 * find their own, with nothing more to install.
 */
import type { ChildProcess } from "node:child_process";
import * as os from "node:os";
import { Command } from "commander";
import { wholeNumber } from "./lib/arguments";
import { EXIT_DONE, EXIT_FAILED, usageErrorsAreBadInput } from "./lib/exit-status";
import { freePort } from "./lib/free-port";
import { findRedisServer, REDIS_MISSING, RedisServer } from "./lib/redis-server";
import { exited, HOST, listening, spawnServer } from "./lib/server-child";

/** A local cluster is for trying things: Ctrl-C should not wait two minutes for games to end. */
const LOCAL_DRAIN_SECONDS = "10";

interface ClusterOptions {
  processes: number;
  port: number;
  webSocketPort?: number;
  redisPort?: number;
}

/** One process's ports: HTTP (and WebSockets) on `port`; its clients' WebSockets on `webSocketPort` when it has one. */
interface ProcessPorts {
  port: number;
  webSocketPort?: number;
}

/** Each process's ports, consecutive from the first ones; an error when the two ranges overlap or run past 65535. */
function processPorts({
  processes,
  port,
  webSocketPort,
}: Pick<ClusterOptions, "processes" | "port" | "webSocketPort">): ProcessPorts[] {
  const last = (first: number) => first + processes - 1;
  for (const first of [port, webSocketPort ?? port])
    if (last(first) > 65535) throw new Error(`${processes} processes from port ${first} run past 65535`);
  if (webSocketPort !== undefined && webSocketPort <= last(port) && port <= last(webSocketPort)) {
    throw new Error(
      `the WebSocket ports ${webSocketPort}–${last(webSocketPort)} overlap the processes' ports ${port}–${last(port)}`,
    );
  }
  return Array.from({ length: processes }, (_, index) => ({
    port: port + index,
    ...(webSocketPort === undefined ? {} : { webSocketPort: webSocketPort + index }),
  }));
}

/** Each process's Fool AI threads: its share of the CPUs, less its own main thread, at least one. */
function aiThreadsPerProcess(cpus: number, processes: number): number {
  return Math.max(1, Math.floor(cpus / processes) - 1);
}

/** Copies a child's output lines to ours, each prefixed with the process's name. */
function relay(child: ChildProcess, name: string): void {
  for (const stream of [child.stdout!, child.stderr!]) {
    let partial = "";
    stream.on("data", (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop()!;
      for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
    });
  }
}

function startServer({ port, webSocketPort }: ProcessPorts, redisUrl: string, aiThreads: number): ChildProcess {
  const child = spawnServer(port, {
    DRAIN_TIMEOUT: process.env.DRAIN_TIMEOUT || LOCAL_DRAIN_SECONDS,
    REDIS_URL: redisUrl,
    // Where this process's clients connect: its WebSocket port when it has one.
    PUBLIC_ADDRESS: `${HOST}:${webSocketPort ?? port}`,
    FOOL_AI_THREADS: String(aiThreads),
    ...(webSocketPort === undefined ? {} : { WEBSOCKET_PORT: String(webSocketPort) }),
  });
  relay(child, `:${port}`);
  return child;
}

async function runCluster(options: ClusterOptions): Promise<void> {
  const ports = processPorts(options);
  if (findRedisServer() === null) {
    console.error(`cluster: ${REDIS_MISSING}`);
    process.exitCode = EXIT_FAILED;
    return;
  }
  const redis = new RedisServer(options.redisPort ?? (await freePort()));
  await redis.start();
  const aiThreads = aiThreadsPerProcess(os.availableParallelism(), options.processes);
  const servers: ChildProcess[] = [];

  let stopping = false;
  const stopAll = async (status: number) => {
    if (stopping) return;
    stopping = true;
    console.log("cluster: stopping (the processes drain their games first)");
    for (const server of servers) server.kill("SIGTERM");
    await Promise.all(servers.map(exited));
    await redis.destroy();
    process.exit(status);
  };
  process.on("SIGINT", () => void stopAll(EXIT_DONE));
  process.on("SIGTERM", () => void stopAll(EXIT_DONE));
  const start = (its: ProcessPorts): ChildProcess => {
    if (stopping) throw new Error("stopped before every process had started");
    const { port } = its;
    const server = startServer(its, redis.url, aiThreads);
    servers.push(server);
    server.once("exit", (code) => {
      if (stopping) return;
      // A process that stops cleanly was told to (Ctrl-C reaches the whole process group, and may reach a server
      // before this program): the others stop too, and that is no failure.
      if (code === 0) return void stopAll(EXIT_DONE);
      console.error(`cluster: the process on port ${port} exited (${code ?? "killed"}); stopping the others`);
      void stopAll(EXIT_FAILED);
    });
    return server;
  };

  try {
    // The first process makes the shared record store (its schema) before the others open it.
    const [first, ...others] = ports;
    await listening(start(first!), first!.port);
    await Promise.all(others.map((its) => listening(start(its), its.port)));
  } catch (error) {
    console.error(`cluster: ${error instanceof Error ? error.message : String(error)}`);
    return stopAll(EXIT_FAILED);
  }
  console.log(`cluster: redis on ${redis.url}; ${options.processes} process(es), ${aiThreads} Fool AI thread(s) each:`);
  for (const { port, webSocketPort } of ports) {
    console.log(
      `cluster:   ws://${HOST}:${port}${webSocketPort === undefined ? "" : ` (its clients' WebSockets on ${webSocketPort})`}`,
    );
  }
  console.log("cluster: Ctrl-C stops them all");
}

usageErrorsAreBadInput(new Command("cluster"))
  .description("Starts redis-server and N cardhall processes on consecutive ports on 127.0.0.1; Ctrl-C stops them all.")
  .option("--processes <n>", "how many server processes", wholeNumber(1, 64), 2)
  .option("--port <port>", "the first process's port; the others follow", wholeNumber(1, 65535), 2567)
  .option(
    "--websocket-port <port>",
    "the first process's WebSocket port (WEBSOCKET_PORT); the others follow",
    wholeNumber(1, 65535),
  )
  .option("--redis-port <port>", "Redis's port (default: a free one)", wholeNumber(1, 65535))
  // commander names the option `websocketPort`.
  .action(({ websocketPort, ...options }: Omit<ClusterOptions, "webSocketPort"> & { websocketPort?: number }) =>
    runCluster({ ...options, webSocketPort: websocketPort }),
  )
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    console.error(`cluster: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = EXIT_FAILED;
  });
