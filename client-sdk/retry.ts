/**
 * Asking again after a refusal that passes (docs/protocol.md: a matchmaking 503 with Retry-After): the wait, spread
 * at random, and a join that asks again until it is taken. Used by programs, bin/bridge, the page and the load test.
 */
import { CardhallError, toCardhallError } from "./errors";

/** How long `joinWhenTaken` goes on asking by default: a busy server usually takes joins again within seconds. */
export const DEFAULT_JOIN_PATIENCE_MS = 60_000;

export interface JoinPatience {
  /** How long to go on asking, in ms from the first try (DEFAULT_JOIN_PATIENCE_MS by default). */
  withinMs?: number;
  /** Stops the waiting between tries (the wait ends with ABORTED). */
  signal?: AbortSignal;
  /** Told of each refusal that passes before the wait after it: what the server said, which try it was, the wait. */
  onWait?: (refusal: CardhallError, attempt: number, waitMs: number) => void;
}

/**
 * How long to wait after a refusal that passes: the server's wait, and up to as long again at random. Every client
 * refused in the same second is told the same wait; asking again all at once, they would be refused together again
 * (measured: the load test's tables, refused at capacity, came back as one burst).
 */
export function waitBeforeAskingAgain(retryAfterMs: number, random: () => number = Math.random): number {
  return Math.round(retryAfterMs * (1 + random()));
}

/**
 * Runs `join` (any of the client's joins or creates) and, while the server refuses it for a reason that passes (the
 * server at capacity, a database away, a server shutting down: a JOIN_REFUSED with `retryAfterMs`), waits as the
 * server asks (waitBeforeAskingAgain) and runs it again. Any other failure ends it at once, and so does a refusal
 * whose wait would end past `withinMs`: the last refusal is what it rejects with.
 */
export async function joinWhenTaken<T>(join: () => Promise<T>, patience: JoinPatience = {}): Promise<T> {
  const giveUpAt = Date.now() + (patience.withinMs ?? DEFAULT_JOIN_PATIENCE_MS);
  for (let attempt = 1; ; attempt++) {
    try {
      return await join();
    } catch (error) {
      const refusal = toCardhallError(error);
      if (refusal.retryAfterMs === undefined) throw refusal;
      const waitMs = waitBeforeAskingAgain(refusal.retryAfterMs);
      if (Date.now() + waitMs > giveUpAt) throw refusal;
      patience.onWait?.(refusal, attempt, waitMs);
      await pause(waitMs, patience.signal);
    }
  }
}

/** Waits `ms`, or rejects with ABORTED as soon as `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer);
      reject(
        signal?.reason instanceof CardhallError
          ? signal.reason
          : new CardhallError("ABORTED", "stopped waiting to join again, as asked"),
      );
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }, ms);
    if (signal?.aborted) return aborted();
    signal?.addEventListener("abort", aborted, { once: true });
  });
}
