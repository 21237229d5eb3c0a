/**
 * GET /metrics in Prometheus's text format, through prom-client (the Prometheus project's own Node client, which
 * every monitoring stack that reads Prometheus scrapes): the process's own metrics (CPU, memory, event-loop lag,
 * heap, handles) and cardhall's, named `cardhall_*`:
 * - tables and clients by game, as the kit reports rooms opening and closing (rooms/kit/metrics.ts);
 * - actions taken by game and mover, client messages handled (a histogram of the seconds each took on the
 *   server, its state patch included) and refused by code;
 * - the event loop's stalls over 50 ms by what held them (server/telemetry/event-loop-stalls.ts);
 * - the Fool AI's decisions by how they were made, the budgets both AIs' decisions were given and their waits,
 *   the AI threads running and their heaps, and the records' queue to the database.
 * Counters kept elsewhere (the AI pool's, the records writer's) are read when Prometheus scrapes, not copied on
 * every change: a move costs the kit one count of its own and one histogram observation.
 */
import type { Room } from "@colyseus/core";
import { leavePacer } from "../transport/leave-pacer";
import { garbageCollections } from "./gc-counts";
import { eventLoopStalls } from "./event-loop-stalls";
import { heapGrowthPercent } from "../runtime/heap-growth";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Mover } from "../../rooms/kit/record";
import type { TableMetrics } from "../../rooms/kit/metrics";
import type { AiThreads } from "../ai/fool-ai-pool";
import type { TractorAiThreads } from "../ai/tractor-ai-pool";
import type { AiAdmission } from "../ai/ai-admission";
import { STALL_CAUSES, type AiThreadHeaps, type StallCause } from "./server-metrics";
import type { Records } from "../records";
import type { BusyGuard } from "../capacity/busy-guard";

/** A message takes tens of microseconds when all is well and milliseconds under load: buckets from 50 µs to 250 ms. */
const MESSAGE_SECONDS_BUCKETS = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25];

export class PrometheusMetrics implements TableMetrics {
  readonly registry = new Registry();
  /** The live tables: counted by game (and their clients) when scraped. */
  private readonly tables = new Set<Room>();
  /**
   * Actions by game and mover, counted here and handed to prom-client when Prometheus scrapes: its counter validates
   * and hashes the labels of every increment, and an action is the commonest thing a server counts.
   */
  private readonly actionCounts = new Map<string, Map<Mover, number>>();
  private readonly messageSeconds: Histogram<"game" | "message">;
  private readonly refusals: Counter<"game" | "code">;

  constructor(
    aiThreads: AiThreads,
    records: Records | null,
    tractorAi: TractorAiThreads | null = null,
    busyGuard: BusyGuard | null = null,
  ) {
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    const actionCounts = this.actionCounts;
    new Counter({
      name: "cardhall_actions_total",
      help: "Actions the tables' engines accepted, by game and by who made them (person, bot, clock, dealer)",
      labelNames: ["game", "by"],
      registers,
      collect() {
        this.reset();
        for (const [game, byMover] of actionCounts) for (const [by, count] of byMover) this.inc({ game, by }, count);
      },
    });
    this.messageSeconds = new Histogram({
      name: "cardhall_message_seconds",
      help: "Time the server took to handle one client message (a move, a hint...) and send the state patch it caused, by game and message",
      labelNames: ["game", "message"],
      buckets: MESSAGE_SECONDS_BUCKETS,
      registers,
    });
    this.refusals = new Counter({
      name: "cardhall_refusals_total",
      help: "Client messages refused, by game and error code",
      labelNames: ["game", "code"],
      registers,
    });
    this.tableGauges(registers);
    aiDecisionCounter(aiThreads, registers);
    aiBudgetMetrics(
      new Map([
        ["fool", aiThreads.admission],
        ...(tractorAi === null ? [] : [["tractor", tractorAi.admission] as const]),
      ]),
      registers,
    );
    aiThreadHeapMetrics(
      new Map<string, AiPool>([["fool", aiThreads], ...(tractorAi === null ? [] : [["tractor", tractorAi] as const])]),
      registers,
    );
    if (records !== null) recordQueueMetrics(records, registers);
    leavePacerMetrics(registers);
    liveHeapMetrics(registers);
    stallMetrics(registers);
    if (busyGuard !== null) busyGuardMetrics(busyGuard, registers);
  }

  tableOpened(room: Room): void {
    this.tables.add(room);
  }

  tableClosed(room: Room): void {
    this.tables.delete(room);
  }

  messageHandled(game: string, message: string, seconds: number): void {
    this.messageSeconds.observe({ game, message }, seconds);
  }

  refused(game: string, code: string): void {
    this.refusals.inc({ game, code });
  }

  actionTaken(game: string, by: Mover): void {
    let byMover = this.actionCounts.get(game);
    if (byMover === undefined) this.actionCounts.set(game, (byMover = new Map()));
    byMover.set(by, (byMover.get(by) ?? 0) + 1);
  }

