/**
 * A load-test worker process: opens its share of the tables, plays until the deadline, and reports counters every
 * half second and the latencies at the end. One Node process saturates at a few hundred clients, so the master
 * spreads the clients over several of these.
 */
import "./node-websocket";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import WebSocket from "ws";
import type { MoveProbe } from "../../client-sdk/bots/probe";
import { think } from "../../client-sdk/bots/probe";
import { CardhallError } from "../../client-sdk/errors";
import { waitBeforeAskingAgain } from "../../client-sdk/retry";
import { onStateChecks } from "../../client-sdk/session";
import { GAME_DRIVERS, type GameName } from "./games";
import { emptyCounters, type TablePlan, type WorkerDone, type WorkerMessage, type WorkerStart } from "./messages";
import { StallWatch } from "../../server/telemetry/event-loop-stalls";

const MAX_SAMPLES = 10;
/** Matchmaking requests (HTTP) in flight at once per worker: a burst of hundreds overflows the server's accept queue. */
const MAX_JOINS_IN_FLIGHT = 16;
const counters = emptyCounters();
/** Move-to-broadcast latencies, by game: a slow game should not hide in the mix. */
const latencies: Partial<Record<GameName, number[]>> = {};
/** When each of those moves was sent (ms since the epoch), in the same order: which came once every client sat. */
const latencySentAt: Partial<Record<GameName, number[]>> = {};
const samples: string[] = [];
const probes: LatencyProbe[] = [];
const LAG_RESOLUTION_MS = 5;
const loopLag = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
/**
 * The stalls a worker keeps: every one of a run (a worker that stalls more often than this is measuring itself,
 * and its lag says so).
 */
const STALLS_KEPT = 10_000;
/** Latencies count from the end of the ramp: joins are heavy, and the figures are for a table in play. */
let steadyFrom = Infinity;
let steadyUntil = Infinity;
/** Moves sent between the end of the ramp and the deadline: the throughput of a table in play. */
let steadyMoves = 0;
const joinLatencies: number[] = [];
let joinWindow: WorkerDone["joinWindow"] = null;

// A server started with STATE_CHECK_EVERY sends some clients the digest of the view they must hold after each patch.
onStateChecks(({ roomId, matched }) => {
  counters.stateChecks++;
  if (matched) return;
  counters.desyncs++;
  remember(`desync: room ${roomId}: a decoded state failed its state check`);
});

/** A seat joined: its join took from `since` (its table's start, or the previous seat's join) to now. */
function joinedSince(since: number): number {
  const now = performance.now();
  joinLatencies.push(now - since);
  const at = Date.now();
  joinWindow = joinWindow ? { from: joinWindow.from, until: at } : { from: at - (now - since), until: at };
  return now;
}

function remember(detail: string): void {
  if (samples.length < MAX_SAMPLES) samples.push(detail);
}

/** Times each move from the moment it is sent to the moment the room's broadcast of it arrives. */
class LatencyProbe implements MoveProbe {
  readonly pending = new Map<string, number>();
  private readonly latencies: number[];
  private readonly sentAt: number[];
  constructor(private readonly game: GameName) {
    this.latencies = latencies[game] ??= [];
    this.sentAt = latencySentAt[game] ??= [];
  }
  /** The moves whose broadcast never came, among the report's samples (which game, which move, when it was sent). */
  reportLost(): void {
    for (const [key, sentAt] of this.pending)
      remember(`lost: ${this.game} move ${key}, sent ${((steadyUntil - sentAt) / 1000).toFixed(1)} s before the end`);
  }
  sent(key: string): void {
    this.pending.set(key, performance.now());
  }
  seen(key: string): void {
    const sentAt = this.pending.get(key);
    if (sentAt === undefined) return;
    this.pending.delete(key);
    // Only moves sent in the steady window count, as for the throughput: a move sent after the deadline meets
    // every other table leaving at once (the run's teardown, a stall no table in play sees), and only games whose
    // bots move after the deadline would carry it (Tractor's did).
    if (sentAt >= steadyFrom && sentAt < steadyUntil) {
      this.latencies.push(performance.now() - sentAt);
      this.sentAt.push(performance.timeOrigin + sentAt);
      steadyMoves++;
    }
    counters.moves++;
  }
  desync(detail: string): void {
    counters.desyncs++;
    remember(`desync: ${detail}`);
  }
}

