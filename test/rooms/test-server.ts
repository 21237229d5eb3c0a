import { ColyseusTestServer } from "@colyseus/testing";
import { makeServer } from "../../server/app";

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
