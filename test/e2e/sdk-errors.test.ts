/**
 * The SDK's errors as the README promises them: every failure a CardhallError with a stable code, network failures
 * included, and a seat taken over by a second connection ends the first session with TAKEN_OVER.
 */
import { CardhallClient, CardhallError } from "../../client-sdk";
import { freePort, ServerProcess } from "./server-process";

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(CardhallError);
  return (error as CardhallError).code;
}

describe("a server that is not there", () => {
  let client: CardhallClient;

  beforeAll(async () => {
    client = new CardhallClient(`ws://127.0.0.1:${await freePort()}`);
  });

  it("refuses a join with CONNECTION", async () => {
    expect(await codeOf(client.playEvenSteven({ n: 5 }))).toBe("CONNECTION");
    expect(await codeOf(client.watchTractor({ bots: ["Alice", "Bob", "Charles", "David"] }))).toBe("CONNECTION");
  });

  it("refuses the room list with CONNECTION", async () => {
    expect(await codeOf(client.listRooms())).toBe("CONNECTION");
  });

  it("refuses a reconnection with CONNECTION", async () => {
    expect(await codeOf(client.reconnectFool("someroom:sometoken"))).toBe("CONNECTION");
  });
});

describe("a live server", () => {
  let server: ServerProcess;
  let client: CardhallClient;

  beforeAll(async () => {
    server = new ServerProcess(await freePort());
    await server.start();
    client = new CardhallClient(server.url);
  });

  afterAll(async () => {
    await server.stop();
  });

  it("refuses a join by an unknown room id with JOIN_REFUSED", async () => {
    expect(await codeOf(client.joinTractor("no-such-room"))).toBe("JOIN_REFUSED");
    expect(await codeOf(client.reconnectEvenSteven("no-such-room:no-such-token"))).toBe("JOIN_REFUSED");
  });

  it("hands a seat to the newer connection: the older session ends with TAKEN_OVER, its waits reject, its leave resolves", async () => {
    const first = await client.playEvenSteven({ n: 5 });
    const waiting = codeOf(first.waitForView(() => false, 60_000));
    const second = await new CardhallClient(server.url).reconnectEvenSteven(first.reconnectionToken);
    expect(second.sessionId).toBe(first.sessionId);

    expect(await waiting).toBe("TAKEN_OVER");
    expect(first.ended?.code).toBe("TAKEN_OVER");
    expect(await codeOf(first.nextTurn(1, 1, 60_000))).toBe("TAKEN_OVER");
    expect(await codeOf(first.newGame())).toBe("TAKEN_OVER");
    await first.leave();

    // The newer session plays on.
    const turn = await second.nextTurn(1, 1);
    expect(turn.kind).toBe("deal");
    if (turn.kind === "deal") await second.play(turn.hand[0]);
    await second.leave();
    expect(second.ended?.code).toBe("LEFT");
  });

  it("ends a session that has left with LEFT for its waits and moves", async () => {
    const player = await client.playEvenSteven({ n: 5 });
    await player.leave();
    expect(await codeOf(player.nextTurn(1, 1, 60_000))).toBe("LEFT");
    expect(await codeOf(player.play("2c"))).toBe("LEFT");
    await player.leave();
  });
});
