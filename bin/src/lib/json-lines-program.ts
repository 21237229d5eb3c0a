import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";

/** One line the program wrote: its text, or how long it was when it passed the limit (its text was never kept). */
export type ProgramLine = { kind: "line"; text: string } | { kind: "tooLong"; bytes: number };

/** What waiting for a line ended with. */
export type ProgramNext = ProgramLine | { kind: "ended" } | { kind: "aborted" };

const NEWLINE = 0x0a;

/**
 * A player program run as a subprocess that speaks JSON lines: the bridge writes lines to its standard input and
 * reads its standard output a line at a time; its standard error passes through to the bridge's. A line longer
 * than `maxLineBytes` is counted as it streams past and then reported as too long: at most `maxLineBytes` of it is
 * ever held in memory.
 */
export class JsonLinesProgram {
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly queued: ProgramLine[] = [];
  private pieces: Buffer[] = [];
  private pieceBytes = 0;
  /** Bytes of the current line dropped because it is too long; 0 while the line is within the limit. */
  private skipped = 0;
  private outputEnded = false;
  private waiter: (() => void) | null = null;
  /** How the program ended ("exit status 3", "killed by SIGKILL", "could not be started: ..."), once it has. */
  private ending: string | null = null;
  private exitStatus: number | null = null;
  readonly exited: Promise<void>;

  constructor(
    command: string,
    args: readonly string[],
    private readonly maxLineBytes: number,
  ) {
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
    this.child.stdin.on("error", () => undefined); // a closed pipe shows up as the program's exit
    this.child.stdout.on("data", (chunk: Buffer) => this.receive(chunk));
    this.child.stdout.on("end", () => this.endOutput());
    this.child.stdout.on("error", () => this.endOutput());
    this.exited = new Promise((resolve) => {
      this.child.on("error", (error) => {
        this.ending ??= `could not be started: ${error.message}`;
        this.endOutput();
        resolve();
      });
      this.child.on("exit", (code, signal) => {
        this.exitStatus = code;
        this.ending ??= signal ? `was killed by ${signal}` : `exited with status ${code}`;
        resolve();
      });
    });
  }

  /** Resolves once the program has started, with null, or with why it could not be started. */
  started(): Promise<string | null> {
    return new Promise((resolve) => {
      this.child.once("spawn", () => resolve(null));
      this.child.once("error", (error) => resolve(error.message));
    });
  }

  /** Writes one message as a JSON line (dropped once the program has stopped reading). */
  send(message: object): void {
    if (this.child.stdin.writable) this.child.stdin.write(JSON.stringify(message) + "\n");
  }

  /** Drops lines already read but not yet taken: written before the turn they would answer was sent. */
  dropQueued(): number {
    const dropped = this.queued.length;
    this.queued.length = 0;
    return dropped;
  }

  /** The next line; `ended` once the output has closed and every line is taken; `aborted` when `signal` aborts first. */
  async next(signal?: AbortSignal): Promise<ProgramNext> {
    while (this.queued.length === 0 && !this.outputEnded) {
      if (signal?.aborted) return { kind: "aborted" };
      await new Promise<void>((resolve) => {
        const wake = () => {
          signal?.removeEventListener("abort", wake);
          if (this.waiter === wake) this.waiter = null;
          resolve();
        };
        this.waiter = wake;
        signal?.addEventListener("abort", wake, { once: true });
      });
    }
    return this.queued.shift() ?? { kind: "ended" };
  }

  /** Whether the program is still running. */
  get running(): boolean {
    return this.ending === null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** How the program ended, in a few words, waiting a moment for its exit (its output closes just before). */
  async endDescription(): Promise<string> {
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, 500).unref())]);
    return this.ending ?? "closed its output";
  }

  /**
   * Closes the program's input and waits up to `graceMs` for it to exit (then kills it): its exit status (null when
   * a signal ended it), how it ended, and whether the bridge had to kill it.
   */
  async finish(graceMs: number): Promise<{ status: number | null; description: string; killed: boolean }> {
    this.child.stdin.end();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs)));
    const tooLate = await Promise.race([this.exited.then(() => false), late]);
    clearTimeout(timer);
    if (tooLate) {
      this.kill();
      await this.exited;
      return {
        status: null,
        description: `did not exit within ${graceMs / 1000} s after its input ended, and was killed`,
        killed: true,
      };
    }
    return { status: this.exitStatus, description: this.ending ?? "ended", killed: false };
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
  }

  private receive(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end >= 0; start = end + 1, end = chunk.indexOf(NEWLINE, start)) {
      this.take(chunk.subarray(start, end));
      this.queued.push(this.completeLine());
    }
    this.take(chunk.subarray(start));
    if (this.queued.length > 0) this.wake();
  }

  /** Adds a piece of the current line, or only counts it once the line has passed the limit. */
  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipped > 0 || this.pieceBytes + piece.length > this.maxLineBytes) {
      this.skipped += this.pieceBytes + piece.length;
      this.pieces = [];
      this.pieceBytes = 0;
      return;
    }
    this.pieces.push(Buffer.from(piece)); // a copy: the chunk's buffer may be reused
    this.pieceBytes += piece.length;
  }

  private completeLine(): ProgramLine {
    const line: ProgramLine =
      this.skipped > 0
        ? { kind: "tooLong", bytes: this.skipped }
        : { kind: "line", text: Buffer.concat(this.pieces).toString("utf8").replace(/\r$/, "") };
    this.pieces = [];
    this.pieceBytes = 0;
    this.skipped = 0;
    return line;
  }

  private endOutput(): void {
    if (this.outputEnded) return;
    if (this.pieceBytes > 0 || this.skipped > 0) this.queued.push(this.completeLine());
    this.outputEnded = true;
    this.wake();
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }
}
