/**
 * Starts the server: `HOST` and `PORT` from the environment, 127.0.0.1:2567 by default; production mode unless
 * NODE_ENV is set; with `REDIS_URL`, as one process of a cluster (server/cluster/cluster.ts); `DRAIN_TIMEOUT` (seconds)
 * bounds a shutdown's drain, `FOOL_AI_THREADS` the Fool AI's threads, `MONITOR_PASSWORD` opens /monitor,
 * `TOURNAMENT_SECRET` guards tournament reports (POST /tournaments);
 * `JOINS_PENDING_PER_ADDRESS` bounds one client address's joins waiting for their connections (0: no bound) and
 * `TRUSTED_PROXIES` names the reverse proxies whose X-Forwarded-For tells the clients apart; `LADDER_SECRET` and
 * `LADDER_PERIOD` make the solo ladders' deals (server/arena/ladders.ts); `BUSY_REFUSE_AT` (a share of the main
 * thread, 0.8 for 80%) refuses new tables and spectators while the main thread is that busy (server/capacity/busy-guard.ts);
 * `HEAP_GROWTH_PERCENT` bounds V8's heap between major collections (server/runtime/heap-growth.ts); `AI_THREAD_SCHEDULING`
 * (`batch` or `normal`) is how the kernel schedules the AI threads (server/ai/ai-thread-scheduling.ts).
 */
import { DEFAULT_IDENTITY_LIMITS } from "./identity/http";
import "./runtime/production-mode";
import { DEFAULT_DRAIN_SECONDS, makeServer } from "./app";
import { webSocketPortConfig } from "./transport/websocket-port";
import { clusterConfig } from "./cluster/cluster";
import { DEFAULT_QUEUE_TIMING } from "./arena/rated-queue";
import { log } from "../rooms/kit/log";
import { DEFAULT_PENDING_JOINS_PER_ADDRESS } from "../rooms/kit/reservations";
import { Records, recordsConfig } from "./records";
import { ladderConfig } from "./arena/ladders";
import { stopPm2AgentOutsidePm2 } from "./runtime/pm2-agent";
import { busyGuardFromEnvironment } from "./capacity/busy-guard";
import { heapGrowthFromEnvironment, limitHeapGrowth } from "./runtime/heap-growth";
import { aiThreadSchedulingFromEnvironment } from "./ai/ai-thread-scheduling";

const DEFAULT_HOST = "127.0.0.1";
const DEFAULT_PORT = 2567;
/**
 * Connections the kernel may hold for the server to accept. Node's default (511) overflows when thousands of
 * clients join while the event loop is busy, and an overflowing queue drops connection attempts, which clients
 * retry only after 1, 3, 7 s...: long enough for a seat reservation to expire. Linux caps this at net.core.somaxconn.
 */
const LISTEN_BACKLOG = 4096;

/**
 * Operators see a stop begin and end (Colyseus's own handlers close the rooms and run the server's shutdown). A stop
 * is one line however many signals ask for it: Ctrl-C in a terminal sends SIGINT to a whole process group, so a
 * process that its parent also stops (bin/cluster, a supervisor) gets two.
 */
function logShutdown(): void {
  const signals = ["SIGTERM", "SIGINT"] as const;
  const stopping = (signal: NodeJS.Signals) => {
    for (const other of signals) process.off(other, stopping);
    log.info({ event: "shutting_down", signal }, `${signal}: closing the rooms and writing the records still queued`);
  };
  for (const signal of signals) process.on(signal, stopping);
  // Before pino's own exit handler, which writes out what is buffered.
  process.prependOnceListener("exit", (code) => log.info({ event: "stopped", code }, "cardhall stopped"));
}

