/** Latency summaries for the load test. */
export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** The value below which `fraction` of the sorted values fall (nearest rank). */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil(fraction * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

export function summarize(values: readonly number[]): LatencySummary {
  const sorted = Float64Array.from(values).sort();
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    count: sorted.length,
    mean: sorted.length ? total / sorted.length : NaN,
    p50: percentile(sorted as unknown as number[], 0.5),
    p95: percentile(sorted as unknown as number[], 0.95),
    p99: percentile(sorted as unknown as number[], 0.99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
  };
}
