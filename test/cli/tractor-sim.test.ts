import { seededRandom } from "../../rooms/kit/random";
import { randomRecordedRound } from "../../rooms/tractor/generate";
import { formatCaseResult, formatStatementInput } from "../../rooms/tractor/statement-format";
import { runBin } from "./run";

function run(input: string) {
  return runBin("tractor-sim", [], input);
}

const SAMPLE_INPUT = [
  "1",
  "",
  "O Charles 2 2",
  "S6S6S7S7 SASKSJST STS8S4S4 S3S5SJSQ",
  "S9S9 H3D3 S3DT SAD3",
  "DA DQ DK D4",
  "SKS8S5S3 RJC2D2H2 C6C8CJD9 H3CKDTD5",
  "H7H7 H6H4 HJHQ H9H9",
  "DJDJ DKH5 D5D4 D6D6",
  "D8D8 C4C3 HTH5 D9D7",
  "C5C5 C6CT H8HQ C7C4",
  "H8 C7 HA HA",
  "H2 RJ BJ CK",
  "DA BJ C8 HK",
  "S2S2C2 CQCAD2 HTHJHK C9CQCA",
  "",
].join("\n");
const SAMPLE_OUTPUT = "Case #1:\n50\n3 2 Alice\n";

describe("bin/tractor-sim", () => {
  it("prints the sample's output", () => {
    expect(run(SAMPLE_INPUT)).toEqual({ status: 0, stdout: SAMPLE_OUTPUT, stderr: "" });
  });

  it("tolerates CRLF line ends, trailing blanks and extra blank lines", () => {
    const messy =
      SAMPLE_INPUT.split("\n")
        .map((line) => `${line}  \t`)
        .join("\r\n") + "\r\n\r\n";
    expect(run(messy)).toEqual({ status: 0, stdout: SAMPLE_OUTPUT, stderr: "" });
  });

  it("agrees with the engine's own settlement on generated rounds", () => {
    const random = seededRandom("cli");
    const played = Array.from({ length: 30 }, () => randomRecordedRound(random));
    const expected = played.map((round, index) => formatCaseResult(index + 1, round.state.result)).join("");
    const result = run(formatStatementInput(played.map((round) => round.record)));
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(expected);
  });

  it("selects rule options with --rules; the statement's rules are the default", () => {
    expect(runBin("tractor-sim", ["--rules", "{}"], SAMPLE_INPUT)).toEqual({
      status: 0,
      stdout: SAMPLE_OUTPUT,
      stderr: "",
    });
    const rejected = runBin("tractor-sim", ["--rules", '{"overplayedCards":"reject"}'], SAMPLE_INPUT);
    expect(rejected).toMatchObject({
      stdout: "",
      stderr: "tractor-sim: malformed input: case 1 plays S3 more often than the two decks hold\n",
    });
    expect(rejected.status).not.toBe(0);
    expect(runBin("tractor-sim", ["--rules", '{"hiddenMultiplier":"sometimes"}'], SAMPLE_INPUT).status).not.toBe(0);
  });

  it.each([
    ["", /empty/],
    ["x\n", /number of cases/],
    ["1\n\nQ Charles 2 2\n", /main suit/],
    ["1\n\nO Eve 2 2\n", /dealer/],
    ["1\n\nO Charles 2 Z\n", /not a rank/],
    ["1\n\nO Charles 2 2\nS6S6 S7\n", /4 players/],
    ["1\n\nO Charles 2 2\nS6S6 S7S7 XXS8 S9S9\n", /"XXS8" is not a list of cards/],
    ["1\n\nO Charles 2 2\nS6S6 S7 S8S8 S9S9\n", /as many cards as the lead/],
    ["1\n\nO Charles 2 2\nS6D6 S7S7 S8S8 S9S9\n", /must be all trumps/],
    ["1\n\nO Charles 2 2\nS6 S7 S8 S9\n", /ends after 1 card/],
    [SAMPLE_INPUT + "\nO Alice 2 2\n", /unexpected text/],
  ])("rejects malformed input %j with a clear message", (input, message) => {
    const result = run(input);
    expect(result.status).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^tractor-sim: malformed input: /);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