/** A number of the environment (`fallback` when unset), or an error naming the variable. */
function nonNegativeNumber(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of 0 or more, got "${text}"`);
  return value;
}

async function main(): Promise<void> {
  const heapGrowth = heapGrowthFromEnvironment(process.env);
  limitHeapGrowth(heapGrowth);
  // Read by each AI thread as it starts (server/ai/ai-thread-scheduling.ts): a wrong value stops the start here.
  const aiThreadScheduling = aiThreadSchedulingFromEnvironment(process.env);
  const host = process.env.HOST || DEFAULT_HOST;
  const port = Number(process.env.PORT || DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, got "${process.env.PORT}"`);
  const drainSeconds = nonNegativeNumber("DRAIN_TIMEOUT", DEFAULT_DRAIN_SECONDS);
  const aiThreads = process.env.FOOL_AI_THREADS
    ? Math.max(1, Math.round(nonNegativeNumber("FOOL_AI_THREADS", 1)))
    : undefined;
  const webSocketPort = webSocketPortConfig(process.env, host, port);
  // In a cluster, clients are sent to the process's WebSocket port when it has one.
  const cluster = clusterConfig(process.env, webSocketPort?.publicAddress ?? `${host}:${port}`);
  const clientAddresses = {
    pendingJoinsPerAddress: Math.round(
      nonNegativeNumber("JOINS_PENDING_PER_ADDRESS", DEFAULT_PENDING_JOINS_PER_ADDRESS),
    ),
    trustedProxies: (process.env.TRUSTED_PROXIES ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ""),
  };
  const config = recordsConfig(process.env);
  const records = config === null ? null : await Records.open(config);
  const stateCheckEvery = Math.round(nonNegativeNumber("STATE_CHECK_EVERY", 0));
  const identityLimits = {
    loginsPerMinute: Math.round(nonNegativeNumber("LOGINS_PER_MINUTE", DEFAULT_IDENTITY_LIMITS.loginsPerMinute)),
    signupsPerHour: Math.round(nonNegativeNumber("SIGNUPS_PER_HOUR", DEFAULT_IDENTITY_LIMITS.signupsPerHour)),
    tokensPerHour: Math.round(nonNegativeNumber("TOKENS_PER_HOUR", DEFAULT_IDENTITY_LIMITS.tokensPerHour)),
  };
  const queueTiming = {
    cycleMs: Math.max(10, nonNegativeNumber("QUEUE_CYCLE_MS", DEFAULT_QUEUE_TIMING.cycleMs)),
    houseAfterMs: nonNegativeNumber("HOUSE_AFTER_MS", DEFAULT_QUEUE_TIMING.houseAfterMs),
  };
  const { warning: ladderWarning, ...ladder } = ladderConfig(process.env, cluster !== null);
  const busyGuard = busyGuardFromEnvironment(process.env);
  stopPm2AgentOutsidePm2();
  const server = makeServer({
    records,
    cluster,
    drainSeconds,
    aiThreads,
    monitorPassword: process.env.MONITOR_PASSWORD || null,
    clientAddresses,
    stateCheckEvery,
    identityLimits,
    queueTiming,
    ladder,
    tournamentSecret: process.env.TOURNAMENT_SECRET || null,
    busyGuard,
    webSocketPort,
  });
  await server.listen(port, host, LISTEN_BACKLOG);
  busyGuard?.watchMainThread();
  logShutdown();
  log.info(
    { event: "listening", address: `${host}:${port}` },
    `cardhall listening on ws://${host}:${port} (health: /health, rooms: /rooms)`,
  );
  if (webSocketPort !== null)
    log.info(
      {
        event: "websocket_port",
        address: `${webSocketPort.host}:${webSocketPort.port}`,
        publicAddress: webSocketPort.publicAddress,
      },
      `clients' WebSocket connections on ws://${webSocketPort.host}:${webSocketPort.port} (uWebSockets.js; seat reservations name ${webSocketPort.publicAddress})`,
    );
  if (cluster !== null)
    log.info(
      { event: "cluster", publicAddress: cluster.publicAddress },
      `one process of a cluster on Redis, reached at ${cluster.publicAddress}`,
    );
  log.info(
    { event: "records", where: records?.where ?? null },
    records === null ? "records are off" : `records in ${records.where} (games: /games)`,
  );
  if (ladderWarning !== undefined) log.warn({ event: "ladders_off" }, ladderWarning);
  if (busyGuard !== null)
    log.info(
      { event: "busy_guard", refuseAt: busyGuard.refuseAt },
      `new tables and spectators are refused while the main thread is ${Math.round(busyGuard.refuseAt * 100)}% busy or more (BUSY_REFUSE_AT)`,
    );
  log.info(
    { event: "heap_growth", percent: heapGrowth },
    heapGrowth === 0
      ? "V8 chooses how far the heap grows between major collections (HEAP_GROWTH_PERCENT=0)"
      : `the heap grows at most ${heapGrowth}% past what a major collection leaves live (HEAP_GROWTH_PERCENT)`,
  );
  log.info(
    { event: "ai_thread_scheduling", scheduling: aiThreadScheduling },
    aiThreadScheduling === "batch"
      ? "the AI threads run as batch work: they never take a core from the main thread as they wake (AI_THREAD_SCHEDULING)"
      : "the AI threads run as the kernel's normal work (AI_THREAD_SCHEDULING)",
  );
  log.info(
    { event: "monitor", on: Boolean(process.env.MONITOR_PASSWORD) },
    process.env.MONITOR_PASSWORD
      ? "monitor at /monitor (user admin, MONITOR_PASSWORD)"
      : "monitor off (set MONITOR_PASSWORD to serve it at /monitor)",
  );
}

main().catch((error: unknown) => {
  log.fatal(
    { event: "start_failed" },
    `cardhall could not start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
