/**
 * The wire's names for the four seats and the bounds of a deal's seed: plain constants, apart from the message
 * schemas of protocol.ts (which re-exports them), so that the match engine loads without zod, and with it the AI
 * threads that review matches: a thread loaded zod's ninety-odd modules for these, half of its start
 * (`npm run bench:ai-threads`).
 */
export const TRACTOR_SEATS = ["Alice", "Bob", "Charles", "David"] as const;
export type TractorSeatName = (typeof TRACTOR_SEATS)[number];

export const TRACTOR_MIN_SEED = 1;
export const TRACTOR_MAX_SEED = 2147483646;
