/**
 * Large judge inputs, made deterministically from a seed and written piece by piece (never held whole), for the
 * judge benchmark and the streaming tests. Nothing generated here is committed.
 */
import { writeSync } from "node:fs";
import { seededRandom, type Random } from "../rooms/kit/random";
import { shuffledDeck } from "../rooms/patience/cards";
import { formatDeck, END_OF_INPUT } from "../rooms/patience/notation";
import { randomRecordedRound } from "../rooms/tractor/generate";
import { formatStatementInput } from "../rooms/tractor/statement-format";

/** Text is handed to the file in pieces of about this many characters. */
const PIECE = 1 << 16;

/** Collects text and writes it to `fd` a piece at a time. */
class PieceWriter {
  private pending: string[] = [];
  private size = 0;

  constructor(private readonly fd: number) {}

  write(text: string): void {
    this.pending.push(text);
    this.size += text.length;
    if (this.size >= PIECE) this.flush();
  }

  flush(): void {
    if (this.pending.length > 0) writeSync(this.fd, this.pending.join(""));
    this.pending = [];
    this.size = 0;
  }
}

/**
 * `rounds` recorded Tractor rounds in the statement's format. Playing a round through the round engine is slow
 * (about a millisecond), so a pool of `distinct` played rounds is drawn and repeated in order.
 */
export function writeTractorInput(fd: number, rounds: number, seed: string, distinct = Math.min(rounds, 2000)): void {
  const random = seededRandom(`tractor-input ${seed}`);
  const pool = Array.from({ length: distinct }, () => formatStatementInput([randomRecordedRound(random).record]));
  const out = new PieceWriter(fd);
  out.write(`${rounds}\n`);
  for (let index = 0; index < rounds; index++) out.write(withoutCount(pool[index % distinct]));
  out.flush();
}

/** A one-round statement input without its count line: the blank line and the case. */
function withoutCount(oneRound: string): string {
  return oneRound.slice(oneRound.indexOf("\n"));
}

/** `decks` uniformly shuffled decks in the problem's layout (four lines of 13 cards), then the `#` line. */
export function writePatienceInput(fd: number, decks: number, seed: string): void {
  const random: Random = seededRandom(`patience-input ${seed}`);
  const out = new PieceWriter(fd);
  for (let deck = 0; deck < decks; deck++) out.write(formatDeck(shuffledDeck(random)).join("\n") + "\n");
  out.write(`${END_OF_INPUT}\n`);
  out.flush();
}
