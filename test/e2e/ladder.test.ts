/**
 * Solo ladders against a real server process (docs/arena.md, "Solo ladders"): two bots play the period's Even-Steven
 * deals and get the same seeds, in order, each deal once (one left midway counts as played); a guest, a deal past
 * the period's last, a spectator and options that would change the deal are refused; the standings rank the two;
 * their records name the ladder's period and deal and are withheld from everyone until the period ends.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { CardhallClient, CardhallError, type EvenStevenPlayer } from "../../client-sdk";
import { LADDERS } from "../../server/arena/ladder";
import { optimalPlay } from "../../rooms/evensteven/strategy";
import { RecordStore } from "../../server/records/store";
import { readUntil } from "../helpers";
import { botClient, registerBot } from "./identities";
import { finished, freePort, ServerProcess } from "./server-process";

const ROOT = path.resolve(__dirname, "..", "..");

const DEALS = LADDERS.evensteven.deals;
let server: ServerProcess;
/** The period's Even-Steven seeds, deal by deal, as the first test's bot saw them revealed. */
let firstSeeds: number[] = [];

beforeAll(async () => {
  server = new ServerProcess(await freePort(), {
    SIGNUPS_PER_HOUR: "0",
    TOKENS_PER_HOUR: "0",
    LADDER_SECRET: "the ladder test's secret",
  });
  await server.start();
});

afterAll(async () => {
  await server.stop();
});

/** Plays the table's one game with the optimal play (the bot's suggestion); returns the seed its verdict reveals. */
async function playOut(player: EvenStevenPlayer): Promise<number> {
  for (let index = 1; ; index++) {
    const turn = await player.nextTurn(1, index);
    if (turn.kind === "over") return turn.seed;
    await player.play(optimalPlay(turn.hand, turn.card));
  }
}

async function refusal(attempt: Promise<unknown>): Promise<CardhallError> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CardhallError);
  return error as CardhallError;
}

test("two bots play the same deals in order, each once; the standings rank them; the records are withheld until the period ends", async () => {
  const [ann, bea] = await Promise.all([botClient(server, "Ann", "Ann Bot"), botClient(server, "Bea", "Bea Bot")]);
  // Ann plays every deal of the period, one table each.
  const annSeeds: number[] = [];
  for (let deal = 1; deal <= DEALS; deal++) {
    const player = await ann.playLadder("evensteven");
    if (deal === 1) {
      expect((await refusal(player.newGame())).code).toBe("LADDER_TABLE");
      expect((await refusal(new CardhallClient(server.url).spectateEvenSteven(player.roomId))).message).toMatch(
        /no spectators/,
      );
      // Its listing says it is a ladder table (the lobby leaves it out); nor does a joinOrCreate land in it.
      const listing = (await ann.listRooms("evensteven")).find((room) => room.roomId === player.roomId);
      expect(listing?.metadata).toMatchObject({ ladder: true, player: "Ann Bot" });
      const elsewhere = await new CardhallClient(server.url).colyseus.joinOrCreate("evensteven", { spectate: true });
      expect(elsewhere.roomId).not.toBe(player.roomId);
      await elsewhere.leave();
    }
    annSeeds.push(await playOut(player));
    await player.leave();
  }
  expect(new Set(annSeeds).size).toBe(DEALS);
  firstSeeds = annSeeds;
  expect((await refusal(ann.playLadder("evensteven"))).message).toMatch(
    /has played all 10 deals of the evensteven ladder/,
  );

  // Bea plays deal 1, leaves deal 2 once it is dealt, and is given deal 3 next: the same seeds as Ann's. (She leaves
  // before playing: the period's seeds change with the date, and on some days deal 2's first card ends the game.)
  const first = await bea.playLadder("evensteven");
  expect(await playOut(first)).toBe(annSeeds[0]);
  await first.leave();
  const second = await bea.playLadder("evensteven");
  expect((await second.nextTurn(1, 1)).kind).toBe("deal");
  await second.leave();
  const third = await bea.playLadder("evensteven");
  expect(await playOut(third)).toBe(annSeeds[2]);
  await third.leave();

  const ladder = await readUntil(
    () => ann.ladder("evensteven"),
    (found) => found.standings.every((standing) => standing.finished === standing.played),
  );
  expect(ladder).toMatchObject({ game: "evensteven", deals: DEALS });
  expect(
    ladder.standings.map(({ rank, name, kind, owner, played, finished }) => ({
      rank,
      name,
      kind,
      owner,
      played,
      finished,
    })),
  ).toEqual([
    { rank: 1, name: "Ann Bot", kind: "bot", owner: "Ann", played: DEALS, finished: DEALS },
    { rank: 2, name: "Bea Bot", kind: "bot", owner: "Bea", played: 3, finished: 3 },
  ]);
  // Ann played every deal with the optimal play: each one clean (won, or lost when nothing could win).
  expect(ladder.standings[0].tiebreak).toBe(DEALS);
  expect(ladder.standings[1].tiebreak).toBeLessThan(DEALS);

  // The records name the ladder's period and deal; their seeds are the period's, the same for both bots.
  const store = await RecordStore.open({ file: path.join(server.dataDir, "cardhall.sqlite") });
  try {
    const page = await store.list({ game: "evensteven", limit: 20 });
    const records = await Promise.all(page.games.map((summary) => store.get(summary.id)));
    const seedOf = (name: string, deal: number) =>
      records.find((record) => record?.seats[0].name === name && record.ladder?.deal === deal)?.seed;
    for (let deal = 1; deal <= DEALS; deal++) expect(seedOf("Ann Bot", deal)).toBe(annSeeds[deal - 1]);
    expect([1, 2, 3].map((deal) => seedOf("Bea Bot", deal))).toEqual(annSeeds.slice(0, 3));
    expect(records.every((record) => record?.ladder?.period === ladder.period)).toBe(true);
    // Bea's deal 2, left midway, is recorded with the clock's verdict: a deal given counts as played.
    expect(
      records.find((record) => record?.seats[0].name === "Bea Bot" && record.ladder?.deal === 2)?.result,
    ).toMatchObject({ outcome: "TIME OUT" });

    // Over HTTP, a ladder game of the running period shows who played it, never its seed or its result.
    const listed = (await ann.games({ game: "evensteven" })).games;
    expect(
      listed.every(
        (summary) => summary.seed === 0 && summary.result === null && summary.ladder?.period === ladder.period,
      ),
    ).toBe(true);
    const withheld = await refusal(ann.game(listed[0].id));
    expect(withheld.code).toBe("WITHHELD");
    expect(withheld.message).toMatch(/its record shows once the period ends/);
    expect((await refusal(ann.replay(listed[0].id))).code).toBe("WITHHELD");
  } finally {
    await store.close();
  }
}, 120_000);

