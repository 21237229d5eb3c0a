import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { WalCheckpoints } from "../../server/records/checkpoints";
import { loadSqlite } from "../../server/records/node-sqlite";
import { expectConsole, waitUntil } from "../helpers";

/** The compiled thread (`npm test` builds first): the test runs what the server runs. */
const BUILT_WORKER = path.join(__dirname, "..", "..", "dist", "server", "records", "checkpoint-worker.js");

const PAGE_BYTES = 4096;
/** Past SQLite's own checkpoint threshold (1,000 pages): a connection left to checkpoint would have done it. */
const ROWS_PAST_THRESHOLD = 1_500;

describe("the records' log checkpointed by a thread of its own", () => {
  let directory: string;
  let file: string;
  let connection: import("node:sqlite").DatabaseSync;
  let checkpoints: WalCheckpoints | undefined;

  beforeEach(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), "cardhall-checkpoints-"));
    file = path.join(directory, "records.sqlite");
    connection = new (loadSqlite().DatabaseSync)(file);
    connection.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA page_size = ${PAGE_BYTES}`);
    connection.exec("CREATE TABLE games (id INTEGER PRIMARY KEY, body TEXT)");
  });
  afterEach(async () => {
    // The thread's connection closed before the directory goes: a thread still closing touches the log's files.
    await checkpoints?.stop();
    connection.close();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  /** One commit a row, each a page: as the server's writer commits batches. */
  function commitRows(count: number): void {
    const insert = connection.prepare("INSERT INTO games (body) VALUES (?)");
    for (let row = 0; row < count; row++) insert.run("x".repeat(PAGE_BYTES - 200));
  }
  const autocheckpoint = () =>
    (connection.prepare("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;
  const logPages = () => fs.statSync(`${file}-wal`).size / PAGE_BYTES;

  test("the server's connection no longer checkpoints at its commits", () => {
    checkpoints = new WalCheckpoints(connection, file, { workerFile: BUILT_WORKER, everyMs: 3_600_000 });
    expect(checkpoints.offTheEventLoop).toBe(true);
    expect(autocheckpoint()).toBe(0);
    commitRows(ROWS_PAST_THRESHOLD);
    // Nothing copied the log back: it holds every page written (SQLite would have started it over at 1,000).
    expect(logPages()).toBeGreaterThan(ROWS_PAST_THRESHOLD);
  });

  test("the thread copies the whole log into the database file, and the log starts over", async () => {
    checkpoints = new WalCheckpoints(connection, file, { workerFile: BUILT_WORKER, everyMs: 20 });
    commitRows(200);
    const counted = checkpoints;
    await waitUntil(
      () =>
        counted.lastReport !== null &&
        counted.lastReport.logFrames > 0 &&
        counted.lastReport.checkpointedFrames === counted.lastReport.logFrames,
      10_000,
      "a whole checkpoint",
    );
    // The next commits write from the log's start again: it does not grow past what a checkpoint interval holds.
    const before = logPages();
    commitRows(50);
    expect(logPages()).toBeLessThanOrEqual(before);
    expect((connection.prepare("SELECT count(*) AS n FROM games").get() as { n: number }).n).toBe(250);
  });

  test("stopped, the connection checkpoints at commits again, once the thread has ended", async () => {
    checkpoints = new WalCheckpoints(connection, file, { workerFile: BUILT_WORKER, everyMs: 3_600_000 });
    const ended = checkpoints.stop();
    expect(autocheckpoint()).toBe(1000);
    // The thread has closed its connection and ended.
    await ended;
    expect(checkpoints.offTheEventLoop).toBe(false);
  });

  test("without the compiled thread, SQLite checkpoints at commits as always", () => {
    checkpoints = new WalCheckpoints(connection, file, { workerFile: path.join(directory, "absent.js") });
    expect(checkpoints.offTheEventLoop).toBe(false);
    expect(autocheckpoint()).toBe(1000);
  });

  test("a thread that fails hands checkpoints back to SQLite's commits, with a warning", async () => {
    const failing = path.join(directory, "failing-worker.js");
    fs.writeFileSync(failing, "throw new Error('no database here');\n");
    checkpoints = new WalCheckpoints(connection, file, { workerFile: failing });
    await expectConsole(/"records_checkpoints_on_commits","reason":"no database here"/);
    expect(checkpoints.offTheEventLoop).toBe(false);
    expect(autocheckpoint()).toBe(1000);
  });
});
