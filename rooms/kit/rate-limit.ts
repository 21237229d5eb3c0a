/**
 * Each client's message budget: a token bucket, refilled continuously. A client may send `burst` messages at once
 * and `perSecond` on average; past that its messages are refused (RATE_LIMITED) before any handler or engine sees
 * them, so a flood costs the room a counter check per frame and changes nothing.
 */
export interface RateBudget {
  /** Messages a second, on average. */
  readonly perSecond: number;
  /** Messages a client may send at once (the bucket's size). */
  readonly burst: number;
}

/** A person or a program acting at a card table sends a few messages a second at most; a burst covers a reconnect's catch-up. */
export const DEFAULT_RATE_BUDGET: RateBudget = { perSecond: 20, burst: 40 };

/**
 * The budget the SDK keeps its own sessions within: below the rooms', so that messages the network delivers
 * bunched together still fit the room's bucket.
 */
export const CLIENT_RATE_BUDGET: RateBudget = { perSecond: 18, burst: 30 };

interface Bucket {
  tokens: number;
  refilledAt: number;
  /** When a refused fire-and-forget message was last answered (refusals of a flood are answered once a second). */
  answeredAt: number;
}

/** The clock every room's limiter reads, one function for all (a default written in place would be a closure each). */
const performanceNow = (): number => performance.now();

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly budget: RateBudget = DEFAULT_RATE_BUDGET,
    private readonly now: () => number = performanceNow,
  ) {}

  /** Takes one message from the client's budget; false when the budget is spent. */
  allow(clientId: string): boolean {
    const bucket = this.refilled(clientId);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /**
   * Whether a refused message that expects no reply should still be answered: the first of each second is, so the
   * client learns why, and a flood is not echoed back message for message.
   */
  shouldAnswer(clientId: string): boolean {
    const bucket = this.refilled(clientId);
    const now = this.now();
    if (now - bucket.answeredAt < 1000) return false;
    bucket.answeredAt = now;
    return true;
  }

  /** How long until the client's budget allows a message (0: now). */
  msUntilAllowed(clientId: string): number {
    const bucket = this.refilled(clientId);
    return bucket.tokens >= 1 ? 0 : ((1 - bucket.tokens) / this.budget.perSecond) * 1000;
  }

  forget(clientId: string): void {
    this.buckets.delete(clientId);
  }

  private refilled(clientId: string): Bucket {
    const now = this.now();
    let bucket = this.buckets.get(clientId);
    if (bucket === undefined) {
      bucket = { tokens: this.budget.burst, refilledAt: now, answeredAt: -Infinity };
      this.buckets.set(clientId, bucket);
      return bucket;
    }
    const earned = ((now - bucket.refilledAt) / 1000) * this.budget.perSecond;
    bucket.tokens = Math.min(this.budget.burst, bucket.tokens + earned);
    bucket.refilledAt = now;
    return bucket;
  }
}
