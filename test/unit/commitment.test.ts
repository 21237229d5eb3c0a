/**
 * The deal's commitment, defined once (rooms/kit/commitment.ts): the bytes hashed, the server's and Web Crypto's
 * SHA-256 of them agreeing on a known vector, fresh salts, the check of a reveal, the records' verdict, and the log
 * never holding a salt.
 */
import { commitmentText, dealCommitment, revealMatches } from "../../rooms/kit/commitment";
import { commitmentOf, sealDeal } from "../../rooms/kit/deal-seal";
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

  test("a reveal matches only the seed and salt committed to", async () => {
    await expect(revealMatches(COMMITMENT, SEED, SALT)).resolves.toBe(true);
    await expect(revealMatches(COMMITMENT.toUpperCase(), SEED, SALT)).resolves.toBe(true);
    await expect(revealMatches(COMMITMENT, SEED + 1, SALT)).resolves.toBe(false);
    await expect(revealMatches(COMMITMENT, SEED, SALT.replace("ff", "fe"))).resolves.toBe(false);
    await expect(revealMatches("", SEED, SALT)).resolves.toBe(false);
  });

  test("a replayed record's deal is verified, has no commitment to check, or does not match (said in a sentence)", () => {
    expect(checkDealSeal({ seed: SEED, commitment: COMMITMENT, salt: SALT })).toEqual({ verdict: "verified", seed: SEED, commitment: COMMITMENT });
    expect(checkDealSeal({ seed: SEED })).toEqual({ verdict: "none" });
    expect(checkDealSeal(null)).toEqual({ verdict: "none" });
    expect(checkDealSeal({ seed: SEED, commitment: COMMITMENT })).toEqual({ verdict: "mismatch", reason: "the record has a commitment but no salt to check it with" });
    const doctored = checkDealSeal({ seed: SEED + 1, commitment: COMMITMENT, salt: SALT });
    expect(doctored).toEqual({ verdict: "mismatch", reason: expect.stringMatching(/^the deal does not match its commitment: sha256\("12346:0011.*"\) is [0-9a-f]{64}, but the commitment published before the deal was 795e48ac/) });
  });

  test("a salt never reaches the log, wherever it sits in a line's fields", () => {
    log.warn({ event: "test_line", salt: SALT, deal: { salt: SALT, seed: SEED } }, "a line naming a salt");
    const [line] = takeConsole(/a line naming a salt/);
    expect(line).not.toContain(SALT);
    expect(line).toContain('"salt":"[hidden]"');
  });
});
