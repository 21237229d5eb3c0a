/**
 * A build's server as a process of its own, for benchmarks that set two builds side by side in one run (each
 * build's rooms need their own matchmaker, so never two builds in one process).
 */
import { spawn, type ChildProcess } from "child_process";
import * as path from "path";

/** Starts `root`'s compiled server on 127.0.0.1:`port` (records off, quiet) and resolves once /health answers. */
export function startBuildServer(root: string, port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(path.join(root, "node_modules", ".bin", "node"), [path.join(root, "dist", "server", "main.js")], {
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), RECORDS: "off", LOG_LEVEL: "warn", JOINS_PENDING_PER_ADDRESS: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server of ${root} did not start`)), 20_000);
    const poll = setInterval(async () => {
      const up = await fetch(`http://127.0.0.1:${port}/health`).then((response) => response.ok).catch(() => false);
      if (!up) return;
      clearInterval(poll);
      clearTimeout(timer);
      resolve(child);
    }, 100);
    child.once("exit", (code) => reject(new Error(`the server of ${root} exited (${code})`)));
  });
}

/** Stops a server started by startBuildServer and waits for its exit. */
export function stopBuildServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
