/** bin/patience as the judge runs it: the compiled program, decks on stdin (or a file), results on stdout. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runBin, type Run } from "./run";

const PATIENCE = join(__dirname, "..", "..", "bin", "patience");

function run(input: string, args: string[] = []): Run {
  return runBin("patience", args, input, 20_000);
}

const SAMPLE_IN = [
  "TS QC 8S 8D QH 2D 3H KH 9H 2H TH KS KC",
  "9D JH 7H JD 2S QS TD 2C 4H 5H AD 4D 5D",
  "6D 4S 9S 5S 7S JS 8H 3D 8C 3S 4C 6S 9C",
  "AS 7C AH 6H KD JC 7D AC 5C TC QD 6C 3C",
  "#",
].join("\n");
const SAMPLE_OUT = "  1:  8  6  7  4  3  5  4  4  2  5  4\n";

/** A full deck whose first 16 cards (every ace, two, three and four) make no pair, so card 17 overflows. */
const OVERFLOW_DECK = [
  "AS 2S 3S 4S AH 2H 3H 4H AC 2C 3C 4C AD",
  "2D 3D 4D 5S 6S 7S 8S 9S TS JS QS KS 5H",
  "6H 7H 8H 9H TH JH QH KH 5C 6C 7C 8C 9C",
  "TC JC QC KC 5D 6D 7D 8D 9D TD JD QD KD",
].join("\n");

describe("bin/patience", () => {
  it("turns the sample input into the sample output", () => {
    expect(run(SAMPLE_IN + "\n")).toEqual({ stdout: SAMPLE_OUT, stderr: "", status: 0 });
  });

  it("numbers several decks and reports an overflow with the card about to be dealt", () => {
    const input = [SAMPLE_IN.replace("\n#", ""), OVERFLOW_DECK, SAMPLE_IN].join("\n");
    const { stdout, status } = run(input);
    expect(status).toBe(0);
    expect(stdout).toBe(SAMPLE_OUT + "  2: Overflowed on card no 17\n" + SAMPLE_OUT.replace("  1:", "  3:"));
  });

  it("reads a file named on the command line", () => {
    const folder = mkdtempSync(join(tmpdir(), "patience-"));
    try {
      writeFileSync(join(folder, "decks.in"), SAMPLE_IN);
      expect(run("", [join(folder, "decks.in")]).stdout).toBe(SAMPLE_OUT);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("does not mind CRLF line ends and extra blanks", () => {
    const untidy = "\r\n  " + SAMPLE_IN.split("\n").join("  \t\r\n") + "\r\n";
    expect(run(untidy).stdout).toBe(SAMPLE_OUT);
  });

  it("writes every move to stderr with --trace, leaving stdout exact", () => {
    const { stdout, stderr, status } = run(SAMPLE_IN, ["--trace"]);
    expect(status).toBe(0);
    expect(stdout).toBe(SAMPLE_OUT);
    const moves = stderr.trimEnd().split("\n");
    expect(moves.slice(6, 8)).toEqual([
      "deck 1: card 7, 3H, starts pile 6",
      "deck 1: pair on piles 2,6: 8S 3H covered by KH 9H",
    ]);
    expect(moves[moves.length - 1]).toBe("deck 1: finished with piles of 8 6 7 4 3 5 4 4 2 5 4");
  });

  it("refuses an input of only # (nothing to play) as bad input", () => {
    expect(run("#\n")).toEqual({
      stdout: "",
      stderr: 'patience: standard input holds no deck before its "#" line\n',
      status: 2,
    });
  });

  it("rejects a token that is not a card with a one-line message and no output", () => {
    const { stdout, stderr, status } = run(SAMPLE_IN.replace("JD", "JX"));
    expect(status).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      'patience: standard input, line 2: "JX" is not a card; ' +
        "a card is a rank (A 2-9 T J Q K) followed by a suit (S H C D), e.g. TS\n",
    );
  });

  it("rejects a deck cut short", () => {
    const { stdout, stderr, status } = run(SAMPLE_IN.replace("AS 7C AH 6H KD JC 7D AC 5C TC QD 6C 3C\n", ""));
    expect(status).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe("patience: standard input, line 4: deck 1 has only 39 of its 52 cards\n");
  });

  it("stops quietly when its reader closes the pipe early", () => {
    const folder = mkdtempSync(join(tmpdir(), "patience-"));
    try {
      const decks = join(folder, "decks.in");
      writeFileSync(decks, (SAMPLE_IN.replace("\n#", "") + "\n").repeat(3000) + "#\n"); // ~110 kB of results
      const result = spawnSync("sh", ["-c", `"${PATIENCE}" "${decks}" | head -n 1`], {
        encoding: "utf8",
        timeout: 20000,
      });
      expect(result.stdout).toBe(SAMPLE_OUT);
      expect(result.stderr).toBe("");
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("says plainly when the file cannot be read", () => {
    const { stderr, status } = run("", ["no-such-file.in"]);
    expect(status).toBe(2);
    expect(stderr).toMatch(/^patience: cannot read no-such-file\.in: ENOENT/);
    expect(stderr.split("\n")).toHaveLength(2);
  });

  it("plays a deck with a repeated card but warns about it", () => {
    const { stdout, stderr, status } = run(SAMPLE_IN.replace("JD", "JH"));
    expect(status).toBe(0);
    expect(stdout).toMatch(/^ {2}1:/);
    expect(stderr).toBe("patience: warning: deck 1 repeats JH; played as given\n");
  });
});
