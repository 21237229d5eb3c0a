import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/**
 * A PostgreSQL server of Debian's `postgresql` package, in a temporary directory, on 127.0.0.1:`port`: made by
 * initdb, started and stopped by pg_ctl (stopped by its process id if pg_ctl cannot), removed afterwards. PostgreSQL
 * refuses to run as root, so when the tests run as root the directory belongs to the `postgres` user.
 */
export class PostgresProcess {
  readonly dir: string;

  /** `durable`: keep PostgreSQL's fsync (benchmarks); the tests turn it off, as nothing must outlive them. */
  constructor(
    readonly port: number,
    private readonly durable = false,
  ) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `cardhall-pg-${port}-`));
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** The directory of PostgreSQL's programs (the newest installed), or a clear error naming the package. */
  static binDir(): string {
    const root = "/usr/lib/postgresql";
    const versions = fs.existsSync(root)
      ? fs.readdirSync(root).filter((name) => fs.existsSync(path.join(root, name, "bin", "initdb")))
      : [];
    if (versions.length === 0) throw new Error("PostgreSQL is not installed: apt-get install -y postgresql");
    versions.sort((a, b) => Number(b) - Number(a));
    return path.join(root, versions[0], "bin");
  }

  init(): void {
    const asRoot = process.getuid?.() === 0;
    if (asRoot) execFileSync("chown", ["-R", "postgres", this.dir]);
    this.run("initdb", ["-D", this.data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  }

  start(): void {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1${this.durable ? "" : " -c fsync=off"}`;
    this.run("pg_ctl", ["-D", this.data, "-o", options, "-l", path.join(this.dir, "log"), "-w", "start"]);
  }

  /** Stops the server (fast: open connections are cut, as when a database goes away). */
  stop(): void {
    const [executable, ...rest] = this.command("pg_ctl", ["-D", this.data, "-m", "fast", "-w", "stop"]);
    const stopped = spawnSync(executable, rest, { encoding: "utf8", timeout: 30_000 });
    if (stopped.status !== 0) this.killByPid();
  }

  /** Stops the server and removes its directory. */
  destroy(): void {
    if (fs.existsSync(path.join(this.data, "postmaster.pid"))) this.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private get data(): string {
    return path.join(this.dir, "data");
  }

  private killByPid(): void {
    const pidFile = path.join(this.data, "postmaster.pid");
    if (!fs.existsSync(pidFile)) return;
    const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
    if (Number.isInteger(pid) && pid > 0) process.kill(pid, "SIGKILL");
  }

  /** The program and its arguments, run as `postgres` when we are root. */
  private command(program: string, args: string[]): string[] {
    const executable = path.join(PostgresProcess.binDir(), program);
    if (process.getuid?.() !== 0) return [executable, ...args];
    const quoted = [executable, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(" ");
    return ["su", "postgres", "-s", "/bin/sh", "-c", quoted];
  }

  private run(program: string, args: string[]): void {
    const [executable, ...rest] = this.command(program, args);
    const result = spawnSync(executable, rest, { encoding: "utf8", timeout: 60_000 });
    if (result.status !== 0) throw new Error(`${program} failed (${result.status}): ${result.stderr || result.stdout}`);
  }
}
