/**
 * Tournaments in the records' database, SQLite and PostgreSQL alike (migration 0003-tournaments): a report is kept
 * only when each game's record, found by its room, has the seed and the entrants it names, each an identity; each
 * game's points come from its record (a Tractor table's first round, not its match), with the forfeits applied; a
 * game not written yet is "missing" (the report may come again), a misstated one "wrong".
 */
import * as path from "node:path";
import type { FinishedGame, RecordedSeat } from "../../rooms/kit/record";
import type { TournamentReport } from "../../rooms/kit/tournament";
import { RecordStore } from "../../server/records/store";
import { TournamentRefusal, type TournamentStore } from "../../server/records/tournaments";
import { bothDatabases } from "./databases";
import { finishedGame, tractorRound } from "./fixtures";

const databases = bothDatabases("cardhall-tournaments-");
const T0 = Date.UTC(2026, 10, 26, 2, 0, 0);

const bot = (seat: number, name: string): RecordedSeat => ({
  seat,
  name,
  kind: "person",
  identity: { kind: "bot", name, owner: "Owner" },
});
const inRoom = (game: FinishedGame, roomId: string): FinishedGame => ({ ...game, roomId });

function games(): FinishedGame[] {
  const fool = [
    inRoom(finishedGame("fool", 11, [bot(0, "Ada"), bot(1, "Bea")], T0), "fool-1"),
    inRoom(finishedGame("fool", 11, [bot(0, "Bea"), bot(1, "Ada")], T0 + 1), "fool-2"),
  ];
  const tractorSeats = [bot(0, "Ada"), bot(1, "Bea"), bot(2, "Ada"), bot(3, "Bea")];
  // The match's record ends after its first round's: the tournament's game is the round.
  const tractor = [
    inRoom(tractorRound(12, tractorSeats, T0 + 2), "tractor-1"),
    inRoom(finishedGame("tractor", 12, tractorSeats, T0 + 3), "tractor-1"),
  ];
  const guest = inRoom(
    finishedGame(
      "fool",
      13,
      [bot(0, "Ada"), { seat: 1, name: "Bea", kind: "person", identity: { kind: "guest" } }],
      T0 + 4,
    ),
    "fool-guest",
  );
  return [...fool, ...tractor, guest];
}

const foolReport = (games: TournamentReport["games"]): TournamentReport => ({
  name: "Cup",
  game: "fool",
  format: "round-robin",
  deals: 1,
  entrants: ["Ada", "Bea"],
  games,
});
const foolGame = (roomId: string, seats: string[], forfeits: TournamentReport["games"][number]["forfeits"] = []) => ({
  round: 1,
  deal: 1,
  seed: 11,
  seats,
  roomId,
  forfeits,
});

async function refusalOf(attempt: Promise<unknown>): Promise<string> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TournamentRefusal);
  return `${(error as TournamentRefusal).kind}: ${(error as TournamentRefusal).message}`;
}

async function run(tournaments: TournamentStore) {
  const foolId = await tournaments.save(
    foolReport([
      foolGame("fool-1", ["Ada", "Bea"]),
      foolGame(
        "fool-2",
        ["Bea", "Ada"],
        [{ entrant: "Bea", reason: "the program exited with status 3 during the game" }],
      ),
    ]),
  );
  const fool = await tournaments.get(foolId);
  const tractorId = await tournaments.save({
    name: "Teams",
    game: "tractor",
    format: "swiss",
    deals: 1,
    entrants: ["Ada", "Bea"],
    games: [{ round: 1, deal: 1, seed: 12, seats: ["Ada", "Bea", "Ada", "Bea"], roomId: "tractor-1", forfeits: [] }],
  });
  const tractor = await tournaments.get(tractorId);
  return {
    fool: {
      ...fool,
      id: undefined,
      createdAt: undefined,
      games: fool?.games.map((game) => ({ ...game, gameId: game.gameId.length > 0 })),
    },
    tractorGames: tractor?.games.map((game) => ({ seats: game.seats, points: game.points })),
    tractorPoints: tractor?.standings.map((line) => line.points).sort(),
    refusals: [
      await refusalOf(tournaments.save(foolReport([foolGame("nowhere", ["Ada", "Bea"])]))),
      await refusalOf(tournaments.save(foolReport([{ ...foolGame("fool-1", ["Ada", "Bea"]), seed: 99 }]))),
      await refusalOf(tournaments.save(foolReport([foolGame("fool-1", ["Bea", "Ada"])]))),
      await refusalOf(tournaments.save(foolReport([{ ...foolGame("fool-guest", ["Ada", "Bea"]), seed: 13 }]))),
    ],
    unknown: await tournaments.get("nothing"),
  };
}

test("SQLite and PostgreSQL keep and check tournaments alike", async () => {
  const results = [];
  for (const config of [{ file: path.join(databases.tempDir, "tournaments.sqlite") }, { url: databases.postgresUrl }]) {
    const store = await RecordStore.open(config);
    await store.saveBatch(games());
    results.push(await run(store.tournaments()));
    await store.close();
  }
  const [sqlite, pg] = results;
  const foolPoints = sqlite.fool.games!.map((game) => game.points);
  expect(foolPoints[1]).toEqual([0, 1]); // Bea forfeited in seat 0
  expect(sqlite.fool.standings!.find((line) => line.entrant === "Bea")).toMatchObject({ games: 2, forfeits: 1 });
  expect(sqlite.tractorGames).toEqual([
    { seats: ["Ada", "Bea", "Ada", "Bea"], points: expect.arrayContaining([expect.any(Number)]) },
  ]);
  const [roundPoints] = sqlite.tractorGames!.map((game) => game.points);
  expect(roundPoints[0]).toBe(roundPoints[2]); // partners score alike
  expect(roundPoints[0] + roundPoints[1]).toBe(1);
  expect(sqlite.refusals).toEqual([
    "missing: no record of the game in room nowhere yet",
    "wrong: the game in room fool-1 was dealt from another seed than 99",
    "wrong: the game in room fool-1 was played by Ada and Bea, not Bea and Ada",
    "wrong: the game in room fool-guest had Bea in seat 1 as a guest: tournaments are between identities (accounts and bots)",
  ]);
  expect(sqlite.unknown).toBeUndefined();
  expect(pg).toEqual(sqlite);
}, 90_000);