  /** The text Prometheus scrapes, and its content type. */
  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private tableGauges(registers: Registry[]): void {
    const tables = this.tables;
    const byGame = (count: (room: Room) => number) => {
      const totals = new Map<string, number>();
      for (const room of tables) totals.set(room.roomName, (totals.get(room.roomName) ?? 0) + count(room));
      return totals;
    };
    new Gauge({
      name: "cardhall_rooms",
      help: "Tables open in this process, by game",
      labelNames: ["game"],
      registers,
      collect() {
        this.reset();
        for (const [game, rooms] of byGame(() => 1)) this.set({ game }, rooms);
      },
    });
    new Gauge({
      name: "cardhall_clients",
      help: "Clients connected to this process's tables (players and spectators), by game",
      labelNames: ["game"],
      registers,
      collect() {
        this.reset();
        for (const [game, clients] of byGame((room) => room.clients.length)) this.set({ game }, clients);
      },
    });
  }
}

/** The Fool AI's decisions since start, by how each was made (see AiThreads.decisions). */
function aiDecisionCounter(aiThreads: AiThreads, registers: Registry[]): void {
  new Counter({
    name: "cardhall_fool_ai_decisions_total",
    help: "Fool AI decisions by how they were made: immediate (nothing to weigh), on_threads, in_process (no worker, or a thread failed), abandoned (over the time limit, or its thread failed after the answer was due: the greedy move played)",
    labelNames: ["how"],
    registers,
    collect() {
      const { immediate, onThreads, inProcess, abandoned } = aiThreads.decisions;
      this.reset();
      this.inc({ how: "immediate" }, immediate);
      this.inc({ how: "on_threads" }, onThreads);
      this.inc({ how: "in_process" }, inProcess);
      this.inc({ how: "abandoned" }, abandoned);
    },
  });
}

/** How often each budget was given to the AIs' decisions, by game, and how long the decisions waited (AiAdmission). */
function aiBudgetMetrics(admissions: Map<string, AiAdmission>, registers: Registry[]): void {
  new Counter({
    name: "cardhall_ai_budgets_total",
    help: "AI decisions by the budget admission control gave them: full (a thread was free), reduced (a share of it), least (the smallest search), at_once (none: the fast move, far past the threads' capacity)",
    labelNames: ["game", "budget"],
    registers,
    collect() {
      this.reset();
      for (const [game, admission] of admissions) {
        const { full, reduced, least, atOnce } = admission.use().budgets;
        this.inc({ game, budget: "full" }, full);
        this.inc({ game, budget: "reduced" }, reduced);
        this.inc({ game, budget: "least" }, least);
        this.inc({ game, budget: "at_once" }, atOnce);
      }
    },
  });
  new Gauge({
    name: "cardhall_ai_wait_milliseconds",
    help: "How long the AI's searched decisions waited, from being asked for to their answer: p99 of the recent ones, and the longest since start",
    labelNames: ["game", "stat"],
    registers,
    collect() {
      this.reset();
      for (const [game, admission] of admissions) {
        const { p99, max } = admission.use().waitMs;
        this.set({ game, stat: "p99" }, p99);
        this.set({ game, stat: "max" }, max);
      }
    },
  });
}

/** What an AI pool tells the metrics of its threads. */
interface AiPool {
  heaps(): Promise<AiThreadHeaps>;
}

/** The AI threads running now, by game, and their V8 heaps (memory the process holds apart from its main thread's heap). */
function aiThreadHeapMetrics(pools: Map<string, AiPool>, registers: Registry[]): void {
  const readEach = async () =>
    new Map(await Promise.all([...pools].map(async ([game, pool]) => [game, await pool.heaps()] as const)));
  // One scrape collects both gauges at once: they share one question to each thread.
  let reading: ReturnType<typeof readEach> | null = null;
  const read = () => (reading ??= readEach().finally(() => (reading = null)));
  new Gauge({
    name: "cardhall_ai_threads",
    help: "AI threads running now, by game (they start with the first decision that needs one and stop when idle)",
    labelNames: ["game"],
    registers,
    async collect() {
      this.reset();
      for (const [game, heaps] of await read()) this.set({ game }, heaps.threads);
    },
  });
  new Gauge({
    name: "cardhall_ai_thread_heap_bytes",
    help: "The AI threads' V8 heaps added up, by game: the memory they hold (physical) and what of it is in use (used)",
    labelNames: ["game", "kind"],
    registers,
    async collect() {
      this.reset();
      for (const [game, heaps] of await read()) {
        this.set({ game, kind: "physical" }, heaps.physicalBytes);
        this.set({ game, kind: "used" }, heaps.usedBytes);
      }
    },
  });
}

/**
 * The heap the last major collection left: what the process holds live (the heap's size at a scrape is mostly
 * garbage); and how far the heap may grow past it before the next one (server/runtime/heap-growth.ts).
 */
