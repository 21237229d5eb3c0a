/**
 * The lobby's words for a finished game (web/src/results.ts): who played, people by name and "Computer" for a bot
 * or the AI, and how each game ends, never an engine's code (WIN, LOSE NECESSARILY, always-accept).
 */
import type { GameSummary } from "../../client-sdk";
import { holderWords, playersWords, resultWords } from "../../web/src/results";

const seat = (index: number, name: string, kind: GameSummary["seats"][number]["kind"]) => ({ seat: index, name, kind });

function summary(
  game: string,
  seats: GameSummary["seats"],
  result: unknown,
  more: Partial<GameSummary> = {},
): GameSummary {
  return {
    id: "x",
    game,
    roomId: "r",
    part: "game",
    match: 1,
    seed: 1,
    seats,
    result,
    actionCount: 10,
    startedAt: 0,
    endedAt: 0,
    ...more,
  };
}

describe("a finished game in words", () => {
  test("seat holders: names, Computer, open seats", () => {
    expect(holderWords("person", "Ann")).toBe("Ann");
    expect(holderWords("bot", "bot")).toBe("Computer");
    expect(holderWords("ai", "AI (ai)")).toBe("Computer");
    expect(holderWords("open", "")).toBe("open seat");
    expect(holderWords("person", "")).toBe("a guest");
  });

  test("Even-Steven: the verdict said plainly", () => {
    const ann = [seat(0, "Ann", "person")];
    expect(resultWords(summary("evensteven", ann, { outcome: "WIN" }))).toBe("Ann won");
    expect(resultWords(summary("evensteven", ann, { outcome: "LOSE NECESSARILY" }))).toBe(
      "Ann lost: no way of playing that hand could have won",
    );
    expect(resultWords(summary("evensteven", ann, { outcome: "LOSE UNNECESSARILY" }))).toBe(
      "Ann lost: the hand could have won",
    );
    expect(resultWords(summary("evensteven", ann, { outcome: "TIME OUT" }))).toBe("Ann ran out of time");
    expect(playersWords(summary("evensteven", ann, null))).toBe("Ann");
    // A ladder deal of the running period is listed without its result (docs/arena.md, "Solo ladders").
    expect(
      resultWords(summary("evensteven", ann, null, { ladder: { period: "2026-11-26", deal: 3, endsAt: 0 } })),
    ).toBe("a ladder deal: its result shows once the ladder's period is over");
  });

  test("Fool: the winner and the Fool, or no Fool", () => {
    const seats = [seat(0, "Ann", "person"), seat(1, "AI (ai)", "ai")];
    expect(playersWords(summary("fool", seats, null))).toBe("Ann against Computer");
    expect(resultWords(summary("fool", seats, { fool: 1 }))).toBe("Ann won; Computer is the Fool");
    expect(resultWords(summary("fool", seats, { fool: null }))).toBe("no Fool: the game reached its move limit");
  });

  test("Patience: came out or overflowed", () => {
    const owner = [seat(0, "Ann", "person")];
    expect(resultWords(summary("patience", owner, { outcome: { kind: "finished", pileSizes: [8, 6, 7, 0] } }))).toBe(
      "came out: 3 piles left",
    );
    expect(resultWords(summary("patience", owner, { outcome: { kind: "overflowed", cardNumber: 40 } }))).toBe(
      "overflowed: no room for card 40",
    );
  });

  test("Tractor: the teams, a round's points and ranks, a match's winner", () => {
    const seats = [seat(0, "Ann", "person"), seat(1, "bot", "bot"), seat(2, "bot", "bot"), seat(3, "bot", "bot")];
    expect(playersWords(summary("tractor", seats, null))).toBe("Ann and Computer against the computer pair (team 2)");
    const round = { defenderPoints: 35, team: 1, levels: 2, teamRanks: [13, 2] };
    expect(resultWords(summary("tractor", seats, round, { part: "round", round: 3 }))).toBe(
      "round 3: the defenders took 35 points; Ann and Computer go up 2 ranks (ranks now King and 2)",
    );
    expect(
      resultWords(summary("tractor", seats, { ...round, levels: 0, defenderPoints: 90 }, { part: "round", round: 4 })),
    ).toBe("round 4: the defenders took 90 points; nobody goes up (ranks now King and 2)");
    expect(
      resultWords(summary("tractor", seats, { winner: 2, teamRanks: [13, 15], rounds: 9 }, { part: "match" })),
    ).toBe("the computer pair (team 2) won the match in 9 rounds");
  });
});
