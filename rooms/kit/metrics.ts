/**
 * What the kit tells the server's metrics, said once for every game: tables opened and closed, each client message
 * handled (how long it took) or refused (by code), and each action a table took. The kit knows nothing of the
 * format the server publishes (Prometheus's, server/telemetry/metrics.ts): it calls this small sink, which does nothing until
 * the server installs one. There is one sink per process, as a monitoring system scrapes a process.
 */
import type { Room } from "@colyseus/core";
import type { Mover } from "./record";

export interface TableMetrics {
  /** A table opened (in onCreate) or closed (in onDispose). */
  tableOpened(room: Room): void;
  tableClosed(room: Room): void;
  /** A client message handled to its end (a move, a hint...), with the state patch it caused: seconds on the server. */
  messageHandled(game: string, message: string, seconds: number): void;
  /** A client message refused with this code (bad payload, rate limit, unknown message, the engine's refusal...). */
  refused(game: string, code: string): void;
  /** An action the table's engine accepted, and who made it. */
  actionTaken(game: string, by: Mover): void;
}

const NO_METRICS: TableMetrics = {
  tableOpened: () => undefined,
  tableClosed: () => undefined,
  messageHandled: () => undefined,
  refused: () => undefined,
  actionTaken: () => undefined,
};

let sink: TableMetrics = NO_METRICS;

/** The sink the kit reports to (read at each call: the server may install one after rooms are defined). */
export function tableMetrics(): TableMetrics {
  return sink;
}

/** Installs the server's sink; `null` goes back to reporting nothing. */
export function reportTableMetricsTo(metrics: TableMetrics | null): void {
  sink = metrics ?? NO_METRICS;
}
