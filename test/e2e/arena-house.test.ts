/**
 * The house's bots in the rated queues (docs/arena.md, "House bots"), against a real server whose queue gives a lone
 * player the house after a short wait: a lone bot gets a Fool game against the house's AI, rated for both; a lone
 * bot gets a Tractor table whose three other seats are three different house bots; the house's names are nobody
 * else's, neither to register nor for a guest's seat.
 */
import { CardhallClient, CardhallError, type FoolPlayer } from "../../client-sdk";
import { FOOL_HOUSE_BOTS } from "../../server/arena/house-bots";
import { readUntil } from "../helpers";
import { registerBot } from "./identities";
import { freePort, ServerProcess } from "./server-process";

let server: ServerProcess;

beforeAll(async () => {
  server = new ServerProcess(await freePort(), {
    SIGNUPS_PER_HOUR: "0",
    TOKENS_PER_HOUR: "0",
    QUEUE_CYCLE_MS: "200",
    HOUSE_AFTER_MS: "1000",
  });
  await server.start();
});

afterAll(async () => {
  await server.stop();
});

async function playToTheEnd(player: FoolPlayer): Promise<void> {
  for (let turn = await player.nextTurn(); turn.kind === "move"; turn = await player.nextTurn())
    await player.move(turn.moves[0]);
}

test("a lone bot in the Fool queue plays the house's AI, and the game is rated for both", async () => {
  const ann = new CardhallClient(server.url, { token: await registerBot(server.httpUrl, "Ann", "Ann Bot") });
  const player = await ann.playRatedFool({ waitMs: 20_000 });
  const seats = player.view()!.seats;
  const house = seats.find((seat) => seat.controller === "ai")!;
  expect(FOOL_HOUSE_BOTS.map((bot) => bot.name)).toContain(house.name);
  expect(seats.find((seat) => seat.controller === "player")?.name).toBe("Ann Bot");
  await playToTheEnd(player);
  await player.leave();
  const standings = await readUntil(
    () => ann.leaderboard("fool"),
    (found) => found.length >= 2,
  );
  expect(standings.map((standing) => standing.name).sort()).toEqual(["Ann Bot", house.name].sort());
  for (const standing of standings) {
    expect(standing.games).toBe(1);
    expect(standing.rating).not.toBeNull();
    const { mu, sigma, low, high } = standing.rating!;
    expect([low, high]).toEqual([mu - 1.96 * sigma, mu + 1.96 * sigma]);
  }
  const [record] = (await ann.games({ game: "fool" })).games;
  expect(record.seats.find((seat) => seat.name === house.name)).toMatchObject({
    kind: "ai",
    identity: { kind: "house", name: house.name },
  });
}, 60_000);

test("a lone bot in the Tractor queue gets a table whose other three seats are three different house bots", async () => {
  const bea = new CardhallClient(server.url, { token: await registerBot(server.httpUrl, "Bea", "Bea Bot") });
  const player = await bea.playRatedTractor({ waitMs: 20_000 });
  const seats = player.view()!.seats;
  expect(seats.filter((seat) => seat.occupant === "person").map((seat) => seat.player)).toEqual(["Bea Bot"]);
  expect(seats.filter((seat) => seat.occupant === "bot")).toHaveLength(3);
  const listed = (await (await fetch(`${server.httpUrl}/rooms`)).json()) as Array<{
    roomId: string;
    metadata: { botLevels?: Record<string, string> } | null;
  }>;
  const levels = listed.find((room) => room.roomId === player.roomId)?.metadata?.botLevels ?? {};
  expect(Object.values(levels).sort()).toEqual(["easy", "normal", "strong"]);
  await player.leave();
}, 60_000);

test("nobody registers a house bot's name, nor one that reads as it; a guest cannot sit under one", async () => {
  const signUp = (name: string) =>
    fetch(`${server.httpUrl}/accounts`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name, password: "a long password" }),
    });
  for (const name of ["AI ai strong", "Bot-Normal"]) {
    const refused = await signUp(name);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(/the house's/);
  }
  const refused = await new CardhallClient(server.url).playFool({ mode: "two-players", name: "AI (ai)" }).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(refused).toBeInstanceOf(CardhallError);
  expect((refused as CardhallError).message).toMatch(/registered/);
}, 30_000);
