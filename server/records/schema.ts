/**
 * The records' tables, defined once for SQLite and PostgreSQL, and their versioned migrations. A migration is
 * never edited once released: a change to the schema is a new entry, run once by whichever process starts first.
 *
 * - games: one row per finished game, round or match; `record` holds the whole record as JSON, `summary` what a
 *   listing shows. Ids sort by the time the game ended, so a page is `id < before` newest first.
 * - game_seats: who sat where, for the `player` filter.
 * - standings: per game and player, the counts and (for rated games) the OpenSkill rating.
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

export interface RecordTables {
  games: GamesTable;
  game_seats: GameSeatsTable;
  standings: StandingsTable;
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
};
