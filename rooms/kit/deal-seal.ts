/**
 * The server's side of deals anyone can verify (commitment.ts): a fresh secret salt for each deal and the
 * commitment to its seed, computed synchronously (the table seals a deal inside the step that starts it).
 */
import { createHash, randomBytes, randomInt } from "node:crypto";
import { commitmentText } from "./commitment";

/** A deal's seal: its seed, its secret salt and the commitment to both. Seed and salt stay on the server until the deal is over. */
export interface DealSeal {
  readonly seed: number;
  readonly salt: string;
  readonly commitment: string;
}

/** 16 random bytes: a salt nobody can guess, so the commitment says nothing of the seed's 31 bits. */
const SALT_BYTES = 16;

/** SHA-256 of `<seed>:<salt>`, hex (the same bytes as commitment.ts's Web Crypto version). */
export function commitmentOf(seed: number, salt: string): string {
  return createHash("sha256").update(commitmentText(seed, salt), "utf8").digest("hex");
}

/**
 * Random bytes drawn from the system's generator a page at a time, each byte handed out once: a draw of 16 bytes
 * costs a call into the generator as dear as a draw of a page (a deal started in a busy server spent 20 µs on
 * its salt). They never leave the server but as a finished deal's salt.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let drawn = 0;

/** A fresh secret salt for a deal's commitment: SALT_BYTES from the pool, as hex, zeroed in the pool once read. */
export function freshSalt(): string {
  if (drawn + SALT_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    drawn = 0;
  }
  const hex = pool.toString("hex", drawn, drawn + SALT_BYTES);
  pool.fill(0, drawn, drawn + SALT_BYTES);
  drawn += SALT_BYTES;
  return hex;
}

/**
 * A fresh seed for a deal whose creator gave none (1 .. 2^31-2, the range every engine accepts), from the system's
 * generator: Math.random's next outputs can be worked out from enough of its earlier ones, and every finished
 * deal reveals its seed.
 */
export function freshDealSeed(): number {
  return randomInt(1, 2147483647);
}

/** Seals a deal's seed with a fresh random salt. */
export function sealDeal(seed: number, salt: string = freshSalt()): DealSeal {
  return { seed, salt, commitment: commitmentOf(seed, salt) };
}
