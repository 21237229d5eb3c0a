/**
 * The records' tables, defined once for SQLite and PostgreSQL, and their versioned migrations. A migration is
 * never edited once released: a change to the schema is a new entry, run once by whichever process starts first.
 *
 * - games: one row per finished game, round or match; `record` holds the whole record as JSON, `summary` what a
 *   listing shows. Ids sort by the time the game ended, so a page is `id < before` newest first.
 *   `commitment` and `salt` (from 0003) are what anyone checks the deal's seed against (rooms/kit/commitment.ts).
 * - game_seats: who sat where, for the `player` filter.
 * - standings: per game and player, the counts and (for rated games) the OpenSkill rating.
 * - identities (docs/arena.md): `names` holds every registered name's key (server/identity/names.ts), so a name
 *   is taken once across accounts and bots; `accounts` (a person's name and password hash), `bots` (an account's
 *   programs), `bot_tokens` (a bot's credentials, stored as SHA-256 hashes, revocable) and `sessions` (the page's
 *   logins, by the SHA-256 of their cookie's value).
 * - rating_history: a rated player's rating after each rated game, written with the standings it changes, for
 *   the player pages' charts (a rating depends on every earlier game of its game, so it is kept, not recomputed).
 * - ladder_plays (docs/arena.md, "Solo ladders"): one row per identity and deal of a ladder's period, made when the
 *   deal is given (so each deal is given once), its result filled in when the game's record is stored.
 * - tournaments (docs/arena.md, "Tournaments"): one row per tournament reported, and `tournament_games` linking
 *   each of its games to its record in `games`, with the deal, the seats and any forfeit.
 * - reviews: a finished review of one seat of a stored game (GET /games/:id/review), as JSON: a record never
 *   changes, so its review is computed once, off the event loop, and read back after.
 */
import type { ColumnType, Kysely } from "kysely";

export interface GamesTable {
  id: string;
  game: string;
  room_id: string;
  part: string;
  match_number: number;
  round_number: number | null;
  ended_at: number;
  summary: string;
  record: string;
  /** The commitment to the deal's seed and the salt revealed at its end (docs/arena.md); null in games recorded before deals were sealed. */
  commitment: string | null;
  salt: string | null;
}

export interface GameSeatsTable {
  game_id: string;
  seat: number;
  name: string;
  kind: string;
}

export interface StandingsTable {
  game: string;
  name: string;
  games: number;
  wins: number;
  losses: number;
  draws: number;
  unnecessary_losses: number;
  completed: number;
  mu: number | null;
  sigma: number | null;
  ordinal: number | null;
  updated_at: ColumnType<number, number, number>;
}

export interface RatingHistoryTable {
  game: string;
  name: string;
  game_id: string;
  ended_at: ColumnType<number, number, number>;
  mu: number;
  sigma: number;
  ordinal: number;
}

export interface NamesTable {
  name_key: string;
  kind: "account" | "bot";
}

export interface AccountsTable {
  id: string;
  name: string;
  name_key: string;
  password_hash: string;
  created_at: number;
}

export interface BotsTable {
  id: string;
  account_id: string;
  name: string;
  name_key: string;
  created_at: number;
}

export interface BotTokensTable {
  id: string;
  bot_id: string;
  label: string;
  token_hash: string;
  created_at: number;
  revoked_at: number | null;
}

export interface SessionsTable {
  token_hash: string;
  account_id: string;
  created_at: number;
  expires_at: number;
}

export interface LadderPlaysTable {
  game: string;
  period: string;
  /** The deal's number in the period, 1 to the ladder's K. */
  deal: number;
  /** The identity's name, kind (account or bot) and, for a bot, its owner. */
  name: string;
  kind: string;
  owner: string | null;
  /** A random id written with the claim: who finds it there after inserting has the deal (one row per key). */
  claim_id: string;
  claimed_at: number;
  /** The engine's result as JSON once the game's record is stored; null for a deal given and not (yet) finished. */
  result: string | null;
  game_id: string | null;
  ended_at: number | null;
}

export interface TournamentsTable {
  id: string;
  name: string;
  game: string;
  format: string;
  deals: number;
  /** The entrants in entry order, as JSON. */
  entrants: string;
  created_at: number;
}

export interface TournamentGamesTable {
  tournament_id: string;
  /** The game's place in the report, from 0. */
  number: number;
  game_id: string;
  round: number;
  deal: number;
  seed: number;
  /** The entrants by seat, the forfeits and the points by seat, as JSON. */
  seats: string;
  forfeits: string;
  points: string;
}

