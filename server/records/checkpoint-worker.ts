/**
 * The thread that checkpoints the records' SQLite write-ahead log (checkpoints.ts): its own connection to the file,
 * a passive checkpoint every `everyMs` (it copies what the log holds into the database file and syncs both, never
 * waiting for the server's writer, which goes on appending), and a report of each to the server.
 */
import { parentPort, workerData } from "node:worker_threads";
import { loadSqlite } from "./node-sqlite";

export interface CheckpointWorkerData {
  file: string;
  everyMs: number;
}

/** What one checkpoint did: the log's frames, and how many of them are now in the database file. */
export interface CheckpointReport {
  logFrames: number;
  checkpointedFrames: number;
}

/** What the thread is sent to stop: it closes its connection and ends. */
export type StopMessage = "stop";

const { file, everyMs } = workerData as CheckpointWorkerData;
const { DatabaseSync } = loadSqlite();
const database = new DatabaseSync(file);
// The server's writer holds its lock only for a batch's few milliseconds: a checkpoint can wait for it.
database.exec("PRAGMA busy_timeout = 1000");
const checkpoint = database.prepare("PRAGMA wal_checkpoint(PASSIVE)");

const timer = setInterval(() => {
  const row = checkpoint.get() as { log: number; checkpointed: number } | undefined;
  if (row !== undefined)
    parentPort!.postMessage({ logFrames: row.log, checkpointedFrames: row.checkpointed } satisfies CheckpointReport);
}, everyMs);

parentPort!.on("message", (message: unknown) => {
  if (message !== ("stop" satisfies StopMessage)) return;
  clearInterval(timer);
  database.close();
  parentPort!.close();
});
