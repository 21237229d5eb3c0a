/**
 * The server's composition: which rooms exist under which names, the HTTP routes, and the presence/driver.
 * The embedded default keeps everything in one process and in memory.
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from "node:http";
import { leavePacer } from "./transport/leave-pacer";
import { monitorEventLoopDelay, performance, type IntervalHistogram } from "node:perf_hooks";
import { defineRoom, defineServer, LobbyRoom, matchMaker, type Server } from "@colyseus/core";
import { monitor } from "@colyseus/monitor";
import type { Application } from "express";
import basicAuth from "express-basic-auth";
import {
  LOBBY_ROOM,
  MATCHMAKING_RETRY_AFTER_SECONDS,
  SERVER_SHUTDOWN_CLOSE_CODE,
  type RoomListing,
} from "../rooms/kit/protocol";
import type { ServerMetrics } from "./telemetry/server-metrics";
import { colyseusLogger, log } from "../rooms/kit/log";
import { answerBeforeListeners, checkColyseusInternals } from "../rooms/kit/colyseus-internals";
import { reportTableMetricsTo } from "../rooms/kit/metrics";
import { checkStatesOfOneClientIn } from "../rooms/kit/table";
import { clusterServices, watchCluster, type ClusterConfig } from "./cluster/cluster";
import { AiThreads, AI_WORKER_FILE } from "./ai/fool-ai-pool";
import { threadHeaps } from "./ai/ai-admission";
import { DEFAULT_QUEUE_TIMING, ratedQueueRooms, type QueueTiming } from "./arena/rated-queue";
import { TractorAiThreads } from "./ai/tractor-ai-pool";
import type { Seat } from "../rooms/tractor/scoring";
import { SERVER_ROOMS } from "./games";
import type { Records } from "./records";
import { recordRoutes } from "./records/http";
import { tournamentRoutes } from "./records/tournament-routes";
import { identityRoutes, type IdentityLimits } from "./identity/http";
import { garbageCollections, roundedGarbageCollections } from "./telemetry/gc-counts";
import { eventLoopStalls } from "./telemetry/event-loop-stalls";
import { heapGrowthPercent } from "./runtime/heap-growth";
import { PrometheusMetrics } from "./telemetry/metrics";
import { DEFAULT_PENDING_JOINS_PER_ADDRESS } from "../rooms/kit/reservations";
import { setBusyGuard, setClientAddressRules, setIdentities, setLadders, type ClientAddressRules } from "./matchmaking";
import type { BusyGuard } from "./capacity/busy-guard";
import { placeNewTable, shareBusyInCluster } from "./capacity/busy-placement";
import { ladderConfig, ladderRoutes, Ladders, type LadderConfig } from "./arena/ladders";
import { IndexedLocalDriver } from "./cluster/local-driver";
import { CardhallTransport } from "./transport/transport";
import { makeWebSocketPort, type WebSocketPortConfig } from "./transport/websocket-port";
import { serveWebClient } from "./web";

export interface AppOptions {
  /** Install SIGINT/SIGTERM handlers that close rooms cleanly (off in tests). */
  gracefullyShutdown?: boolean;
  /** Where finished games are kept (opened beforehand: see Records.open); none by default. */
  records?: Records | null;
  /** The password of Colyseus's monitor at /monitor (user `admin`, HTTP basic auth); no monitor without one. */
  monitorPassword?: string | null;
  /** The operator's secret a tournament report must carry (TOURNAMENT_SECRET); reports are open without one. */
  tournamentSecret?: string | null;
  /** One process of a cluster on Redis (server/cluster/cluster.ts); alone and in memory by default. */
  cluster?: ClusterConfig | null;
  /** On shutdown, how long games under way may go on before their tables are closed (DRAIN_TIMEOUT); 120 s by default. */
  drainSeconds?: number;
  /** The Fool AI's worker threads (FOOL_AI_THREADS); one per CPU but the main thread's by default. */
  aiThreads?: number;
  /** One client in this many gets state checks after its patches (STATE_CHECK_EVERY; rooms/kit/protocol.ts); 0, none, by default. */
  stateCheckEvery?: number;
  /** How often one address may log in, make an account, make a bot token (server/identity/http.ts). */
  identityLimits?: Partial<IdentityLimits>;
  /** How often the rated queues regroup, and how long a player waits before the house's bots fill its table (docs/arena.md). */
  queueTiming?: Partial<QueueTiming>;
  /** How clients are told apart and bounded (server/matchmaking.ts): 64 pending joins an address, no proxy, by default. */
  clientAddresses?: Partial<ClientAddressRules>;
  /** The ladders' secret and period (server/arena/ladders.ts): a random secret and a day by default. */
  ladder?: LadderConfig;
  /** Refuses new tables and spectators while the main thread is saturated (BUSY_REFUSE_AT, server/capacity/busy-guard.ts):
   * none by default. The server stops its sampling on shutdown; whoever made it starts it (`watchMainThread`). */
  busyGuard?: BusyGuard | null;
  /**
   * The clients' WebSocket connections on a port of their own, on uWebSockets.js (WEBSOCKET_PORT,
   * server/transport/websocket-port.ts): none by default. Listened on with the server; seat reservations name it.
   */
  webSocketPort?: WebSocketPortConfig | null;
}

