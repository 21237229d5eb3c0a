/**
 * The bridge's round-trip cost per turn, per game, for a program that answers at once: bin/bridge --timing gives,
 * for each turn, the milliseconds from the turn line written (the view serialised as JSON) to the program's answer
 * read and checked — the pipes both ways, the program's JSON parse and print, and the bridge's parse and check.
 * The programs answer every turn with its suggestion at once: a Python one (json module) for every game, and a C
 * one for Even-Steven. ROUNDS runs per game and program, alternating, against one fresh server; each run's first
 * turn is left out (it also waits for the program to start). Prints figures (and each game's mean turn line);
 * never passes or fails.
 *
 *   npm run bench:bridge            (ROUNDS, GAMES change the counts)
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BRIDGE_GAMES, type BridgeGame } from "../bin/src/lib/bridge-protocol";
import { freePort } from "../test/e2e/ports";
import { startServer, stopServer } from "./server";
import { summarize } from "./stats";

const ROOT = path.resolve(__dirname, "..", "..");
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const GAMES = Number(process.env.GAMES ?? 4);

/** The games' options: seeded, and with opponents that answer at once (their time is in both figures alike). */
const TABLE: Record<BridgeGame, string[]> = {
  evensteven: ["--n", "13"],
  fool: [], // the room's own AI, on its threads
  patience: [],
  tractor: [],
};

/** Answers every turn with its suggestion at once; writes the turn lines' mean length on stderr at the end. */
const ECHO_PROGRAM = `
import json, sys
lines, total = 0, 0
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "turn":
        lines, total = lines + 1, total + len(line)
        action = message["suggestion"] if message["suggestion"] is not None else message["legal"][0]
        print(json.dumps({"turn": message["turn"], "action": action}), flush=True)
    elif kind == "bye":
        break
print("TURN_LINE_BYTES %d" % (total // max(lines, 1)), file=sys.stderr)
`;

/** The round trips (ms) of one bin/bridge --timing run, and the mean turn line's length when the program says it. */
async function bridged(
  url: string,
  game: BridgeGame,
  seed: number,
  program: string[],
): Promise<{ trips: number[]; lineBytes?: number }> {
  const args = [
    "--url",
    url,
    "--game",
    game,
    "--seed",
    String(seed),
    "--games",
    String(GAMES),
    "--timing",
    ...TABLE[game],
    "--",
    ...program,
  ];
  const child = spawn(path.join(ROOT, "bin", "bridge"), args, { stdio: ["ignore", "pipe", "pipe"] });
  let [stdout, stderr] = ["", ""];
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const trips = /^round trips: (.*)$/m.exec(stdout);
  if (status !== 0 || !trips) throw new Error(`the bridge failed (${status}): ${stdout}${stderr}`);
  const bytes = /^TURN_LINE_BYTES (\d+)$/m.exec(stderr);
  return { trips: JSON.parse(trips[1]) as number[], lineBytes: bytes ? Number(bytes[1]) : undefined };
}

/** Builds the C example player into `dir`. */
function compileC(dir: string): string {
  const binary = path.join(dir, "evensteven_player");
  const built = spawnSync("cc", ["-O2", "-o", binary, path.join(ROOT, "examples", "c", "evensteven_player.c")], {
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`cc failed: ${built.stderr}`);
  return binary;
}

function row(game: string, program: string, trips: number[], lineBytes?: number): string {
  const s = summarize(trips);
  return `| ${game} | ${program} | ${lineBytes ?? ""} | ${s.count} | ${s.mean.toFixed(3)} | ${s.p50.toFixed(3)} | ${s.p95.toFixed(3)} | ${s.max.toFixed(3)} |`;
}

async function main(): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cardhall-bench-bridge-"));
  const python = path.join(scratch, "echo.py");
  fs.writeFileSync(python, ECHO_PROGRAM);
  const programs: Array<{ name: string; games: readonly BridgeGame[]; command: string[] }> = [
    { name: "Python (json)", games: BRIDGE_GAMES, command: ["python3", python] },
    { name: "C (examples/c)", games: ["evensteven"], command: [compileC(scratch)] },
  ];
  const port = await freePort();
  const url = `ws://127.0.0.1:${port}`;
  const server = await startServer(ROOT, port, { DATA_DIR: scratch });
  try {
    console.log(`| game | program | turn line bytes | turns | mean ms | p50 ms | p95 ms | max ms |`);
    console.log(`|---|---|---|---|---|---|---|---|`);
    for (const game of BRIDGE_GAMES) {
      const players = programs.filter((program) => program.games.includes(game));
      const trips = players.map(() => [] as number[]);
      const bytes: Array<number | undefined> = players.map(() => undefined);
      for (let round = 0; round < ROUNDS; round++) {
        for (const [index, player] of players.entries()) {
          const run = await bridged(url, game, 1000 + round, player.command);
          trips[index].push(...run.trips.slice(1)); // the first turn also waits for the program's start-up
          bytes[index] ??= run.lineBytes;
        }
      }
      players.forEach((player, index) => console.log(row(game, player.name, trips[index], bytes[index])));
    }
  } finally {
    await stopServer(server);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

void main();
