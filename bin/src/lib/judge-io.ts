/**
 * The judges' input and output, streamed: the input is read a chunk at a time and handed out as lines, the output
 * is gathered into chunks and written synchronously. Memory stays a chunk or two whatever the input's length, and
 * nothing waits for the event loop (a judge is one straight run from its first line to its last).
 */
import { closeSync, openSync, readSync, writeSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { PieceLines, type LineSource } from "../../../rooms/kit/text-lines";

/**
 * Small enough that a chunk's text is garbage before the next young-generation collection (a chunk that lives
 * longer is copied to the old generation, which then grows until a full collection); large enough that reading
 * costs little.
 */
const INPUT_CHUNK_BYTES = 1 << 13;
const OUTPUT_CHUNK_BYTES = 1 << 16;
const STDIN = 0;
const STDOUT = 1;

/** A failure to read the input: the system's message, e.g. "EISDIR: illegal operation on a directory, read". */
export class InputReadError extends Error {
  constructor(failure: unknown) {
    super(failure instanceof Error ? failure.message : String(failure));
  }
}

/**
 * The lines of `file` ("-" for standard input), read as UTF-8 a chunk at a time. `beforeRead` runs before each
 * read, which may wait for the writer of a pipe: a judge flushes its output there, so that whoever feeds it case
 * by case sees each answer before sending the next case. Throws InputReadError.
 */
export function inputLines(file: string, beforeRead: () => void): LineSource {
  const fd = file === "-" ? STDIN : openOrThrow(file);
  const chunk = Buffer.allocUnsafe(INPUT_CHUNK_BYTES);
  // The decoder keeps a character cut between two chunks until its last bytes arrive.
  const decoder = new StringDecoder("utf8");
  let ended = false;
  return new PieceLines(() => {
    if (ended) return null;
    beforeRead();
    const length = readOrThrow(fd, chunk);
    if (length > 0) return decoder.write(chunk.subarray(0, length));
    ended = true;
    if (fd !== STDIN) closeSync(fd);
    const rest = decoder.end();
    return rest === "" ? null : rest;
  });
}

function openOrThrow(file: string): number {
  try {
    return openSync(file, "r");
  } catch (error) {
    throw new InputReadError(error);
  }
}

function readOrThrow(fd: number, chunk: Buffer): number {
  try {
    return readSync(fd, chunk, 0, chunk.length, null);
  } catch (error) {
    throw new InputReadError(error);
  }
}

/**
 * Standard output in chunks, written synchronously. The text is copied into one reused buffer at once, so the
 * strings a judge prints die young. A reader that stops early (`judge | head -1`) closes the pipe: the write then
 * throws an EPIPE error (see isClosedPipe).
 */
export class ChunkedOutput {
  private readonly bytes = Buffer.allocUnsafe(OUTPUT_CHUNK_BYTES);
  private length = 0;

  constructor(private readonly fd: number = STDOUT) {}

  write(text: string): void {
    // A character takes at most 3 bytes in UTF-8 (a surrogate pair 4 for 2 characters).
    if (this.length + 3 * text.length > this.bytes.length) this.flush();
    if (3 * text.length > this.bytes.length) writeAll(this.fd, Buffer.from(text, "utf8"));
    else this.length += this.bytes.write(text, this.length, "utf8");
  }

  flush(): void {
    writeAll(this.fd, this.bytes.subarray(0, this.length));
    this.length = 0;
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  // writeSync may write less than asked (a pipe that is nearly full): each turn writes at least one byte.
  for (let written = 0; written < bytes.length; ) written += writeSync(fd, bytes, written);
}

/** Whether an error is the output pipe closed by its reader. */
export function isClosedPipe(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === "EPIPE";
}
