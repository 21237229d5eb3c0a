/**
 * Reading and writing records. A batch of finished games is written in one transaction together with the
 * standings they change, so a rating never counts a game that is not stored, nor a stored game twice.
 */
import { randomBytes } from "node:crypto";
import { sql, type Selectable, type Transaction as KyselyTransaction } from "kysely";
import {
  RECORD_FORMAT,
  type FinishedGame,
  type GamePage,
  type GameRecord,
  type GameSummary,
  type RatingPoint,
  type Standing,
} from "../../rooms/kit/record";
import { chunks, openDatabase, ROWS_PER_INSERT, type DatabaseConfig, type RecordsDb } from "./database";
import type { RecordTables, StandingsTable } from "./schema";
import { IdentityStore } from "../identity/store";
import { LadderStore, recordLadderResults } from "../arena/ladder-store";
import { TournamentStore } from "./tournaments";
import { effectOf, rateContest, type Contest, type CountChange, type StoredRating } from "./standings";

/** What GET /games filters and pages by. */
export interface GameQuery {
  game?: string;
  player?: string;
  limit: number;
  /** The `next` of the previous page: games that ended before that one. */
  before?: string;
}

/** A record's id: the time it ended (so ids sort newest last) and 8 random characters. */
export function recordId(endedAt: number): string {
  return endedAt.toString(36).padStart(9, "0") + randomBytes(6).toString("base64url").slice(0, 8);
}

export class RecordStore {
  private constructor(
    private readonly db: RecordsDb,
    /** The file or server (password hidden), for messages. */
    readonly where: string,
  ) {}

  static async open(config: DatabaseConfig): Promise<RecordStore> {
    const { db, where } = await openDatabase(config);
    return new RecordStore(db, where);
  }

  /** The ladders' deals and results, in the same database (server/arena/ladder-store.ts). */
  ladders(): LadderStore {
    return new LadderStore(this.db);
  }

  /** The identities kept in the same database (server/identity: accounts, bots and their tokens, logins). */
  identities(): IdentityStore {
    return new IdentityStore(this.db);
  }

  /** The tournaments kept in the same database, each game linked to its record. */
  tournaments(): TournamentStore {
    return new TournamentStore(this.db);
  }

  /**
   * Stores finished games and their effect on the standings, all or nothing. Returns the stored records. A batch
   * is a handful of statements whatever its size (rows inserted together, standings summed per player first), so
   * that writing costs little beside play.
   */
  async saveBatch(finished: readonly FinishedGame[]): Promise<GameRecord[]> {
    const records = finished.map((game) => ({ ...game, id: recordId(game.endedAt), format: RECORD_FORMAT }));
    const seats = records.flatMap((record) =>
      record.seats.map(({ seat, name, kind }) => ({ game_id: record.id, seat, name, kind })),
    );
    await this.db.transaction().execute(async (trx) => {
      for (const rows of chunks(records.map(gameRow), ROWS_PER_INSERT))
        await trx.insertInto("games").values(rows).execute();
      for (const rows of chunks(seats, ROWS_PER_INSERT)) await trx.insertInto("game_seats").values(rows).execute();
      for (const [game, ofGame] of groupBy(records, (record) => record.game)) await updateStandings(trx, game, ofGame);
      await recordLadderResults(trx, records);
    });
    return records;
  }

  async list(query: GameQuery): Promise<GamePage> {
    let select = this.db
      .selectFrom("games")
      .select(["id", "summary"])
      .orderBy("id", "desc")
      .limit(query.limit + 1);
    if (query.game !== undefined) select = select.where("game", "=", query.game);
    if (query.before !== undefined) select = select.where("id", "<", query.before);
    if (query.player !== undefined) {
      const player = query.player;
      select = select.where("id", "in", (sub) =>
        sub.selectFrom("game_seats").select("game_id").where("name", "=", player),
      );
    }
    const rows = await select.execute();
    const games = rows
      .slice(0, query.limit)
      .map((row) => ({ id: row.id, ...(JSON.parse(row.summary) as Omit<GameSummary, "id">) }));
    return rows.length > query.limit ? { games, next: games[games.length - 1].id } : { games };
  }

