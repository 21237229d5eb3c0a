/** What a finished game does to its players' standings, on hand-built results. */
import type { GameRecord, RecordedSeat } from "../../rooms/kit/record";
import { effectOf, rateContest } from "../../server/records/standings";

function record(game: string, part: GameRecord["part"], seats: RecordedSeat[], result: unknown): GameRecord {
  return {
    id: "x",
    format: 1,
    game,
    roomId: "r",
    part,
    match: 1,
    options: {},
    seed: 1,
    seats,
    start: [],
    actions: [],
    result,
    startedAt: 0,
    endedAt: 1,
  };
}
const seat = (index: number, name: string, kind: RecordedSeat["kind"] = "person"): RecordedSeat => ({
  seat: index,
  name,
  kind,
});

describe("counts", () => {
  test("Even-Steven: a win, a necessary loss, an unnecessary loss, a time-out", () => {
    const outcomes = ["WIN", "LOSE NECESSARILY", "LOSE UNNECESSARILY", "TIME OUT"];
    const counts = outcomes.map(
      (outcome) => effectOf(record("evensteven", "game", [seat(0, "ada")], { outcome })).counts[0],
    );
    expect(counts).toEqual([
      { name: "ada", win: true, loss: false, unnecessaryLoss: false },
      { name: "ada", win: false, loss: true, unnecessaryLoss: false },
      { name: "ada", win: false, loss: true, unnecessaryLoss: true },
      { name: "ada", win: false, loss: true, unnecessaryLoss: false },
    ]);
    expect(effectOf(record("evensteven", "game", [seat(0, "ada")], { outcome: "WIN" })).contest).toBeUndefined();
  });

  test("Patience: a completed deal counts, an overflow does not; an ownerless deal counts for nobody", () => {
    expect(
      effectOf(record("patience", "game", [seat(0, "bea")], { outcome: { kind: "finished", pileSizes: [52] } })).counts,
    ).toEqual([{ name: "bea", completed: true }]);
    expect(
      effectOf(record("patience", "game", [seat(0, "bea")], { outcome: { kind: "overflowed", cardNumber: 17 } }))
        .counts,
    ).toEqual([{ name: "bea", completed: false }]);
    expect(
      effectOf(record("patience", "game", [seat(0, "", "open")], { outcome: { kind: "finished", pileSizes: [52] } }))
        .counts,
    ).toEqual([]);
  });

  test("Fool: the Fool loses, the other wins; a capped game is a draw; the AI is a player under its name", () => {
    const seats = [seat(0, "cy"), seat(1, "AI (ai)", "ai")];
    const lost = effectOf(record("fool", "game", seats, { fool: 0 }));
    expect(lost.counts).toEqual([
      { name: "cy", win: false, loss: true },
      { name: "AI (ai)", win: true, loss: false },
    ]);
    expect(lost.contest).toEqual({ teams: [["cy"], ["AI (ai)"]], ranks: [2, 1] });
    expect(effectOf(record("fool", "game", seats, { fool: null })).contest).toEqual({
      teams: [["cy"], ["AI (ai)"]],
      ranks: [1, 1],
    });
  });

  test("Fool: a player who left during the game forfeits it, however the AI finished it for them; both gone is a draw", () => {
    const ann: RecordedSeat = {
      seat: 0,
      name: "Ann",
      kind: "ai",
      identity: { kind: "account", name: "Ann" },
      left: true,
    };
    const bea: RecordedSeat = { seat: 1, name: "Bea", kind: "person", identity: { kind: "account", name: "Bea" } };
    const wonByTheAi = effectOf(record("fool", "game", [ann, bea], { fool: 1 }));
    expect(wonByTheAi.counts).toEqual([
      { name: "Ann", win: false, loss: true },
      { name: "Bea", win: true, loss: false },
    ]);
    expect(wonByTheAi.contest).toEqual({ teams: [["Ann"], ["Bea"]], ranks: [2, 1] });
    const bothLeft = effectOf(record("fool", "game", [ann, { ...bea, kind: "ai", left: true }], { fool: 1 }));
    expect(bothLeft.contest).toEqual({ teams: [["Ann"], ["Bea"]], ranks: [1, 1] });
    // A guest who left stays a guest: the game is rated for nobody.
    expect(
      effectOf(record("fool", "game", [{ ...ann, identity: { kind: "guest" } }, bea], { fool: 1 })).contest,
    ).toBeUndefined();
  });

  test("Tractor: a round rates the people of each team; bots are not rated; the match record changes nothing", () => {
    const seats = [seat(0, "ann"), seat(1, "bot", "bot"), seat(2, "cal"), seat(3, "dee")];
    const round = effectOf(record("tractor", "round", seats, { team: 2, levels: 1 }));
    expect(round.counts).toEqual([
      { name: "ann", win: false, loss: true },
      { name: "cal", win: false, loss: true },
      { name: "dee", win: true, loss: false },
    ]);
    expect(round.contest).toEqual({ teams: [["ann", "cal"], ["dee"]], ranks: [2, 1] });
    expect(effectOf(record("tractor", "round", seats, { team: 1, levels: 0 })).contest?.ranks).toEqual([1, 1]);
    const allBotsBut = [seat(0, "ann"), seat(1, "bot", "bot"), seat(2, "bot", "bot"), seat(3, "bot", "bot")];
    expect(effectOf(record("tractor", "round", allBotsBut, { team: 1, levels: 2 })).contest).toBeUndefined();
    expect(effectOf(record("tractor", "match", seats, { winner: 1 })).counts).toEqual([]);
  });

  test("Tractor: a person who left during a round forfeits it for their team, however their bot played it; leavers on both teams make it a draw", () => {
    const account = (name: string) => ({ kind: "account" as const, name });
    const ann: RecordedSeat = { seat: 0, name: "Ann", kind: "bot", identity: account("Ann"), left: true };
    const seats = [
      ann,
      { ...seat(1, "Bo"), identity: account("Bo") },
      { ...seat(2, "Cy"), identity: account("Cy") },
      { ...seat(3, "Di"), identity: account("Di") },
    ];
    const wonByAnnsBot = effectOf(record("tractor", "round", seats, { team: 1, levels: 2 }));
    expect(wonByAnnsBot.counts).toEqual([
      { name: "Ann", win: false, loss: true },
      { name: "Bo", win: true, loss: false },
      { name: "Cy", win: false, loss: true },
      { name: "Di", win: true, loss: false },
    ]);
    expect(wonByAnnsBot.contest).toEqual({
      teams: [
        ["Ann", "Cy"],
        ["Bo", "Di"],
      ],
      ranks: [2, 1],
    });
    const bothTeamsLeft = effectOf(
      record("tractor", "round", [ann, { ...seats[1], kind: "bot", left: true }, seats[2], seats[3]], {
        team: 1,
        levels: 2,
      }),
    );
    expect(bothTeamsLeft.contest).toEqual({
      teams: [
        ["Ann", "Cy"],
        ["Bo", "Di"],
      ],
      ranks: [1, 1],
    });
    // A guest who left stays a guest: the round is rated for nobody.
    expect(
      effectOf(
        record("tractor", "round", [{ ...ann, identity: { kind: "guest" } }, ...seats.slice(1)], {
          team: 1,
          levels: 2,
        }),
      ).contest,
    ).toBeUndefined();
  });
});

