/**
 * The deal's commitment, defined once (rooms/kit/commitment.ts): the bytes hashed, the server's and Web Crypto's
 * SHA-256 of them agreeing on a known vector, fresh salts, the check of a reveal, the records' verdict, and the log
 * never holding a salt.
 */
import { commitmentText, dealCommitment, revealMatches } from "../../rooms/kit/commitment";
import { commitmentOf, freshDealSeed, freshSalt, sealDeal } from "../../rooms/kit/deal-seal";
import { log } from "../../rooms/kit/log";
import { checkDealSeal } from "../../server/records/replay";
import { takeConsole } from "../setup/console";

/** docs/arena.md's example: `printf '%s' '12345:00112233445566778899aabbccddeeff' | sha256sum` (GNU coreutils). */
const SEED = 12345;
const SALT = "00112233445566778899aabbccddeeff";
const COMMITMENT = "795e48acce6a6861b461c092e89aeb9114d93e085cba34b1794e0b3874cade80";

describe("a deal's commitment", () => {
  test("is SHA-256 of the seed in decimal, a colon and the salt: the server's hash and Web Crypto's agree with sha256sum", async () => {
    expect(commitmentText(SEED, SALT)).toBe("12345:00112233445566778899aabbccddeeff");
    expect(commitmentOf(SEED, SALT)).toBe(COMMITMENT);
    await expect(dealCommitment(SEED, SALT)).resolves.toBe(COMMITMENT);
  });

  test("each deal gets a fresh salt of 16 random bytes, and its commitment is the hash of its seed with it", () => {
    const first = sealDeal(SEED);
    const second = sealDeal(SEED);
    expect(first.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(second.salt).not.toBe(first.salt);
    expect(second.commitment).not.toBe(first.commitment);
    expect(first).toEqual({ seed: SEED, salt: first.salt, commitment: commitmentOf(SEED, first.salt) });
  });

  test("salts drawn many at a time are all different and each of 16 bytes, across the pool's refills", () => {
    const salts = Array.from({ length: 1_000 }, freshSalt); // 16,000 bytes: the 4 KB pool drawn anew three times
    for (const salt of salts) expect(salt).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(salts).size).toBe(salts.length);
    // Every byte value turns up (a pool handed out as zeros, or not refilled, would not give them).
    const bytes = new Set(salts.flatMap((salt) => salt.match(/../g)!));
    expect(bytes.size).toBe(256);
  });

  test("a fresh deal's seed is one every engine accepts, 1 to 2^31-2, and they spread over the range", () => {
    const seeds = Array.from({ length: 2_000 }, freshDealSeed);
    for (const seed of seeds) expect(Number.isInteger(seed) && seed >= 1 && seed <= 2_147_483_646).toBe(true);
    expect(new Set(seeds).size).toBeGreaterThan(1_990);
    expect(seeds.some((seed) => seed > 2 ** 30)).toBe(true);
    expect(seeds.some((seed) => seed < 2 ** 30)).toBe(true);
  });

  test("a reveal matches only the seed and salt committed to", async () => {
    await expect(revealMatches(COMMITMENT, SEED, SALT)).resolves.toBe(true);
    await expect(revealMatches(COMMITMENT.toUpperCase(), SEED, SALT)).resolves.toBe(true);
    await expect(revealMatches(COMMITMENT, SEED + 1, SALT)).resolves.toBe(false);
    await expect(revealMatches(COMMITMENT, SEED, SALT.replace("ff", "fe"))).resolves.toBe(false);
    await expect(revealMatches("", SEED, SALT)).resolves.toBe(false);
  });

  test("a replayed record's deal is verified, has no commitment to check, or does not match (said in a sentence)", () => {
    expect(checkDealSeal({ seed: SEED, commitment: COMMITMENT, salt: SALT })).toEqual({
      verdict: "verified",
      seed: SEED,
      commitment: COMMITMENT,
    });
    expect(checkDealSeal({ seed: SEED })).toEqual({ verdict: "none" });
    expect(checkDealSeal(null)).toEqual({ verdict: "none" });
    expect(checkDealSeal({ seed: SEED, commitment: COMMITMENT })).toEqual({
      verdict: "mismatch",
      reason: "the record has a commitment but no salt to check it with",
    });
    const doctored = checkDealSeal({ seed: SEED + 1, commitment: COMMITMENT, salt: SALT });
    expect(doctored).toEqual({
      verdict: "mismatch",
      reason: expect.stringMatching(
        /^the deal does not match its commitment: sha256\("12346:0011.*"\) is [0-9a-f]{64}, but the commitment published before the deal was 795e48ac/,
      ),
    });
  });

  test("a salt never reaches the log, wherever it sits in a line's fields", () => {
    log.warn({ event: "test_line", salt: SALT, deal: { salt: SALT, seed: SEED } }, "a line naming a salt");
    const [line] = takeConsole(/a line naming a salt/);
    expect(line).not.toContain(SALT);
    expect(line).toContain('"salt":"[hidden]"');
  });
});
