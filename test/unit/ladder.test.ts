/** The solo ladders' pure parts (server/arena/ladder.ts): periods, the deals' seeds, scoring and the standings' order. */
import { createHmac } from "node:crypto";
import { ladderConfig } from "../../server/arena/ladders";
import {
  LADDERS,
  ladderSeed,
  parseLadderPeriod,
  periodAt,
  periodNamed,
  rankStandings,
  type LadderPlay,
} from "../../server/arena/ladder";
import type { EvenStevenOutcome } from "../../rooms/evensteven/protocol";

const SECRET = Buffer.from("a test secret");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("periods", () => {
  test("a day by default, or hours and minutes that divide a day; anything else is refused with a sentence", () => {
    expect(parseLadderPeriod(undefined)).toBe(DAY);
    expect(parseLadderPeriod("day")).toBe(DAY);
    expect(parseLadderPeriod("6h")).toBe(6 * HOUR);
    expect(parseLadderPeriod("30m")).toBe(30 * 60_000);
    for (const bad of ["7h", "0m", "25h", "week", "1d", "-1h"])
      expect(() => parseLadderPeriod(bad)).toThrow(/LADDER_PERIOD must be/);
  });

  test("a day's period is its UTC date; a shorter one is its UTC start; a label names its period back", () => {
    const at = Date.parse("2026-11-26T13:45:10Z");
    expect(periodAt(DAY, at)).toEqual({
      label: "2026-11-26",
      startsAt: Date.parse("2026-11-26T00:00Z"),
      endsAt: Date.parse("2026-11-27T00:00Z"),
    });
    expect(periodAt(6 * HOUR, at).label).toBe("2026-11-26T12:00Z");
    expect(periodNamed(DAY, "2026-11-26")).toEqual(periodAt(DAY, at));
    expect(periodNamed(6 * HOUR, "2026-11-26T12:00Z")).toEqual(periodAt(6 * HOUR, at));
    // Not a period of this length, not a date, or not a label at all.
    for (const bad of ["2026-11-26T13:00Z", "2026-02-30", "yesterday", "2026-11-26T12:00Z; drop table"])
      expect(periodNamed(6 * HOUR, bad)).toBeNull();
  });
});

describe("seeds", () => {
  test("a deal's seed is stable: the same secret, game, period and deal give the same seed in any process", () => {
    const seed = ladderSeed(SECRET, LADDERS.evensteven, "2026-11-26", 1);
    expect(ladderSeed(Buffer.from("a test secret"), LADDERS.evensteven, "2026-11-26", 1)).toBe(seed);
    // HMAC-SHA256's first six bytes, brought into 1..2^31-2; pinned, since a change to the derivation would deal
    // a running period's remaining deals differently from its first ones.
    expect(
      (createHmac("sha256", SECRET).update("evensteven:2026-11-26:1").digest().readUIntBE(0, 6) % 2147483646) + 1,
    ).toBe(seed);
    expect(seed).toBe(659710378);
  });

  test("seeds differ by deal, by period, by game and by secret, and lie in the engines' range", () => {
    const seeds = new Set<number>();
    for (const game of [LADDERS.evensteven, LADDERS.patience]) {
      for (const period of ["2026-11-26", "2026-11-27", "2026-11-26T06:00Z"]) {
        for (let deal = 1; deal <= game.deals; deal++) {
          const seed = ladderSeed(SECRET, game, period, deal);
          expect(seed).toBeGreaterThanOrEqual(game.seeds.min);
          expect(seed).toBeLessThanOrEqual(game.seeds.max);
          seeds.add(seed);
        }
      }
    }
    expect(seeds.size).toBe(3 * (LADDERS.evensteven.deals + LADDERS.patience.deals));
    expect(ladderSeed(Buffer.from("another secret"), LADDERS.evensteven, "2026-11-26", 1)).not.toBe(
      ladderSeed(SECRET, LADDERS.evensteven, "2026-11-26", 1),
    );
  });
});

describe("standings", () => {
  const bot = (name: string) => ({ kind: "bot" as const, name, owner: `${name}'s owner` });
  const evenSteven = (name: string, outcomes: Array<EvenStevenOutcome | null>, endedAt = 1_000): LadderPlay[] =>
    outcomes.map((outcome, index) => ({
      deal: index + 1,
      identity: bot(name),
      result: outcome === null ? null : { outcome },
      endedAt: outcome === null ? null : endedAt + index,
    }));

  test("Even-Steven ranks by wins, then clean deals (a necessary loss is the deal's, not the player's), then who finished first", () => {
    const plays = [
      ...evenSteven("Careless", ["WIN", "LOSE UNNECESSARILY", "LOSE UNNECESSARILY"]),
      ...evenSteven("Careful", ["WIN", "LOSE NECESSARILY", "LOSE NECESSARILY"]),
      ...evenSteven("Lucky", ["WIN", "WIN", "TIME OUT"]),
      ...evenSteven("Careful Later", ["WIN", "LOSE NECESSARILY", "LOSE NECESSARILY"], 5_000),
      ...evenSteven("Quitter", ["WIN", null], 9_000),
    ];
    const standings = rankStandings(LADDERS.evensteven, plays);
    expect(standings.map(({ rank, name, points, tiebreak }) => ({ rank, name, points, tiebreak }))).toEqual([
      { rank: 1, name: "Lucky", points: 2, tiebreak: 2 },
      { rank: 2, name: "Careful", points: 1, tiebreak: 3 },
      { rank: 3, name: "Careful Later", points: 1, tiebreak: 3 },
      { rank: 4, name: "Careless", points: 1, tiebreak: 1 },
      { rank: 5, name: "Quitter", points: 1, tiebreak: 1 },
    ]);
    // A deal given and never finished counts as played and scores nothing.
    expect(standings[4]).toMatchObject({ played: 2, finished: 1, kind: "bot", owner: "Quitter's owner" });
  });

  test("Patience ranks by deals completed, then cards dealt before an overflow (52 for a completed deal)", () => {
    const deal = (name: string, deal: number, outcome: unknown): LadderPlay => ({
      deal,
      identity: { kind: "account", name },
      result: { outcome },
      endedAt: deal,
    });
    const standings = rankStandings(LADDERS.patience, [
      deal("Ann", 1, { kind: "overflowed", cardNumber: 40 }),
      deal("Ann", 2, { kind: "overflowed", cardNumber: 30 }),
      deal("Bea", 1, { kind: "finished", pileSizes: [52] }),
      deal("Cy", 1, { kind: "overflowed", cardNumber: 45 }),
    ]);
    expect(standings.map(({ name, points, tiebreak }) => [name, points, tiebreak])).toEqual([
      ["Bea", 1, 52],
      ["Ann", 0, 68],
      ["Cy", 0, 44],
    ]);
    expect(standings[1]).not.toHaveProperty("owner");
  });
});

describe("configuration", () => {
  test("LADDER_SECRET is the seeds' secret; alone without it a random one; a cluster without it has no ladders, and says so", () => {
    const set = ladderConfig({ LADDER_SECRET: "shared", LADDER_PERIOD: "6h" }, true);
    expect(set).toEqual({ secret: Buffer.from("shared"), periodMs: 6 * HOUR });
    const alone = [ladderConfig({}, false), ladderConfig({}, false)];
    expect(alone[0].secret).toHaveLength(32);
    expect(alone[0].secret).not.toEqual(alone[1].secret);
    expect(alone[0].warning).toBeUndefined();
    const cluster = ladderConfig({}, true);
    expect(cluster.secret).toBeNull();
    expect(cluster.warning).toMatch(/LADDER_SECRET is not set: the ladders are off/);
  });
});
