/**
 * Tournaments' pure parts (rooms/kit/tournament.ts): the round-robin meets every pair once; the Swiss round pairs
 * nearby scores and avoids a rematch while one can be avoided; a game's points and forfeits; the Wilson interval;
 * and bin/tournament's reading of its entries.
 */
import fc from "fast-check";
import { commandWords, tokenVariable } from "../../bin/src/tournament";
import {
  foolPoints,
  pairKey,
  tractorPoints,
  TOURNAMENT_TABLES,
  pointsAfterForfeits,
  roundRobin,
  swissRound,
  swissRounds,
  tournamentStandings,
  wilsonInterval,
} from "../../rooms/kit/tournament";

const names = (n: number) => Array.from({ length: n }, (_, index) => `P${index + 1}`);

describe("round-robin", () => {
  test.each([2, 3, 4, 5, 8, 9])(
    "%i entrants: every pair meets exactly once, nobody twice in a round, byes only when odd",
    (n) => {
      const entrants = names(n);
      const rounds = roundRobin(entrants);
      expect(rounds).toHaveLength(n % 2 === 0 ? n - 1 : n);
      const met = rounds.flatMap((round) => round.pairings.map(({ a, b }) => pairKey(a, b)));
      expect(new Set(met).size).toBe(met.length);
      expect(met).toHaveLength((n * (n - 1)) / 2);
      for (const round of rounds) {
        const seated = round.pairings.flatMap(({ a, b }) => [a, b]);
        expect(new Set(seated).size).toBe(seated.length);
        expect(seated.length + (round.bye === undefined ? 0 : 1)).toBe(n);
        expect(round.bye === undefined).toBe(n % 2 === 0);
      }
      if (n % 2 === 1) expect(new Set(rounds.map((round) => round.bye)).size).toBe(n); // each sits out once
    },
  );
});

/** Whether the entrants can be paired with no rematch at all (by brute force: the sets here are small). */
function fresh(entrants: readonly string[], played: ReadonlySet<string>): boolean {
  if (entrants.length === 0) return true;
  const [first, ...rest] = entrants;
  return rest.some(
    (other) =>
      !played.has(pairKey(first, other)) &&
      fresh(
        rest.filter((entrant) => entrant !== other),
        played,
      ),
  );
}