test("a guest, a join to another's ladder table and options that would change the deal are refused, and give no deal", async () => {
  const guest = await refusal(new CardhallClient(server.url).playLadder("evensteven"));
  expect(guest.code).toBe("JOIN_REFUSED");
  expect(guest.message).toMatch(/a ladder takes accounts and bots only/);
  const cy = await botClient(server, "Cy", "Cy Bot");
  const seeded = await refusal(cy.playLadder("evensteven", { seed: 5 } as never));
  expect(seeded.message).toMatch(/bad options for a ladder table/);
  const refusedJoin = (join: Promise<unknown>) =>
    join.then(
      () => "joined",
      (error: unknown) => String((error as Error).message),
    );
  expect(await refusedJoin(cy.colyseus.joinOrCreate("evensteven", { ladder: true }))).toMatch(/made with create/);
  expect(await refusedJoin(cy.colyseus.create("fool", { ladder: true }))).toMatch(
    /only evensteven and patience have ladders/,
  );
  const noLadder = await fetch(`${server.httpUrl}/ladders/fool`);
  expect({ status: noLadder.status, body: await noLadder.json() }).toEqual({
    status: 404,
    body: { error: 'there is no ladder for "fool": the ladders are evensteven and patience' },
  });
  // None of those gave Cy a deal: its first is deal 1, the same as everyone's.
  const standings = (await cy.ladder("evensteven")).standings;
  expect(standings.find((standing) => standing.name === "Cy Bot")).toBeUndefined();
});

test("another process with the same LADDER_SECRET deals the same deals, with nothing shared but the secret", async () => {
  // Its own records (another SQLite file), its own accounts: only the secret is the same.
  const other = new ServerProcess(await freePort(), { LADDER_SECRET: "the ladder test's secret" });
  await other.start();
  try {
    const player = await botClient(other, "Gil", "Gil Bot").then((client) => client.playLadder("evensteven"));
    expect(await playOut(player)).toBe(firstSeeds[0]);
    await player.leave();
  } finally {
    await other.stop();
  }
}, 60_000);

/** The first deal of the period's Patience ladder, as the test below was dealt it. */
let patienceFirstSeed = 0;