describe("guests (docs/arena.md)", () => {
  const guest = (index: number, name: string): RecordedSeat => ({
    seat: index,
    name,
    kind: "person",
    identity: { kind: "guest" },
  });
  const bot = (index: number, name: string): RecordedSeat => ({
    seat: index,
    name,
    kind: "person",
    identity: { kind: "bot", name, owner: "ann" },
  });

  test("a guest stands nowhere, in any game", () => {
    expect(effectOf(record("evensteven", "game", [guest(0, "ada")], { outcome: "WIN" })).counts).toEqual([]);
    expect(
      effectOf(record("patience", "game", [guest(0, "bea")], { outcome: { kind: "finished", pileSizes: [52] } }))
        .counts,
    ).toEqual([]);
  });

  test("a Fool game with a guest is rated for nobody; a bot with its identity is rated like any player", () => {
    const withGuest = effectOf(record("fool", "game", [guest(0, "Deep Blue"), seat(1, "AI (ai)", "ai")], { fool: 1 }));
    expect(withGuest).toEqual({ counts: [{ name: "AI (ai)", win: false, loss: true }] });
    const withBot = effectOf(record("fool", "game", [bot(0, "Deep Blue"), seat(1, "AI (ai)", "ai")], { fool: 1 }));
    expect(withBot.contest).toEqual({ teams: [["Deep Blue"], ["AI (ai)"]], ranks: [1, 2] });
  });

  test("a Tractor round with a guest at the table is rated for nobody; the identified are counted", () => {
    const seats = [bot(0, "ann-bot"), guest(1, "bob"), seat(2, "cal"), seat(3, "dee")];
    const round = effectOf(record("tractor", "round", seats, { team: 1, levels: 1 }));
    expect(round.contest).toBeUndefined();
    expect(round.counts.map((count) => count.name)).toEqual(["ann-bot", "cal", "dee"]);
  });
});

