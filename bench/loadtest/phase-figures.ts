/** A phase's figures from its workers' results: the latencies by game and from a moment on, the generator's own stalls, CPU per move. */
import type { GameName } from "./games";
import type { WorkerDone } from "./messages";
import { summarize, type LatencySummary } from "../stats";
import type { GeneratorStalls, PhaseResult } from "./report-shape";

/** A move's broadcast read up to this long after its worker's stall ended was held by the stall (a tick of its watch, and the handlers run with it). */
const STALL_ARRIVAL_MARGIN_MS = 20;

export function generatorStallFigures(
  results: readonly Pick<WorkerDone, "stalls" | "latencies" | "latencySentAt">[],
  window: { fromMs: number; untilMs: number },
): GeneratorStalls {
  const othersByGame = new Map<GameName, number[]>();
  let movesInThem = 0;
  for (const result of results) {
    const spans = result.stalls.recent.map((stall) => ({
      fromMs: stall.at - stall.ms,
      untilMs: stall.at + STALL_ARRIVAL_MARGIN_MS,
    }));
    for (const [game, latencies] of Object.entries(result.latencies) as Array<[GameName, number[]]>) {
      const sentAt = result.latencySentAt[game] ?? [];
      const others = othersByGame.get(game) ?? [];
      othersByGame.set(game, others);
      latencies.forEach((latency, index) => {
        const arrivedAt = sentAt[index]! + latency;
        if (spans.some((span) => arrivedAt >= span.fromMs && arrivedAt <= span.untilMs)) movesInThem++;
        else others.push(latency);
      });
    }
  }
  const stalls = results
    .flatMap((result) => result.stalls.recent)
    .filter((stall) => stall.at >= window.fromMs && stall.at <= window.untilMs);
  const others = summarize([...othersByGame.values()].flat());
  return {
    overMs: results[0]?.stalls.overMs ?? NaN,
    stalls: stalls.sort((a, b) => a.at - b.at),
    movesInThem,
    others,
    othersByGame: summarizedByGame(othersByGame),
  };
}

/** The workers' latencies by game, of the moves sent at `fromMs` or later (ms since the epoch). */
export function latenciesSentFrom(results: readonly WorkerDone[], fromMs: number): Map<GameName, number[]> {
  const byGame = new Map<GameName, number[]>();
  for (const result of results) {
    for (const [game, values] of Object.entries(result.latencies) as Array<[GameName, number[]]>) {
      const sentAt = result.latencySentAt[game] ?? [];
      const kept = fromMs === -Infinity ? values : values.filter((_, index) => sentAt[index]! >= fromMs);
      byGame.set(game, [...(byGame.get(game) ?? []), ...kept]);
    }
  }
  return byGame;
}

export function summarizedByGame(byGame: Map<GameName, number[]>): Partial<Record<GameName, LatencySummary>> {
  return Object.fromEntries(
    [...byGame].sort(([a], [b]) => a.localeCompare(b)).map(([game, values]) => [game, summarize(values)]),
  );
}

export function onceSeated(results: readonly WorkerDone[], seatedAt: number): NonNullable<PhaseResult["onceSeated"]> {
  const byGame = latenciesSentFrom(results, seatedAt);
  return { fromMs: seatedAt, latency: summarize([...byGame.values()].flat()), latencyByGame: summarizedByGame(byGame) };
}

export function perMoveMs(cpuSeconds: number, moves: number): number {
  return moves > 0 ? Math.round((cpuSeconds / moves) * 1e6) / 1e3 : NaN;
}
