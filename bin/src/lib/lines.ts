import type { Readable } from "node:stream";

/** A line (`cutShort` when the stream ended inside it, with no line end after it), the stream's end, or a time-out. */
export type NextLine = { kind: "line"; text: string; cutShort?: true } | { kind: "end" } | { kind: "timeout" };

/**
 * Lines from a stream, one awaited at a time, with an optional time limit per line. Used to read a subprocess
 * that speaks a line protocol: lines are queued as they arrive and handed out in order.
 */
export class LineReader {
  private readonly queued: string[] = [];
  /** The last line, when the stream ended inside it. */
  private unterminated: string | undefined;
  private partial = "";
  private ended = false;
  private waiter: (() => void) | null = null;

  constructor(stream: Readable) {
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => this.receive(chunk));
    stream.on("end", () => this.finish());
    stream.on("error", () => this.finish());
  }

  /** The next line without its line ending, `end` when the stream closed, or `timeout` after `timeoutMs`. */
  async next(timeoutMs: number = Infinity): Promise<NextLine> {
    if (this.queued.length === 0 && !this.ended) await this.arrival(timeoutMs);
    const text = this.queued.shift();
    if (text !== undefined) return { kind: "line", text };
    if (this.ended && this.unterminated !== undefined) {
      const last = this.unterminated;
      this.unterminated = undefined;
      return { kind: "line", text: last, cutShort: true };
    }
    return this.ended ? { kind: "end" } : { kind: "timeout" };
  }

  private arrival(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = Number.isFinite(timeoutMs) ? setTimeout(() => this.wake(), timeoutMs) : null;
      this.waiter = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
    });
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }

  private receive(chunk: string): void {
    const pieces = (this.partial + chunk).split("\n");
    this.partial = pieces.pop() ?? "";
    for (const piece of pieces) this.queued.push(piece.endsWith("\r") ? piece.slice(0, -1) : piece);
    if (this.queued.length > 0) this.wake();
  }

  private finish(): void {
    if (this.ended) return;
    if (this.partial !== "") this.unterminated = this.partial;
    this.partial = "";
    this.ended = true;
    this.wake();
  }
}
