import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { LineReader } from "./lines";

/** Something the player program did wrong; the message is one sentence naming the fault. */
export class PlayerFault extends Error {}

/**
 * A contest program run as a subprocess that speaks a line protocol on its stdin/stdout. Lines that begin with
 * `*` are the program's debugging output: they are handed to `onDebugLine` and otherwise ignored.
 */
export class PlayerProcess {
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly reader: LineReader;
  private exitDescription: string | null = null;
  private startError: Error | null = null;
  private readonly exited: Promise<void>;

  constructor(
    command: string,
    args: readonly string[],
    private readonly onDebugLine: (line: string) => void,
  ) {
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
    this.reader = new LineReader(this.child.stdout);
    this.child.stdin.on("error", () => undefined); // a closed pipe shows up as the player's exit
    this.exited = new Promise((resolve) => {
      this.child.on("error", (error) => {
        this.startError = error;
        resolve();
      });
      this.child.on("exit", (code, signal) => {
        this.exitDescription = signal ? `killed by ${signal}` : `exit code ${code}`;
        resolve();
      });
    });
  }

  send(line: string): void {
    if (this.child.stdin.writable) this.child.stdin.write(line + "\n");
  }

  /** The player's next line that is not a debugging line; a fault if it exits or is silent for `timeoutMs`. */
  async answer(timeoutMs: number, awaited: string): Promise<string> {
    for (;;) {
      const next = await this.reader.next(timeoutMs);
      if (next.kind === "timeout")
        throw new PlayerFault(`the player did not answer ${awaited} within ${timeoutMs / 1000} s`);
      if (next.kind === "end")
        throw new PlayerFault(`the player ${await this.endDescription()} without answering ${awaited}`);
      if (next.text.startsWith("*")) this.onDebugLine(next.text);
      else return next.text;
    }
  }

  /**
   * Closes the player's stdin, copies its remaining debugging lines and waits for it to exit. A player that is
   * still running after `timeoutMs` is killed and reported.
   */
  async finish(timeoutMs: number): Promise<void> {
    this.child.stdin.end();
    for (;;) {
      const next = await this.reader.next(timeoutMs);
      if (next.kind === "timeout") {
        this.kill();
        throw new PlayerFault(`the player did not exit within ${timeoutMs / 1000} s after its input ended`);
      }
      if (next.kind === "end") break;
      if (next.text.startsWith("*")) this.onDebugLine(next.text);
    }
    await this.exited;
    if (this.startError) throw new PlayerFault(`the player could not be started: ${this.startError.message}`);
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
  }

  private async endDescription(): Promise<string> {
    // stdout closes a moment before the exit event; wait briefly for it so the message can give the exit code.
    await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, 200))]);
    if (this.startError) return `could not be started (${this.startError.message}), so it exited`;
    return this.exitDescription ? `exited (${this.exitDescription})` : "closed its output";
  }
}
