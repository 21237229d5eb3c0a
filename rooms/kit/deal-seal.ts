/**
 * The server's side of deals anyone can verify (commitment.ts): a fresh secret salt for each deal and the
 * commitment to its seed, computed synchronously (the table seals a deal inside the step that starts it).
 */
import { createHash, randomBytes } from "crypto";
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

/** Seals a deal's seed with a fresh random salt. */
export function sealDeal(seed: number, salt: string = randomBytes(SALT_BYTES).toString("hex")): DealSeal {
  return { seed, salt, commitment: commitmentOf(seed, salt) };
}
