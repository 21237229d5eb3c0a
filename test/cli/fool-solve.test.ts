import * as fs from "node:fs";
import * as path from "node:path";
import { SKIP_CARDS } from "../../rooms/fool/cards";
import { checkWinningLine } from "../../rooms/fool/checker";
import { runBin, SEEDS } from "./run";

const SAMPLE_IN = fs.readFileSync(path.join(SEEDS, "fool-sample.in"), "utf8");
const SAMPLE_OUT = fs.readFileSync(path.join(SEEDS, "fool-sample.out"), "utf8");

function lines(text: string): string[] {
  return text.trim().split(/\r?\n/);
}

/** Runs bin/fool-solve on a position and checks a YES sequence with the independent checker. */
function verdict(handLine: string, faceUpLine: string): string {
  const run = runBin("fool-solve", [], `${handLine}\n${faceUpLine}\n`);
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  const [answer, sequence] = lines(run.stdout);
  if (answer === "YES") expect(checkWinningLine(handLine, faceUpLine, sequence)).toBeNull();
  else expect(run.stdout).toBe("NO\n");
  return answer;
}

describe("bin/fool-solve", () => {
  test("answers the statement's sample YES with a sequence the checker accepts", () => {
    const run = runBin("fool-solve", [], SAMPLE_IN);
    expect(run.status).toBe(0);
    expect(lines(run.stdout)[0]).toBe(lines(SAMPLE_OUT)[0]);
    const [handLine, faceUpLine] = lines(SAMPLE_IN);
    expect(checkWinningLine(handLine, faceUpLine, lines(run.stdout)[1])).toBeNull();
    expect(checkWinningLine(handLine, faceUpLine, lines(SAMPLE_OUT)[1])).toBeNull();
  });

  test("reads a file named on the command line", () => {
    const run = runBin("fool-solve", [path.join(SEEDS, "fool-sample.in")], "");
    expect(lines(run.stdout)[0]).toBe("YES");
  });

  test("answers NO when two cards would give the opponent a move", () => {
    expect(verdict("8S 9S 6S", "7S")).toBe("NO");
  });

  test("solves the largest hands: every skip card, both jokers and one more card", () => {
    expect(verdict([...SKIP_CARDS, "*", "*", "8H"].join(" "), "QCD")).toBe("YES");
  });

  test("tolerates Windows line ends and extra spaces", () => {
    const run = runBin("fool-solve", [], "  6C   QD 6S KS 7S *  \r\n*QHS\r\n");
    expect(lines(run.stdout)[0]).toBe("YES");
  });

  test.each([
    ["an unknown card", "6C 1X\n7C\n", /"1X" is not a card/],
    ["a missing face-up line", "6C 7C\n", /expected two lines/],
    ["a face-up Queen without its named suit", "6C\nQH\n", /named suit/],
    ["a face-up joker without its name", "6C\n*\n", /joker must be followed/],
    ["a card held twice", "6C 6C\n7C\n", /twice/],
    ["three jokers", "* * 6C\n*7C\n", /both jokers/],
    ["the face-up card in the hand", "6C 7C\n7C\n", /also in the hand/],
    ["empty input", "", /expected two lines/],
  ])("rejects %s with one clear line on stderr", (_name, input, message) => {
    const run = runBin("fool-solve", [], input);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(lines(run.stderr)).toHaveLength(1);
  });

  test("a missing input file is a clear error", () => {
    const run = runBin("fool-solve", ["no-such-position.in"], "");
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/cannot read no-such-position.in/);
  });
});
