/**
 * The bridge's round-trip cost per turn, per game, for a program that answers at once. Each game's seeded games
 * are played twice against one fresh server, alternately, ROUNDS times: by bin/bridge with a Python program that
 * answers every turn with the suggestion (the bridge's whole path: JSON lines through the program's pipes), and
 * in this process through the very seats the bridge uses (bin/src/lib/bridge-seats.ts) answering the same
 * suggestion at once (no program). Both time each turn from its arrival to the next turn's, within a game; the
 * difference is what the bridge adds per turn. Prints figures; never passes or fails.
 *
 *   node dist/bench/bridge.js            (ROUNDS, GAMES change the counts)
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { BRIDGE_GAMES, type BridgeGame } from "../bin/src/lib/bridge-protocol";
import { takeSeat, type TableRequest } from "../bin/src/lib/bridge-seats";
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

/** Answers every turn with its suggestion and writes the times between turns (seconds) as JSON on stderr at the end. */
const ECHO_PROGRAM = `
import json, sys, time
gaps, last = [], None
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "turn":
        now = time.monotonic()
        if last is not None:
            gaps.append(now - last)
        last = now
        action = message["suggestion"] if message["suggestion"] is not None else message["legal"][0]
        print(json.dumps({"turn": message["turn"], "action": action}), flush=True)
    elif kind == "gameOver":
        last = None
    elif kind == "bye":
        break
print("GAPS " + json.dumps(gaps), file=sys.stderr)
`;

/** Milliseconds between turns through bin/bridge and the Python program. */
async function bridged(url: string, game: BridgeGame, seed: number, program: string): Promise<number[]> {
  const args = ["--url", url, "--game", game, "--seed", String(seed), "--games", String(GAMES), ...TABLE[game], "--", "python3", program];
  const child = spawn(path.join(ROOT, "bin", "bridge"), args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const gaps = /^GAPS (.*)$/m.exec(stderr);
  if (status !== 0 || !gaps) throw new Error(`the bridge failed (${status}): ${stderr}`);
  return (JSON.parse(gaps[1]) as number[]).map((seconds) => seconds * 1000);
}

/** Milliseconds between turns through the same seat in this process, answering the suggestion at once. */
async function direct(url: string, game: BridgeGame, seed: number): Promise<number[]> {
  const flags = TABLE[game];
  const request: TableRequest = {
    url,
    name: "bench-direct",
    seed,
    ...(flags[0] === "--n" ? { n: Number(flags[1]) } : {}),
    onEvent: () => undefined,
  };
  const seat = await takeSeat(game, request, GAMES);
  const gaps: number[] = [];
  try {
    for (let played = 1; played <= GAMES; played++) {
      if (played > 1) await seat.newGame();
      let last: number | undefined;
      for (;;) {
        const step = await seat.next();
        if (step.kind === "gameOver") {
          if (step.last) played = GAMES;
          break;
        }
        const now = performance.now();
        if (last !== undefined) gaps.push(now - last);
        last = now;
        await seat.act(step.turn.suggestion ?? step.turn.legal[0]);
      }
    }
  } finally {
    await seat.session.leave().catch(() => undefined);
  }
  return gaps;
}

function row(game: string, how: string, gaps: number[]): string {
  const s = summarize(gaps);
  return `| ${game} | ${how} | ${s.count} | ${s.mean.toFixed(2)} | ${s.p50.toFixed(2)} | ${s.p95.toFixed(2)} |`;
}

async function main(): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cardhall-bench-bridge-"));
  const program = path.join(scratch, "echo.py");
  fs.writeFileSync(program, ECHO_PROGRAM);
  const port = await freePort();
  const url = `ws://127.0.0.1:${port}`;
  const server = await startServer(ROOT, port, { DATA_DIR: scratch });
  try {
    console.log(`| game | through | turns timed | mean ms | p50 ms | p95 ms |`);
    console.log(`|---|---|---|---|---|---|`);
    for (const game of BRIDGE_GAMES) {
      const viaBridge: number[] = [];
      const inProcess: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const seed = 1000 + round;
        viaBridge.push(...(await bridged(url, game, seed, program)));
        inProcess.push(...(await direct(url, game, seed)));
      }
      console.log(row(game, "bin/bridge + Python", viaBridge));
      console.log(row(game, "the same seat in-process", inProcess));
      const added = summarize(viaBridge).p50 - summarize(inProcess).p50;
      console.log(`| ${game} | **the bridge adds (p50)** | | | ${added.toFixed(2)} | |`);
    }
  } finally {
    await stopServer(server);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

void main();
