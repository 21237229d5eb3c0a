/**
 * The pieces the streaming judges are built from, checked against the whole-text readings they replace: lines
 * cut from text that arrives in arbitrary pieces, decks and statement cases read one at a time, and patience's
 * fast simulate against its step-by-step engine.
 */
import fc from "fast-check";
import { linesOfText, PieceLines, type LineSource } from "../../rooms/kit/text-lines";
import { fullDeck, shuffledDeck } from "../../rooms/patience/cards";
import { seededRandom } from "../../rooms/kit/random";
import { playByPlay, simulate } from "../../rooms/patience/engine";
import { DeckReader, parseDecks } from "../../rooms/patience/notation";
import { randomRecordedRound } from "../../rooms/tractor/generate";
import { formatStatementInput, parseStatementInput, StatementReader } from "../../rooms/tractor/statement-format";

/** Every line of a source, with its number. */
function allLines(source: LineSource): [number, string][] {
  const lines: [number, string][] = [];
  for (let line = source.nextLine(); line !== undefined; line = source.nextLine())
    lines.push([source.lineNumber, line]);
  return lines;
}

/** A source handing out `text` in pieces cut at `cuts` (positions, any order). */
function inPieces(text: string, cuts: readonly number[]): LineSource {
  const bounds = [...new Set([0, ...cuts.map((cut) => cut % (text.length + 1)), text.length])].sort((a, b) => a - b);
  let piece = 0;
  return new PieceLines(() => (piece + 1 < bounds.length ? text.slice(bounds[piece], bounds[++piece]) : null));
}

/** What `text.split(/\r\n|\r|\n/)` makes of it, less the empty string after a final line end. */
function splitLines(text: string): [number, string][] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line, index) => [index + 1, line]);
}

const textWithLineEnds = fc
  .array(fc.constantFrom("a", "b", " ", "\t", "\r", "\n", "\r\n", "é", "\uFEFF"), { maxLength: 40 })
  .map((parts) => parts.join(""));

describe("PieceLines", () => {
  it("cuts lines as split(/\\r\\n|\\r|\\n/) does, however the text is cut into pieces", () => {
    fc.assert(
      fc.property(textWithLineEnds, fc.array(fc.nat(), { maxLength: 8 }), (text, cuts) => {
        expect(allLines(inPieces(text, cuts))).toEqual(splitLines(text));
      }),
    );
  });

  it("takes a \\r\\n split between two pieces as one line end", () => {
    expect(allLines(inPieces("a\r\nb\rc\n", [2]))).toEqual([
      [1, "a"],
      [2, "b"],
      [3, "c"],
    ]);
  });

  it("gives nothing for an empty text", () => {
    expect(allLines(linesOfText(""))).toEqual([]);
  });
});

describe("reading one case at a time", () => {
  it("reads the same decks deck by deck as parseDecks, from any pieces", () => {
    const random = seededRandom("deck-reader");
    const text =
      Array.from(
        { length: 5 },
        () =>
          shuffledDeck(random)
            .map((card) => card.rank + card.suit)
            .join(" ") + "\r\n",
      ).join("") + "#\n";
    const reader = new DeckReader(inPieces(text, [7, 100, 101, 500]));
    const decks = [];
    for (let deck = reader.nextDeck(); deck !== undefined; deck = reader.nextDeck()) decks.push(deck);
    expect(decks).toEqual(parseDecks(text));
  });

  it("reads the same rounds case by case as parseStatementInput, from any pieces", () => {
    const random = seededRandom("statement-reader");
    const text = formatStatementInput(Array.from({ length: 4 }, () => randomRecordedRound(random).record));
    const parsed = parseStatementInput(text);
    const reader = new StatementReader(inPieces(text, [1, 2, 3, 333, 334, 900]));
    const count = reader.readCaseCount();
    const rounds = Array.from({ length: count }, (_, index) => reader.readRound(index + 1));
    reader.expectEnd(count);
    expect(parsed).toEqual({ ok: true, rounds });
  });
});

describe("patience's simulate", () => {
  it("ends every deal as the step-by-step engine does: whole decks, decks cut short, decks with repeats", () => {
    const deck = fc.array(fc.constantFrom(...fullDeck()), { maxLength: 60 });
    const shuffled = fc.integer().map((seed) => shuffledDeck(seededRandom(seed)));
    fc.assert(
      fc.property(fc.oneof(deck, shuffled), (cards) => {
        expect(simulate(cards)).toEqual(playByPlay(cards).outcome);
      }),
      { numRuns: 2000 },
    );
  });
});
