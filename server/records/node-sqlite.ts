/**
 * Node's built-in SQLite, shared by the records' connection (database.ts) and the thread that checkpoints its
 * write-ahead log (checkpoint-worker.ts).
 */
export type NodeSqlite = typeof import("node:sqlite");

/**
 * node:sqlite, loaded without its one-time ExperimentalWarning (the API this code uses is stable enough for it, and
 * the warning would otherwise be printed by every server start). Loaded through getBuiltinModule because module
 * resolvers that predate it (jest's) do not know the scheme-only "node:sqlite".
 */
export function loadSqlite(): NodeSqlite {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === "string" ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return process.getBuiltinModule("node:sqlite") as NodeSqlite;
  } finally {
    process.emitWarning = emitWarning;
  }
}
