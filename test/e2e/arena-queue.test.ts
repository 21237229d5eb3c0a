/**
 * Rated queues against a real server process: identities queue, the queue seats them at one table by rating, the
 * game is played and rated between their identities; a guest is refused; a player who never takes the seat the
 * queue gave costs the others only a wait: they go back to the queue and nobody is rated for the game never played.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { Client } from "@colyseus/sdk";
import { CardhallClient, CardhallError, type FoolPlayer } from "../../client-sdk";
import { readUntil } from "../helpers";
import { botClient, registerBot } from "./identities";
import { finished, freePort, ServerProcess } from "./server-process";

const ROOT = path.resolve(__dirname, "..", "..");

let server: ServerProcess;

beforeAll(async () => {
  server = new ServerProcess(await freePort(), { SIGNUPS_PER_HOUR: "0", TOKENS_PER_HOUR: "0" });
  await server.start();
});

afterAll(async () => {
  await server.stop();
});

async function playToTheEnd(player: FoolPlayer): Promise<void> {
  for (let turn = await player.nextTurn(); turn.kind === "move"; turn = await player.nextTurn())
    await player.move(turn.moves[0]);
}

test("two bots queue for rated Fool, are seated at one table, play, and their game is rated between their identities", async () => {
  const [ann, bea] = await Promise.all([botClient(server, "Ann", "Ann Bot"), botClient(server, "Bea", "Bea Bot")]);
  const [first, second] = await Promise.all([
    ann.playRatedFool({ waitMs: 20_000 }),
    bea.playRatedFool({ waitMs: 20_000 }),
  ]);
  expect(first.roomId).toBe(second.roomId);
  expect(new Set([first.seat(), second.seat()])).toEqual(new Set([0, 1]));
  expect(
    first
      .view()
      ?.seats.map((seat) => seat.name)
      .sort(),
  ).toEqual(["Ann Bot", "Bea Bot"]);
  await Promise.all([playToTheEnd(first), playToTheEnd(second)]);
  await Promise.all([first.leave(), second.leave()]);
  const standings = await readUntil(
    () => ann.leaderboard("fool"),
    (found) => found.length >= 2,
  );
  expect(standings.map((standing) => standing.name).sort()).toEqual(["Ann Bot", "Bea Bot"]);
  expect(standings.every((standing) => standing.rating !== null)).toBe(true);
}, 60_000);

test("a guest cannot join a rated queue", async () => {
  const refused = await new CardhallClient(server.url).playRatedFool({ waitMs: 5_000 }).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(refused).toBeInstanceOf(CardhallError);
  expect((refused as CardhallError).code).toBe("JOIN_REFUSED");
  expect((refused as CardhallError).message).toMatch(/accounts and bots only/);
});

test("a player who never takes the queue's seat: the other goes back to the queue and is seated with the next", async () => {
  const cy = await botClient(server, "Cy", "Cy Bot");
  const dee = await registerBot(server.httpUrl, "Dee", "Dee Bot");
  const ed = await botClient(server, "Ed", "Ed Bot");
  // Dee's program queues and then ignores the seat it is given.
  const deserter = await new Client(server.url, { headers: { authorization: `Bearer ${dee}` } }).joinOrCreate(
    "fool-queue",
  );
  let given = 0;
  deserter.onMessage("seat", () => given++);
  deserter.onMessage("clients", () => undefined);
  const seated = cy.playRatedFool({ waitMs: 30_000, startMs: 2_000 });
  // Once Cy's first table has been given up, Ed queues; Cy and Ed are seated together.
  while (given === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  await deserter.leave();
  const [cyPlayer, edPlayer] = await Promise.all([seated, ed.playRatedFool({ waitMs: 30_000 })]);
  expect(cyPlayer.roomId).toBe(edPlayer.roomId);
  expect(
    cyPlayer
      .view()
      ?.seats.map((seat) => seat.name)
      .sort(),
  ).toEqual(["Cy Bot", "Ed Bot"]);
  await Promise.all([cyPlayer.leave(), edPlayer.leave()]);
  // The table Dee deserted dealt nothing: no record, no standing, for either of its players.
  expect((await cy.games({ game: "fool", player: "Dee Bot" })).games).toEqual([]);
  expect((await cy.games({ game: "fool", player: "Cy Bot" })).games).toEqual([]);
  expect((await cy.leaderboard("fool")).map((standing) => standing.name)).not.toContain("Dee Bot");
}, 60_000);

test("four bots queue for rated Tractor and sit at one table, every seat a person's", async () => {
  const clients = await Promise.all(
    ["Fay", "Gus", "Hal", "Ivy"].map((owner) => botClient(server, owner, `${owner} Bot`)),
  );
  const players = await Promise.all(clients.map((client) => client.playRatedTractor({ waitMs: 30_000 })));
  expect(new Set(players.map((player) => player.roomId)).size).toBe(1);
  const view = players[0].view()!;
  expect(view.seats.map((seat) => seat.player).sort()).toEqual(["Fay Bot", "Gus Bot", "Hal Bot", "Ivy Bot"]);
  expect(view.seats.every((seat) => seat.occupant === "person")).toBe(true);
  await Promise.all(players.map((player) => player.leave()));
}, 60_000);

test("two bridged programs with their tokens play rated Fool games from the queue, one table a game, and both are rated", async () => {
  const tokens = await Promise.all([
    registerBot(server.httpUrl, "Jo", "Jo Py"),
    registerBot(server.httpUrl, "Kim", "Kim Py"),
  ]);
  const player = path.join(ROOT, "examples", "python", "fool_player.py");
  // One token from the environment, as a program's supervisor would give it; the other on the command line.
  const runs = await Promise.all([
    finished(
      spawn(
        path.join(ROOT, "bin", "bridge"),
        ["--url", server.url, "--game", "fool", "--queue", "--games", "3", "--", "python3", player],
        { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, CARDHALL_TOKEN: tokens[0] } },
      ),
      120_000,
    ),
    finished(
      spawn(
        path.join(ROOT, "bin", "bridge"),
        [
          "--url",
          server.url,
          "--game",
          "fool",
          "--queue",
          "--token",
          tokens[1],
          "--games",
          "3",
          "--",
          "python3",
          player,
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      ),
      120_000,
    ),
  ]);
  for (const run of runs) {
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
    expect(run.stdout.match(/^game \d+ \(seed \d+\): (won|lost|capped)$/gm)).toHaveLength(3);
    for (const token of tokens) expect(run.stdout).not.toContain(token);
  }
  const client = new CardhallClient(server.url);
  const games = await readUntil(
    async () => (await client.leaderboard("fool")).filter((standing) => standing.name.endsWith(" Py")),
    (found) => found.length === 2 && found.every((standing) => standing.games === 3),
  );
  expect(games.map(({ name, games: count }) => [name, count]).sort()).toEqual([
    ["Jo Py", 3],
    ["Kim Py", 3],
  ]);
  expect(server.output).not.toContain(tokens[0]);
}, 150_000);

test("bin/bridge --queue without a token is bad usage, named", async () => {
  const run = await finished(
    spawn(path.join(ROOT, "bin", "bridge"), ["--url", server.url, "--game", "fool", "--queue", "--", "true"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, CARDHALL_TOKEN: "" },
    }),
  );
  expect(run.status).toBe(2);
  expect(run.stderr).toMatch(/--queue .*needs a bot's token/);
});

describe("a queue says whom it admits", () => {
  async function matchmake(room: string, headers: Record<string, string>): Promise<{ status: number; error?: string }> {
    const response = await fetch(`${server.httpUrl}/matchmake/joinOrCreate/${room}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: "{}",
    });
    const body = (await response.json()) as { error?: string };
    return { status: response.status, error: body.error };
  }

  test("two bots meet in the queue for bots; a bot is refused by the queue for people, and a person by the queue for bots", async () => {
    const [eve, fay] = await Promise.all([botClient(server, "Uma", "Uma Bot"), botClient(server, "Vic", "Vic Bot")]);
    const [first, second] = await Promise.all([
      eve.playRatedFool({ admits: "bots", waitMs: 20_000 }),
      fay.playRatedFool({ admits: "bots", waitMs: 20_000 }),
    ]);
    expect(first.roomId).toBe(second.roomId);
    await Promise.all([first.leave(), second.leave()]);

    const refusedBot = await eve.playRatedFool({ admits: "people", waitMs: 5_000 }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusedBot).toBeInstanceOf(CardhallError);
    expect((refusedBot as CardhallError).message).toMatch(/takes people only/);

    const signup = await fetch(`${server.httpUrl}/accounts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Wes", password: "a long password" }),
    });
    expect(signup.status).toBe(201);
    const cookie = (signup.headers.get("set-cookie") ?? "").split(";")[0];
    expect(await matchmake("fool-queue-bots", { cookie })).toMatchObject({
      status: 401,
      error: expect.stringMatching(/takes bots only/),
    });
    expect(await matchmake("tractor-queue-people", {})).toMatchObject({
      status: 401,
      error: expect.stringMatching(/accounts and bots only/),
    });
    expect((await matchmake("fool-queue-people", { cookie })).status).toBe(200);
  }, 60_000);
});
