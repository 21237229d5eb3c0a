/**
 * The server's composition: which rooms exist under which names, the HTTP routes, and the presence/driver.
 * The embedded default keeps everything in one process and in memory.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from "perf_hooks";
import { defineRoom, defineServer, LobbyRoom, matchMaker, type Server } from "@colyseus/core";
import type { RoomListing, ServerMetrics } from "../rooms/kit/protocol";
import { EvenStevenRoom } from "../rooms/evensteven/room";
import { FoolRoom } from "../rooms/fool/room";
import { PatienceRoom } from "../rooms/patience/room";
import { TractorRoom } from "../rooms/tractor/room";
import { colyseusLogger } from "../rooms/kit/log";
import { AiThreads } from "./fool-ai-pool";
import type { Records } from "./records";
import { recordRoutes } from "./records/http";
import { CardhallTransport } from "./transport";
import { serveWebClient } from "./web";

/** The room the web page's lobby joins: Colyseus's LobbyRoom, told by each table of every change to its listing. */
export const LOBBY_ROOM = "lobby";

export interface AppOptions {
  /** Install SIGINT/SIGTERM handlers that close rooms cleanly (off in tests). */
  gracefullyShutdown?: boolean;
  /** Where finished games are kept (opened beforehand: see Records.open); none by default. */
  records?: Records | null;
}

/**
 * The rooms under their names. Every table gets the records' writer among its create options (where it hands
 * finished games), the Fool rooms the server's AI pool too.
 */
export function roomDefinitions(aiThreads: AiThreads, records: Records | null = null) {
  const services = records === null ? {} : { records: records.writer };
  return {
    evensteven: defineRoom(EvenStevenRoom, services).enableRealtimeListing(),
    fool: defineRoom(FoolRoom, { ...services, aiThreads }).enableRealtimeListing(),
    patience: defineRoom(PatienceRoom, services).enableRealtimeListing(),
    tractor: defineRoom(TractorRoom, services).enableRealtimeListing(),
    [LOBBY_ROOM]: defineRoom(LobbyRoom),
  };
}

/** Live rooms for spectators to find: id, name, clients and metadata. Private rooms are included (join by id). */
export async function listRooms(): Promise<RoomListing[]> {
  const rooms = (await matchMaker.query({})).filter((room) => room.name !== LOBBY_ROOM);
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

/** What operators and the load test read: this process's CPU time and memory, and the rooms and clients it hosts. */
export function serverMetrics(aiThreads: AiThreads, records: Records | null = null): ServerMetrics {
  const cpu = process.cpuUsage();
  const lag = eventLoopLag();
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
    foolAiDecisions: { ...aiThreads.decisions },
    records: records?.writer.metrics() ?? null,
  };
}

/** The server, with its one Fool AI pool (no thread starts before the AI's first decision that needs one). */
export function makeServer(options: AppOptions = {}): Server {
  const aiThreads = new AiThreads();
  const records = options.records ?? null;
  const server = defineServer({
    rooms: roomDefinitions(aiThreads, records),
    transport: new CardhallTransport(),
    gracefullyShutdown: options.gracefullyShutdown ?? true,
    greet: false,
    logger: colyseusLogger,
    express: (app) => {
      app.get("/health", (_req, res) => {
        res.json({ ok: true, uptimeSeconds: Math.round(process.uptime()) });
      });
      app.get("/rooms", async (_req, res) => {
        res.json(await listRooms());
      });
      app.get("/metrics", async (_req, res) => {
        res.json(serverMetrics(aiThreads, records));
      });
      recordRoutes(app, records);
      serveWebClient(app);
    },
  });
  // Once the rooms are closed, the AI's threads stop and the finished games still queued are written.
  server.onShutdown(async () => {
    await aiThreads.close();
    await records?.close();
  });
  return server;
}
