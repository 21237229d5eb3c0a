/**
 * Reading and writing records. A batch of finished games is written in one transaction together with the
 * standings they change, so a rating never counts a game that is not stored, nor a stored game twice.
 */
import { randomBytes } from "crypto";
import { sql } from "kysely";
import { RECORD_FORMAT, type FinishedGame, type GamePage, type GameRecord, type GameSummary, type Standing } from "../../rooms/kit/record";
import { openDatabase, type DatabaseConfig, type RecordsDb } from "./database";
import { effectOf, rateContest, type CountChange, type StoredRating } from "./standings";

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

  /** Stores finished games and their effect on the standings, all or nothing. Returns the stored records. */
  async saveBatch(finished: readonly FinishedGame[]): Promise<GameRecord[]> {
    const records = finished.map((game) => ({ ...game, id: recordId(game.endedAt), format: RECORD_FORMAT }));
    await this.db.transaction().execute(async (trx) => {
      for (const record of records) {
        await trx.insertInto("games").values(gameRow(record)).execute();
        if (record.seats.length > 0) await trx.insertInto("game_seats").values(record.seats.map((seat) => ({ game_id: record.id, ...seat }))).execute();
        await applyEffect(trx, record);
      }
    });
    return records;
  }

  async list(query: GameQuery): Promise<GamePage> {
    let select = this.db.selectFrom("games").select(["id", "summary"]).orderBy("id", "desc").limit(query.limit + 1);
    if (query.game !== undefined) select = select.where("game", "=", query.game);
    if (query.before !== undefined) select = select.where("id", "<", query.before);
    if (query.player !== undefined) {
      const player = query.player;
      select = select.where("id", "in", (sub) => sub.selectFrom("game_seats").select("game_id").where("name", "=", player));
    }
    const rows = await select.execute();
    const games = rows.slice(0, query.limit).map((row) => ({ id: row.id, ...(JSON.parse(row.summary) as Omit<GameSummary, "id">) }));
    return rows.length > query.limit ? { games, next: games[games.length - 1].id } : { games };
  }

  async get(id: string): Promise<GameRecord | undefined> {
    const row = await this.db.selectFrom("games").select("record").where("id", "=", id).executeTakeFirst();
    return row === undefined ? undefined : (JSON.parse(row.record) as GameRecord);
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
    return rows.map((row) => ({
      game: row.game,
      name: row.name,
      games: row.games,
      wins: row.wins,
      losses: row.losses,
      draws: row.draws,
      unnecessaryLosses: row.unnecessary_losses,
      completed: row.completed,
      rating: row.mu === null || row.sigma === null || row.ordinal === null ? null : { mu: row.mu, sigma: row.sigma, ordinal: row.ordinal },
    }));
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}

function summaryOf(record: GameRecord): Omit<GameSummary, "id"> {
  const { game, roomId, part, match, round, seed, seats, result, startedAt, endedAt } = record;
  return { game, roomId, part, match, ...(round === undefined ? {} : { round }), seed, seats, result, actionCount: record.actions.length, startedAt, endedAt };
}

function gameRow(record: GameRecord) {
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
  };
}

type Transaction = Parameters<Parameters<ReturnType<RecordsDb["transaction"]>["execute"]>[0]>[0];

/** Adds one game to its players' counts and, for a rated contest, moves their ratings. */
async function applyEffect(trx: Transaction, record: GameRecord): Promise<void> {
  const effect = effectOf(record);
  const now = record.endedAt;
  for (const change of effect.counts) await addCounts(trx, record.game, change, now);
  if (effect.contest === undefined) return;
  const names = effect.contest.teams.flat();
  const rows = await trx.selectFrom("standings").select(["name", "mu", "sigma"]).where("game", "=", record.game).where("name", "in", names).execute();
  const current = new Map<string, StoredRating>();
  for (const row of rows) if (row.mu !== null && row.sigma !== null) current.set(row.name, { mu: row.mu, sigma: row.sigma });
  for (const [name, next] of rateContest(effect.contest, current)) {
    await trx.updateTable("standings").set({ mu: next.mu, sigma: next.sigma, ordinal: next.ordinal, updated_at: now }).where("game", "=", record.game).where("name", "=", name).execute();
  }
}

async function addCounts(trx: Transaction, game: string, change: CountChange, now: number): Promise<void> {
  const one = (flag: boolean | undefined) => (flag ? 1 : 0);
  const added = { wins: one(change.win), losses: one(change.loss), draws: one(change.draw), unnecessary_losses: one(change.unnecessaryLoss), completed: one(change.completed) };
  await trx
    .insertInto("standings")
    .values({ game, name: change.name, games: 1, ...added, mu: null, sigma: null, ordinal: null, updated_at: now })
    .onConflict((conflict) =>
      conflict.columns(["game", "name"]).doUpdateSet((update) => ({
        games: sql`${update.ref("standings.games")} + 1`,
        wins: sql`${update.ref("standings.wins")} + ${added.wins}`,
        losses: sql`${update.ref("standings.losses")} + ${added.losses}`,
        draws: sql`${update.ref("standings.draws")} + ${added.draws}`,
        unnecessary_losses: sql`${update.ref("standings.unnecessary_losses")} + ${added.unnecessary_losses}`,
        completed: sql`${update.ref("standings.completed")} + ${added.completed}`,
        updated_at: now,
      })),
    )
    .execute();
}
