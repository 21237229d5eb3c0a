/** A compiled cardhall server for the benchmarks: started from a project root on 127.0.0.1, stopped by its pid. */
import { spawn, type ChildProcess } from "child_process";
import * as path from "path";

/** `env` adds to the server's environment (e.g. DATA_DIR for its records). */
export async function startServer(root: string, port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(path.join(root, "node_modules", ".bin", "node"), [path.join(root, "dist", "server", "main.js")], {
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("listening") && resolve());
    child.on("exit", (code) => reject(new Error(`the server in ${root} exited (${code})`)));
  });
  return child;
}

export async function stopServer(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.on("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

