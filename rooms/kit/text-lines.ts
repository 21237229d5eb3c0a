/**
 * Lines of a text that arrives in pieces (a judge's input read a chunk at a time), handed out one at a time so
 * that a reader never holds more than the current chunk and line. A line ends at "\r\n", "\r" or "\n", as
 * `text.split(/\r\n|\r|\n/)` would cut it, even when a "\r\n" is split between two pieces.
 */

/** A text's lines, pulled one at a time. */
export interface LineSource {
  /** The next line without its line end, or undefined once the text is over. */
  nextLine(): string | undefined;
  /** The number (from 1) of the line `nextLine` returned last; 0 before the first. */
  readonly lineNumber: number;
}

/** The next piece of the text, or null at its end. */
export type ReadPiece = () => string | null;

const LINE_END = /\r\n|\r|\n/g;

export class PieceLines implements LineSource {
  private buffer = "";
  private at = 0;
  private ended = false;
  lineNumber = 0;

  constructor(private readonly readPiece: ReadPiece) {}

  nextLine(): string | undefined {
    // Each turn either returns or takes one more piece; the pieces end, so the loop does too.
    for (;;) {
      const line = this.completeLine();
      if (line !== undefined) return line;
      if (this.ended) return this.lastLine();
      this.takePiece();
    }
  }

  /** The next line whose end is already in the buffer. */
  private completeLine(): string | undefined {
    LINE_END.lastIndex = this.at;
    const end = LINE_END.exec(this.buffer);
    if (end === null) return undefined;
    // A "\r" that ends the buffer may be the first half of a "\r\n": wait for the next piece to tell.
    if (!this.ended && end[0] === "\r" && end.index === this.buffer.length - 1) return undefined;
    const line = this.buffer.slice(this.at, end.index);
    this.at = end.index + end[0].length;
    this.lineNumber++;
    return line;
  }

  /** What follows the last line end, when the text does not end with one. */
  private lastLine(): string | undefined {
    if (this.at >= this.buffer.length) return undefined;
    const line = this.buffer.slice(this.at);
    this.at = this.buffer.length;
    this.lineNumber++;
    return line;
  }

  private takePiece(): void {
    const piece = this.readPiece();
    this.buffer = this.buffer.slice(this.at) + (piece ?? "");
    this.at = 0;
    if (piece === null) this.ended = true;
  }
}

/** The lines of a whole text at hand. */
export function linesOfText(text: string): LineSource {
  let given = false;
  return new PieceLines(() => {
    if (given) return null;
    given = true;
    return text;
  });
}
