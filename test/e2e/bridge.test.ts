/**
 * bin/bridge against a real server process: each example player plays its game to the end; each kind of
 * misbehaviour gets its documented treatment and the table finishes; a spectator sees a bridged game like any
 * other; the games are recorded under the name the program plays as.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@colyseus/sdk";
import { CardhallClient } from "../../client-sdk";
import { playFoolGame } from "../../client-sdk/bots/fool";
import { seededRandom } from "../../rooms/kit/random";
import { greedyPolicy } from "../../rooms/fool/bots";
import { readUntil, Received, waitUntil } from "../helpers";
import { finished, freePort, ServerProcess, type Finished } from "./server-process";

const ROOT = path.resolve(__dirname, "..", "..");
const EXAMPLES = path.join(ROOT, "examples");
const FIXTURE = path.join(ROOT, "test", "fixtures", "bridge-player.py");

function runBridge(args: string[], program: string[]): Promise<Finished> {
  return finished(
    spawn(path.join(ROOT, "bin", "bridge"), [...args, "--", ...program], { stdio: ["ignore", "pipe", "pipe"] }),
  );
}

/** The `got ...` lines the test fixture wrote for each message it received (events left out). */
function received(run: Finished): string[] {
  return run.stderr
    .split("\n")
    .filter((line) => line.startsWith("got ") && line !== "got event")
    .map((line) => line.slice(4));
}

/** The run's last stdout line, as counts: `turns: T; answered by the program A, refused R, played by the bot B, timed out O`. */
function tally(run: Finished): { turns: number; answered: number; refused: number; byBot: number; timedOut: number } {
  const match =
    /turns: (\d+); answered by the program (\d+), refused (\d+), played by the bot (\d+), timed out (\d+)\n$/.exec(
      run.stdout,
    );
  if (!match) throw new Error(`no tally in: ${run.stdout}`);
  const [turns, answered, refused, byBot, timedOut] = match.slice(1).map(Number);
  return { turns, answered, refused, byBot, timedOut };
}