function isDraining(): boolean {
  return matchMaker.state === matchMaker.MatchMakerState.SHUTTING_DOWN;
}

/**
 * Colyseus refuses matchmaking while it shuts down with a 503 whose body is empty, which its client reports as a
 * JSON syntax error. Its router answers before any Express route, so the refusal is given here, ahead of both, with
 * a sentence the SDK hands on (JOIN_REFUSED). A proxy in front may retry another process on the 503. (How it gets
 * ahead of Colyseus's router: answerBeforeListeners, rooms/kit/colyseus-internals.ts.)
 */
function explainRefusalsWhileDraining(httpServer: HttpServer): void {
  answerBeforeListeners(httpServer, (req: IncomingMessage, res: ServerResponse) => {
    if (!isDraining() || !req.url?.startsWith("/matchmake/")) return false;
    res.writeHead(503, {
      "content-type": "application/json",
      "access-control-allow-origin": "*",
      "retry-after": String(MATCHMAKING_RETRY_AFTER_SECONDS),
    });
    res.end(JSON.stringify({ code: 503, error: "this server is shutting down and takes no new players: try another" }));
    return true;
  });
}

/** How long a shutting-down server lets games under way finish by default. */
export const DEFAULT_DRAIN_SECONDS = 120;

/**
 * A shutdown drains: Colyseus locks every room and stops placing new ones here, each table closes once its game is
 * over (rooms/kit/table.ts), and after `drainSeconds` the tables still playing are closed with the shutdown code.
 * Returns what ends the drain's timer once every room is closed.
 */
function drainOnShutdown(server: Server, drainSeconds: number, stopWatching: () => Promise<void>): () => void {
  let timer: NodeJS.Timeout | undefined;
  server.onBeforeShutdown(async () => {
    await stopWatching();
    const rooms = matchMaker.stats.local.roomCount;
    log.info(
      { event: "draining", rooms, drainSeconds },
      `shutting down: ${rooms} room(s) may finish their games within ${drainSeconds} s`,
    );
    // Not unref'd: the drain's end must come even when nothing else keeps the process awake.
    timer = setTimeout(() => {
      const left = matchMaker.stats.local.roomCount;
      if (left > 0)
        log.warn({ event: "drain_timeout", rooms: left }, `the drain timed out: closing ${left} room(s) still playing`);
      void Promise.all(matchMaker.disconnectAll(SERVER_SHUTDOWN_CLOSE_CODE)).catch(() => undefined);
    }, drainSeconds * 1000);
  });
  return () => clearTimeout(timer);
}

/** The monitor's user name; its password is MONITOR_PASSWORD. */
export const MONITOR_USER = "admin";

/**
 * The rooms under their names (server/games.ts). Every table gets the records' writer among its create options
 * (where it hands finished games), and the services its game's entry names (the Fool rooms: the server's AI pool).
 */
export function roomDefinitions(
  aiThreads: AiThreads,
  records: Records | null = null,
  tractorAi: TractorAiThreads = new TractorAiThreads(),
  queueTiming: QueueTiming = DEFAULT_QUEUE_TIMING,
) {
  const services = records === null ? {} : { records: records.writer };
  const offered = { aiThreads, tractorAi };
  const games = SERVER_ROOMS.map(({ game, room, services: taken }) => {
    const options = { ...services, ...Object.fromEntries(taken.map((name) => [name, offered[name]])) };
    return [game.name, defineRoom(room, options).enableRealtimeListing()] as const;
  });
  // Rated queues rank players by the records' ratings: a server that keeps no records has none.
  const queues =
    records === null
      ? []
      : ratedQueueRooms((game, name) => records.store.ordinalOf(game, name), queueTiming).map(
          ({ name, room, options }) => [name, defineRoom(room, options)] as const,
        );
  return { ...Object.fromEntries(games), ...Object.fromEntries(queues), [LOBBY_ROOM]: defineRoom(LobbyRoom) };
}

