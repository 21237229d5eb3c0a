import { ColyseusTestServer } from "@colyseus/testing";
import type { Room as ServerRoom, Server } from "@colyseus/core";
import type { Room as ClientRoom } from "@colyseus/sdk";
import { makeServer } from "../../server/app";
import { Received } from "../helpers";
import { freePort } from "../e2e/ports";

/**
 * The testing server, with clients that hear every message from their join on. (A game that starts as a client
 * joins sends its events with the first state, before a test could listen; the SDK would warn of each one.)
 */
export class RoomTestServer extends ColyseusTestServer {
  /** The server's address for clients of its own (the SDK's CardhallClient), set once it listens. */
  url = "";

  override async connectTo<T extends ServerRoom>(
    room: T,
    clientOptions: Record<string, unknown> = {},
  ): Promise<ClientRoom<T, T["state"]>> {
    const client = await this.sdk.joinById<T>(room.roomId, clientOptions as Parameters<NonNullable<T["onJoin"]>>[1]);
    client.onMessage("*", () => undefined);
    await client.waitForInitialState();
    return client;
  }

  /** Reconnects with a token, hearing every message from the first frame on (as connectTo does). */
  async reconnect(token: string): Promise<ClientRoom> {
    const client = await this.sdk.reconnect(token);
    client.onMessage("*", () => undefined);
    return client;
  }
}

/**
 * Registers the hooks that run the whole server in-process on 127.0.0.1 at a free port for one test file (the
 * matchmaker is a per-process singleton, so each file has its own server; a fixed port could be taken on a shared
 * host), clean the rooms after each test and stop the server.
 */
export function useRoomTestServer(ready: (server: RoomTestServer) => void): void {
  let colyseus: RoomTestServer;
  beforeAll(async () => {
    colyseus = await listeningTestServer(makeServer({ gracefullyShutdown: false }));
    ready(colyseus);
  });
  afterEach(() => colyseus.cleanup());
  afterAll(() => colyseus.shutdown());
}

/** Starts `server` on 127.0.0.1 at a free port, with a testing server around it that knows its address. */
export async function listeningTestServer(server: Server): Promise<RoomTestServer> {
  const port = await freePort();
  await server.listen(port, "127.0.0.1");
  const colyseus = new RoomTestServer(server);
  colyseus.url = `ws://127.0.0.1:${port}`;
  return colyseus;
}

/**
 * Joins `roomId` and records everything the client receives from the moment its join is accepted. (The testing
 * server's connectTo returns only after the first state, so it misses the events that arrive with that state: a
 * game that starts as this client joins.)
 */
export async function joinRecording(
  colyseus: ColyseusTestServer,
  roomId: string,
  options: Record<string, unknown>,
): Promise<{ client: ClientRoom; received: Received }> {
  const client = await colyseus.sdk.joinById(roomId, options);
  const received = new Received(client);
  await client.waitForInitialState();
  return { client, received };
}
