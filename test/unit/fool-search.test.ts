import * as fc from "fast-check";
import { JOKER, NATURAL_CARDS, SKIP_CARDS, SUITS, type Card, type NaturalCard } from "../../rooms/fool/cards";
import { checkWinningLine } from "../../rooms/fool/checker";
import { formatSequence, parsePosition } from "../../rooms/fool/notation";
import { applyMove, formatLaid, legalMoves, positionOf, type FaceUp, type FoolState } from "../../rooms/fool/rules";
import { findWinningSequence } from "../../rooms/fool/search";

function position(handLine: string, faceUpLine: string): { hand: readonly Card[]; faceUp: FaceUp } {
  const parsed = parsePosition(`${handLine}\n${faceUpLine}\n`);
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.value;
}

/** Solves the position and, on YES, has the independent checker judge the printed sequence. */
function solveAndCheck(handLine: string, faceUpLine: string): "YES" | "NO" {
  const { hand, faceUp } = position(handLine, faceUpLine);
  const sequence = findWinningSequence(hand, faceUp);
  if (sequence === null) return "NO";
  expect(checkWinningLine(handLine, faceUpLine, formatSequence(sequence))).toBeNull();
  return "YES";
}

/**
 * A brute force over the game engine itself: seat 0 tries every legal play (every name for a joker, every suit
 * for a Queen) and wins if it empties its hand while seat 1 never gets the turn. Memoised on hand and face-up.
 */
function bruteForceWins(hand: readonly Card[], faceUp: FaceUp): boolean {
  const used = new Set<Card>([...hand, faceUp.card]);
  const jokersLeft = 2 - [...hand, faceUp.card].filter((card) => card === JOKER).length;
  const rest: Card[] = [...NATURAL_CARDS.filter((card) => !used.has(card)), ...Array<Card>(jokersLeft).fill(JOKER)];
  const start = positionOf([hand, rest.slice(0, 5)], faceUp, rest.slice(5));
  const memo = new Map<string, boolean>();
  const wins = (state: FoolState): boolean => {
    const key = `${[...state.hands[0]].sort().join(" ")}|${formatLaid(state.faceUp)}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const result = legalMoves(state, 0).some((move) => {
      if (move.kind !== "play") return false;
      const outcome = applyMove(state, 0, move);
      if (!outcome.ok) throw new Error(outcome.reason);
      if (outcome.state.phase === "over") return outcome.state.finished[0] === 0;
      return outcome.state.turn === 0 && wins(outcome.state);
    });
    memo.set(key, result);
    return result;
  };
  return wins(start);
}

describe("the winning-sequence search", () => {
  test("the statement's sample is a YES with a valid sequence", () => {
    expect(solveAndCheck("6C QD 6S KS 7S *", "*QHS")).toBe("YES");
  });

  test.each([
    ["a single covering card is laid last", "8S", "9S", "YES"],
    ["a single card that does not cover", "8S", "9H", "NO"],
    ["two cards that are not skip cards", "8S 9S", "7S", "NO"],
    ["an 8 lets the opponent move, so only as the last card", "6S 8S", "2S", "YES"],
    ["two 8s cannot both be last", "8C 8D 6C", "2C", "NO"],
    ["a 6 keeps the turn", "6H 6C", "2H", "YES"],
    ["a 7 keeps the turn", "7H 2H", "3H", "YES"],
    ["an Ace keeps the turn", "AD 3D", "2D", "YES"],
    ["the King of spades keeps the turn", "KS KH", "KD", "YES"],
    ["another King does not keep the turn", "KH KS", "2H", "NO"],
    ["a Queen names the suit that must follow", "6D", "QHD", "YES"],
    ["after a Queen its own suit does not count", "6H", "QHD", "NO"],
    ["after a Queen another Queen does not count", "QS", "QHD", "NO"],
    ["a Queen laid last is written with a named suit", "6H QH", "2H", "YES"],
    ["a face-up joker counts as the card it was named", "6D 9D", "*6C", "YES"],
    ["a face-up joker named a Queen asks for its named suit", "AS", "*QHS", "YES"],
    ["a joker alone always goes out", "*", "QHD", "YES"],
    ["a joker must itself cover, so it cannot bridge to another suit", "* 5H", "2C", "NO"],
    ["a joker named as a skip card bridges within the rules", "* 5H", "2H", "YES"],
    ["two jokers chain anywhere within the suit", "* * 9S", "9C", "YES"],
    ["every skip card and both jokers", [...SKIP_CARDS, "*", "*"].join(" "), "2D", "YES"],
    ["every skip card, both jokers and one more card", [...SKIP_CARDS, "*", "*", "QH"].join(" "), "2D", "YES"],
    ["every skip card and two more cards", [...SKIP_CARDS, "QH", "9C"].join(" "), "2D", "NO"],
  ])("%s", (_name, handLine, faceUpLine, expected) => {
    expect(solveAndCheck(handLine, faceUpLine)).toBe(expected);
  });

  test("all thirteen skip cards after a Queen that names hearts", () => {
    expect(solveAndCheck("AS AC AD AH 6S 6C 6D 6H 7S 7C 7D 7H KS", "QDH")).toBe("YES");
  });
});

/** A pool weighted towards the cards that matter: every skip card, both jokers, and a few others. */
const POOL: readonly Card[] = [...SKIP_CARDS, JOKER, JOKER, "8S", "8H", "QD", "QC", "KH", "2S", "9D", "TC", "5H"];

const faceUpArbitrary: fc.Arbitrary<FaceUp> = fc
  .tuple(fc.constantFrom(...NATURAL_CARDS), fc.boolean(), fc.constantFrom(...SUITS))
  .map(
    ([as, joker, suit]): FaceUp => ({
      card: joker ? JOKER : as,
      as,
      namedSuit: as[0] === "Q" ? suit : null,
    }),
  );

function isPossible(hand: readonly Card[], faceUp: FaceUp): boolean {
  const jokers = hand.filter((card) => card === JOKER).length + (faceUp.card === JOKER ? 1 : 0);
  return jokers <= 2 && (faceUp.card === JOKER || !hand.includes(faceUp.card as NaturalCard));
}

describe("the search against a brute force over the engine (property tests)", () => {
  test("every YES and NO agrees on small hands, and every sequence passes the checker", () => {
    fc.assert(
      fc.property(fc.shuffledSubarray([...POOL], { minLength: 1, maxLength: 5 }), faceUpArbitrary, (hand, faceUp) => {
        fc.pre(isPossible(hand, faceUp));
        const sequence = findWinningSequence(hand, faceUp);
        expect(sequence !== null).toBe(bruteForceWins(hand, faceUp));
        if (sequence !== null) {
          expect(checkWinningLine(hand.join(" "), formatLaid(faceUp), formatSequence(sequence))).toBeNull();
        }
      }),
      { numRuns: 300, seed: 1166 },
    );
  });

  test("on large hands every sequence returned uses the whole hand legally", () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray([...POOL], { minLength: 6, maxLength: POOL.length }),
        faceUpArbitrary,
        (hand, faceUp) => {
          fc.pre(isPossible(hand, faceUp));
          const sequence = findWinningSequence(hand, faceUp);
          if (sequence !== null) {
            expect(checkWinningLine(hand.join(" "), formatLaid(faceUp), formatSequence(sequence))).toBeNull();
          }
        },
      ),
      { numRuns: 300, seed: 2001 },
    );
  });
});
