/** Statistics the benchmarks share: latency percentiles and confidence intervals. */
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

const Z_95 = 1.959963984540054;

/** The 95% Wilson score interval of a share: unlike the plain normal one it stays inside [0, 1] near the ends. */
export function wilsonInterval(successes: number, trials: number): { low: number; high: number } {
  const share = successes / trials;
  const spread = (Z_95 * Z_95) / trials;
  const middle = (share + spread / 2) / (1 + spread);
  const radius = (Z_95 / (1 + spread)) * Math.sqrt((share * (1 - share)) / trials + spread / (4 * trials));
  return { low: middle - radius, high: middle + radius };
}

/** A mean with its 95% normal interval (the standard error of the mean times 1.96 either side). */
export function meanInterval(values: readonly number[]): { mean: number; low: number; high: number } {
  const count = Math.max(1, values.length);
  const mean = values.reduce((sum, value) => sum + value, 0) / count;
  const squares = values.reduce((sum, value) => sum + (value - mean) ** 2, 0);
  const standardError = Math.sqrt(squares / Math.max(1, values.length - 1) / count);
  return { mean, low: mean - Z_95 * standardError, high: mean + Z_95 * standardError };
}
