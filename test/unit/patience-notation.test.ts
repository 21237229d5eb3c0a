import fc from "fast-check";
import { seededRandom } from "../../rooms/kit/random";
import { formatCard, fullDeck, parseCard, shuffledDeck } from "../../rooms/patience/cards";
import { DeckInputError, formatDeck, formatResult, parseDecks, repeatedCards } from "../../rooms/patience/notation";

describe("card notation", () => {
  it("reads and writes every card of the deck the same way", () => {
    for (const card of fullDeck()) expect(parseCard(formatCard(card))).toEqual(card);
  });

  it("reads ten as T, and refuses anything else", () => {
    expect(parseCard("TD")).toEqual({ rank: "T", suit: "D" });
    for (const token of ["10D", "1S", "ts", "TX", "ZS", "T", "", "TSS"]) expect(parseCard(token)).toBeNull();
  });

  it("has 52 different cards in a full deck and in a shuffled one", () => {
    expect(new Set(fullDeck().map(formatCard)).size).toBe(52);
    const deck = shuffledDeck(seededRandom(7));
    expect(new Set(deck.map(formatCard)).size).toBe(52);
    expect(shuffledDeck(seededRandom(7))).toEqual(deck);
  });
});

describe("reading decks", () => {
  const deck = shuffledDeck(seededRandom("notation"));
  const deckLines = formatDeck(deck);

  it("writes a deck as four lines of 13 cards and reads it back", () => {
    expect(deckLines).toHaveLength(4);
    for (const line of deckLines) expect(line.split(" ")).toHaveLength(13);
    expect(parseDecks([...deckLines, "#"].join("\n"))).toEqual([deck]);
  });

  it("does not mind CRLF, tabs, blank lines, a byte-order mark or a different split into lines", () => {
    const untidy = "\uFEFF  " + deckLines.join(" \t\r\n\r\n ").replace(/ (?=\S\S \S\S \S\S$)/, "\r\n") + "\r\n#\r\n";
    expect(parseDecks(untidy)).toEqual([deck]);
    expect(parseDecks(deckLines.join(" ") + "\n#")).toEqual([deck]);
  });

  it("reads several decks, stops at # and ignores what follows it", () => {
    const input = [...deckLines, ...deckLines, "#", "this is not read"].join("\n");
    expect(parseDecks(input)).toEqual([deck, deck]);
    expect(parseDecks("#\n")).toEqual([]);
    expect(parseDecks("")).toEqual([]);
  });

  it("accepts an input that ends after a whole deck without its # line", () => {
    expect(parseDecks(deckLines.join("\n"))).toEqual([deck]);
  });

  it("names the line of a token that is not a card", () => {
    const input = [deckLines[0], deckLines[1].replace(/^\S\S/, "10"), deckLines[2], deckLines[3], "#"].join("\n");
    expect(() => parseDecks(input)).toThrow(DeckInputError);
    expect(() => parseDecks(input)).toThrow(/^line 2: "10" is not a card; a card is a rank/);
  });

  it("says so when a deck is cut short, by # or by the end of the input", () => {
    expect(() => parseDecks([...deckLines.slice(0, 3), "#"].join("\n"))).toThrow(
      "line 4: deck 1 has only 39 of its 52 cards",
    );
    expect(() => parseDecks([...deckLines, deckLines[0]].join("\n"))).toThrow(
      "line 5: deck 2 has only 13 of its 52 cards",
    );
  });

  it("quotes a strange token safely and briefly", () => {
    expect(() => parseDecks("A\u0007")).toThrow('line 1: "A\\u0007" is not a card');
    expect(() => parseDecks("X".repeat(100))).toThrow(`"${"X".repeat(20)}…" is not a card`);
  });

  it("names the cards a deck repeats", () => {
    expect(repeatedCards(deck)).toEqual([]);
    expect(repeatedCards([...deck.slice(0, 50), deck[3], deck[3]])).toEqual([formatCard(deck[3])]);
  });

  it("reads back any deck it writes", () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(fullDeck(), { minLength: 52, maxLength: 52 }), (shuffled) => {
        expect(parseDecks(formatDeck(shuffled).join("\n") + "\n#\n")).toEqual([shuffled]);
      }),
      { numRuns: 100 },
    );
  });
});

describe("result lines", () => {
  it("right-justifies every number in three columns", () => {
    expect(formatResult(1, { kind: "finished", pileSizes: [8, 6, 7, 4, 3, 5, 4, 4, 2, 5, 4] })).toBe(
      "  1:  8  6  7  4  3  5  4  4  2  5  4",
    );
    expect(formatResult(12, { kind: "finished", pileSizes: [13, 13, 13, 13] })).toBe(" 12: 13 13 13 13");
    expect(formatResult(1000, { kind: "finished", pileSizes: [52] })).toBe("1000: 52");
  });

  it("writes an overflow with the number of the card about to be dealt", () => {
    expect(formatResult(3, { kind: "overflowed", cardNumber: 17 })).toBe("  3: Overflowed on card no 17");
    expect(formatResult(3, { kind: "overflowed", cardNumber: 52 })).toBe("  3: Overflowed on card no 52");
  });
});
