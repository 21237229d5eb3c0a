import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { waitUntil } from "../helpers";

export { freePort } from "./ports";

const ROOT = path.resolve(__dirname, "..", "..");

export interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** What a spawned program (its stdout and stderr piped) wrote, once it ends; killed after `timeoutMs`. */
export function finished(child: ChildProcess, timeoutMs = 120_000): Promise<Finished> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/**
 * A real cardhall server (the compiled one `npm start` runs) on 127.0.0.1:`port`, for end-to-end tests. It keeps
 * its records in a data directory of its own (made on the first start, removed by `stop`), unless `env` says
 * otherwise.
 */
export class ServerProcess {
  private child: ChildProcess | null = null;
  output = "";
  readonly dataDir: string;

  constructor(
    readonly port: number,
    private readonly env: Record<string, string> = {},
  ) {
    this.dataDir = path.join(os.tmpdir(), `cardhall-data-${port}-${process.pid}`);
  }

  /** The WebSocket port its clients are sent to (WEBSOCKET_PORT), if it has one. */
  get webSocketPort(): number | null {
    return this.env.WEBSOCKET_PORT ? Number(this.env.WEBSOCKET_PORT) : null;
  }

  get httpUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Kills the process at once (no shutdown: what a crash does) and waits for it to be gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const node = path.join(ROOT, "node_modules", ".bin", "node");
    this.output = "";
    this.child = spawn(node, [path.join(ROOT, "dist", "server", "main.js")], {
      env: { ...process.env, HOST: "127.0.0.1", PORT: String(this.port), DATA_DIR: this.dataDir, ...this.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child.stdout!.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr!.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
    await waitUntil(
      () => this.output.includes("listening") || this.child?.exitCode !== null,
      20_000,
      "the server to listen",
    );
    if (this.child.exitCode !== null) throw new Error(`the server exited: ${this.output}`);
  }

  /** Sends SIGTERM, waits for the graceful shutdown and removes the data directory; returns the exit code. */
  async stop(): Promise<number | null> {
    try {
      return await this.terminate();
    } finally {
      fs.rmSync(this.dataDir, { recursive: true, force: true });
    }
  }

  /** Sends SIGTERM and waits for the graceful shutdown (the data stay); returns the exit code. */
  async terminate(): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }
}
