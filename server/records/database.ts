/**
 * The records' database: an SQLite file by default (Node's built-in node:sqlite: nothing to download or compile),
 * or PostgreSQL when a `postgres://` URL is given (several server processes share it). Both go through Kysely, a
 * kept, typed query builder whose migrator serves both dialects: one schema definition, one set of queries.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  Kysely,
  Migrator,
  PostgresDialect,
  sql,
  SqliteAdapter,
  SqliteDialect,
  type DialectAdapter,
  type Migration,
  type SqliteDatabase,
  type SqliteStatement,
} from "kysely";
import { Pool, types as pgTypes } from "pg";
import { MIGRATIONS, type RecordTables } from "./schema";
import { loadSqlite } from "./node-sqlite";
import { WalCheckpoints } from "./checkpoints";

export type RecordsDb = Kysely<RecordTables>;

export interface DatabaseConfig {
  /** `postgres://…`: PostgreSQL. Otherwise the SQLite file `file`. */
  url?: string;
  /** The SQLite file (":memory:" for a database that lives as long as the process). */
  file?: string;
}

/** Whether `location` names a PostgreSQL server (`postgres://` or `postgresql://`) rather than an SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//.test(location);
}

/** A database that cannot be opened or brought up to date: the message names the file or server. */
export class DatabaseError extends Error {}

