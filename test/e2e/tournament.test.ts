/**
 * bin/tournament against a real server process (records in SQLite, reports guarded by an operator's secret): four
 * bots with tokens, three playing the Python example and one whose program crashes at its second turn, play a
 * round-robin of Fool on duplicate deals. The tournament finishes with standings; each pairing played each deal
 * twice with the seats swapped; every game is recorded under its seed and replays; the crasher forfeits every
 * game; a report without the secret, or one that misstates a game, is refused; no token or secret is logged. A
 * Swiss tournament of Tractor (teams of two seats) and a program that never answers (it forfeits) run too, and a
 * round-robin with its records in PostgreSQL.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { CardhallClient } from "../../client-sdk";
import type { Tournament, TournamentReport } from "../../rooms/kit/tournament";
import { createHash } from "node:crypto";
import { postgresDatabase } from "../records/databases";
import { registerBot } from "./identities";
import { finished, freePort, ServerProcess, type Finished } from "./server-process";

const ROOT = path.resolve(__dirname, "..", "..");
const PLAYER = path.join(ROOT, "examples", "python", "fool_player.py");
const CRASHER = path.join(ROOT, "test", "fixtures", "bridge-player.py");
const SECRET = "the operator's tournament secret";
const ENTRANTS = ["Ada Bot", "Bea Bot", "Cy Bot", "Crash Bot"];
const DEALS = 1;

let server: ServerProcess;
let tokens: Record<string, string>;
let run: Finished;
let tournament: Tournament;

function tournamentRun(
  entries: string[],
  more: string[],
  env: Record<string, string>,
  url = server.url,
): Promise<Finished> {
  const args = [
    "--server",
    url,
    "--game",
    "fool",
    "--format",
    "round-robin",
    "--deals",
    String(DEALS),
    "--seed",
    "20261126",
    "--name",
    "The test cup",
    ...more,
    ...entries.flatMap((entry) => ["--entry", entry]),
  ];
  return finished(
    spawn(path.join(ROOT, "bin", "tournament"), args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env },
    }),
    240_000,
  );
}

const tokenVariables = (names: string[]) =>
  Object.fromEntries(
    names.map((name) => [`CARDHALL_TOKEN_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`, tokens[name]]),
  );

beforeAll(async () => {
  server = new ServerProcess(await freePort(), {
    TOURNAMENT_SECRET: SECRET,
    SIGNUPS_PER_HOUR: "0",
    TOKENS_PER_HOUR: "0",
  });
  await server.start();
  tokens = {};
  for (const [index, name] of ENTRANTS.entries())
    tokens[name] = await registerBot(server.httpUrl, `Owner ${"ABCD"[index]}`, name);
  const entries = ENTRANTS.map((name, index) =>
    name === "Crash Bot" ? `${name}=python3 ${CRASHER} crash 2` : `${name}=python3 ${PLAYER} ${index + 1}`,
  );
  // Three tokens from the environment, one on the command line: both ways are read.
  const env = tokenVariables(ENTRANTS.slice(0, 3));
  run = await tournamentRun(entries, ["--entry-token", `Crash Bot=${tokens["Crash Bot"]}`, "--secret", SECRET], env);
  const id = /^tournament (\S+): /m.exec(run.stdout)?.[1];
  if (run.status !== 0 || id === undefined)
    throw new Error(`the tournament failed (${run.status}): ${run.stdout}\n${run.stderr}`);
  tournament = await new CardhallClient(server.url).tournament(id);
}, 300_000);

afterAll(async () => {
  await server.stop();
});

test("the tournament finishes with standings, printed and served, the crasher last with every game forfeited", () => {
  expect(tournament).toMatchObject({
    name: "The test cup",
    game: "fool",
    format: "round-robin",
    deals: DEALS,
    entrants: ENTRANTS,
  });
  const gamesEach = (ENTRANTS.length - 1) * DEALS * 2;
  expect(tournament.standings.map((line) => line.games)).toEqual(ENTRANTS.map(() => gamesEach));
  const crasher = tournament.standings[tournament.standings.length - 1];
  expect(crasher).toMatchObject({ entrant: "Crash Bot", points: 0, forfeits: gamesEach, score: 0, low: 0 });
  for (const line of tournament.standings) {
    expect(line.low).toBeLessThanOrEqual(line.score);
    expect(line.high).toBeGreaterThanOrEqual(line.score);
  }
  const total = tournament.standings.reduce((sum, line) => sum + line.points, 0);
  expect(total).toBe(tournament.games.length); // one point a game: a win, two halves, or a forfeit's
  for (const line of tournament.standings)
    expect(run.stdout).toContain(`${line.entrant}: ${line.points} points in ${line.games} games`);
  expect(run.stderr).toMatch(/^tournament: Crash Bot: the program exited with status 3 at turn 2/m);
});

test("every pairing plays every deal twice, seats swapped, and each game's record has its seed, its entrants and a replay", async () => {
  const client = new CardhallClient(server.url);
  expect(tournament.games).toHaveLength((ENTRANTS.length * (ENTRANTS.length - 1) * DEALS * 2) / 2);
  const seeds = new Set(tournament.games.map((game) => game.seed));
  expect(seeds.size).toBe(DEALS); // duplicate: every pairing the same deals
  for (const game of tournament.games) {
    const twin = tournament.games.filter(
      (other) => other.seed === game.seed && other.seats[0] === game.seats[1] && other.seats[1] === game.seats[0],
    );
    expect(twin).toHaveLength(1);
    const record = await client.game(game.gameId);
    expect(record.seed).toBe(game.seed);
    expect(record.seats.map((seat) => seat.name)).toEqual(game.seats);
    expect(record.seats.map((seat) => seat.identity?.kind)).toEqual(["bot", "bot"]);
    const replay = await client.replay(game.gameId);
    expect(replay.frames.length).toBeGreaterThan(1);
    const forfeiter = game.forfeits.map((forfeit) => forfeit.entrant);
    expect(forfeiter).toEqual(game.seats.includes("Crash Bot") ? ["Crash Bot"] : []);
    if (forfeiter.length > 0) expect(game.points[game.seats.indexOf("Crash Bot")]).toBe(0);
  }
});

test("the page lives at /tournaments/<id> for a browser, and the replays it links to at /replay/<game id>", async () => {
  const page = await fetch(`${server.httpUrl}/tournaments/${tournament.id}`, { headers: { accept: "text/html" } });
  expect(page.headers.get("content-type")).toMatch(/text\/html/);
  const replayPage = await fetch(`${server.httpUrl}/replay/${tournament.games[0].gameId}`, {
    headers: { accept: "text/html" },
  });
  expect(replayPage.status).toBe(200);
  expect((await fetch(`${server.httpUrl}/tournaments/nothing-here`)).status).toBe(404);
});

test("a report needs the operator's secret, and one that misstates a game is refused in a sentence", async () => {
  const game = tournament.games.find((each) => each.forfeits.length === 0)!;
  const record = await new CardhallClient(server.url).game(game.gameId);
  const report = (games: TournamentReport["games"]): TournamentReport => ({
    name: "doctored",
    game: "fool",
    format: "round-robin",
    deals: 1,
    entrants: ENTRANTS,
    games,
  });
  const post = (body: unknown, secret?: string) =>
    fetch(`${server.httpUrl}/tournaments`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(secret ? { authorization: `Bearer ${secret}` } : {}) },
      body: JSON.stringify(body),
    });
  const honest = { round: 1, deal: 1, seed: game.seed, seats: game.seats, roomId: record.roomId, forfeits: [] };
  expect((await post(report([honest]))).status).toBe(401);
  expect((await post(report([honest]), "a guess")).status).toBe(401);
  const swapped = await post(report([{ ...honest, seats: [game.seats[1], game.seats[0]] }]), SECRET);
  expect(swapped.status).toBe(400);
  expect(((await swapped.json()) as { error: string }).error).toMatch(/was played by .* not /);
  const reseeded = await post(report([{ ...honest, seed: game.seed === 1 ? 2 : game.seed - 1 }]), SECRET);
  expect(((await reseeded.json()) as { error: string }).error).toMatch(/another seed/);
  const stranger = await post(report([{ ...honest, seats: ["Ada Bot", "Nobody"] }]), SECRET);
  expect(((await stranger.json()) as { error: string }).error).toMatch(/Nobody is not an entrant/);
});

test("a Swiss tournament of Tractor: each entrant a team of two seats, each deal twice with the teams swapped, a crashing team forfeiting", async () => {
  const tractorPlayer = path.join(ROOT, "examples", "python", "tractor_player.py");
  const entries = [
    `Ada Bot=python3 ${tractorPlayer} 1`,
    `Bea Bot=python3 ${tractorPlayer} 2`,
    `Crash Bot=python3 ${CRASHER} crash 2`,
  ];
  const swiss = await tournamentRun(entries, ["--game", "tractor", "--format", "swiss", "--name", "Tractor Swiss"], {
    ...tokenVariables(["Ada Bot", "Bea Bot", "Crash Bot"]),
    CARDHALL_TOURNAMENT_SECRET: SECRET,
  });
  const id = /^tournament (\S+): /m.exec(swiss.stdout)?.[1];
  if (swiss.status !== 0) throw new Error(`the tournament failed (${swiss.status}): ${swiss.stdout}\n${swiss.stderr}`);
  const cup = await new CardhallClient(server.url).tournament(id!);
  expect(cup).toMatchObject({ game: "tractor", format: "swiss", entrants: ["Ada Bot", "Bea Bot", "Crash Bot"] });
  // ⌈log2 3⌉ = 2 rounds of one pairing (the third entrant sits out), each deal twice: 4 games, no rematch.
  expect(cup.games).toHaveLength(4);
  const pairs = new Set(cup.games.map((game) => [...new Set(game.seats)].sort().join(" v ")));
  expect(pairs.size).toBe(2);
  const client = new CardhallClient(server.url);
  for (const game of cup.games) {
    const [first, second] = game.seats;
    expect(game.seats).toEqual([first, second, first, second]);
    expect(
      cup.games.filter((other) => other.round === game.round && other.seats[0] === second && other.seats[1] === first),
    ).toHaveLength(1);
    const record = await client.game(game.gameId);
    expect(record).toMatchObject({ game: "tractor", part: "round", round: 1, seed: game.seed });
    expect(record.seats.map((seat) => seat.name)).toEqual(game.seats);
    expect((await client.replay(game.gameId)).frames.length).toBeGreaterThan(1);
    if (game.seats.includes("Crash Bot"))
      expect(game.forfeits).toEqual([
        { entrant: "Crash Bot", reason: "the program exited with status 3 during the game" },
      ]);
  }
  const crasher = cup.standings.find((line) => line.entrant === "Crash Bot")!;
  expect(crasher.points).toBe(0);
  expect(crasher.forfeits).toBe(crasher.games);
}, 120_000); // tournaments of a few games each: bounded, with room for a busy two-core machine

test("a program that never answers lets its turn clock run out and forfeits every game", async () => {
  const entries = [`Ada Bot=python3 ${PLAYER} 1`, `Bea Bot=python3 ${CRASHER} silent`];
  const silent = await tournamentRun(entries, ["--turn-time-ms", "400", "--name", "Silence"], {
    ...tokenVariables(["Ada Bot", "Bea Bot"]),
    CARDHALL_TOURNAMENT_SECRET: SECRET,
  });
  const id = /^tournament (\S+): /m.exec(silent.stdout)?.[1];
  if (silent.status !== 0)
    throw new Error(`the tournament failed (${silent.status}): ${silent.stdout}\n${silent.stderr}`);
  const cup = await new CardhallClient(server.url).tournament(id!);
  expect(cup.games).toHaveLength(2);
  for (const game of cup.games) {
    expect(game.forfeits).toEqual([
      { entrant: "Bea Bot", reason: expect.stringMatching(/^the program let its turn clock run out \d+ times$/) },
    ]);
    expect(game.points[game.seats.indexOf("Ada Bot")]).toBe(1);
  }
  expect(cup.standings.map((line) => [line.entrant, line.points, line.forfeits])).toEqual([
    ["Ada Bot", 2, 0],
    ["Bea Bot", 0, 2],
  ]);
}, 120_000); // tournaments of a few games each: bounded, with room for a busy two-core machine

test("an entrant without a token is bad usage, before anything is played", async () => {
  const missing = await tournamentRun([`Ada Bot=python3 ${PLAYER}`, `Bea Bot=python3 ${PLAYER}`], [], {});
  expect(missing.status).toBe(2);
  expect(missing.stderr).toMatch(
    /Ada Bot has no token: give --entry-token Ada Bot=TOKEN or set CARDHALL_TOKEN_ADA_BOT/,
  );
});

test("no token and no secret reaches the server's log", () => {
  expect(server.output).not.toContain(SECRET);
  for (const token of Object.values(tokens)) expect(server.output).not.toContain(token);
});

describe("records in PostgreSQL", () => {
  const postgres = postgresDatabase();
  const entrants = ["Ada Bot", "Bea Bot", "Cy Bot"];
  let onPostgres: ServerProcess;

  afterAll(async () => {
    await onPostgres?.stop();
  });

  test("a round-robin of three bots finishes with standings, every game recorded, sealed and replayable", async () => {
    onPostgres = new ServerProcess(await freePort(), {
      DATABASE_URL: postgres.url,
      TOURNAMENT_SECRET: SECRET,
      SIGNUPS_PER_HOUR: "0",
      TOKENS_PER_HOUR: "0",
    });
    await onPostgres.start();
    const entries: string[] = [];
    const tokenOptions: string[] = [];
    for (const [index, name] of entrants.entries()) {
      entries.push(`${name}=python3 ${PLAYER} ${index + 1}`);
      tokenOptions.push(
        "--entry-token",
        `${name}=${await registerBot(onPostgres.httpUrl, `Owner ${"ABC"[index]}`, name)}`,
      );
    }
    const played = await tournamentRun(entries, [...tokenOptions, "--secret", SECRET], {}, onPostgres.url);
    expect({ status: played.status, stderr: played.stderr }).toEqual({ status: 0, stderr: "" });
    const id = /^tournament (\S+): /m.exec(played.stdout)![1];
    const client = new CardhallClient(onPostgres.url);
    const served = await client.tournament(id);
    expect(served.games).toHaveLength(entrants.length * (entrants.length - 1) * DEALS);
    expect(served.standings.map((line) => line.games).sort()).toEqual(
      entrants.map(() => (entrants.length - 1) * DEALS * 2),
    );
    for (const game of served.games) {
      const record = await client.game(game.gameId);
      expect(record.seats.map((seat) => seat.name)).toEqual(game.seats);
      expect(createHash("sha256").update(`${record.seed}:${record.salt}`).digest("hex")).toBe(record.commitment);
      expect((await client.replay(game.gameId)).frames.length).toBeGreaterThan(1);
    }
  }, 300_000);
});