/** Live rooms for spectators to find: id, name, clients and metadata. Private rooms are included (join by id). */
export async function listRooms(): Promise<RoomListing[]> {
  const tables = new Set<string>(SERVER_ROOMS.map(({ game }) => game.name)); // not the lobby, not the rated queues
  const rooms = (await matchMaker.query({})).filter((room) => tables.has(room.name));
  return rooms.map((room) => ({
    roomId: room.roomId,
    name: room.name,
    clients: room.clients,
    maxClients: room.maxClients,
    locked: room.locked ?? false,
    metadata: (room.metadata as Record<string, unknown> | undefined) ?? null,
  }));
}

const LAG_RESOLUTION_MS = 10;
let lagHistogram: IntervalHistogram | null = null;

function lagMs(nanos: number): number {
  return Math.max(0, nanos / 1e6 - LAG_RESOLUTION_MS);
}

/** How late the event loop runs its timers (sampled every 10 ms from the first /metrics call on): queueing that every message waits through. */
function eventLoopLag(): IntervalHistogram {
  if (!lagHistogram) {
    lagHistogram = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
    lagHistogram.enable();
  }
  return lagHistogram;
}

/** How many of the last seconds' longest event-loop delays /metrics.json gives: a minute, for the load test's windows. */
const LAG_SECONDS_KEPT = 60;
let lagBySecond: Array<{ at: number; maxMs: number }> | null = null;

/**
 * The event loop's longest delay in each of the last seconds (from the first /metrics call on): the whole-run
 * maximum cannot say whether a stall fell in the ramp's joins or among the games after them. A histogram of its own,
 * emptied each second by an unreferenced timer; `at` is the second's end (ms since the epoch).
 */
function eventLoopMaxBySecond(): Array<{ at: number; maxMs: number }> {
  if (lagBySecond === null) {
    const seconds: Array<{ at: number; maxMs: number }> = [];
    const recent = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
    recent.enable();
    setInterval(() => {
      seconds.push({ at: Date.now(), maxMs: Math.round(lagMs(recent.max) * 10) / 10 });
      if (seconds.length > LAG_SECONDS_KEPT) seconds.shift();
      recent.reset();
    }, 1000).unref();
    lagBySecond = seconds;
  }
  return lagBySecond;
}

/** GET /metrics.json. What the load test and the benchmarks read: this process's CPU time and memory, and the rooms and clients it hosts. */
export async function serverMetrics(
  aiThreads: AiThreads,
  records: Records | null = null,
  tractorAi: TractorAiThreads | null = null,
  busyGuard: BusyGuard | null = null,
): Promise<ServerMetrics> {
  // The threads' heaps first (each thread is asked, and answers within a millisecond or two): the figures below are
  // then read together, in one turn of the event loop.
  const [foolHeaps, tractorHeaps] = await Promise.all([aiThreads.heaps(), tractorAi?.heaps() ?? threadHeaps(null)]);
  const cpu = process.cpuUsage();
  const lag = eventLoopLag();
  const loop = performance.eventLoopUtilization();
  const memory = process.memoryUsage();
  // This process's own counters: cheap enough to read every second under load (a room query walks every room).
  const local = matchMaker.stats.local;
  return {
    pid: process.pid,
    cpuUserMicros: cpu.user,
    cpuSystemMicros: cpu.system,
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    rooms: local.roomCount,
    clients: local.ccu,
    uptimeSeconds: process.uptime(),
    // The histogram holds whole timer intervals; what exceeds the sampling interval is the lag.
    eventLoopLagMs: { p50: lagMs(lag.percentile(50)), p99: lagMs(lag.percentile(99)), max: lagMs(lag.max) },
    eventLoopMaxBySecond: [...eventLoopMaxBySecond()],
    mainThreadMs: { active: Math.round(loop.active), idle: Math.round(loop.idle) },
    garbageCollections: roundedGarbageCollections(garbageCollections()),
    eventLoopStalls: eventLoopStalls().read(),
    heapGrowthPercent: heapGrowthPercent(),
    foolAiDecisions: { ...aiThreads.decisions },
    foolAiBudgets: aiThreads.admission.use(),
    ...(tractorAi === null
      ? {}
      : { tractorAiDecisions: { ...tractorAi.decisions }, tractorAiBudgets: tractorAi.admission.use() }),
    aiThreadHeaps: { fool: foolHeaps, tractor: tractorHeaps },
    records: records?.writer.metrics() ?? null,
    leaves: leavePacer.counts(),
    ...(busyGuard === null ? {} : { busyGuard: busyGuard.state() }),
  };
}

