/**
 * How far V8 lets the heap grow past what a major collection leaves live before the next one starts.
 *
 * V8 picks the factor itself, up to four times the live heap when the program allocates fast and collects quickly,
 * which is what a busy game server does: at 4,000 clients the process's memory grew to 93–158 KB a table for 38 KB
 * live, the rest garbage waiting for a collection. A fixed
 * factor of 1.5 held it to 80 KB at the same CPU a move and without a stall; the cost is more major collections,
 * each marking the same live heap, which a process carrying more than about 6,000 clients on two cores feels as
 * more stalls (its marking does not keep pace there whatever the factor). `HEAP_GROWTH_PERCENT=0` leaves the choice
 * to V8.
 */
import * as v8 from "node:v8";

export const DEFAULT_HEAP_GROWTH_PERCENT = 50;
/** V8's own factor reaches 4: more than that is never a bound. */
const MOST_HEAP_GROWTH_PERCENT = 300;

/** The growth `HEAP_GROWTH_PERCENT` asks for, in percent of the live heap (0: V8's own), or an error naming it. */
export function heapGrowthFromEnvironment(env: NodeJS.ProcessEnv): number {
  const text = env.HEAP_GROWTH_PERCENT;
  if (text === undefined || text === "") return DEFAULT_HEAP_GROWTH_PERCENT;
  const percent = Number(text);
  if (!Number.isInteger(percent) || percent < 0 || percent > MOST_HEAP_GROWTH_PERCENT) {
    throw new Error(
      `HEAP_GROWTH_PERCENT must be a whole number from 0 (V8 chooses) to ${MOST_HEAP_GROWTH_PERCENT}, got "${text}"`,
    );
  }
  return percent;
}

let appliedPercent: number | null = null;

/**
 * Sets V8's heap growth for the rest of the process's life (its AI threads' heaps too). V8 reads the factor each
 * time a major collection sets the next one's limit, so setting it once the process runs takes effect from the
 * next collection on; 0 leaves V8's own choice.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent === 0) return;
  v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
  appliedPercent = percent;
}

/** The growth this process set (ServerMetrics.heapGrowthPercent), null when V8 chooses. */
export function heapGrowthPercent(): number | null {
  return appliedPercent;
}
