/**
 * Records end to end, against real servers (the compiled one `npm start` runs) and a real PostgreSQL: games played
 * through the SDK are listed, fetched and replayed over HTTP; bin/replay checks them and refuses one edited by hand;
 * bad queries change nothing; a killed server keeps every game that ended; a database that goes away mid-run loses
 * nothing that ended; a database file that is not one stops the start with its name.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CardhallClient, CardhallError, type GameRecord, type GameSummary } from "../../client-sdk";
import { BOT_TABLES } from "../../client-sdk/bots/tables";
import type { ServerMetrics } from "../../server/telemetry/server-metrics";
import { PostgresProcess } from "../e2e/postgres-process";
import { finished, ServerProcess, type Finished } from "../e2e/server-process";
import { registerBot } from "../e2e/identities";
import { readUntil } from "../helpers";
import { freePort } from "./fixtures";
import { commitmentOf } from "../../rooms/kit/deal-seal";

const ROOT = path.resolve(__dirname, "..", "..");
const GAMES = ["evensteven", "fool", "patience", "tractor"] as const;

async function metricsOf(server: ServerProcess): Promise<ServerMetrics> {
  return (await (await fetch(`${server.httpUrl}/metrics.json`)).json()) as ServerMetrics;
}

/** Waits until the server's queue has written at least `count` games and holds none. */
async function recordsWritten(server: ServerProcess, count: number, timeoutMs = 20_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const { records } = await metricsOf(server);
    if (records && records.queued === 0 && records.written >= count) return;
    if (Date.now() - started > timeoutMs) throw new Error(`records not written: ${JSON.stringify(records)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function gamesOfRoom(client: CardhallClient, roomId: string): Promise<GameSummary[]> {
  const page = await client.games({ limit: 100 });
  return page.games.filter((game) => game.roomId === roomId);
}

/**
 * Runs bin/replay without blocking this process: a blocked event loop misses the server closing an idle keep-alive
 * connection, and the next request on that connection fails.
 */
function replayCli(args: string[], env: Record<string, string> = {}): Promise<Finished> {
  return finished(
    spawn(path.join(ROOT, "bin", "replay"), args, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    }),
    30_000,
  );
}

describe("one server with its SQLite file", () => {
  let server: ServerProcess;
  let client: CardhallClient;
  const played = new Map<string, string>();

  beforeAll(async () => {
    server = new ServerProcess(await freePort());
    await server.start();
    client = new CardhallClient(server.url);
    for (const game of GAMES)
      played.set(game, (await BOT_TABLES[game].play({ url: server.url, games: 1, seed: 11 })).roomId);
    await recordsWritten(server, 4);
  }, 120_000);

  afterAll(() => server.stop());

  test.each(GAMES)(
    "%s: a game played through the SDK is listed with its result, replays to the same result, and its deal matches its commitment",
    async (game) => {
      const [summary] = (await gamesOfRoom(client, played.get(game)!)).filter((listed) => listed.part !== "match");
      expect(summary).toMatchObject({ game, part: game === "tractor" ? "round" : "game" });
      const record = await client.game(summary.id);
      expect(record.result).toEqual(summary.result);
      expect(record.actions.length).toBe(summary.actionCount);
      const replay = await client.replay(summary.id);
      expect(replay.result).toEqual(record.result);
      expect(replay.frames).toHaveLength(record.actions.length + 1);
      expect(replay.frames.map((frame) => frame.events)).toEqual([
        record.start,
        ...record.actions.map((step) => step.events),
      ]);
      // GET /games/:id gives the deal's commitment and salt; the replay names the seed the deal was drawn from.
      expect(record.commitment).toMatch(/^[0-9a-f]{64}$/);
      expect(record.salt).toMatch(/^[0-9a-f]{32}$/);
      expect(replay.deal).toEqual({
        seed: (record.result as { seed: number }).seed,
        commitment: record.commitment,
        salt: record.salt,
      });
      expect(commitmentOf(replay.deal!.seed, record.salt!)).toBe(record.commitment);
      const checked = await replayCli([summary.id, "--url", server.url, "--quiet"]);
      expect(checked.stderr).toBe("");
      expect(checked.status).toBe(0);
      expect(checked.stdout).toMatch(
        new RegExp(`verified: the engine reproduces all ${record.actions.length} actions`),
      );
      expect(checked.stdout).toContain(
        `deal verified: the seed ${replay.deal!.seed} matches its commitment ${record.commitment}, and the deal follows from the seed\n`,
      );
    },
  );

  test("bin/replay heads a Tractor round with the round's own seed, as bin/bots and the round's result name it, and the match's", async () => {
    const [summary] = (await gamesOfRoom(client, played.get("tractor")!)).filter((listed) => listed.part === "round");
    const record = await client.game(summary.id);
    const roundSeed = (record.result as { seed: number }).seed;
    expect(roundSeed).not.toBe(record.seed);
    const printed = await replayCli([summary.id, "--url", server.url]);
    expect(printed.stdout.split("\n")[0]).toMatch(
      new RegExp(`, round 1\\), seed ${roundSeed} \\(the match's ${record.seed}\\)$`),
    );
    expect(printed.status).toBe(0);
  });

  test("a round of a Tractor match still being played shows no seed (the match's, which every later deal follows from) until the table closes", async () => {
    const watcher = await client.watchTractor({
      bots: ["Alice", "Bob", "Charles", "David"],
      botDelayMs: 0,
      dealDelayMs: 0,
      declareWindowMs: 0,
      startDelayMs: 0,
      roundPauseMs: 60_000,
    });
    try {
      const games = await readUntil(
        () => gamesOfRoom(client, watcher.roomId),
        (listed) => listed.some((game) => game.part === "round"),
      );
      const round = games.find((game) => game.part === "round")!;
      expect(round).toMatchObject({ part: "round", seed: 0, seedWithheld: true });
      expect(await client.game(round.id)).toMatchObject({ seed: 0, seedWithheld: true });
      const replay = await client.replay(round.id); // replayed on the server, which shows only the round's own seed
      expect(replay.deal?.seed).toBe((replay.result as { seed: number }).seed);
      const local = await replayCli([round.id, "--url", server.url, "--quiet"]);
      expect(local.stderr).toMatch(/a round of a match still being played/);
      expect(local.status).toBe(1);
    } finally {
      await watcher.leave();
    }
    // The table closes with its last client: the match can go no further, and its rounds show their seed.
    const shown = await readUntil(
      () => gamesOfRoom(client, watcher.roomId),
      (listed) => listed.some((game) => game.part === "round" && !game.seedWithheld),
    );
    expect(shown.find((game) => game.part === "round" && !game.seedWithheld)!.seed).not.toBe(0);
  }, 60_000);

  test("bin/replay with an id alone reads the local record store, where the server (on a port of its own) keeps it", async () => {
    const [summary] = await client.games({ game: "fool", limit: 1 }).then((page) => page.games);
    const local = await replayCli([summary.id, "--quiet"], { DATA_DIR: server.dataDir });
    expect(local.stderr).toBe("");
    expect(local.stdout).toMatch(/^verified: the engine reproduces all \d+ actions/);
    expect(local.status).toBe(0);
    // With no store there, it says which file it looked for.
    const missing = path.join(os.tmpdir(), `cardhall-no-data-${process.pid}`);
    const none = await replayCli([summary.id], { DATA_DIR: missing });
    expect(none.stderr).toBe(
      `replay: no database file ${path.join(missing, "cardhall.sqlite")} (the local record store; --url reads a server's)\n`,
    );
    expect(none.status).toBe(1);
  });

  test("bin/replay prints the game action by action and refuses a record edited by hand (naming the first action that disagrees) or one whose commitment does not match its deal", async () => {
    const [summary] = await client.games({ game: "evensteven", limit: 1 }).then((page) => page.games);
    const record = await client.game(summary.id);
    const printed = await replayCli([summary.id, "--url", server.url]);
    expect(printed.status).toBe(0);
    expect(printed.stdout.split("\n").filter((line) => /^\s+\d+\s+\d\d:\d\d/.test(line))).toHaveLength(
      record.actions.length,
    );

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cardhall-replay-"));
    try {
      const playedCard = record.actions.findIndex((step) => (step.action as { type?: string }).type === "play");
      const edited: GameRecord = JSON.parse(JSON.stringify(record));
      const step = edited.actions[playedCard] as unknown as { events: Array<{ payload: { covered?: boolean } }> };
      step.events[0].payload.covered = !step.events[0].payload.covered;
      fs.writeFileSync(path.join(dir, "edited.json"), JSON.stringify(edited));
      const refused = await replayCli([path.join(dir, "edited.json"), "--quiet"]);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain(`does not replay: action ${playedCard + 1}: the events differ`);

      const otherResult = { ...record, result: { ...(record.result as object), outcome: "WIN", seed: 1 } };
      fs.writeFileSync(path.join(dir, "result.json"), JSON.stringify(otherResult));
      expect((await replayCli([path.join(dir, "result.json"), "--quiet"])).status).toBe(2);

      // A commitment that is not the one the deal's seed and salt hash to: refused, saying so.
      const doctored: GameRecord = { ...record, commitment: "0".repeat(64) };
      fs.writeFileSync(path.join(dir, "doctored.json"), JSON.stringify(doctored));
      const mismatch = await replayCli([path.join(dir, "doctored.json"), "--quiet"]);
      expect(mismatch.status).toBe(2);
      expect(mismatch.stdout).toBe("");
      expect(mismatch.stderr).toMatch(
        new RegExp(
          `^replay: ${record.id}: the deal does not match its commitment: sha256\\("\\d+:${record.salt}"\\) is ${record.commitment}, but the commitment published before the deal was 0{64}\n$`,
        ),
      );

      // A record made before deals were sealed has nothing to check: said, and no error.
      const { commitment: _commitment, salt: _salt, ...unsealed } = record;
      fs.writeFileSync(path.join(dir, "unsealed.json"), JSON.stringify(unsealed));
      const old = await replayCli([path.join(dir, "unsealed.json"), "--quiet"]);
      expect(old.status).toBe(0);
      expect(old.stdout).toMatch(/\nno commitment recorded: the deal cannot be checked against one\n$/);

      const unknown = await replayCli(["0000000000000000", "--url", server.url]);
      expect(unknown.status).toBe(1);
      expect(unknown.stderr).toContain("no such game");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the players' standings: guests stand nowhere; a bot with its token and the Fool AI are rated, an Even-Steven bot counted", async () => {
    // The scripted tables above played as guests: the Fool AI's game against one is counted, not rated.
    expect(
      (await client.leaderboard("fool")).map(({ name, games, rating }) => ({
        name: name.startsWith("AI") ? "AI" : name,
        games,
        rating,
      })),
    ).toEqual([{ name: "AI", games: 1, rating: null }]);
    expect(await client.leaderboard("evensteven")).toEqual([]);
    const bot = new CardhallClient(server.url, { token: await registerBot(server.httpUrl, "Owner", "Ladder Bot") });
    await BOT_TABLES.fool.play({ url: server.url, games: 1, seed: 12 }); // another guest's game: still unrated
    const fool = await bot.playFool({ aiDelayMs: 0 });
    for (let turn = await fool.nextTurn(); turn.kind === "move"; turn = await fool.nextTurn())
      await fool.move(turn.moves[0]);
    await fool.leave();
    const game = await bot.playEvenSteven({ n: 4, seed: 11 });
    for (let index = 1; ; index++) {
      const turn = await game.nextTurn(1, index);
      if (turn.kind === "over") break;
      await game.play(turn.hand[0]);
    }
    await game.leave();
    await recordsWritten(server, 7);
    const rated = await client.leaderboard("fool");
    expect(rated).toHaveLength(2);
    const ai = rated.find((standing) => standing.name.startsWith("AI"))!;
    const ladder = rated.find((standing) => standing.name === "Ladder Bot")!;
    expect(ai.games).toBe(3);
    expect(ladder).toMatchObject({ games: 1 });
    expect(ladder.rating).not.toBeNull();
    expect(ai.rating).not.toBeNull();
    expect(ladder.wins + ai.wins).toBeGreaterThanOrEqual(1);
    const evensteven = await client.leaderboard("evensteven");
    expect(evensteven).toEqual([expect.objectContaining({ name: "Ladder Bot", games: 1, rating: null })]);
  });

  test("bad parameters are refused with a message and change nothing; unknown ids are 404", async () => {
    const before = await client.games({ limit: 100 });
    const get = async (pathAndQuery: string) => {
      const response = await fetch(`${server.httpUrl}${pathAndQuery}`);
      return { status: response.status, body: (await response.json()) as { error?: string } };
    };
    for (const query of [
      "/games?limit=0",
      "/games?limit=1000",
      "/games?game=poker",
      "/games?limit=abc",
      "/games?before=%27%3B%20DROP%20TABLE%20games%3B--",
      `/games?player=${"x".repeat(5000)}`,
      "/games?game=fool&game=tractor",
      "/games?unknown=1",
      "/leaderboard",
      "/leaderboard?game=chess",
    ]) {
      const { status, body } = await get(query);
      expect({ query, status }).toEqual({ query, status: 400 });
      expect(body.error).toMatch(/^bad parameter /);
    }
    expect((await get("/games?player=%27%20OR%20%271%27%3D%271")).body).toEqual({ games: [] });
    for (const id of ["nope", "%27%20OR%201%3D1--", "x".repeat(300)]) {
      expect((await get(`/games/${id}`)).status).toBe(404);
      expect((await get(`/games/${id}/replay`)).status).toBe(404);
    }
    await expect(client.game("nope")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(client.games({ limit: 0 })).rejects.toBeInstanceOf(CardhallError);
    expect(await client.games({ limit: 100 })).toEqual(before);
  });

  test("pages go back in time with `next` and filter by player", async () => {
    const all = (await client.games({ limit: 100 })).games;
    const first = await client.games({ limit: 2 });
    expect(first.games).toEqual(all.slice(0, 2));
    const second = await client.games({ limit: 2, before: first.next });
    expect(second.games).toEqual(all.slice(2, 4));
    const name = all.find((game) => game.game === "fool")!.seats.find((seat) => seat.kind === "person")!.name;
    const byPlayer = await client.games({ player: name, limit: 100 });
    expect(byPlayer.games.length).toBeGreaterThan(0);
    expect(byPlayer.games.every((game) => game.seats.some((seat) => seat.name === name))).toBe(true);
  });

  test("a killed server loses none of the games that ended: they are there when it starts again", async () => {
    const before = await client.games({ limit: 100 });
    await server.kill();
    await server.start();
    expect(await client.games({ limit: 100 })).toEqual(before);
  }, 30_000);
});

