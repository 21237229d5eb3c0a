/** The records' tests' databases (jest only: the benchmarks import the fixtures, not this). */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PostgresProcess } from "../e2e/postgres-process";
import { freePort } from "../e2e/ports";

/** A PostgreSQL server of its own for one test file (or describe block): started before its tests, removed after. */
export function postgresDatabase(): { readonly url: string } {
  let postgres: PostgresProcess | undefined;
  beforeAll(async () => {
    postgres = new PostgresProcess(await freePort());
    postgres.init();
    postgres.start();
  }, 60_000);
  afterAll(() => {
    postgres?.destroy();
  });
  return {
    get url() {
      return postgres!.url;
    },
  };
}

/**
 * Both databases for one test file: a PostgreSQL server of its own and a scratch directory for SQLite files, made
 * before its tests and removed after them. Read them inside tests (they exist from beforeAll on).
 */
export function bothDatabases(prefix: string): { readonly postgresUrl: string; readonly tempDir: string } {
  const postgres = postgresDatabase();
  let tempDir = "";
  beforeAll(() => {
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterAll(() => {
    if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
  });
  return {
    get postgresUrl() {
      return postgres.url;
    },
    get tempDir() {
      return tempDir;
    },
  };
}
