/**
 * Deals anyone can verify (docs/arena.md, "Checking a deal by hand"): when a deal starts, the table publishes a
 * commitment to the seed it comes from, the SHA-256 of the seed and a secret salt; when the deal is over, it reveals
 * both. Anyone can then hash the two and compare, and replay the deal from the seed.
 *
 * The bytes hashed are defined here once, for the room, the records, bin/replay, the page and the docs: the seed in
 * decimal, a colon, and the salt (hex), as UTF-8 — `sha256("<seed>:<salt>")`, written in lower-case hex.
 * Pure (no Node module): the SDK and the page import it too; the server's synchronous hash is deal-seal.ts.
 */

/** The text whose SHA-256 is a deal's commitment: `<seed>:<salt>`. */
export function commitmentText(seed: number, salt: string): string {
  return `${seed}:${salt}`;
}

/** A deal's commitment, computed with Web Crypto (`crypto.subtle`: the browser's, and Node's global one). */
export async function dealCommitment(seed: number, salt: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(commitmentText(seed, salt)));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * What every client's state shows of the deals (the `seal` field of every game's state): the commitment of the deal
 * in play, published when it starts, and the reveal of the last finished deal. Before a deal is over nothing here
 * tells its seed; the salt of a deal in play never leaves the server.
 */
export interface DealSealView {
  /**
   * SHA-256 of `<seed>:<salt>` (hex) for the deal in play, or the last one played; "" before the table's first
   * deal and for a deal not drawn from a seed (a Patience deck given as cards).
   */
  commitment: string;
  /** The last finished deal's commitment, as it was published when that deal started ("" until a deal is over). */
  revealedCommitment: string;
  /** The last finished deal's seed (0 until a deal is over): the deal follows from it. */
  revealedSeed: number;
  /** The last finished deal's salt, hex ("" until a deal is over). */
  revealedSalt: string;
}

/** The seal field every game's state view has (the table kit writes it). */
export interface SealedView {
  seal: DealSealView;
}

/** The seal before any deal. */
export const NO_SEAL: DealSealView = { commitment: "", revealedCommitment: "", revealedSeed: 0, revealedSalt: "" };

/** The seal a replay's frames show: the record's commitment (the replay page checks the reveal against it). */
export function sealOfRecord(record: { readonly commitment?: string }): DealSealView {
  return { ...NO_SEAL, commitment: record.commitment ?? "" };
}

/** Whether a revealed seed and salt hash to the commitment published before the deal. */
export async function revealMatches(commitment: string, seed: number, salt: string): Promise<boolean> {
  return commitment !== "" && (await dealCommitment(seed, salt)) === commitment.toLowerCase();
}
