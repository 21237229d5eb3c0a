import type seedrandomModule from "seedrandom";

let seedrandomOnce: typeof seedrandomModule | undefined;

/**
 * seedrandom, loaded on first use: programs that only shuffle (the judges) start without it, which saves
 * milliseconds. Kept once loaded: rooms make a generator per deal and per bot decision.
 */
function loadSeedrandom(): typeof seedrandomModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (seedrandomOnce ??= require("seedrandom") as typeof seedrandomModule);
}

/** A source of uniform numbers in [0, 1). Engines take one instead of calling Math.random. */
export type Random = () => number;

/** A reproducible generator: the same seed always gives the same sequence. */
export function seededRandom(seed: string | number): Random {
  const prng = loadSeedrandom()(String(seed));
  return () => prng.quick();
}

/**
 * seededRandom's sequence, its generator made when the first number is drawn: a generator holds about 3 KB (its
 * ARC4 state), and a table that keeps one for dice it may never throw (a Fool table whose AI seats think on the
 * server's threads) need not pay for it.
 */
export function lazySeededRandom(seed: string | number): Random {
  let random: Random | undefined;
  return () => (random ??= seededRandom(seed))();
}

/** A uniform integer in [0, bound). */
export function randomInt(random: Random, bound: number): number {
  return Math.floor(random() * bound);
}

/** A new array with the items in a uniformly random order (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], random: Random): T[] {
  const deck = items.slice();
  for (let i = deck.length - 1; i > 0; i--) {
    const j = randomInt(random, i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** A fresh seed for a game whose creator gave none: 1 .. 2^31-2, the range every engine here accepts. */
export function freshSeed(random: Random = Math.random): number {
  return 1 + Math.floor(random() * 2147483646);
}