function liveHeapMetrics(registers: Registry[]): void {
  new Gauge({
    name: "cardhall_heap_after_major_gc_bytes",
    help: "V8's heap in use just after the last major garbage collection (0 before one): the live heap, tables and clients included",
    registers,
    collect() {
      this.set(garbageCollections().lastMajor?.heapBytes ?? 0);
    },
  });
  new Gauge({
    name: "cardhall_heap_growth_percent",
    help: "How far the heap may grow past what the last major collection left before the next one starts, in percent (HEAP_GROWTH_PERCENT); 0: V8 chooses, up to 300",
    registers,
    collect() {
      this.set(heapGrowthPercent() ?? 0);
    },
  });
}

/** Prometheus's label for each cause of a stall. */
const STALL_CAUSE_LABELS: Record<StallCause, string> = {
  majorGc: "major_gc",
  minorGc: "minor_gc",
  noCore: "no_core",
  work: "work",
};

/** The event loop's stalls over 50 ms and the time they took, by what held the loop. */
function stallMetrics(registers: Registry[]): void {
  const tallies = () => eventLoopStalls().read().byCause;
  const byCause = (name: string, help: string, value: (tally: ReturnType<typeof tallies>[StallCause]) => number) =>
    new Counter({
      name,
      help,
      labelNames: ["cause"],
      registers,
      collect() {
        const read = tallies();
        this.reset();
        for (const cause of STALL_CAUSES) this.inc({ cause: STALL_CAUSE_LABELS[cause] }, value(read[cause]));
      },
    });
  byCause(
    "cardhall_event_loop_stalls_total",
    "Times the event loop ran a timer over 50 ms late, by what held it: major_gc (a major collection's marking and pause), minor_gc, no_core (the main thread hardly ran: the machine's other work had the cores), work (the program's own)",
    (tally) => tally.count,
  );
  byCause(
    "cardhall_event_loop_stalled_seconds_total",
    "The time those stalls held the event loop, by what held it",
    (tally) => tally.totalMs / 1000,
  );
}

/** The clients' leaves: how many waited for a later turn of the event loop (a mass disconnect), and how many wait now. */
function leavePacerMetrics(registers: Registry[]): void {
  new Counter({
    name: "cardhall_leaves_total",
    help: "Clients' leaves by when they ran: at_once, or deferred to a later turn of the event loop (many clients left together)",
    labelNames: ["when"],
    registers,
    collect() {
      const { atOnce, deferred } = leavePacer.counts();
      this.reset();
      this.inc({ when: "at_once" }, atOnce);
      this.inc({ when: "deferred" }, deferred);
    },
  });
  new Gauge({
    name: "cardhall_leaves_waiting",
    help: "Clients' leaves waiting for a later turn of the event loop",
    registers,
    collect() {
      this.set(leavePacer.counts().waiting);
    },
  });
}

/** The joins refused while the main thread was saturated (BUSY_REFUSE_AT), whether new tables are refused now, and whether this process is busy. */
function busyGuardMetrics(guard: BusyGuard, registers: Registry[]): void {
  new Counter({
    name: "cardhall_joins_refused_busy_total",
    help: "Joins refused because the main thread was saturated (BUSY_REFUSE_AT)",
    registers,
    collect() {
      this.reset();
      this.inc(guard.state().refused);
    },
  });
  new Gauge({
    name: "cardhall_refusing_joins",
    help: "1 while new tables are refused (the main thread saturated, and in a cluster every process's), else 0",
    registers,
    collect() {
      this.set(guard.refusing ? 1 : 0);
    },
  });
  new Gauge({
    name: "cardhall_main_thread_busy",
    help: "1 while this process's main thread is busy past BUSY_REFUSE_AT (it takes no new spectators; in a cluster its new tables go elsewhere), else 0",
    registers,
    collect() {
      this.set(guard.busy ? 1 : 0);
    },
  });
}

/** The records' queue to the database (RecordWriter.metrics), read at each scrape. */
function recordQueueMetrics(records: Records, registers: Registry[]): void {
  const read = () => records.writer.metrics();
  const gauge = (name: string, help: string, value: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(value());
      },
    });
  const counter = (name: string, help: string, value: () => number) =>
    new Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(value());
      },
    });
  gauge("cardhall_records_queued", "Finished games waiting to be written to the database", () => read().queued);
  gauge(
    "cardhall_records_queue_capacity",
    "The most finished games the queue holds; past it the newest are dropped",
    () => read().capacity,
  );
  counter("cardhall_records_written_total", "Finished games written to the database", () => read().written);
  counter("cardhall_records_dropped_total", "Finished games not kept because the queue was full", () => read().dropped);
  counter(
    "cardhall_records_failed_writes_total",
    "Batches the database refused (each tried again later)",
    () => read().failedWrites,
  );
}
