/**
 * The judges stream (issue 22): fed through a pipe, they answer the first case before the input ends; on large
 * generated inputs their output matches the in-process engines and their peak memory does not grow with the
 * input's length; and they load only the engines they need. Nothing here asserts on time.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as path from "node:path";
import { seededRandom } from "../../rooms/kit/random";
import { shuffledDeck, type Card } from "../../rooms/patience/cards";
import { playByPlay } from "../../rooms/patience/engine";
import { formatDeck, formatResult } from "../../rooms/patience/notation";
import { randomRecordedRound } from "../../rooms/tractor/generate";
import { formatCaseResult, formatStatementInput } from "../../rooms/tractor/statement-format";
import { ROOT } from "./run";

const PROBE = path.join(ROOT, "test", "fixtures", "judge-probe.js");
/** How much more a judge's peak memory may be on an input ten times as long (the young generation settling). */
const MEMORY_SLACK_KIB = 32 * 1024;

interface Probed {
  stdout: string;
  stderr: string;
  status: number | null;
  /** Every module the judge loaded, as resolved paths (built-in modules by name). */
  modules: string[];
  maxRssKiB: number;
}

/** Runs a bin/ judge on `input` with the probe loaded (test/fixtures/judge-probe.js). */
function runProbed(name: string, input: string): Probed {
  const result = spawnSync(path.join(ROOT, "bin", name), [], {
    input,
    encoding: "utf8",
    stdio: ["pipe", "pipe", "pipe", "pipe"],
    env: { ...process.env, NODE_OPTIONS: `--require "${PROBE}"` },
    maxBuffer: 1 << 28,
  });
  const report = JSON.parse(String(result.output[3])) as { modules: string[]; maxRssKiB: number };
  return { stdout: result.stdout, stderr: result.stderr, status: result.status, ...report };
}

/** Judges started by answersBeforeTheEnd; one still running after its test (a judge that never answered) is killed. */
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
});

/**
 * Feeds a judge `head`, waits until its output begins with `firstAnswer` (so it answered before its input ended),
 * then sends `rest` and closes its input. Resolves with the whole output.
 */
function answersBeforeTheEnd(name: string, head: string, firstAnswer: string, rest: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(ROOT, "bin", name), [], { stdio: ["pipe", "pipe", "inherit"] });
    running.add(child);
    let output = "";
    let restSent = false;
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      if (!restSent && output.length >= firstAnswer.length) {
        restSent = true;
        if (!output.startsWith(firstAnswer))
          reject(new Error(`the first answer was ${JSON.stringify(output.slice(0, 80))}`));
        child.stdin.end(rest);
      }
    });
    child.on("error", reject);
    child.on("close", () => running.delete(child));
    child.on("close", (status) =>
      status === 0 && restSent ? resolve(output) : reject(new Error(`exit ${status} before its input ended`)),
    );
    child.stdin.write(head);
  });
}

// ---------------------------------------------------------------- tractor-sim

/** A few distinct rounds played through the round engine, with the engine's own settlements. */
const tractorPool = (() => {
  const random = seededRandom("judges-streaming");
  return Array.from({ length: 40 }, () => randomRecordedRound(random));
})();

/** `count` cases cycling through the pool: the input, and the output the engine's settlements make. */
function tractorCases(count: number, from = 0): { cases: string; expected: string } {
  let cases = "";
  let expected = "";
  for (let index = from; index < from + count; index++) {
    const played = tractorPool[index % tractorPool.length];
    const oneRound = formatStatementInput([played.record]);
    cases += oneRound.slice(oneRound.indexOf("\n"));
    expected += formatCaseResult(index + 1, played.state.result!);
  }
  return { cases, expected };
}

function tractorInput(count: number): { input: string; expected: string } {
  const { cases, expected } = tractorCases(count);
  return { input: `${count}\n${cases}`, expected };
}

// ---------------------------------------------------------------- patience

function randomDecks(count: number, seed: string): Card[][] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => shuffledDeck(random));
}