/** The server, with its one Fool AI pool (no thread starts before the AI's first decision that needs one). */
export function makeServer(options: AppOptions = {}): Server {
  // Every private Colyseus member the server relies on is there, or the server says which is not, and stops.
  checkColyseusInternals();
  eventLoopStalls(); // from the start: a stall before the first scrape is counted too
  const aiThreads =
    options.aiThreads === undefined ? new AiThreads() : new AiThreads(AI_WORKER_FILE, options.aiThreads);
  const tractorAi = new TractorAiThreads();
  const records = options.records ?? null;
  const busyGuard = options.busyGuard ?? null;
  const metrics = new PrometheusMetrics(aiThreads, records, tractorAi, busyGuard);
  reportTableMetricsTo(metrics);
  checkStatesOfOneClientIn(options.stateCheckEvery ?? 0);
  setClientAddressRules({
    pendingJoinsPerAddress: DEFAULT_PENDING_JOINS_PER_ADDRESS,
    trustedProxies: [],
    ...options.clientAddresses,
  });
  setIdentities(records?.identities ?? null);
  setBusyGuard(busyGuard);
  const ladders =
    records === null ? null : new Ladders(records.store.ladders(), options.ladder ?? ladderConfig({}, false));
  setLadders(ladders);
  const cluster = options.cluster ?? null;
  const transport = new CardhallTransport();
  explainRefusalsWhileDraining(transport.server!);
  const webSocketPort = options.webSocketPort ?? null;
  const server = defineServer({
    ...(webSocketPort === null ? {} : { publicAddress: webSocketPort.publicAddress }),
    rooms: roomDefinitions(aiThreads, records, tractorAi, { ...DEFAULT_QUEUE_TIMING, ...options.queueTiming }),
    transport,
    ...(cluster === null
      ? { driver: new IndexedLocalDriver() }
      : { ...clusterServices(cluster), selectProcessIdToCreateRoom: placeNewTable }),
    gracefullyShutdown: options.gracefullyShutdown ?? true,
    greet: false,
    logger: colyseusLogger,
    express: (app) => {
      app.get("/health", (_req, res) => {
        res.json({ ok: true, uptimeSeconds: Math.round(process.uptime()), draining: isDraining() });
      });
      app.get("/rooms", async (_req, res) => {
        res.json(await listRooms());
      });
      app.get("/metrics", async (_req, res) => {
        const { contentType, body } = await metrics.text();
        res.type(contentType).send(body);
      });
      app.get("/metrics.json", async (_req, res) => {
        res.json(await serverMetrics(aiThreads, records, tractorAi, busyGuard));
      });
      recordRoutes(
        app,
        records,
        (record, seat) =>
          record.game === "fool" ? aiThreads.review(record, seat) : tractorAi.review(record, seat as Seat),
        async (roomId) => (await matchMaker.query({ roomId })).length > 0,
      );
      identityRoutes(app, records, options.identityLimits);
      ladderRoutes(app, ladders);
      tournamentRoutes(app, records, options.tournamentSecret ?? null);
      if (options.monitorPassword) mountMonitor(app, options.monitorPassword);
      serveWebClient(app);
    },
  });
  const stopWatchingCluster = cluster === null ? () => undefined : watchCluster(cluster.checkSeconds);
  // In a cluster, the guard says whether this process is busy, and new tables go to one that is not.
  const forgetBusy = cluster !== null && busyGuard !== null ? shareBusyInCluster(busyGuard) : async () => undefined;
  const stopWatching = async () => {
    stopWatchingCluster();
    await forgetBusy();
  };
  const closeWebSocketPort = webSocketPort === null ? () => undefined : listenAlsoOn(server, webSocketPort);
  const drained = drainOnShutdown(server, options.drainSeconds ?? DEFAULT_DRAIN_SECONDS, stopWatching);
  // Once the rooms are closed, the AI's threads stop and the finished games still queued are written.
  server.onShutdown(async () => {
    drained();
    closeWebSocketPort();
    busyGuard?.stop();
    await aiThreads.close();
    await tractorAi.close();
    await records?.close();
  });
  return server;
}

/**
 * The server listens on its WebSocket port once it listens on its main one (its rooms and routes are ready then).
 * Returns what closes the port, for the server's shutdown once its rooms are closed (Colyseus keeps one shutdown
 * callback, makeServer's).
 */
function listenAlsoOn(server: Server, config: WebSocketPortConfig): () => void {
  const port = makeWebSocketPort();
  const listen = server.listen.bind(server);
  server.listen = async (...args: Parameters<Server["listen"]>) => {
    await listen(...args);
    await port.listenOn(config.port, config.host);
  };
  return () => port.shutdown();
}

/**
 * Colyseus's monitor (rooms, their clients and state, across the cluster) at /monitor, behind HTTP basic auth:
 * it shows every room's state, so it never runs without a password.
 */
function mountMonitor(app: Application, password: string): void {
  const auth = basicAuth({ users: { [MONITOR_USER]: password }, challenge: true, realm: "cardhall monitor" });
  app.use("/monitor", auth, monitor());
}