test("Patience's ladder deals the same deal to two bots, and its standings count it", async () => {
  const [dee, ed] = await Promise.all([botClient(server, "Dee", "Dee Bot"), botClient(server, "Ed", "Ed Bot")]);
  const seeds: number[] = [];
  for (const client of [dee, ed]) {
    const owner = await client.playLadder("patience", { paceMs: 0 });
    seeds.push((await owner.dealOver(1)).seed);
    await owner.leave();
  }
  expect(seeds[0]).toBe(seeds[1]);
  patienceFirstSeed = seeds[0];
  const ladder = await readUntil(
    () => dee.ladder("patience"),
    (found) => found.standings.filter((standing) => standing.finished === 1).length === 2,
  );
  expect(ladder.deals).toBe(LADDERS.patience.deals);
  expect(ladder.standings.map((standing) => [standing.name, standing.played, standing.finished])).toEqual([
    ["Dee Bot", 1, 1],
    ["Ed Bot", 1, 1],
  ]);
  expect(ladder.standings[0]).toMatchObject({
    points: ladder.standings[1].points,
    tiebreak: ladder.standings[1].tiebreak,
  });
  const unknown = await refusal(dee.ladder("patience", "yesterday"));
  expect(unknown.code).toBe("BAD_REQUEST");
}, 60_000);

/** bin/bridge --queue on a ladder with the game's Python example (examples/python/<game>_player.py). */
function bridgeOnLadder(game: "evensteven" | "patience", options: string[]) {
  const player = path.join(ROOT, "examples", "python", `${game}_player.py`);
  const args = ["--url", server.url, "--game", game, "--queue", ...options, "--", "python3", player];
  return finished(spawn(path.join(ROOT, "bin", "bridge"), args, { stdio: ["ignore", "pipe", "pipe"] }), 120_000);
}

test("bin/bridge --game evensteven --queue plays the ladder's deals one after another, a table each, as the bot", async () => {
  const token = await registerBot(server.httpUrl, "Flo", "Flo Py");
  const run = await bridgeOnLadder("evensteven", ["--token", token, "--games", "3"]);
  // The example program writes a line per game to its stderr; the bridge itself has nothing to say.
  expect(run.status).toBe(0);
  expect(run.stderr).not.toMatch(/^bridge:/m);
  const seeds = [...run.stdout.matchAll(/^game \d+ \(seed (\d+)\): /gm)].map((match) => Number(match[1]));
  expect(seeds).toHaveLength(3);
  expect(run.stdout).not.toContain(token);
  const ladder = await readUntil(
    () => new CardhallClient(server.url).ladder("evensteven"),
    (found) => found.standings.some((standing) => standing.name === "Flo Py" && standing.finished === 3),
  );
  expect(ladder.standings.find((standing) => standing.name === "Flo Py")).toMatchObject({
    kind: "bot",
    owner: "Flo",
    played: 3,
    finished: 3,
  });
  // The same three deals as everyone's: the first three Ann Bot played (the first test).
  expect(seeds).toEqual(firstSeeds.slice(0, 3));
}, 150_000);

test("bin/bridge --game patience --queue steps the ladder's deals one after another, a table each, as the bot", async () => {
  const token = await registerBot(server.httpUrl, "Gus", "Gus Py");
  const run = await bridgeOnLadder("patience", ["--token", token, "--games", "2"]);
  expect(run.status).toBe(0);
  expect(run.stderr).not.toMatch(/^bridge:/m);
  // The example program says how many moves it followed in each deal: the program stepped every one.
  expect([...run.stderr.matchAll(/^deal (\d+) after (\d+) moves: /gm)].map((match) => Number(match[1]))).toEqual([
    1, 2,
  ]);
  const seeds = [...run.stdout.matchAll(/^deal \d+ \(seed (\d+)\)/gm)].map((match) => Number(match[1]));
  expect(seeds).toHaveLength(2);
  expect(seeds[0]).toBe(patienceFirstSeed);
  expect(run.stdout).not.toContain(token);
  const ladder = await readUntil(
    () => new CardhallClient(server.url).ladder("patience"),
    (found) => found.standings.some((standing) => standing.name === "Gus Py" && standing.played === 2),
  );
  expect(ladder.standings.find((standing) => standing.name === "Gus Py")).toMatchObject({
    kind: "bot",
    owner: "Gus",
    played: 2,
  });
  const usage = await bridgeOnLadder("patience", ["--seed", "7", "--token", token]);
  expect(usage.stderr).toMatch(/give no --n or --seed/);
}, 150_000);