export interface ReviewsTable {
  game_id: string;
  seat: number;
  review: string;
  created_at: number;
}

export interface RecordTables {
  games: GamesTable;
  game_seats: GameSeatsTable;
  standings: StandingsTable;
  names: NamesTable;
  accounts: AccountsTable;
  bots: BotsTable;
  bot_tokens: BotTokensTable;
  sessions: SessionsTable;
  rating_history: RatingHistoryTable;
  ladder_plays: LadderPlaysTable;
  tournaments: TournamentsTable;
  tournament_games: TournamentGamesTable;
  reviews: ReviewsTable;
}

interface SchemaMigration {
  up(db: Kysely<unknown>): Promise<void>;
  down(db: Kysely<unknown>): Promise<void>;
}

export const MIGRATIONS: Record<string, SchemaMigration> = {
  "0001-records": {
    async up(db) {
      await db.schema
        .createTable("games")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("game", "text", (column) => column.notNull())
        .addColumn("room_id", "text", (column) => column.notNull())
        .addColumn("part", "text", (column) => column.notNull())
        .addColumn("match_number", "integer", (column) => column.notNull())
        .addColumn("round_number", "integer")
        .addColumn("ended_at", "bigint", (column) => column.notNull())
        .addColumn("summary", "text", (column) => column.notNull())
        .addColumn("record", "text", (column) => column.notNull())
        .execute();
      await db.schema.createIndex("games_by_game").on("games").columns(["game", "id"]).execute();
      await db.schema
        .createTable("game_seats")
        .addColumn("game_id", "text", (column) => column.notNull().references("games.id").onDelete("cascade"))
        .addColumn("seat", "integer", (column) => column.notNull())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("kind", "text", (column) => column.notNull())
        .addPrimaryKeyConstraint("game_seats_key", ["game_id", "seat"])
        .execute();
      await db.schema.createIndex("game_seats_by_name").on("game_seats").columns(["name", "game_id"]).execute();
      await db.schema
        .createTable("standings")
        .addColumn("game", "text", (column) => column.notNull())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("games", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("wins", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("losses", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("draws", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("unnecessary_losses", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("completed", "integer", (column) => column.notNull().defaultTo(0))
        .addColumn("mu", "double precision")
        .addColumn("sigma", "double precision")
        .addColumn("ordinal", "double precision")
        .addColumn("updated_at", "bigint", (column) => column.notNull())
        .addPrimaryKeyConstraint("standings_key", ["game", "name"])
        .execute();
      await db.schema.createIndex("standings_by_rank").on("standings").columns(["game", "ordinal"]).execute();
    },
    async down(db) {
      for (const table of ["standings", "game_seats", "games"]) await db.schema.dropTable(table).ifExists().execute();
    },
  },
  "0002-identities": {
    async up(db) {
      await db.schema
        .createTable("names")
        .addColumn("name_key", "text", (column) => column.primaryKey())
        .addColumn("kind", "text", (column) => column.notNull())
        .execute();
      await db.schema
        .createTable("accounts")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("name_key", "text", (column) => column.notNull().unique().references("names.name_key"))
        .addColumn("password_hash", "text", (column) => column.notNull())
        .addColumn("created_at", "bigint", (column) => column.notNull())
        .execute();
      await db.schema
        .createTable("bots")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("account_id", "text", (column) => column.notNull().references("accounts.id").onDelete("cascade"))
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("name_key", "text", (column) => column.notNull().unique().references("names.name_key"))
        .addColumn("created_at", "bigint", (column) => column.notNull())
        .execute();
      await db.schema.createIndex("bots_by_account").on("bots").columns(["account_id"]).execute();
      await db.schema
        .createTable("bot_tokens")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("bot_id", "text", (column) => column.notNull().references("bots.id").onDelete("cascade"))
        .addColumn("label", "text", (column) => column.notNull())
        .addColumn("token_hash", "text", (column) => column.notNull().unique())
        .addColumn("created_at", "bigint", (column) => column.notNull())
        .addColumn("revoked_at", "bigint")
        .execute();
      await db.schema
        .createTable("sessions")
        .addColumn("token_hash", "text", (column) => column.primaryKey())
        .addColumn("account_id", "text", (column) => column.notNull().references("accounts.id").onDelete("cascade"))
        .addColumn("created_at", "bigint", (column) => column.notNull())
        .addColumn("expires_at", "bigint", (column) => column.notNull())
        .execute();
    },
    async down(db) {
      for (const table of ["sessions", "bot_tokens", "bots", "accounts", "names"])
        await db.schema.dropTable(table).ifExists().execute();
    },
  },
  "0003-rating-history": {
    async up(db) {
      await db.schema
        .createTable("rating_history")
        .addColumn("game", "text", (column) => column.notNull())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("game_id", "text", (column) => column.notNull().references("games.id").onDelete("cascade"))
        .addColumn("ended_at", "bigint", (column) => column.notNull())
        .addColumn("mu", "double precision", (column) => column.notNull())
        .addColumn("sigma", "double precision", (column) => column.notNull())
        .addColumn("ordinal", "double precision", (column) => column.notNull())
        .addPrimaryKeyConstraint("rating_history_key", ["game", "name", "game_id"])
        .execute();
    },
    async down(db) {
      await db.schema.dropTable("rating_history").ifExists().execute();
    },
  },
  "0004-deal-commitments": {
    async up(db) {
      // Nullable: the games recorded before have none, and say so when replayed ("no commitment recorded").
      await db.schema.alterTable("games").addColumn("commitment", "text").execute();
      await db.schema.alterTable("games").addColumn("salt", "text").execute();
    },
    async down(db) {
      await db.schema.alterTable("games").dropColumn("salt").execute();
      await db.schema.alterTable("games").dropColumn("commitment").execute();
    },
  },
  "0005-ladders": {
    async up(db) {
      await db.schema
        .createTable("ladder_plays")
        .addColumn("game", "text", (column) => column.notNull())
        .addColumn("period", "text", (column) => column.notNull())
        .addColumn("deal", "integer", (column) => column.notNull())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("kind", "text", (column) => column.notNull())
        .addColumn("owner", "text")
        .addColumn("claim_id", "text", (column) => column.notNull())
        .addColumn("claimed_at", "bigint", (column) => column.notNull())
        .addColumn("result", "text")
        .addColumn("game_id", "text")
        .addColumn("ended_at", "bigint")
        .addPrimaryKeyConstraint("ladder_plays_key", ["game", "period", "name", "deal"])
        .execute();
    },
    async down(db) {
      await db.schema.dropTable("ladder_plays").ifExists().execute();
    },
  },
  "0006-tournaments": {
    async up(db) {
      await db.schema
        .createTable("tournaments")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("game", "text", (column) => column.notNull())
        .addColumn("format", "text", (column) => column.notNull())
        .addColumn("deals", "integer", (column) => column.notNull())
        .addColumn("entrants", "text", (column) => column.notNull())
        .addColumn("created_at", "bigint", (column) => column.notNull())
        .execute();
      await db.schema
        .createTable("tournament_games")
        .addColumn("tournament_id", "text", (column) =>
          column.notNull().references("tournaments.id").onDelete("cascade"),
        )
        .addColumn("number", "integer", (column) => column.notNull())
        .addColumn("game_id", "text", (column) => column.notNull().references("games.id"))
        .addColumn("round", "integer", (column) => column.notNull())
        .addColumn("deal", "integer", (column) => column.notNull())
        .addColumn("seed", "bigint", (column) => column.notNull())
        .addColumn("seats", "text", (column) => column.notNull())
        .addColumn("forfeits", "text", (column) => column.notNull())
        .addColumn("points", "text", (column) => column.notNull())
        .addPrimaryKeyConstraint("tournament_games_key", ["tournament_id", "number"])
        .execute();
      await db.schema.createIndex("tournament_games_by_game").on("tournament_games").columns(["game_id"]).execute();
      // A tournament's report names its games by their rooms.
      await db.schema.createIndex("games_by_room").on("games").columns(["room_id"]).execute();
    },
    async down(db) {
      await db.schema.dropIndex("games_by_room").ifExists().execute();
      for (const table of ["tournament_games", "tournaments"]) await db.schema.dropTable(table).ifExists().execute();
    },
  },
  "0007-reviews": {
    async up(db) {
      await db.schema
        .createTable("reviews")
        .addColumn("game_id", "text", (column) => column.notNull().references("games.id").onDelete("cascade"))
        .addColumn("seat", "integer", (column) => column.notNull())
        .addColumn("review", "text", (column) => column.notNull())
        .addColumn("created_at", "bigint", (column) => column.notNull())
        .addPrimaryKeyConstraint("reviews_key", ["game_id", "seat"])
        .execute();
    },
    async down(db) {
      await db.schema.dropTable("reviews").ifExists().execute();
    },
  },
};
