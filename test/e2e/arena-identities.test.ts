/**
 * Identities against a real server process (its records in SQLite): an account, its bot and the bot's token; a
 * program that joins with the token sits under the bot's name and its record names the bot and its owner; a guest
 * cannot take a registered name; a revoked or unknown token is refused at matchmaking; logins are rate-limited;
 * no password or token reaches the server's log.
 */
import { CardhallClient, CardhallError } from "../../client-sdk";
import { readUntil } from "../helpers";
import { consume, listRooms, matchmake, type Reservation } from "./raw-client";
import { freePort, ServerProcess } from "./server-process";

let server: ServerProcess;
const PASSWORD = "correct horse battery";

beforeAll(async () => {
  // Every request here comes from one address: accounts are not what this file bounds (logins are).
  server = new ServerProcess(await freePort(), { SIGNUPS_PER_HOUR: "0" });
  await server.start();
});

afterAll(async () => {
  await server.stop();
});

async function post(
  path: string,
  body: unknown,
  cookie = "",
): Promise<{ status: number; body: Record<string, unknown>; cookie: string }> {
  const response = await fetch(`${server.httpUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    cookie: (response.headers.get("set-cookie") ?? "").split(";")[0],
  };
}

async function account(name: string): Promise<string> {
  const made = await post("/accounts", { name, password: PASSWORD });
  expect(made.status).toBe(201);
  return made.cookie;
}

async function botToken(cookie: string, bot: string, label = "laptop"): Promise<{ id: string; token: string }> {
  expect((await post("/bots", { name: bot }, cookie)).status).toBe(201);
  const made = await post(`/bots/${encodeURIComponent(bot)}/tokens`, { label }, cookie);
  expect(made.status).toBe(201);
  return made.body as { id: string; token: string };
}

async function refusalOf(join: Promise<{ leave(): Promise<void> }>): Promise<CardhallError> {
  const outcome = await join.then(
    async (session) => (await session.leave(), undefined),
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(CardhallError);
  return outcome as CardhallError;
}

test("an account is made and logged in by an HTTP-only cookie; its name is taken once, whatever the case or look-alikes", async () => {
  const made = await fetch(`${server.httpUrl}/accounts`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "Ann Lee", password: PASSWORD }),
  });
  expect(made.status).toBe(201);
  expect(made.headers.get("set-cookie")).toMatch(/^cardhall_session=[^;]+;.*HttpOnly/i);
  const cookie = (made.headers.get("set-cookie") ?? "").split(";")[0];
  expect(await (await fetch(`${server.httpUrl}/session`, { headers: { cookie } })).json()).toEqual({ name: "Ann Lee" });
  // Nobody logged in is an answer, not a refusal: the page asks on every load.
  const nobody = await fetch(`${server.httpUrl}/session`, { headers: { cookie: "cardhall_session=not-a-login" } });
  expect([nobody.status, await nobody.json()]).toEqual([200, { name: null }]);
  expect(await (await fetch(`${server.httpUrl}/session`)).json()).toEqual({ name: null });
  for (const clash of ["ann lee", "ANN-LEE", "Ann_1ee"])
    expect((await post("/accounts", { name: clash, password: PASSWORD })).status).toBe(409);
  expect((await post("/accounts", { name: "Аnn", password: PASSWORD })).status).toBe(400); // a Cyrillic А
  expect((await post("/accounts", { name: "Bo", password: "short" })).body.error).toMatch(/password/);
  expect((await post("/session", { name: "Ann Lee", password: "wrong password" })).status).toBe(401);
  expect((await post("/session", { name: "ann lee", password: PASSWORD })).status).toBe(200);
  expect((await fetch(`${server.httpUrl}/bots`)).status).toBe(401);
});

test("a program with its bot's token sits under the bot's name, and the record names the bot and its owner", async () => {
  const cookie = await account("Carol");
  const { token } = await botToken(cookie, "Deep Blue");
  const client = new CardhallClient(server.url, { token });
  const fool = await client.playFool({ name: "anything else", aiDelayMs: 0 });
  await fool.waitForView((view) => view.seats[fool.seat() ?? -1]?.name === "Deep Blue");
  for (let turn = await fool.nextTurn(); turn.kind === "move"; turn = await fool.nextTurn())
    await fool.move(turn.moves[0]);
  const roomId = fool.roomId;
  await fool.leave();
  const records = new CardhallClient(server.url);
  const summary = (await readUntil(
    async () =>
      (await records.games({ game: "fool", player: "Deep Blue" })).games.find((game) => game.roomId === roomId),
    (found) => found !== undefined,
  ))!;
  const record = await records.game(summary.id);
  expect(record.seats.find((seat) => seat.name === "Deep Blue")).toMatchObject({
    kind: "person",
    identity: { kind: "bot", name: "Deep Blue", owner: "Carol" },
  });
  // The table's AI is the house's bot at its level (docs/arena.md, "House bots").
  expect(record.seats.find((seat) => seat.kind === "ai")?.identity).toEqual({ kind: "house", name: "AI (ai)" });
});

test("a guest plays under a free name, marked a guest, and cannot take a registered one", async () => {
  const cookie = await account("Dora");
  await botToken(cookie, "Stockfish");
  const guest = new CardhallClient(server.url);
  for (const taken of ["Stockfish", "stock-fish", "Dora"]) {
    const refusal = await refusalOf(guest.playFool({ name: taken, aiDelayMs: 0 }));
    expect(refusal.code).toBe("JOIN_REFUSED");
    expect(refusal.message).toMatch(/is registered/);
  }
  const free = await guest.playFool({ name: "Someone", aiDelayMs: 0 });
  await free.waitForView((view) => view.seats[free.seat() ?? -1]?.name === "Someone");
  await free.leave();
  // A spectator's name is no seat's: watching is open to all.
  const table = await guest.watchFoolAiGame({ aiDelayMs: 60_000 });
  await table.leave();
});

test("the page's login cookie seats a person under the account's name", async () => {
  const cookie = await account("Eve");
  // A table for two waits for its second player: nothing is dealt, so the raw client hears no event unasked.
  const reservation = await matchmake(
    server.httpUrl,
    "create",
    "fool",
    { name: "not Eve", mode: "two-players" },
    "127.0.0.1",
    { cookie },
  );
  expect(reservation.status).toBe(200);
  const room = await consume(server.url, reservation.body as unknown as Reservation);
  const players = async () =>
    ((await listRooms(server.httpUrl)).find((listed) => listed.roomId === room.roomId)?.metadata?.players ??
      []) as Array<{ name: string }>;
  expect((await players()).map((player) => player.name)).toContain("Eve");
  await room.leave();
});

test("an unknown or revoked token is refused at matchmaking with a clear error, and changes nothing", async () => {
  const cookie = await account("Frank");
  const { id, token } = await botToken(cookie, "Frank Bot");
  const unknown = await refusalOf(
    new CardhallClient(server.url, { token: "cht_not-a-real-token" }).playFool({ aiDelayMs: 0 }),
  );
  expect(unknown.message).toMatch(/token is not valid/);
  const revoke = await fetch(`${server.httpUrl}/bots/${encodeURIComponent("Frank Bot")}/tokens/${id}`, {
    method: "DELETE",
    headers: { cookie },
  });
  expect(revoke.status).toBe(204);
  const revoked = await refusalOf(new CardhallClient(server.url, { token }).playFool({ aiDelayMs: 0 }));
  expect(revoked.code).toBe("JOIN_REFUSED");
  expect(revoked.message).toMatch(/unknown or was revoked/);
  const listed = (await (await fetch(`${server.httpUrl}/bots`, { headers: { cookie } })).json()) as {
    bots: Array<{ name: string; tokens: Array<{ revokedAt: number | null }> }>;
  };
  expect(listed.bots).toEqual([
    { name: "Frank Bot", tokens: [expect.objectContaining({ label: "laptop", revokedAt: expect.any(Number) })] },
  ]);
  expect(JSON.stringify(listed)).not.toContain(token);
});

test("logins are rate-limited per address, and no password or token reaches the log", async () => {
  const cookie = await account("Gina");
  const { token } = await botToken(cookie, "Gina Bot");
  await new CardhallClient(server.url, { token }).playFool({ aiDelayMs: 0 }).then((session) => session.leave());
  const answers: number[] = [];
  for (let attempt = 0; attempt < 12; attempt++)
    answers.push((await post("/session", { name: "Gina", password: `wrong ${attempt}` })).status);
  expect(answers).toContain(429);
  expect(answers.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
  expect(server.output).not.toContain(PASSWORD);
  expect(server.output).not.toContain(token);
  expect(server.output).not.toContain("wrong 3");
});

test("a token is taken from the Authorization header only: in the address or the join's options it seats nobody as the bot and reaches no log", async () => {
  const cookie = await account("Hugo");
  const { token } = await botToken(cookie, "Hugo Bot");
  for (const query of [`token=${token}`, `_authToken=${token}`, `access_token=${token}`]) {
    const answer = await fetch(`${server.httpUrl}/matchmake/create/fool?${query}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Hugo Bot" }),
    });
    // Without the header the join is a guest's, and a guest cannot take the bot's name.
    expect(answer.status).toBe(403);
    expect(JSON.stringify(await answer.json())).not.toContain(token);
  }
  const inOptions = await matchmake(server.httpUrl, "create", "fool", { token, name: "Hugo Bot" });
  expect(inOptions.status).toBe(403);
  expect(JSON.stringify(inOptions.body)).not.toContain(token);
  expect(JSON.stringify(await listRooms(server.httpUrl))).not.toContain(token);
  expect(server.output).not.toContain(token);
});
