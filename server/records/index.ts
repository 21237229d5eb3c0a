/**
 * The server's records: the store (SQLite file or PostgreSQL) and the queue that writes to it. Opened before the
 * server listens, so that a database that cannot be used is a start-up error naming it, not a surprise later.
 */
import * as path from "node:path";
import type { DatabaseConfig } from "./database";
import { RecordStore } from "./store";
import { RecordWriter, type RecordWriterOptions } from "./writer";

export { RecordStore } from "./store";
export { RecordWriter } from "./writer";

/** The embedded default: `DATA_DIR` (./data) holds cardhall.sqlite. */
export const DEFAULT_DATA_DIR = "./data";
export const SQLITE_FILE_NAME = "cardhall.sqlite";

import type { IdentityStore } from "../identity/store";
import type { TournamentStore } from "./tournaments";

export class Records {
  /** Accounts, bots and their tokens, logins (server/identity), in the records' database. */
  readonly identities: IdentityStore;
  /** Tournaments and their games (docs/arena.md, "Tournaments"), in the records' database. */
  readonly tournaments: TournamentStore;

  private constructor(
    readonly store: RecordStore,
    readonly writer: RecordWriter,
  ) {
    this.identities = store.identities();
    this.tournaments = store.tournaments();
  }

  static async open(config: DatabaseConfig, writerOptions?: RecordWriterOptions): Promise<Records> {
    const store = await RecordStore.open(config);
    return new Records(store, new RecordWriter(store, { ...writerOptionsFor(config), ...writerOptions }));
  }

  /** Where the records go, for the start-up line. */
  get where(): string {
    return this.store.where;
  }

  /** Writes what is queued (a finished game is never lost to a clean stop), then closes the database. */
  async close(timeoutMs?: number): Promise<void> {
    await this.writer.close(timeoutMs);
    await this.store.close();
  }
}

/**
 * SQLite (node:sqlite) writes on the event loop itself, so its batches are kept short (about 10 ms of writing at
 * most); PostgreSQL's writes happen in its own process while the loop goes on.
 */
export function writerOptionsFor(config: DatabaseConfig): RecordWriterOptions {
  return { batchSize: config.url === undefined ? 50 : 200 };
}

/**
 * The records' configuration from the environment: `RECORDS=off` keeps none; `DATABASE_URL=postgres://…` uses
 * PostgreSQL; otherwise the SQLite file in `DATA_DIR`.
 */
export function recordsConfig(env: NodeJS.ProcessEnv): DatabaseConfig | null {
  if (env.RECORDS === "off") return null;
  if (env.DATABASE_URL) return { url: env.DATABASE_URL };
  return { file: path.join(env.DATA_DIR || DEFAULT_DATA_DIR, SQLITE_FILE_NAME) };
}
