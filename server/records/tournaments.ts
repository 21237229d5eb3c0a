/**
 * Tournaments in the records' database (docs/arena.md, "Tournaments"). A report from bin/tournament names each game
 * by its room; the store finds the game's record there and checks it before anything is kept: the seed the report
 * gives, the entrants in the seats it gives, each an identity (an account or a bot, never a guest). Each game's
 * points are the record's (rooms/kit/tournament.ts), with the report's forfeits applied; the standings are worked
 * out from them whenever asked.
 */
import { randomBytes } from "node:crypto";
import type { GameRecord } from "../../rooms/kit/record";
import {
  foolPoints,
  pointsAfterForfeits,
  tractorPoints,
  tournamentStandings,
  type Tournament,
  type TournamentFormat,
  type TournamentGame,
  type TournamentGameEntry,
  type TournamentReport,
} from "../../rooms/kit/tournament";
import { chunks, ROWS_PER_INSERT, type RecordsDb } from "./database";

/** Why a report is not kept: `missing`, a game not written yet (the report may be sent again); `wrong`, a bad one. */
export class TournamentRefusal extends Error {
  constructor(
    readonly kind: "missing" | "wrong",
    message: string,
  ) {
    super(message);
  }
}

/** The points by seat of a game's record, as its game counts them. */
const POINTS_OF: Record<TournamentGame, (record: GameRecord) => number[]> = {
  fool: (record) => foolPoints(record.result as { fool: number | null }, record.seats.length),
  tractor: (record) => tractorPoints(record.result as { team: 1 | 2; levels: number }, record.seats.length),
};

const tournamentId = (): string => randomBytes(9).toString("base64url");

export class TournamentStore {
  constructor(private readonly db: RecordsDb) {}

  /** Checks the report against the records and keeps it; returns the tournament's id. */
  async save(report: TournamentReport): Promise<string> {
    const records = await this.recordsOfRooms(report.games.map((game) => game.roomId));
    const entries = report.games.map((game): TournamentGameEntry => {
      const record = records.get(game.roomId);
      if (record === undefined)
        throw new TournamentRefusal("missing", `no record of the game in room ${game.roomId} yet`);
      checkGame(report, game, record);
      const { round, deal, seed, seats, forfeits } = game;
      return {
        round,
        deal,
        seed,
        seats,
        forfeits,
        gameId: record.id,
        points: pointsAfterForfeits(POINTS_OF[report.game](record), seats, forfeits),
      };
    });
    const id = tournamentId();
    await this.db.transaction().execute(async (trx) => {
      const { name, game, format, deals, entrants } = report;
      await trx
        .insertInto("tournaments")
        .values({ id, name, game, format, deals, entrants: JSON.stringify(entrants), created_at: Date.now() })
        .execute();
      const rows = entries.map((entry, number) => ({
        tournament_id: id,
        number,
        game_id: entry.gameId,
        round: entry.round,
        deal: entry.deal,
        seed: entry.seed,
        seats: JSON.stringify(entry.seats),
        forfeits: JSON.stringify(entry.forfeits),
        points: JSON.stringify(entry.points),
      }));
      for (const chunk of chunks(rows, ROWS_PER_INSERT))
        await trx.insertInto("tournament_games").values(chunk).execute();
    });
    return id;
  }

  async get(id: string): Promise<Tournament | undefined> {
    const row = await this.db.selectFrom("tournaments").selectAll().where("id", "=", id).executeTakeFirst();
    if (row === undefined) return undefined;
    const rows = await this.db
      .selectFrom("tournament_games")
      .selectAll()
      .where("tournament_id", "=", id)
      .orderBy("number")
      .execute();
    const games: TournamentGameEntry[] = rows.map((game) => ({
      round: game.round,
      deal: game.deal,
      seed: game.seed,
      seats: JSON.parse(game.seats) as string[],
      forfeits: JSON.parse(game.forfeits) as TournamentGameEntry["forfeits"],
      gameId: game.game_id,
      points: JSON.parse(game.points) as number[],
    }));
    const entrants = JSON.parse(row.entrants) as string[];
    return {
      id,
      name: row.name,
      game: row.game as TournamentGame,
      format: row.format as TournamentFormat,
      deals: row.deals,
      entrants,
      createdAt: row.created_at,
      standings: tournamentStandings(entrants, games),
      games,
    };
  }

  /** The first game (or round: a match's record comes after its rounds') recorded in each room: a tournament's table plays one. */
  private async recordsOfRooms(roomIds: readonly string[]): Promise<Map<string, GameRecord>> {
    const found = new Map<string, GameRecord>();
    for (const chunk of chunks([...new Set(roomIds)], ROWS_PER_INSERT)) {
      const rows = await this.db
        .selectFrom("games")
        .select(["room_id", "record"])
        .where("room_id", "in", chunk)
        .where("part", "!=", "match")
        .orderBy("id")
        .execute();
      for (const row of rows) if (!found.has(row.room_id)) found.set(row.room_id, JSON.parse(row.record) as GameRecord);
    }
    return found;
  }
}

/** The record is the game the report says: its game, its seed, the entrants in their seats, each an identity. */
function checkGame(report: TournamentReport, game: TournamentReport["games"][number], record: GameRecord): void {
  const where = `the game in room ${game.roomId}`;
  if (record.game !== report.game)
    throw new TournamentRefusal("wrong", `${where} is ${record.game}, not ${report.game}`);
  if (record.seed !== game.seed)
    throw new TournamentRefusal("wrong", `${where} was dealt from another seed than ${game.seed}`);
  const names = record.seats.map((seat) => seat.name);
  if (names.length !== game.seats.length || names.some((name, seat) => name !== game.seats[seat])) {
    throw new TournamentRefusal(
      "wrong",
      `${where} was played by ${names.join(" and ")}, not ${game.seats.join(" and ")}`,
    );
  }
  const unnamed = record.seats.find((seat) => seat.identity === undefined || seat.identity.kind === "guest");
  if (unnamed)
    throw new TournamentRefusal(
      "wrong",
      `${where} had ${unnamed.name} in seat ${unnamed.seat} as a guest: tournaments are between identities (accounts and bots)`,
    );
}
