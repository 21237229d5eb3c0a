/**
 * The SDK builds a kind of room's state types once (client-sdk/known-types.ts): the second table of a kind reuses
 * the first's classes, a table of another kind gets its own, and every session still decodes its own state.
 */
import { CardhallClient } from "../../client-sdk";
import { freePort, ServerProcess } from "./server-process";

let server: ServerProcess;

beforeAll(async () => {
  server = new ServerProcess(await freePort(), { RECORDS: "off" });
  await server.start();
});

afterAll(() => server.stop());

test("two Even-Steven tables share their state's classes, each session sees its own hand, a Fool table has classes of its own", async () => {
  const client = new CardhallClient(server.url);
  const first = await client.playEvenSteven({ n: 7, seed: 1 });
  const second = await client.playEvenSteven({ n: 7, seed: 2 });
  const fool = await client.playFool({ aiDelayMs: 0 });
  try {
    const [firstTurn, secondTurn] = await Promise.all([first.nextTurn(1, 1), second.nextTurn(1, 1)]);
    const classOf = (session: { room: { state: unknown } }) => (session.room.state as object).constructor;
    expect(classOf(second)).toBe(classOf(first));
    expect(classOf(fool)).not.toBe(classOf(first));
    if (firstTurn.kind !== "deal" || secondTurn.kind !== "deal") throw new Error("expected a dealt card in each game");
    expect(firstTurn.hand).not.toEqual(secondTurn.hand);
    // Each decoded state holds its own seat's hand, as the events told.
    const sameCards = (hand: string[] | undefined, expected: string[]) =>
      JSON.stringify([...(hand ?? [])].sort()) === JSON.stringify([...expected].sort());
    await first.waitForView((view) => sameCards(view.player?.hand, firstTurn.hand));
    await second.waitForView((view) => sameCards(view.player?.hand, secondTurn.hand));
    expect((await fool.nextTurn()).kind).toBe("move");
  } finally {
    await Promise.all([first.leave(), second.leave(), fool.leave()]);
  }
});