describe("the house's bots (docs/arena.md)", () => {
  const house = (index: number, name: string, kind: RecordedSeat["kind"]): RecordedSeat => ({
    seat: index,
    name,
    kind,
    identity: { kind: "house", name },
  });
  const bot = (index: number, name: string): RecordedSeat => ({
    seat: index,
    name,
    kind: "person",
    identity: { kind: "bot", name, owner: "ann" },
  });

  test("a Fool game against the house's AI is rated for both", () => {
    const effect = effectOf(
      record("fool", "game", [bot(0, "Deep Blue"), house(1, "AI (ai, strong)", "ai")], { fool: 0 }),
    );
    expect(effect.contest).toEqual({ teams: [["Deep Blue"], ["AI (ai, strong)"]], ranks: [2, 1] });
  });

  test("a Tractor round of a player and three different house bots is rated for all four, each on its team", () => {
    const seats = [
      bot(0, "Deep Blue"),
      house(1, "Bot (strong)", "bot"),
      house(2, "Bot (easy)", "bot"),
      house(3, "Bot (normal)", "bot"),
    ];
    const round = effectOf(record("tractor", "round", seats, { team: 2, levels: 2 }));
    expect(round.contest).toEqual({
      teams: [
        ["Deep Blue", "Bot (easy)"],
        ["Bot (strong)", "Bot (normal)"],
      ],
      ranks: [2, 1],
    });
    expect(round.counts.map((count) => count.name)).toEqual([
      "Deep Blue",
      "Bot (strong)",
      "Bot (easy)",
      "Bot (normal)",
    ]);
  });

  test("a Tractor round where one house bot sits twice rates its people only, as before house bots", () => {
    const seats = [
      bot(0, "Deep Blue"),
      house(1, "Bot (normal)", "bot"),
      bot(2, "Big Red"),
      house(3, "Bot (normal)", "bot"),
    ];
    const round = effectOf(record("tractor", "round", seats, { team: 1, levels: 1 }));
    expect(round.contest).toBeUndefined();
    expect(round.counts.map((count) => count.name)).toEqual(["Deep Blue", "Big Red"]);
  });
});

describe("ratings move the right way", () => {
  test("after a known result the winner's rating rises and the loser's falls; a draw between equals moves neither mean", () => {
    const after = rateContest({ teams: [["winner"], ["loser"]], ranks: [1, 2] }, new Map());
    expect(after.get("winner")!.mu).toBeGreaterThan(25);
    expect(after.get("loser")!.mu).toBeLessThan(25);
    expect(after.get("winner")!.sigma).toBeLessThan(25 / 3);
    const drawn = rateContest({ teams: [["a"], ["b"]], ranks: [1, 1] }, new Map());
    expect(drawn.get("a")!.mu).toBeCloseTo(25, 6);
    expect(drawn.get("b")!.mu).toBeCloseTo(25, 6);
  });

  test("beating a stronger player gains more than beating a weaker one", () => {
    const strong = new Map([["champion", { mu: 35, sigma: 3 }]]);
    const weak = new Map([["novice", { mu: 15, sigma: 3 }]]);
    const upset = rateContest({ teams: [["me"], ["champion"]], ranks: [1, 2] }, strong).get("me")!.mu;
    const expected = rateContest({ teams: [["me"], ["novice"]], ranks: [1, 2] }, weak).get("me")!.mu;
    expect(upset).toBeGreaterThan(expected);
  });

  test("the ordinal is mu − 3 sigma", () => {
    const { mu, sigma, ordinal } = rateContest({ teams: [["a"], ["b"]], ranks: [1, 2] }, new Map()).get("a")!;
    expect(ordinal).toBeCloseTo(mu - 3 * sigma, 9);
  });
});

describe("the intervals are as sure as the games say (RATING_OPTIONS; npm run bench:ratings)", () => {
  /** `games` rated games in which the first player wins `wins` of every `of`, in a fixed order. */
  function afterGames(games: number, wins: number, of: number) {
    let ratings = new Map<string, { mu: number; sigma: number }>();
    for (let game = 0; game < games; game++) {
      const firstWins = game % of < wins;
      ratings = rateContest({ teams: [["first"], ["second"]], ranks: firstWins ? [1, 2] : [2, 1] }, ratings);
    }
    return { first: ratings.get("first")!, second: ratings.get("second")! };
  }
  const low = ({ mu, sigma }: { mu: number; sigma: number }) => mu - 1.96 * sigma;
  const high = ({ mu, sigma }: { mu: number; sigma: number }) => mu + 1.96 * sigma;

  test("a player winning two games in three is, after 600 games, apart from its opponent (OpenSkill's defaults keep them overlapping)", () => {
    const { first, second } = afterGames(600, 2, 3);
    expect(low(first)).toBeGreaterThan(high(second));
  });

  test("equal players stay overlapping after 1,000 games", () => {
    const { first, second } = afterGames(1000, 1, 2);
    expect(low(first)).toBeLessThan(high(second));
    expect(low(second)).toBeLessThan(high(first));
  });
});
