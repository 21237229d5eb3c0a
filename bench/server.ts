/**
 * A compiled cardhall server for the benchmarks, as a process of its own: started from a project root on
 * 127.0.0.1, stopped by its pid. Benchmarks that set two builds side by side start one per build (each build's
 * rooms need their own matchmaker, so never two builds in one process).
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";

/**
 * Starts `root`'s server on 127.0.0.1:`port` and resolves once /health answers (whatever LOG_LEVEL says). `env`
 * adds to its environment (e.g. DATA_DIR for its records, RECORDS=off).
 */
export function startServer(root: string, port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(path.join(root, "node_modules", ".bin", "node"), [path.join(root, "dist", "server", "main.js")], {
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server of ${root} did not start`)), 20_000);
    const poll = setInterval(async () => {
      const up = await fetch(`http://127.0.0.1:${port}/health`)
        .then((response) => response.ok)
        .catch(() => false);
      if (!up) return;
      clearInterval(poll);
      clearTimeout(timer);
      resolve(child);
    }, 100);
    child.once("exit", (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`the server of ${root} exited (${code})`));
    });
  });
}

/** Stops a server started by startServer and waits for its exit. */
export function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** What two builds' servers side by side are started with: no records, quiet, no bound on one address's joins. */
export const QUIET_SERVER = { RECORDS: "off", LOG_LEVEL: "warn", JOINS_PENDING_PER_ADDRESS: "0" } as const;
