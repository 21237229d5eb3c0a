/** bin/bots against a real server: every game's outcome, a line each, and the Tractor match's rounds and winner. */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { finished, freePort, ServerProcess, type Finished } from "./server-process";
import { BOT_TABLES } from "../../client-sdk/bots/tables";
import { TRACTOR_SEATS } from "../../rooms/tractor/protocol";

const ROOT = path.resolve(__dirname, "..", "..");
/** A team's rank as the lines write it. */
const RANK = "(past A|[2-9TJQKA])";

function runBots(args: string[]): Promise<Finished> {
  return finished(spawn(path.join(ROOT, "bin", "bots"), args, { stdio: ["ignore", "pipe", "pipe"] }));
}

describe("bin/bots", () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = new ServerProcess(await freePort());
    await server.start();
  });

  afterAll(async () => {
    await server.stop();
  });

  it("plays a whole Tractor match by default: each round's points, change and ranks, then the winner and final ranks", async () => {
    const run = await runBots(["--url", server.url, "--game", "tractor"]);
    expect(run.stderr).toBe("");
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^table 1 \(room \S+\):$/);
    const rounds = lines.slice(1, -1);
    expect(rounds.length).toBeGreaterThan(0);
    rounds.forEach((line, index) => {
      expect(line).toMatch(
        new RegExp(
          `^  round ${index + 1} \\(seed \\d+\\): defenders \\d+ points.*; (nobody goes up|team [12] up \\d+.*); ranks ${RANK} / ${RANK}$`,
        ),
      );
    });
    expect(lines[lines.length - 1]).toMatch(
      new RegExp(
        `^  match over after ${rounds.length} rounds?: team [12] won; final ranks (past A / ${RANK}|${RANK} / past A)$`,
      ),
    );
    expect(run.status).toBe(0);
  });

  it("finds the last round's ranks in the state at a Tractor match's end: a probed table sees no desync", async () => {
    const desyncs: string[] = [];
    const probe = { sent: () => undefined, seen: () => undefined, desync: (detail: string) => desyncs.push(detail) };
    const table = await BOT_TABLES.tractor.play({ url: server.url, probes: TRACTOR_SEATS.map(() => probe) });
    expect(table.lines[table.lines.length - 1]).toMatch(/^match over after \d+ rounds?: team [12] won/);
    expect(desyncs).toEqual([]);
  });

  it("stops a Tractor table after --games rounds and says where the match stood", async () => {
    const run = await runBots(["--url", server.url, "--game", "tractor", "--games", "1"]);
    expect(run.stdout).toMatch(
      /\n {2}round 1 \(seed \d+\): .*\n {2}(stopped after 1 round with no winner yet; ranks [2-9TJQKA] \/ [2-9TJQKA]|match over after 1 round: .*)\n$/,
    );
    expect(run.status).toBe(0);
  });

  it.each([
    ["evensteven", /^ {2}game 1 \(seed \d+\): (WIN|LOSE NECESSARILY|LOSE UNNECESSARILY)$/m],
    ["fool", /^ {2}game 1 \(seed \d+\): (won|lost|capped) in \d+ moves$/m],
    ["patience", /^ {2}deal 1 \(seed \d+\): (piles [\d ]+|overflowed on card no \d+)$/m],
  ])("prints each %s game's outcome", async (game, outcome) => {
    const run = await runBots(["--url", server.url, "--game", game, "--games", "1", "--tables", "2"]);
    expect(run.stderr).toBe("");
    expect(run.stdout.match(new RegExp(outcome.source, "gm"))).toHaveLength(2);
    expect(run.status).toBe(0);
  });
});
