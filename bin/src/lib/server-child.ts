/**
 * A cardhall server process of this build (dist/server/main.js on the project's Node), on 127.0.0.1: bin/cluster
 * starts its processes with it, the cluster benchmark its servers.
 */
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import * as path from "node:path";

export const HOST = "127.0.0.1";
const ROOT = path.resolve(__dirname, "..", "..", "..", "..");
/** How long a server may take to answer /health after it starts. */
const START_LIMIT_MS = 20_000;

/** Starts a server on `port` with `env` over this process's environment (HOST and PORT are set here). */
export function spawnServer(
  port: number,
  env: Record<string, string>,
  stdio: StdioOptions = ["ignore", "pipe", "pipe"],
): ChildProcess {
  return spawn(process.execPath, [path.join(ROOT, "dist", "server", "main.js")], {
    env: { ...process.env, ...env, HOST, PORT: String(port) },
    stdio,
  });
}

/** Resolves once the server answers /health; rejects when it exits first or takes too long. */
export async function listening(child: ChildProcess, port: number): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < START_LIMIT_MS) {
    if (child.exitCode !== null) throw new Error(`the server on port ${port} exited with ${child.exitCode}`);
    const healthy = await fetch(`http://${HOST}:${port}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server on port ${port} did not answer within ${START_LIMIT_MS / 1000} s`);
}

/** Resolves when the process has exited. */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}