describe("bin/bridge", () => {
  let server: ServerProcess;
  let scratch: string;

  beforeAll(async () => {
    server = new ServerProcess(await freePort());
    await server.start();
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "cardhall-bridge-"));
  });

  afterAll(async () => {
    await server.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  describe("each example plays its game to the end", () => {
    test.each([
      ["evensteven", ["--n", "7", "--games", "3"], /^game 3 \(seed \d+\): (WIN|LOSE NECESSARILY)$/m],
      ["fool", ["--games", "2"], /^game 2 \(seed \d+\): (won|lost|capped)$/m],
      ["patience", ["--games", "2"], /^deal 2 \(seed \d+\): (piles [\d ]+|overflowed on card no \d+)$/m],
      ["tractor", ["--games", "1"], /^round 1 \(seed \d+\): defenders \d+ points/m],
    ])("%s in Python", async (game, options, lastGame) => {
      const run = await runBridge(
        ["--url", server.url, "--game", game, "--seed", "7", ...options],
        [path.join(EXAMPLES, "python", `${game}_player.py`)],
      );
      expect(run.stdout).toMatch(new RegExp(`^room \\S+: ${game}, seat \\w+, playing as ${game}_player.py\n`));
      expect(run.stdout).toMatch(lastGame);
      const counts = tally(run);
      expect(counts.turns).toBeGreaterThan(0);
      expect(counts).toEqual({ turns: counts.turns, answered: counts.turns, refused: 0, byBot: 0, timedOut: 0 });
      expect(run.status).toBe(0);
    });

    test("Fool against the greedy AI, which answers in the same message: the seat's hand stays right, so no suggestion is refused", async () => {
      const run = await runBridge(
        ["--url", server.url, "--game", "fool", "--ai", "greedy", "--seed", "1000", "--games", "4"],
        [FIXTURE, "suggest"],
      );
      expect(run.stdout.match(/^game \d+ \(seed \d+\): (won|lost|capped)$/gm)).toHaveLength(4);
      const counts = tally(run);
      expect(counts).toEqual({ turns: counts.turns, answered: counts.turns, refused: 0, byBot: 0, timedOut: 0 });
      expect(run.status).toBe(0);
    });

    test("Even-Steven in C: compiled here, it never loses unnecessarily (the greedy cover is optimal)", async () => {
      const binary = path.join(scratch, "evensteven_player");
      const compiled = spawnSync(
        "cc",
        [
          "-std=c11",
          "-Wall",
          "-Wextra",
          "-Werror",
          "-O2",
          "-o",
          binary,
          path.join(EXAMPLES, "c", "evensteven_player.c"),
        ],
        { encoding: "utf8" },
      );
      expect(compiled.stderr).toBe("");
      expect(compiled.status).toBe(0);
      const run = await runBridge(
        ["--url", server.url, "--game", "evensteven", "--n", "9", "--seed", "11", "--games", "5"],
        [binary],
      );
      const outcomes = run.stdout.match(/^game \d+ \(seed \d+\): .*$/gm) ?? [];
      expect(outcomes).toHaveLength(5);
      for (const line of outcomes) expect(line).toMatch(/: (WIN|LOSE NECESSARILY)$/);
      expect(tally(run)).toMatchObject({ refused: 0, byBot: 0, timedOut: 0 });
      expect(run.status).toBe(0);
    });
  });

  describe("a misbehaving program never stalls the table", () => {
    const evensteven = ["--game", "evensteven", "--n", "5", "--seed", "42"];

    test("lines that are not JSON get BAD_PAYLOAD and the same turn again; within the limit the program plays on", async () => {
      const run = await runBridge(["--url", server.url, ...evensteven], [FIXTURE, "garbage", "2"]);
      expect(received(run).slice(0, 7)).toEqual([
        "hello",
        "turn",
        "error BAD_PAYLOAD",
        "turn",
        "error BAD_PAYLOAD",
        "turn",
        "turn",
      ]);
      expect(tally(run)).toMatchObject({ refused: 2, byBot: 0 });
      expect(run.stdout).toMatch(/^game 1 \(seed 42\): /m);
      expect(run.status).toBe(0);
    });

    test("an illegal action gets the room's own code; past --max-errors the seat's bot plays the turn and the program is told", async () => {
      const run = await runBridge(["--url", server.url, ...evensteven, "--max-errors", "2"], [FIXTURE, "illegal"]);
      expect(received(run).slice(0, 7)).toEqual([
        "hello",
        "turn",
        "error NOT_A_CARD",
        "turn",
        "error NOT_A_CARD",
        "botMove",
        "turn",
      ]);
      const counts = tally(run);
      expect(counts).toEqual({
        turns: counts.turns,
        answered: 0,
        refused: 2 * counts.turns,
        byBot: counts.turns,
        timedOut: 0,
      });
      expect(run.stdout).toMatch(/^game 1 \(seed 42\): (WIN|LOSE NECESSARILY)$/m); // the bot plays optimally
      expect(run.status).toBe(0);
    });

    test("a line longer than --max-line-bytes is refused without being read, and the program plays on", async () => {
      const run = await runBridge(
        ["--url", server.url, ...evensteven, "--max-line-bytes", "1024"],
        [FIXTURE, "long", String(4 * 1024 * 1024)],
      );
      expect(received(run).slice(0, 4)).toEqual(["hello", "turn", "error BAD_PAYLOAD", "turn"]);
      expect(tally(run)).toMatchObject({ refused: 1, byBot: 0, timedOut: 0 });
      expect(run.status).toBe(0);
    });

    test("a silent program meets the room's turn clock: Even-Steven's forfeit", async () => {
      const run = await runBridge(["--url", server.url, ...evensteven, "--turn-time-ms", "300"], [FIXTURE, "silent"]);
      expect(received(run)).toEqual(["hello", "turn", "timeout", "gameOver", "bye"]);
      expect(run.stdout).toMatch(/^game 1 \(seed 42\): TIME OUT$/m);
      expect(run.status).toBe(0);
    });

    test("a silent program meets the room's turn clock: at Fool the room moves for it and the game goes on to its end", async () => {
      const run = await runBridge(
        ["--url", server.url, "--game", "fool", "--seed", "42", "--turn-time-ms", "200"],
        [FIXTURE, "silent"],
      );
      const counts = tally(run);
      expect(counts.turns).toBeGreaterThan(1);
      expect(counts).toEqual({ turns: counts.turns, answered: 0, refused: 0, byBot: 0, timedOut: counts.turns });
      expect(run.stdout).toMatch(/^game 1 \(seed 42\): (won|lost|capped)$/m);
      expect(run.status).toBe(0);
    });

    test("a silent program at Patience: the deal has no player clock, so the bridge's own deals each step and the deal ends", async () => {
      const run = await runBridge(
        ["--url", server.url, "--game", "patience", "--seed", "42", "--turn-time-ms", "100"],
        [FIXTURE, "silent"],
      );
      const counts = tally(run);
      expect(counts).toEqual({ turns: counts.turns, answered: 0, refused: 0, byBot: 0, timedOut: counts.turns });
      expect(run.stdout).toMatch(/^deal 1 \(seed 42\): piles [\d ]+$/m);
      expect(run.status).toBe(0);
    });

    test("a program that exits early is reported in one line with its status; the bot finishes the game and the bridge fails", async () => {
      const run = await runBridge(
        ["--url", server.url, "--game", "fool", "--seed", "42", "--games", "3"],
        [FIXTURE, "crash", "2"],
      );
      const reports = run.stderr.split("\n").filter((line) => line.startsWith("bridge:"));
      expect(reports).toEqual([
        "bridge: the program exited with status 3 at turn 2, before the run was over; its seat goes to the bot until the game ends",
      ]);
      expect(run.stdout.match(/^game \d+ .*$/gm)).toEqual([
        expect.stringMatching(/^game 1 \(seed 42\): (won|lost|capped)$/),
      ]);
      expect(tally(run)).toMatchObject({ answered: 1, byBot: tally(run).turns - 1 });
      expect(run.status).toBe(1);
    });

    test("a program that closes its output but keeps running: the bot finishes the game, then bye, its input closed, killed after 5 s, exit 1", async () => {
      const child = spawn(
        path.join(ROOT, "bin", "bridge"),
        ["--url", server.url, "--game", "fool", "--seed", "42", "--", FIXTURE, "close-output", "1"],
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      // The time from the run's tally (the game is over) to the bridge's exit.
      let tallied = 0;
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (tallied === 0 && /^turns: /m.test(stdout)) tallied = performance.now();
      });
      const run = await finished(child, 60_000);
      const exitedAfterMs = performance.now() - tallied;
      expect(run.stdout).toMatch(/^game 1 \(seed 42\): (won|lost|capped)$/m);
      expect(tally(run)).toMatchObject({ answered: 0, byBot: tally(run).turns });
      expect(received(run).slice(-2)).toEqual(["gameOver", "bye"]);
      expect(run.stderr.split("\n").filter((line) => line.startsWith("bridge:"))).toEqual([
        "bridge: the program closed its output at turn 1, before the run was over; its seat goes to the bot until the game ends",
        "bridge: the program did not exit within 5 s after its input ended, and was killed",
      ]);
      expect(run.status).toBe(1);
      expect(tallied).toBeGreaterThan(0);
      expect(exitedAfterMs).toBeLessThan(10_000);
    }, 60_000);

    test("a program that cannot be started is reported, and no seat is taken", async () => {
      const run = await runBridge(["--url", server.url, "--game", "fool"], [path.join(scratch, "no-such-program")]);
      expect(run.stderr).toMatch(/^bridge: the program could not be started: .*ENOENT/);
      expect(run.stdout).toBe("");
      expect(run.status).toBe(1);
    });

    test("options that do not fit the game are bad usage", async () => {
      const run = await runBridge(["--url", server.url, "--game", "fool", "--n", "3"], [FIXTURE, "suggest"]);
      expect(run.stderr).toBe("bridge: --n is for evensteven, not fool\n");
      expect(run.status).toBe(2);
    });
  });

  describe("the table's options", () => {
    /** The hello's rules as the fixture wrote them. */
    const rules = (run: Finished): unknown => JSON.parse(/^rules (.*)$/m.exec(run.stderr)?.[1] ?? "null");

    test("a turn clock out of the room's range is bad usage, named by its option, before any program starts", async () => {
      const run = await runBridge(
        ["--url", server.url, "--game", "evensteven", "--turn-time-ms", "700000"],
        [FIXTURE, "suggest"],
      );
      expect(run.stderr).toMatch(/^bridge: --turn-time-ms: .*600000.* \(the evensteven room's cardTimeLimitMs\)\n$/);
      expect(run.stdout).toBe("");
      expect(run.status).toBe(2);
    });

    test("--start-ranks A,A plays a short Tractor match through the bridge alone, to the match's end", async () => {
      const run = await runBridge(
        ["--url", server.url, "--game", "tractor", "--start-ranks", "A,A", "--seed", "3", "--games", "20"],
        [FIXTURE, "suggest"],
      );
      expect(rules(run)).toMatchObject({ startRanks: ["A", "A"] });
      expect(run.stdout).toMatch(/^match over after \d+ rounds?: team [12] won; final /m);
      expect(run.status).toBe(0);
    });

    test("--start-ranks takes two ranks, else it is bad usage", async () => {
      const run = await runBridge(
        ["--url", server.url, "--game", "tractor", "--start-ranks", "A"],
        [FIXTURE, "suggest"],
      );
      expect(run.stderr).toMatch(/--start-ranks.*expected two ranks/);
      expect(run.status).toBe(2);
    });

    test("the hello's rules are the room's own join options: Fool's AI set to move at once; no option Patience's room lacks", async () => {
      const fool = await runBridge(["--url", server.url, "--game", "fool", "--seed", "4"], [FIXTURE, "suggest"]);
      expect(rules(fool)).toEqual({ seed: 4, aiDelayMs: 0 });
      const patience = await runBridge(
        ["--url", server.url, "--game", "patience", "--seed", "4", "--games", "3", "--timing"],
        [FIXTURE, "suggest"],
      );
      expect(rules(patience)).toEqual({ seed: 4, paused: true });
      // Three deals' steps (91) outrun the first burst of the room's rate budget: --timing says how long they waited.
      const budget = /^rate budget: (\d+) messages waited (\d+) ms in all \(18 a second after a burst of 30\)$/m.exec(
        patience.stdout,
      );
      expect(Number(budget?.[1])).toBeGreaterThan(0);
      expect(patience.status).toBe(0);
    });
  });

  test("a bridged seat takes over a bot's seat at a live Tractor table by id, and its views hold its own hand only", async () => {
    const table = await new CardhallClient(server.url).watchTractor({
      bots: ["Alice", "Bob", "Charles", "David"],
      trump: "fixed",
      mainSuit: "S",
      // Slow enough that the round is still under way when the bridge, started after the table, takes its seat
      // (at 50 ms a busy machine let the bots finish the round first, and the program saw no turn).
      botDelayMs: 150,
      startDelayMs: 0,
      roundPauseMs: 0,
      seed: 9,
    });
    try {
      const run = await runBridge(
        ["--url", server.url, "--game", "tractor", "--room", table.roomId, "--seat", "Charles", "--name", "taker"],
        [FIXTURE, "suggest"],
      );
      expect(run.stdout).toMatch(new RegExp(`^room ${table.roomId}: tractor, seat Charles, playing as taker\n`));
      expect(run.stdout).toMatch(/^round \d+ \(seed \d+\): defenders \d+ points/m);
      const hands = run.stderr.split("\n").filter((line) => line.startsWith("hands seen"));
      expect(hands.length).toBeGreaterThan(0);
      expect(new Set(hands)).toEqual(new Set(["hands seen 1"]));
      expect(tally(run)).toMatchObject({ refused: 0, byBot: 0, timedOut: 0 });
      expect(run.status).toBe(0);
    } finally {
      await table.leave();
    }
  }, 60_000);

  test("a bridged seat joins a two-player Fool room by id and plays a person (the SDK's greedy bot) to the game's end", async () => {
    const host = await new CardhallClient(server.url).playFool({ mode: "two-players", seed: 3, name: "host" });
    try {
      const bridging = runBridge(
        ["--url", server.url, "--game", "fool", "--room", host.roomId, "--name", "guest"],
        [path.join(EXAMPLES, "python", "fool_player.py")],
      );
      const hosted = await playFoolGame(host, greedyPolicy, seededRandom("host"), { timeoutMs: 30_000 });
      const run = await bridging;
      expect(run.stdout).toMatch(new RegExp(`^room ${host.roomId}: fool, seat 1, playing as guest\n`));
      const line = /^game 1 \(seed 3\): (won|lost|capped)$/m.exec(run.stdout);
      expect(line?.[1]).toBe(hosted.outcome === "capped" ? "capped" : hosted.won ? "lost" : "won");
      expect(tally(run)).toMatchObject({ refused: 0, byBot: 0, timedOut: 0 });
      expect(run.status).toBe(0);
    } finally {
      await host.leave();
    }
  });

  test("a spectator sees a bridged Tractor game like any other, never a hand; the program's seat is recorded under its name", async () => {
    const go = path.join(scratch, "go");
    const child = spawn(
      path.join(ROOT, "bin", "bridge"),
      [
        "--url",
        server.url,
        "--game",
        "tractor",
        "--seat",
        "Bob",
        "--name",
        "py-bob",
        "--seed",
        "5",
        "--games",
        "1",
        "--",
        FIXTURE,
        "wait",
        go,
      ],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    const run = finished(child);
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    await waitUntil(() => /^room \S+:/.test(stdout), 20_000, "the bridge's room line");
    const roomId = /^room (\S+):/.exec(stdout)![1];
    const spectator = await new Client(server.url).joinById(roomId, { spectate: true });
    const seen = new Received(spectator);
    await waitUntil(() => seen.snapshots.length > 0);
    fs.writeFileSync(go, "");
    const done = await run;
    expect(done.status).toBe(0);
    await waitUntil(() => seen.messages.some((m) => m.type === "roundEnd"), 20_000, "the spectator's roundEnd");
    // The spectator saw the program's plays as anyone's, and no hand at all.
    const plays = seen.messages.filter((m) => m.type === "played").map((m) => m.payload as { seat: string });
    expect(plays.some((play) => play.seat === "Bob")).toBe(true);
    for (const snapshot of seen.snapshots as Array<{ seats?: Array<{ hand?: unknown; buried?: unknown }> }>) {
      for (const held of snapshot.seats ?? []) expect(held.hand ?? held.buried).toBeUndefined();
    }
    await spectator.leave();
    // The round's record names the program's seat by the name it played as.
    const client = new CardhallClient(server.url);
    const page = await readUntil(
      () => client.games({ player: "py-bob" }),
      (found) => found.games.length > 0,
    );
    expect(page.games[0]).toMatchObject({ game: "tractor", roomId });
    expect(page.games[0].seats).toContainEqual(expect.objectContaining({ seat: 1, name: "py-bob", kind: "person" }));
  }, 60_000);
});