describe("Swiss", () => {
  test("the first round pairs the entry order in twos; later rounds pair by points", () => {
    const entrants = names(4);
    expect(swissRound(entrants, new Map(), new Set(), new Set()).pairings).toEqual([
      { a: "P1", b: "P2" },
      { a: "P3", b: "P4" },
    ]);
    const points = new Map([
      ["P1", 0],
      ["P2", 4],
      ["P3", 1],
      ["P4", 3],
    ]);
    expect(swissRound(entrants, points, new Set(), new Set()).pairings).toEqual([
      { a: "P2", b: "P4" },
      { a: "P3", b: "P1" },
    ]);
  });

  test("a rematch is avoided by taking the next-nearest score", () => {
    const entrants = names(4);
    const points = new Map([
      ["P1", 3],
      ["P2", 2],
      ["P3", 1],
      ["P4", 0],
    ]);
    const played = new Set([pairKey("P1", "P2")]);
    expect(swissRound(entrants, points, played, new Set()).pairings).toEqual([
      { a: "P1", b: "P3" },
      { a: "P2", b: "P4" },
    ]);
  });

  test("the search looks past a greedy choice that would strand the last two in a rematch", () => {
    const entrants = names(4);
    const points = new Map([
      ["P1", 3],
      ["P2", 2],
      ["P3", 1],
      ["P4", 0],
    ]);
    // Greedy P1–P2 would leave P3–P4, who have met; P1–P3 would leave P2–P4, who have met too.
    const played = new Set([pairKey("P3", "P4"), pairKey("P2", "P4")]);
    expect(swissRound(entrants, points, played, new Set()).pairings).toEqual([
      { a: "P1", b: "P4" },
      { a: "P2", b: "P3" },
    ]);
  });

  test("when every pairing is a rematch, the ranking is paired in order", () => {
    const entrants = names(2);
    expect(swissRound(entrants, new Map([["P2", 1]]), new Set([pairKey("P1", "P2")]), new Set()).pairings).toEqual([
      { a: "P2", b: "P1" },
    ]);
  });

  test("with an odd number the lowest-ranked entrant without a bye sits out", () => {
    const entrants = names(5);
    const points = new Map([
      ["P1", 4],
      ["P2", 3],
      ["P3", 2],
      ["P4", 1],
      ["P5", 0],
    ]);
    expect(swissRound(entrants, points, new Set(), new Set()).bye).toBe("P5");
    expect(swissRound(entrants, points, new Set(), new Set(["P5"])).bye).toBe("P4");
  });

  test("over random histories, nobody meets an opponent again while a pairing without rematches exists", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 10 }), fc.integer({ min: 0, max: 1_000_000 }), (n, salt) => {
        const entrants = names(n);
        const points = new Map<string, number>();
        const played = new Set<string>();
        const byes = new Set<string>();
        const rounds = Math.min(swissRounds(n) + 1, n - 1 + (n % 2));
        for (let round = 0; round < rounds; round++) {
          const { pairings, bye } = swissRound(entrants, points, played, byes);
          if (bye) byes.add(bye);
          const seated = pairings.flatMap(({ a, b }) => [a, b]);
          expect(new Set(seated).size).toBe(seated.length);
          if (fresh(seated, played)) for (const { a, b } of pairings) expect(played.has(pairKey(a, b))).toBe(false);
          for (const { a, b } of pairings) {
            played.add(pairKey(a, b));
            const winner = (salt + round + a.length) % 2 === 0 ? a : b;
            points.set(winner, (points.get(winner) ?? 0) + 1);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("points and standings", () => {
  test("the Fool scores 0 and the other 1; a capped game is half each", () => {
    expect(foolPoints({ fool: 0 }, 2)).toEqual([0, 1]);
    expect(foolPoints({ fool: 1 }, 2)).toEqual([1, 0]);
    expect(foolPoints({ fool: null }, 2)).toEqual([0.5, 0.5]);
  });

  test("a Tractor round: the team that went up 1 at both its seats, the other 0; nobody up, half each", () => {
    expect(tractorPoints({ team: 1, levels: 2 }, 4)).toEqual([1, 0, 1, 0]);
    expect(tractorPoints({ team: 2, levels: 1 }, 4)).toEqual([0, 1, 0, 1]);
    expect(tractorPoints({ team: 1, levels: 0 }, 4)).toEqual([0.5, 0.5, 0.5, 0.5]);
  });

  test("a game's duplicate seats the entrants exchanged: Fool seat for seat, Tractor team for team", () => {
    expect(TOURNAMENT_TABLES.fool.arrangement("A", "B")).toEqual(["A", "B"]);
    expect(TOURNAMENT_TABLES.tractor.arrangement("A", "B")).toEqual(["A", "B", "A", "B"]);
    expect(TOURNAMENT_TABLES.tractor.arrangement("B", "A")).toEqual(["B", "A", "B", "A"]);
  });

  test("a team's forfeit scores 0 at both its seats", () => {
    expect(pointsAfterForfeits([1, 0, 1, 0], ["A", "B", "A", "B"], [{ entrant: "A", reason: "crashed" }])).toEqual([
      0, 1, 0, 1,
    ]);
  });

  test("a forfeit scores 0 for whoever gave up the seat and 1 for the other, whatever the board says", () => {
    expect(pointsAfterForfeits([1, 0], ["A", "B"], [{ entrant: "A", reason: "crashed" }])).toEqual([0, 1]);
    expect(
      pointsAfterForfeits(
        [0.5, 0.5],
        ["A", "B"],
        [
          { entrant: "A", reason: "x" },
          { entrant: "B", reason: "y" },
        ],
      ),
    ).toEqual([0, 0]);
    expect(pointsAfterForfeits([1, 0], ["A", "B"], [])).toEqual([1, 0]);
  });

  test("standings rank by points, then score per game, and count each entrant's forfeits", () => {
    const games = [
      { seats: ["A", "B"], points: [1, 0], forfeits: [] },
      { seats: ["B", "A"], points: [0, 1], forfeits: [{ entrant: "B", reason: "crashed" }] },
      { seats: ["C", "B"], points: [0.5, 0.5], forfeits: [] },
    ];
    const standings = tournamentStandings(["B", "C", "A"], games);
    expect(standings.map((line) => [line.entrant, line.points, line.games, line.forfeits])).toEqual([
      ["A", 2, 2, 0],
      ["C", 0.5, 1, 0], // level with B on points, in fewer games
      ["B", 0.5, 3, 1],
    ]);
    expect(standings[0]).toMatchObject({ score: 1, ...wilsonInterval(2, 2) });
  });
});

describe("the Wilson interval", () => {
  test("matches the textbook values", () => {
    const half = wilsonInterval(5, 10);
    expect(half.low).toBeCloseTo(0.2366, 4);
    expect(half.high).toBeCloseTo(0.7634, 4);
    const none = wilsonInterval(0, 10);
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(0.2775, 4);
    const all = wilsonInterval(24, 24);
    expect(all.high).toBe(1);
    expect(all.low).toBeCloseTo(0.862, 4);
  });

  test("always holds the score, within [0, 1], and narrows as games accumulate", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.double({ min: 0, max: 1, noNaN: true }), (games, fraction) => {
        const points = Math.round(fraction * games * 2) / 2;
        const { low, high } = wilsonInterval(points, games);
        expect(low).toBeGreaterThanOrEqual(0);
        expect(high).toBeLessThanOrEqual(1);
        expect(low).toBeLessThanOrEqual(points / games + 1e-12);
        expect(high).toBeGreaterThanOrEqual(points / games - 1e-12);
        const more = wilsonInterval(points * 4, games * 4);
        expect(more.high - more.low).toBeLessThan(high - low + 1e-12);
      }),
    );
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });
});

describe("bin/tournament's entries", () => {
  test("a command line splits into words without a shell; quotes keep spaces", () => {
    expect(commandWords("python3 examples/python/fool_player.py 7")).toEqual([
      "python3",
      "examples/python/fool_player.py",
      "7",
    ]);
    expect(commandWords(`node -e "process.exit(3)" ''`)).toEqual(["node", "-e", "process.exit(3)", ""]);
    expect(commandWords("a 'b c'd $HOME")).toEqual(["a", "b cd", "$HOME"]);
    expect(() => commandWords("a 'b")).toThrow(/quote is not closed/);
  });

  test("an entrant's token may come from the environment, under its name made a variable's", () => {
    expect(tokenVariable("Deep Blue-2")).toBe("CARDHALL_TOKEN_DEEP_BLUE_2");
  });
});