/** The decks' lines, and the output the step-by-step engine (the rooms' engine) makes of them. */
function patienceCases(decks: readonly Card[][], firstNumber = 1): { cases: string; expected: string } {
  const cases = decks.map((deck) => formatDeck(deck).join("\n") + "\n").join("");
  const expected = decks
    .map((deck, index) => formatResult(firstNumber + index, playByPlay(deck).outcome) + "\n")
    .join("");
  return { cases, expected };
}

// ---------------------------------------------------------------- the tests

describe("the judges stream", () => {
  it("tractor-sim answers the first case while the input is still open", async () => {
    const head = tractorCases(3);
    const rest = tractorCases(5, 3);
    const firstAnswer = formatCaseResult(1, tractorPool[0].state.result!);
    const output = await answersBeforeTheEnd("tractor-sim", `8\n${head.cases}`, firstAnswer, rest.cases);
    expect(output).toBe(head.expected + rest.expected);
  });

  it("patience answers the first deck while the input is still open", async () => {
    const decks = randomDecks(6, "streaming-pipe");
    const head = patienceCases(decks.slice(0, 2));
    const rest = patienceCases(decks.slice(2), 3);
    const firstAnswer = head.expected.slice(0, head.expected.indexOf("\n") + 1);
    const output = await answersBeforeTheEnd("patience", head.cases, firstAnswer, rest.cases + "#\n");
    expect(output).toBe(head.expected + rest.expected);
  });

  it("tractor-sim matches the engine on 20,000 rounds with no more memory than on 2,000", () => {
    const small = tractorInput(2_000);
    const large = tractorInput(20_000);
    const smallRun = runProbed("tractor-sim", small.input);
    const largeRun = runProbed("tractor-sim", large.input);
    expect(smallRun).toMatchObject({ status: 0, stderr: "", stdout: small.expected });
    expect(largeRun).toMatchObject({ status: 0, stderr: "", stdout: large.expected });
    expect(largeRun.maxRssKiB).toBeLessThan(smallRun.maxRssKiB + MEMORY_SLACK_KIB);
  });

  it("patience matches the step-by-step engine on 30,000 decks with no more memory than on 3,000", () => {
    const decks = randomDecks(30_000, "streaming-memory");
    const small = patienceCases(decks.slice(0, 3_000));
    const large = patienceCases(decks);
    const smallRun = runProbed("patience", small.cases + "#\n");
    const largeRun = runProbed("patience", large.cases + "#\n");
    expect(smallRun).toMatchObject({ status: 0, stderr: "", stdout: small.expected });
    expect(largeRun).toMatchObject({ status: 0, stderr: "", stdout: large.expected });
    expect(largeRun.maxRssKiB).toBeLessThan(smallRun.maxRssKiB + MEMORY_SLACK_KIB);
  });
});

describe("the judges load only what they need", () => {
  /** The project's own modules a judge may load: its game's engine, the kit's pure helpers, the judges' library. */
  const allowed: Record<string, RegExp> = {
    "tractor-sim": /^dist\/(rooms\/tractor|rooms\/kit|bin\/src)\//,
    patience: /^dist\/(rooms\/patience|rooms\/kit|bin\/src)\//,
    "fool-solve": /^dist\/(rooms\/fool|rooms\/kit|bin\/src)\//,
  };
  const inputs: Record<string, string> = {
    "tractor-sim": tractorInput(1).input,
    patience: patienceCases(randomDecks(1, "imports")).cases,
    "fool-solve": "7D AH 7C 8S AS 7S 6D 7H AC *\nTD\n",
  };

  it.each(Object.keys(allowed))("%s loads no package and nothing of the server, the SDK or the other games", (name) => {
    const run = runProbed(name, inputs[name]);
    expect(run.status).toBe(0);
    const files = run.modules.filter((module) => path.isAbsolute(module)).map((module) => path.relative(ROOT, module));
    expect(files.filter((file) => file.startsWith("node_modules"))).toEqual([]);
    expect(files.filter((file) => !allowed[name].test(file))).toEqual([]);
  });
});
