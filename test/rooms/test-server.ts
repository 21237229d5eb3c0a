import { ColyseusTestServer } from "@colyseus/testing";
import type { Room as ClientRoom } from "@colyseus/sdk";
import { makeServer } from "../../server/app";
import { Received } from "../helpers";

/**
 * Registers the hooks that run the whole server in-process on 127.0.0.1:`port` for one test file (the matchmaker is
 * a per-process singleton, so each file has its own port), clean the rooms after each test and stop the server.
 */
export function useRoomTestServer(port: number, ready: (server: ColyseusTestServer) => void): void {
  let colyseus: ColyseusTestServer;
  beforeAll(async () => {
    const server = makeServer({ gracefullyShutdown: false });
    await server.listen(port, "127.0.0.1");
    colyseus = new ColyseusTestServer(server);
    ready(colyseus);
  });
  afterEach(() => colyseus.cleanup());
  afterAll(() => colyseus.shutdown());
}

/**
 * Joins `roomId` and records everything the client receives from the moment its join is accepted. (The testing
 * server's connectTo returns only after the first state, so it misses the events that arrive with that state: a
 * game that starts as this client joins.)
 */
export async function joinRecording(colyseus: ColyseusTestServer, roomId: string, options: Record<string, unknown>): Promise<{ client: ClientRoom; received: Received }> {
  const client = await colyseus.sdk.joinById(roomId, options);
  const received = new Received(client);
  await client.waitForInitialState();
  return { client, received };
}
