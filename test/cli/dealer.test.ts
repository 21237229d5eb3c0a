import * as fs from "node:fs";
import * as path from "node:path";
import { canWin, cardsToCover, initialHand, newGame, type Game } from "../../rooms/evensteven/engine";
import { fixture, runBin, SEEDS } from "./run";

const SAMPLE_IN = fs.readFileSync(path.join(SEEDS, "evensteven-dealer-sample.in"), "utf8");
const SAMPLE_OUT = fs.readFileSync(path.join(SEEDS, "evensteven-dealer-sample.out"), "utf8");

/** A deterministic list of `N seed` lines spread over every hand size. */
function gameLines(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `${(i % 13) + 1} ${((i * 2654435761) % 2147483646) + 1}`);
}

function dealerVerdicts(stdout: string): string[] {
  return stdout
    .trim()
    .split("\n")
    .filter((line) => line.startsWith("YOU "));
}

/** What the first-card player gets, judged independently: replay its plays and check the hand with canWin. */
function expectedVerdictForFirstCardPlayer(game: Game): string {
  const hand = initialHand(game);
  const dealt = cardsToCover(game);
  const firstLoss = dealt.findIndex((card, i) => cardValueOf(hand[i]) < cardValueOf(card));
  if (firstLoss < 0) return "YOU WIN";
  return canWin(hand, dealt) ? "YOU LOSE UNNECESSARILY" : "YOU LOSE NECESSARILY";
}

const ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const cardValueOf = (card: string) => ORDER.indexOf(card.slice(0, -1));

describe("bin/dealer", () => {
  test("prints the statement's sample exactly with bin/evensteven", () => {
    const run = runBin("dealer", [path.join(__dirname, "..", "..", "bin", "evensteven")], SAMPLE_IN);
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(SAMPLE_OUT);
    expect(run.status).toBe(0);
  });

  test("the optimal player never loses unnecessarily over many seeds", () => {
    const lines = gameLines(400);
    const run = runBin("dealer", [path.join(__dirname, "..", "..", "bin", "evensteven")], lines.join("\n") + "\n");
    const verdicts = dealerVerdicts(run.stdout);
    expect(verdicts).toHaveLength(400);
    lines.forEach((line, i) => {
      const [n, seed] = line.split(" ").map(Number);
      const game = newGame(n, seed);
      expect(verdicts[i]).toBe(canWin(initialHand(game), cardsToCover(game)) ? "YOU WIN" : "YOU LOSE NECESSARILY");
    });
  });

  test("a poor player's verdicts agree with an independent judgement", () => {
    const lines = gameLines(400);
    const run = runBin("dealer", [fixture("poor-player.js")], lines.join("\n") + "\n");
    const verdicts = dealerVerdicts(run.stdout);
    const expected = lines.map((line) => {
      const [n, seed] = line.split(" ").map(Number);
      return expectedVerdictForFirstCardPlayer(newGame(n, seed));
    });
    expect(verdicts).toEqual(expected);
    expect(new Set(verdicts)).toEqual(new Set(["YOU WIN", "YOU LOSE NECESSARILY", "YOU LOSE UNNECESSARILY"]));
  });

  test("copies the player's `*` lines and passes extra arguments to it", () => {
    const run = runBin("dealer", [fixture("misbehaving-player.js"), "debug"], "4 653723903\n");
    expect(run.stdout).toBe("Game 1\n* dealt 3s\n* dealt 6h\n* dealt Kh\n* dealt 5c\nYOU WIN\n");
  });

  test.each([
    ["garbage", /^dealer: Game 1: the player answered 3s with "Ten of spades": "Ten of spades" is not a card/],
    ["stranger", /^dealer: Game 1: the player answered 3s with "2c": 2c is not in the hand/],
    ["twice", /^dealer: Game 1: the player answered 6h with "Kd": Kd was already played in this game/],
    ["exit", /^dealer: Game 1: the player exited \(exit code 3\) without answering 3s/],
    ["silent", /^dealer: Game 1: the player did not answer 3s within 0.5 s/],
    ["linger", /^dealer: the player did not exit within 0.5 s after its input ended/],
  ])("a %s player gets a one-line message and exit status 1", (fault, message) => {
    const run = runBin(
      "dealer",
      ["--timeout", "0.5", fixture("misbehaving-player.js"), fault],
      "4 653723903\n4 653723903\n",
    );
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.status).toBe(1);
    expect(run.stdout.startsWith("Game 1\n")).toBe(true);
  });

  test("bad `N seed` lines are refused (reported, not played, exit status 2); the good ones are played", () => {
    const input = "14 5\n0 5\n4 0\n4 2147483647\nhello\n\n4 876390176 9\n4 876390176\n";
    const run = runBin("dealer", [path.join(__dirname, "..", "..", "bin", "evensteven")], input);
    expect(run.stdout).toBe("Game 1\nYOU LOSE NECESSARILY\n");
    expect(run.stderr.trim().split("\n")).toEqual([
      "dealer: input line 1 refused: N must be a whole number from 1 to 13",
      "dealer: input line 2 refused: N must be a whole number from 1 to 13",
      "dealer: input line 3 refused: seed must be a whole number from 1 to 2147483646",
      "dealer: input line 4 refused: seed must be a whole number from 1 to 2147483646",
      'dealer: input line 5 refused: expected "N seed" (two whole numbers), got "hello"',
      'dealer: input line 7 refused: expected "N seed" (two whole numbers), got "4 876390176 9"',
    ]);
    expect(run.status).toBe(2);
  });

  test("a last line cut short (no line end after it) is refused: its seed may be cut short", () => {
    const run = runBin("dealer", [path.join(__dirname, "..", "..", "bin", "evensteven")], "4 876390176\n4 8763");
    expect(run.stdout).toBe("Game 1\nYOU LOSE NECESSARILY\n");
    expect(run.stderr).toBe(
      'dealer: input line 2 refused: the input ends inside this line ("4 8763" has no line end after it), so it may be cut short\n',
    );
    expect(run.status).toBe(2);
  });

  test("a program that cannot be started is reported", () => {
    const run = runBin("dealer", ["./no-such-program"], "4 876390176\n");
    expect(run.stderr).toMatch(/could not be started/);
    expect(run.status).toBe(1);
  });
});