  /**
   * Which of these rounds' matches are over (their match's record is stored), as `room:match` keys. A match's
   * rounds are recorded as they end, each with the match's seed, from which every later round's deal follows.
   */
  async endedMatches(rounds: ReadonlyArray<{ roomId: string; match: number }>): Promise<Set<string>> {
    if (rounds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom("games")
      .select(["room_id", "match_number"])
      .where("part", "=", "match")
      .where("room_id", "in", [...new Set(rounds.map((round) => round.roomId))])
      .execute();
    return new Set(rows.map((row) => matchKey(row.room_id, row.match_number)));
  }

  async get(id: string): Promise<GameRecord | undefined> {
    const row = await this.db
      .selectFrom("games")
      .select(["record", "commitment", "salt"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const { commitment, salt } = row;
    return {
      ...(JSON.parse(row.record) as GameRecord),
      ...(commitment === null ? {} : { commitment }),
      ...(salt === null ? {} : { salt }),
    };
  }

  /** A seat's stored review of a game (see saveReview), parsed; undefined when none is stored yet. */
  async review(id: string, seat: number): Promise<unknown> {
    const row = await this.db
      .selectFrom("reviews")
      .select("review")
      .where("game_id", "=", id)
      .where("seat", "=", seat)
      .executeTakeFirst();
    return row === undefined ? undefined : (JSON.parse(row.review) as unknown);
  }

  /** Keeps a finished review with its game; a second one for the same seat (two processes at once) changes nothing. */
  async saveReview(id: string, seat: number, review: unknown): Promise<void> {
    await this.db
      .insertInto("reviews")
      .values({ game_id: id, seat, review: JSON.stringify(review), created_at: Date.now() })
      .onConflict((conflict) => conflict.columns(["game_id", "seat"]).doNothing())
      .execute();
  }

  /** The game's players: rated ones by their ordinal, then the others by wins and completed deals. */
  async leaderboard(game: string, limit: number): Promise<Standing[]> {
    const rows = await this.db
      .selectFrom("standings")
      .selectAll()
      .where("game", "=", game)
      .orderBy(sql`ordinal is null`)
      .orderBy("ordinal", "desc")
      .orderBy("wins", "desc")
      .orderBy("completed", "desc")
      .orderBy("name")
      .limit(limit)
      .execute();
    return rows.map(standingOfRow);
  }

  /** A player's standings in every game they stand in, under exactly this name. */
  async standingsOf(name: string): Promise<Standing[]> {
    const rows = await this.db.selectFrom("standings").selectAll().where("name", "=", name).orderBy("game").execute();
    return rows.map(standingOfRow);
  }

  /** A player's rating after each of their last `limit` rated games of `game`, oldest first. */
  async ratingHistory(game: string, name: string, limit: number): Promise<RatingPoint[]> {
    const rows = await this.db
      .selectFrom("rating_history")
      .select(["game_id", "ended_at", "mu", "sigma", "ordinal"])
      .where("game", "=", game)
      .where("name", "=", name)
      .orderBy("game_id", "desc")
      .limit(limit)
      .execute();
    return rows.reverse().map((row) => ({
      game,
      id: row.game_id,
      endedAt: row.ended_at,
      mu: row.mu,
      sigma: row.sigma,
      ordinal: row.ordinal,
    }));
  }

  /** A player's rating in a game, as the ordinal the leaderboard ranks by; null for a player not yet rated. */
  async ordinalOf(game: string, name: string): Promise<number | null> {
    const row = await this.db
      .selectFrom("standings")
      .select("ordinal")
      .where("game", "=", game)
      .where("name", "=", name)
      .executeTakeFirst();
    return row?.ordinal ?? null;
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}

/** The 95% interval of a skill estimated as mu ± sigma (a normal's 1.96 sigmas either side). */
export function skillInterval(mu: number, sigma: number): { low: number; high: number } {
  return { low: mu - 1.96 * sigma, high: mu + 1.96 * sigma };
}

/** A match of a room, as endedMatches names it. */
export function matchKey(roomId: string, match: number): string {
  return `${roomId}:${match}`;
}

function standingOfRow(row: Selectable<StandingsTable>): Standing {
  return {
    game: row.game,
    name: row.name,
    games: row.games,
    wins: row.wins,
    losses: row.losses,
    draws: row.draws,
    unnecessaryLosses: row.unnecessary_losses,
    completed: row.completed,
    rating:
      row.mu === null || row.sigma === null || row.ordinal === null
        ? null
        : { mu: row.mu, sigma: row.sigma, ordinal: row.ordinal, ...skillInterval(row.mu, row.sigma) },
  };
}

function summaryOf(record: GameRecord): Omit<GameSummary, "id"> {
  const { game, roomId, part, match, round, seed, seats, result, startedAt, endedAt, ladder } = record;
  return {
    game,
    roomId,
    part,
    match,
    ...(round === undefined ? {} : { round }),
    seed,
    seats,
    result,
    actionCount: record.actions.length,
    startedAt,
    endedAt,
    ...(ladder === undefined ? {} : { ladder }),
  };
}

/** A record's row: the deal's commitment and salt in columns of their own, everything else in the record's JSON. */
function gameRow({ commitment, salt, ...record }: GameRecord) {
  return {
    id: record.id,
    game: record.game,
    room_id: record.roomId,
    part: record.part,
    match_number: record.match,
    round_number: record.round ?? null,
    ended_at: record.endedAt,
    summary: JSON.stringify(summaryOf(record)),
    record: JSON.stringify(record),
    commitment: commitment ?? null,
    salt: salt ?? null,
  };
}

type Transaction = KyselyTransaction<RecordTables>;

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

type Counts = {
  games: number;
  wins: number;
  losses: number;
  draws: number;
  unnecessary_losses: number;
  completed: number;
};

function addTo(totals: Map<string, Counts>, change: CountChange): void {
  const counts = totals.get(change.name) ?? {
    games: 0,
    wins: 0,
    losses: 0,
    draws: 0,
    unnecessary_losses: 0,
    completed: 0,
  };
  const one = (flag: boolean | undefined) => (flag ? 1 : 0);
  counts.games++;
  counts.wins += one(change.win);
  counts.losses += one(change.loss);
  counts.draws += one(change.draw);
  counts.unnecessary_losses += one(change.unnecessaryLoss);
  counts.completed += one(change.completed);
  totals.set(change.name, counts);
}

/**
 * One game's standings after a batch of its records: the counts summed per player, the contests rated in the
 * order the games ended (from the ratings stored before the batch), then one upsert for all the players, and each
 * rated player's rating after each of its games kept in rating_history (for the player pages).
 */
async function updateStandings(trx: Transaction, game: string, records: readonly GameRecord[]): Promise<void> {
  const effects = records.map(effectOf);
  const totals = new Map<string, Counts>();
  for (const change of effects.flatMap((effect) => effect.counts)) addTo(totals, change);
  if (totals.size === 0) return;
  const contests = records.flatMap((record, index) => {
    const contest = effects[index].contest;
    return contest ? [{ record, contest }] : [];
  });
  const { after: rated, history } = await rateInOrder(trx, game, contests);
  const now = Math.max(...records.map((record) => record.endedAt));
  const rows = [...totals].map(([name, counts]) => {
    const rating = rated.get(name);
    return {
      game,
      name,
      ...counts,
      mu: rating?.mu ?? null,
      sigma: rating?.sigma ?? null,
      ordinal: rating?.ordinal ?? null,
      updated_at: now,
    };
  });
  await trx
    .insertInto("standings")
    .values(rows)
    .onConflict((conflict) =>
      conflict.columns(["game", "name"]).doUpdateSet((update) => {
        const added = (column: keyof Counts) =>
          sql<number>`${update.ref(`standings.${column}`)} + ${update.ref(`excluded.${column}`)}`;
        const kept = (column: "mu" | "sigma" | "ordinal") =>
          sql<number>`coalesce(${update.ref(`excluded.${column}`)}, ${update.ref(`standings.${column}`)})`;
        return {
          games: added("games"),
          wins: added("wins"),
          losses: added("losses"),
          draws: added("draws"),
          unnecessary_losses: added("unnecessary_losses"),
          completed: added("completed"),
          mu: kept("mu"),
          sigma: kept("sigma"),
          ordinal: kept("ordinal"),
          updated_at: now,
        };
      }),
    )
    .execute();
  for (const rows of chunks(history, ROWS_PER_INSERT)) await trx.insertInto("rating_history").values(rows).execute();
}

type RatingAfter = StoredRating & { ordinal: number };

/** The ratings after `contests`, played in order, starting from the stored ones; and each player's after each game. */
async function rateInOrder(
  trx: Transaction,
  game: string,
  contests: ReadonlyArray<{ record: GameRecord; contest: Contest }>,
): Promise<{
  after: Map<string, RatingAfter>;
  history: Array<RatingAfter & { game: string; name: string; game_id: string; ended_at: number }>;
}> {
  const after = new Map<string, RatingAfter>();
  const history: Array<RatingAfter & { game: string; name: string; game_id: string; ended_at: number }> = [];
  if (contests.length === 0) return { after, history };
  const names = [...new Set(contests.flatMap(({ contest }) => contest.teams.flat()))];
  const current = new Map<string, StoredRating>();
  for (const rows of chunks(names, ROWS_PER_INSERT)) {
    const stored = await trx
      .selectFrom("standings")
      .select(["name", "mu", "sigma"])
      .where("game", "=", game)
      .where("name", "in", rows)
      .execute();
    for (const row of stored)
      if (row.mu !== null && row.sigma !== null) current.set(row.name, { mu: row.mu, sigma: row.sigma });
  }
  for (const { record, contest } of contests) {
    for (const [name, rating] of rateContest(contest, current)) {
      current.set(name, rating);
      after.set(name, rating);
      history.push({ game, name, game_id: record.id, ended_at: record.endedAt, ...rating });
    }
  }
  return { after, history };
}
