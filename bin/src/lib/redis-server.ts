/**
 * A private redis-server (Debian's `redis-server` package) on 127.0.0.1: no persistence, its own temporary
 * directory, stopped by its process id. bin/cluster runs one for a local cluster; the tests run one each.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** The one line to print when the program is missing. */
export const REDIS_MISSING =
  "redis-server is not installed: install Debian's redis-server package (apt-get install -y redis-server)";

/** How long redis-server may take to accept connections (it takes milliseconds). */
const START_LIMIT_MS = 10_000;
/** How long a SIGTERM'd redis-server may take to go before it is killed. */
const STOP_LIMIT_MS = 5_000;

/** redis-server's path on the PATH (Debian installs it in /usr/bin), or null when it is not installed. */
export function findRedisServer(): string | null {
  const places = (process.env.PATH ?? "").split(path.delimiter).filter(Boolean);
  for (const place of places) {
    const candidate = path.join(place, "redis-server");
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

export class RedisServer {
  private child: ChildProcess | null = null;
  private readonly dir: string;
  /** What redis-server wrote (kept to explain a failed start). */
  output = "";

  constructor(readonly port: number) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `cardhall-redis-${port}-`));
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts it and resolves once it accepts connections; rejects with its output if it could not start. */
  async start(): Promise<void> {
    const executable = findRedisServer();
    if (executable === null) throw new Error(REDIS_MISSING);
    this.output = "";
    const args = [
      "--port",
      String(this.port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      this.dir,
      "--daemonize",
      "no",
    ];
    const child = spawn(executable, args, { stdio: ["ignore", "pipe", "pipe"] });
    this.child = child;
    const collect = (chunk: Buffer) => (this.output += chunk.toString());
    child.stdout!.on("data", collect);
    child.stderr!.on("data", collect);
    await new Promise<void>((resolve, reject) => {
      const fail = (why: string) => {
        clearTimeout(timer);
        child.kill("SIGKILL");
        reject(
          new Error(
            `redis-server did not start on 127.0.0.1:${this.port} (${why}): ${this.output.trim().split("\n").slice(-3).join(" | ")}`,
          ),
        );
      };
      const timer = setTimeout(() => fail("time limit"), START_LIMIT_MS);
      const ready = () => {
        if (!this.output.includes("Ready to accept connections")) return;
        clearTimeout(timer);
        child.stdout!.off("data", ready);
        resolve();
      };
      child.stdout!.on("data", ready);
      child.once("exit", (code) => fail(`exited with ${code}`));
      child.once("error", (error) => fail(error.message));
    });
    child.removeAllListeners("exit");
    child.removeAllListeners("error");
  }

  /** Stops it (SIGTERM, then SIGKILL if it lingers) and waits until it is gone; its data are gone with it. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_LIMIT_MS);
    await exited;
    clearTimeout(timer);
  }

  /** Stops it and removes its directory. */
  async destroy(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
