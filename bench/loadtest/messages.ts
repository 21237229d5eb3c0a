/** What the load test's master and its worker processes say to each other over IPC. */
import type { GameName } from "./games";
import type { TractorBotLevel } from "../../rooms/tractor/protocol";
import type { EventLoopStalls } from "../../server/telemetry/server-metrics";

export interface TablePlan {
  game: GameName;
  /** How many scripted players sit at this table (each its own connection). */
  players: number;
  /** The server address the table matchmakes through (the load test deals its addresses round the tables). */
  url: string;
}

export interface WorkerStart {
  type: "start";
  url: string;
  tables: TablePlan[];
  /** The run ends at this time (ms since the epoch); players finish their current game and leave. */
  deadline: number;
  /** Tables are opened evenly over this many ms. */
  rampMs: number;
  thinkMs: number;
  /** Measure the plain ws echo baseline instead of cardhall: `url` is the echo server's. */
  baseline: boolean;
  /** Tractor tables seat the room's bots at this level in two seats (client-sdk/bots/tables.ts). */
  tractorBots?: TractorBotLevel;
}

export interface Counters {
  connected: number;
  joined: number;
  failed: number;
  moves: number;
  errors: number;
  /** Desyncs: a bot's own view disagreeing with the room's, or a state check the decoded state failed. */
  desyncs: number;
  /** State checks received (a server started with STATE_CHECK_EVERY sends them to one client in N). */
  stateChecks: number;
  /** Tables whose first join was refused for a while (a server at capacity: BUSY_REFUSE_AT) and asked again. */
  askedAgain: number;
  /** Of those, the tables seated on a later try. */
  seatedLater: number;
}

export interface WorkerProgress {
  type: "progress";
  counters: Counters;
}

export interface WorkerDone {
  type: "done";
  counters: Counters;
  /** Move-to-broadcast latencies in ms, by the game of the table that made the move. */
  latencies: Partial<Record<GameName, number[]>>;
  /** When each of those moves was sent, in ms since the epoch, in the same order. */
  latencySentAt: Partial<Record<GameName, number[]>>;
  /** Moves sent whose broadcast never came. */
  lost: number;
  /** A few error and desync messages, for the report. */
  samples: string[];
  /** This worker's own event-loop lag in ms: latency it adds to every measurement while it is busy. */
  loopLagMs: { p50: number; p99: number; max: number };
  /** This worker's own stalls over the server's bound (server/telemetry/event-loop-stalls.ts), each with what held it. */
  stalls: EventLoopStalls;
  /** CPU time this worker used, in seconds. */
  cpuSeconds: number;
  /** The worker's CPU over the steady window alone (after the ramp, up to the deadline), in seconds. */
  steadyCpuSeconds: number;
  /** Moves sent after the ramp and before the deadline. */
  steadyMoves: number;
  /** Each seat's join in ms: from its table's start (or the table's previous seat's join) to its joined state. */
  joinLatencies: number[];
  /** When this worker's first table started and its last seat joined (ms since the epoch); null without a join. */
  joinWindow: { from: number; until: number } | null;
}

export type WorkerMessage = WorkerProgress | WorkerDone;

export function emptyCounters(): Counters {
  return {
    connected: 0,
    joined: 0,
    failed: 0,
    moves: 0,
    errors: 0,
    desyncs: 0,
    stateChecks: 0,
    askedAgain: 0,
    seatedLater: 0,
  };
}
