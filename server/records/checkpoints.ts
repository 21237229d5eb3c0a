/**
 * The records' SQLite file keeps a write-ahead log (WAL), which SQLite copies back into the database file now and then:
 * a checkpoint, which syncs both files to the disk. Left to SQLite, a checkpoint runs inside whichever commit finds
 * the log past 1,000 pages, on the connection that commits: the server's, on its event loop. Under a load test of
 * 8,000 clients that sync held the event loop 0.2 s, and a busier disk holds it longer: no
 * move, no message, no timer of any room runs meanwhile.
 *
 * So the server's connection never checkpoints (`wal_autocheckpoint = 0`), and a thread with its own connection
 * runs a passive checkpoint every second: it copies what the log holds without waiting for the writer, which goes on
 * appending; the log starts over from its beginning once a checkpoint has copied all of it. What a commit costs the
 * event loop is then its writes into the operating system's cache. A game committed is as safe as before
 * (synchronous=NORMAL: it survives the process being killed; a power cut may lose the last ones, as it always could).
 *
 * Where the thread's compiled module is not at hand (the TypeScript sources run directly, as in the room tests)
 * or the thread fails, SQLite checkpoints at commits as it always did: the log never grows without bound.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import { log } from "../../rooms/kit/log";
// Types only: the worker module runs as a thread, never imported here.
import type { CheckpointReport, CheckpointWorkerData, StopMessage } from "./checkpoint-worker";

/** The compiled thread beside this module (absent when the sources run directly). */
export const CHECKPOINT_WORKER_FILE = path.join(__dirname, "checkpoint-worker.js");

/** How often the thread checkpoints: the log holds about a second of records. */
export const CHECKPOINT_EVERY_MS = 1000;

/** How long a stopping thread may take to close its connection (a checkpoint under way waits at most a second). */
const STOP_WAIT_MS = 3000;
/** SQLite's own threshold (pages in the log before a commit checkpoints), restored when the thread is not there. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/** The connection the server writes through: enough to turn its own checkpoints off and on. */
interface WritingConnection {
  exec(sql: string): void;
}

export class WalCheckpoints {
  private worker: Worker | null = null;
  /** What the thread's last checkpoint did (for the tests). */
  lastReport: CheckpointReport | null = null;

  /** Starts the thread for `file` (an SQLite file in WAL mode that `connection` writes to), if its module is at hand. */
  constructor(
    private readonly connection: WritingConnection,
    file: string,
    options: { workerFile?: string; everyMs?: number } = {},
  ) {
    const workerFile = options.workerFile ?? CHECKPOINT_WORKER_FILE;
    if (!fs.existsSync(workerFile)) return;
    const workerData: CheckpointWorkerData = { file, everyMs: options.everyMs ?? CHECKPOINT_EVERY_MS };
    const worker = new Worker(workerFile, { workerData });
    worker.unref(); // checkpoints never keep the process alive
    worker.on("message", (report: CheckpointReport) => (this.lastReport = report));
    worker.on("error", (error) => this.threadFailed(error));
    worker.on("exit", () => this.threadFailed(null));
    connection.exec("PRAGMA wal_autocheckpoint = 0");
    this.worker = worker;
  }

  /** Whether a thread checkpoints the log (else SQLite does, at commits). */
  get offTheEventLoop(): boolean {
    return this.worker !== null;
  }

  /**
   * Stops the thread; SQLite checkpoints at commits again (and when the connection closes, as ever). Resolves once
   * the thread has closed its connection and ended: a caller that waits for it before closing the writer's
   * connection closes the file last, and may then remove or move its files (a thread still closing would touch the
   * log's files meanwhile). A thread that has not ended within `STOP_WAIT_MS` is terminated; the wait never keeps
   * the process alive.
   */
  stop(): Promise<void> {
    const worker = this.worker;
    if (worker === null) return Promise.resolve();
    this.worker = null;
    const ended = new Promise<void>((resolve) => {
      const terminate = setTimeout(() => void worker.terminate(), STOP_WAIT_MS).unref();
      worker.once("exit", () => {
        clearTimeout(terminate);
        resolve();
      });
    });
    worker.postMessage("stop" satisfies StopMessage);
    this.connection.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
    return ended;
  }

  private threadFailed(error: Error | null): void {
    if (this.worker === null) return; // stopped: its exit is expected
    this.worker = null;
    this.connection.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
    log.warn(
      { event: "records_checkpoints_on_commits", reason: error?.message ?? "the thread exited" },
      "the thread that checkpoints the records' log stopped: SQLite checkpoints at commits again",
    );
  }
}
