/**
 * One exit-status convention for every command-line program (README, "Exit status"): 0 done, 1 failed while
 * running, 2 bad usage or bad input, an empty input included.
 */
import * as path from "node:path";
import { freePort } from "../e2e/server-process";
import { ROOT, runBin } from "./run";

const EVENSTEVEN_PLAYER = path.join(ROOT, "bin", "evensteven");

/** The programs that read their input from stdin, with the arguments each needs besides. */
const INPUT_PROGRAMS: Array<[string, string[]]> = [
  ["dealer", [EVENSTEVEN_PLAYER]],
  ["patience", []],
  ["tractor-sim", []],
  ["fool-solve", []],
];

const EVERY_PROGRAM = [
  ...INPUT_PROGRAMS.map(([name]) => name),
  "evensteven-bridge",
  "bridge",
  "bots",
  "loadtest",
  "cluster",
  "replay",
];

/** The programs that play against a server at `--url`, with the arguments each needs besides. */
const CLIENT_PROGRAMS: Array<[string, string[]]> = [
  ["bots", ["--game", "evensteven", "--games", "1"]],
  ["bridge", ["--game", "evensteven", "--", EVENSTEVEN_PLAYER]],
  ["evensteven-bridge", ["--games", "1", "--", EVENSTEVEN_PLAYER]],
  ["loadtest", ["--clients", "1", "--no-baseline", "--quiet"]],
];

describe("exit status", () => {
  it.each(INPUT_PROGRAMS)("%s: an empty input is bad input (2), said in one line", (name, args) => {
    const run = runBin(name, args, "");
    expect(run.stdout).toBe("");
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.status).toBe(2);
  });

  it.each(INPUT_PROGRAMS)("%s: malformed input is bad input (2)", (name, args) => {
    const run = runBin(name, args, "this is not the input\n");
    expect(run.stderr).toMatch(new RegExp(`^${name}: `));
    expect(run.status).toBe(2);
  });

  it.each(EVERY_PROGRAM)(
    "%s: bad usage (an unknown option, a required one missing) is 2; --help is done (0)",
    (name) => {
      const unknown = runBin(name, ["--no-such-option"], "");
      expect(unknown.stderr).toMatch(
        new RegExp(
          `^${name}: (unknown option '--no-such-option'|required option '--url <url>' not specified|missing required argument)`,
        ),
      );
      expect(unknown.status).toBe(2);
      expect(runBin(name, ["--help"], "").status).toBe(0);
    },
  );

  it("evensteven-bridge: stdin without a game is bad input (2), before any connection", () => {
    const run = runBin(
      "evensteven-bridge",
      ["--url", "ws://127.0.0.1:9", "--from-stdin", "--", EVENSTEVEN_PLAYER],
      "\n\n",
    );
    expect(run.stderr).toBe("evensteven-bridge: the input holds no games\n");
    expect(run.status).toBe(2);
  });

  it("loadtest: a client count its mix cannot seat exactly is bad usage (2), before any connection", () => {
    const run = runBin("loadtest", ["--url", "ws://127.0.0.1:9", "--clients", "10", "--mix", "tractor=1"], "");
    expect(run.stderr).toBe(
      "loadtest: 10 clients cannot all be seated: the mix has only tables of 4 (tractor) seats\n",
    );
    expect(run.status).toBe(2);
  });

  it.each(CLIENT_PROGRAMS)(
    "%s: an address that is none is bad usage (2), said on stderr with the address",
    (name, args) => {
      const run = runBin(name, ["--url", "notaurl", ...args], "");
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(
        new RegExp(
          `^${name}: option '--url <url>' argument 'notaurl' is invalid\\. expected a ws:// or wss:// address.*"notaurl"`,
        ),
      );
      expect(run.status).toBe(2);
    },
  );

  it.each(CLIENT_PROGRAMS)(
    "%s: a server that cannot be reached fails the run (1), said on stderr with the address",
    async (name, args) => {
      const url = `ws://127.0.0.1:${await freePort()}`;
      const run = runBin(name, ["--url", url, ...args], "1 1\n");
      expect(run.stderr).toMatch(new RegExp(`^${name}: (table 1: failed: )?cannot reach ${url}: `, "m"));
      expect(run.status).toBe(1);
    },
  );

  it("bridge: a missing program is bad usage, said in a line that names the bridge", () => {
    const run = runBin("bridge", ["--url", "ws://127.0.0.1:9", "--game", "fool"], "");
    expect(run.stderr).toBe("bridge: missing required argument 'program'\n");
    expect(run.status).toBe(2);
  });
});