/** Opens the database and brings its schema up to date (each migration once, whichever process comes first). */
export async function openDatabase(config: DatabaseConfig): Promise<{ db: RecordsDb; where: string }> {
  const postgres = config.url !== undefined && isPostgresUrl(config.url);
  const where = postgres ? redactPassword(config.url!) : (config.file ?? ":memory:");
  const giveUpAt = Date.now() + LOCKED_OPEN_WAIT_MS;
  for (;;) {
    try {
      return { db: await openAndMigrate(postgres ? postgresDialect(config.url!) : sqliteDialect(where)), where };
    } catch (error) {
      // Another process of a cluster opening the same new SQLite file holds it (its journal mode set, its tables
      // made): this one tries again once that is done, and finds the file ready.
      if (isSqliteBusy(error) && Date.now() < giveUpAt) {
        await new Promise((resolve) => setTimeout(resolve, LOCKED_OPEN_RETRY_MS));
        continue;
      }
      throw new DatabaseError(
        `the records database ${where} cannot be used: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}

/** A connection through `dialect` with its schema up to date; closed again if that fails. */
async function openAndMigrate(dialect: PostgresDialect | SqliteDialect): Promise<RecordsDb> {
  const db = new Kysely<RecordTables>({ dialect });
  try {
    await migrate(db);
    return db;
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw error;
  }
}

/** How long a process starting waits for another that holds the SQLite file (opening it: milliseconds). */
const LOCKED_OPEN_WAIT_MS = 30_000;
const LOCKED_OPEN_RETRY_MS = 25;
/** SQLite's result code for a database another connection holds locked (SQLITE_BUSY). */
const SQLITE_BUSY = 5;

function isSqliteBusy(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { errcode?: unknown }).errcode === SQLITE_BUSY;
}

async function migrate(db: RecordsDb): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS as Record<string, Migration> },
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

function redactPassword(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
}

// PostgreSQL ------------------------------------------------------------------------------------------------

const PG_INT8 = 20;

function postgresDialect(url: string): PostgresDialect {
  // Times and seeds are bigint columns; pg hands those back as strings unless told they fit a number (they do).
  const typeParser: typeof pgTypes.getTypeParser = ((oid: number, format?: "text" | "binary") =>
    oid === PG_INT8
      ? (value: string) => Number(value)
      : pgTypes.getTypeParser(oid, format)) as typeof pgTypes.getTypeParser;
  const pool = new Pool({
    connectionString: url,
    max: 4,
    connectionTimeoutMillis: 5000,
    types: { getTypeParser: typeParser },
  });
  // An idle client's error (the server restarting) must not take the process down; the next query reports it.
  pool.on("error", () => undefined);
  return new PostgresDialect({ pool });
}

// SQLite ----------------------------------------------------------------------------------------------------

function sqliteDialect(file: string): SqliteDialect {
  return new SqliteDialectLockingMigrations({ database: async () => openSqlite(file) });
}

/**
 * SQLite's migrations under the database's write lock. Kysely takes no lock on SQLite (it expects one process), so
 * the processes of a cluster started together on a new file (bin/cluster) each found it without tables and each
 * made them, and every process but the first failed to start ("table games already exists"). The lock is SQLite's
 * own, taken (BEGIN IMMEDIATE) before Kysely reads which migrations have run and held until they are done: a process
 * that comes second is refused the lock and opens the file again a moment later (openDatabase), when it finds the
 * migrations done. SQLite's DDL is transactional: a migration that fails is kept or not as it was without the lock
 * (Kysely records each one that succeeded).
 */
class MigrationLockingSqliteAdapter extends SqliteAdapter {
  private locked = false;

  override async acquireMigrationLock(db: Kysely<unknown>): Promise<void> {
    await sql`BEGIN IMMEDIATE`.execute(db);
    this.locked = true;
  }

  override async releaseMigrationLock(db: Kysely<unknown>): Promise<void> {
    if (!this.locked) return;
    this.locked = false;
    await sql`COMMIT`.execute(db);
  }
}

class SqliteDialectLockingMigrations extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new MigrationLockingSqliteAdapter();
  }
}

/** Opens the file (creating its directory), checks it is a database, and adapts node:sqlite to Kysely's driver. */
function openSqlite(file: string): SqliteDatabase {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const { DatabaseSync } = loadSqlite();
  const database = new DatabaseSync(file);
  try {
    // A file locked by another writer fails after a few milliseconds rather than waiting: node:sqlite waits on the
    // event loop itself, and the writer's queue tries again later anyway. WAL lets readers run beside the writer. In WAL mode,
    // synchronous=NORMAL syncs at checkpoints instead of at every commit: a committed game survives the process being
    // killed (the WAL is in the operating system's hands), only a power cut may lose the last ones — and the loop is
    // not held by an fsync after every batch (nor by the checkpoints' syncs: checkpoints.ts).
    database.exec(`PRAGMA busy_timeout = ${LOCKED_WAIT_MS}`);
    if (file !== ":memory:") database.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL");
    const check = database.prepare("PRAGMA quick_check").get() as Record<string, unknown> | undefined;
    const verdict = check ? Object.values(check)[0] : "no answer";
    if (verdict !== "ok") throw new Error(`integrity check failed: ${String(verdict)}`);
  } catch (error) {
    database.close();
    throw error;
  }
  // The log is checkpointed by a thread of its own, not by this connection's commits on the event loop (checkpoints.ts).
  const checkpoints = file === ":memory:" ? null : new WalCheckpoints(database, path.resolve(file));
  // Kysely asks for a statement each time it runs a query; the queries are few and repeat, so each is prepared once.
  const prepared = new Map<string, SqliteStatement>();
  return {
    close: () => {
      // Kysely does not wait for a close: the thread ends on its own, after this connection if need be.
      void checkpoints?.stop();
      database.close();
    },
    prepare: (sql: string): SqliteStatement => {
      const cached = prepared.get(sql);
      if (cached !== undefined) return cached;
      const statement = database.prepare(sql);
      const adapted: SqliteStatement = {
        reader: statement.columns().length > 0,
        all: (parameters) => statement.all(...(parameters as SqliteValue[])),
        run: (parameters) => statement.run(...(parameters as SqliteValue[])),
        iterate: (parameters) => statement.iterate(...(parameters as SqliteValue[])),
      };
      // Statements whose text varies with their data (a list of n values) would fill the cache: keep the first few hundred.
      if (prepared.size < MAX_PREPARED) prepared.set(sql, adapted);
      return adapted;
    },
  };
}

const MAX_PREPARED = 500;
/** How long a statement waits for another process's write lock before failing (SQLITE_BUSY). */
const LOCKED_WAIT_MS = 20;

type SqliteValue = null | number | bigint | string | NodeJS.ArrayBufferView;

/** Rows per INSERT (or values per IN): well under both databases' limits on a statement's parameters. */
export const ROWS_PER_INSERT = 500;

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += size) result.push(items.slice(start, start + size));
  return result;
}