test("a records file that is not a database stops the start with a line naming it", async () => {
  const server = new ServerProcess(await freePort());
  fs.mkdirSync(server.dataDir, { recursive: true });
  const file = path.join(server.dataDir, "cardhall.sqlite");
  fs.writeFileSync(file, "not a database ".repeat(500));
  try {
    await expect(server.start()).rejects.toThrow(`the records database ${file} cannot be used`);
  } finally {
    await server.stop();
  }
});

describe("PostgreSQL", () => {
  let postgres: PostgresProcess;
  let server: ServerProcess;

  beforeAll(async () => {
    postgres = new PostgresProcess(await freePort());
    postgres.init();
    postgres.start();
    server = new ServerProcess(await freePort(), { DATABASE_URL: postgres.url });
    await server.start();
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    postgres?.destroy();
  });

  test("the database stopped mid-run: games go on, their records wait, and all are written once it returns", async () => {
    const client = new CardhallClient(server.url);
    const play = (seed: number) => BOT_TABLES.evensteven.play({ url: server.url, games: 2, seed });
    await play(1);
    await recordsWritten(server, 2);

    postgres.stop();
    await play(2); // play is not held up by the database
    let during = await metricsOf(server);
    for (let waited = 0; during.records!.failedWrites === 0 && waited < 200; waited++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      during = await metricsOf(server);
    }
    expect(during.records).toMatchObject({ queued: 2, written: 2 });
    expect(during.records!.failedWrites).toBeGreaterThan(0);
    await expect(client.games()).rejects.toMatchObject({ code: "UNAVAILABLE" });

    postgres.start();
    await recordsWritten(server, 4, 30_000);
    const after = await metricsOf(server);
    expect(after.records!.failedWrites).toBeGreaterThan(0);
    expect(after.records!.dropped).toBe(0);
    const page = await client.games({ game: "evensteven", limit: 100 });
    expect(page.games).toHaveLength(4);
    expect(await client.replay(page.games[0].id)).toMatchObject({ result: page.games[0].result });
  }, 90_000);
});