/** Every SDK join starts with an HTTP request; queue them so at most `limit` are in flight. */
function limitConcurrentFetches(limit: number): void {
  const unlimited = globalThis.fetch;
  let inFlight = 0;
  const waiting: Array<() => void> = [];
  globalThis.fetch = async (...args: Parameters<typeof fetch>) => {
    if (inFlight >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    inFlight++;
    try {
      return await unlimited(...args);
    } finally {
      inFlight--;
      waiting.shift()?.();
    }
  };
}

function send(message: WorkerMessage): void {
  process.send?.(message);
}

/**
 * Plays one table to the deadline. A first join the server refuses for a while (at capacity) is asked again after
 * the wait it names, spread at random (as a person's page and the SDK's joinWhenTaken do), until the deadline: a
 * table seated late counts as seated, one never seated as failed.
 */
async function runCardhallTable(plan: TablePlan, start: WorkerStart): Promise<void> {
  const seatProbes = Array.from({ length: plan.players }, () => new LatencyProbe(plan.game));
  probes.push(...seatProbes);
  let joined = 0;
  let joinFrom = performance.now();
  const play = () =>
    GAME_DRIVERS[plan.game].play({
      url: plan.url,
      probes: seatProbes,
      thinkMs: start.thinkMs,
      tractorBots: start.tractorBots,
      keepPlaying: () => Date.now() < start.deadline,
      joined: () => {
        joinFrom = joinedSince(joinFrom);
        joined++;
        counters.joined++;
        counters.connected++;
      },
    });
  try {
    if (await playAskingAgain(play, () => joined > 0, start.deadline)) counters.seatedLater++;
  } catch (error) {
    if (joined === 0) counters.failed += plan.players;
    else counters.errors++;
    remember(`${plan.game}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    counters.connected -= joined;
  }
}

/**
 * Runs `play` and, while its first join is refused for a while and the deadline allows, asks again after the wait
 * the server named. Says whether it was refused before it was seated.
 */
async function playAskingAgain(
  play: () => Promise<unknown>,
  seated: () => boolean,
  deadline: number,
): Promise<boolean> {
  for (let refused = false; ; refused = true) {
    try {
      await play();
      return refused;
    } catch (error) {
      // Only a table none of whose seats has joined asks again: a refusal once seated ends the table.
      const retryAfterMs = error instanceof CardhallError && !seated() ? error.retryAfterMs : undefined;
      if (retryAfterMs === undefined) throw error;
      const waitMs = waitBeforeAskingAgain(retryAfterMs);
      if (Date.now() + waitMs >= deadline) throw error;
      if (!refused) counters.askedAgain++;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

/** The baseline: the same clients and think times against a plain ws echo server. */
async function runEchoClient(start: WorkerStart, game: GameName): Promise<void> {
  const probe = new LatencyProbe(game);
  probes.push(probe);
  const socket = new WebSocket(start.url);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once("open", resolve);
      socket.once("error", reject);
    });
  } catch (error) {
    counters.failed++;
    remember(`echo: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  counters.joined++;
  counters.connected++;
  let echoed: () => void = () => undefined;
  socket.on("message", (data) => {
    probe.seen(data.toString());
    echoed();
  });
  for (let move = 0; Date.now() < start.deadline; move++) {
    await think(start.thinkMs);
    const key = `${move}`;
    const echo = new Promise<void>((resolve) => (echoed = resolve));
    probe.sent(key);
    socket.send(key);
    await Promise.race([echo, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  counters.connected--;
  socket.close();
}

async function run(start: WorkerStart): Promise<void> {
  steadyFrom = performance.now() + start.rampMs;
  steadyUntil = performance.now() + (start.deadline - Date.now());
  loopLag.enable();
  // The worker's own stalls, as the server watches its own: a move that arrives in one was late in this worker too.
  const stallWatch = new StallWatch(STALLS_KEPT);
  const progress = setInterval(() => send({ type: "progress", counters: { ...counters } }), 500);
  // The worker's CPU over the steady window alone: the ramp's joins cost far more than the moves after them.
  let atSteadyStart: NodeJS.CpuUsage | null = null;
  let steadyCpu: NodeJS.CpuUsage | null = null;
  const steadyStarts = setTimeout(() => (atSteadyStart = process.cpuUsage()), start.rampMs);
  const steadyEnds = setTimeout(
    () => atSteadyStart && (steadyCpu = process.cpuUsage(atSteadyStart)),
    Math.max(0, start.deadline - Date.now()),
  );
  const spacing = start.tables.length > 1 ? start.rampMs / start.tables.length : 0;
  const running = start.tables.map(async (plan, index) => {
    await new Promise((resolve) => setTimeout(resolve, index * spacing));
    if (start.baseline) await Promise.all(Array.from({ length: plan.players }, () => runEchoClient(start, plan.game)));
    else await runCardhallTable(plan, start);
  });
  await Promise.all(running);
  clearInterval(progress);
  const lost = probes.reduce((sum, probe) => sum + probe.pending.size, 0);
  for (const probe of probes) probe.reportLost();
  // The histogram holds whole timer intervals; what exceeds the sampling interval is the lag.
  const lag = (nanos: number) => Math.max(0, nanos / 1e6 - LAG_RESOLUTION_MS);
  const loopLagMs = { p50: lag(loopLag.percentile(50)), p99: lag(loopLag.percentile(99)), max: lag(loopLag.max) };
  const cpu = process.cpuUsage();
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  clearTimeout(steadyStarts);
  clearTimeout(steadyEnds);
  const measuredSteady = steadyCpu as NodeJS.CpuUsage | null;
  const steadyCpuSeconds = measuredSteady ? (measuredSteady.user + measuredSteady.system) / 1e6 : NaN;
  const stalls = stallWatch.read();
  stallWatch.stop();
  const done: WorkerDone = {
    type: "done",
    counters: { ...counters },
    latencies,
    latencySentAt,
    lost,
    samples,
    loopLagMs,
    stalls,
    cpuSeconds,
    steadyCpuSeconds,
    steadyMoves,
    joinLatencies,
    joinWindow,
  };
  send(done);
}

limitConcurrentFetches(MAX_JOINS_IN_FLIGHT);
// A master that stopped (its run failed, or it was interrupted) takes its workers with it.
process.once("disconnect", () => process.exit(0));
process.once("message", (message: WorkerStart) => {
  run(message)
    .catch((error: unknown) => remember(`worker: ${error instanceof Error ? error.message : String(error)}`))
    .finally(() => setTimeout(() => process.exit(0), 100));
});
