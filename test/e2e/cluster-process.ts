import type { Room } from "@colyseus/sdk";
import { RedisServer } from "../../bin/src/lib/redis-server";
import { freePort } from "./ports";
import { socketPortOf } from "./raw-client";
import { ServerProcess } from "./server-process";

export { RedisServer };

/**
 * A cluster for end-to-end tests: a private redis-server and `size` server processes on it, all on 127.0.0.1 at free
 * ports. The processes check each other every second (CLUSTER_CHECK_SECONDS) so that faults show within a test's time.
 */
export class TestCluster {
  readonly servers: ServerProcess[] = [];

  private constructor(readonly redis: RedisServer) {}

  /** `env` for every process; `envOf(index)` adds to it for one. */
  static async start(
    size: number,
    env: Record<string, string> = {},
    envOf: (index: number) => Record<string, string> | Promise<Record<string, string>> = () => ({}),
  ): Promise<TestCluster> {
    const cluster = new TestCluster(new RedisServer(await freePort()));
    await cluster.redis.start();
    for (let index = 0; index < size; index++) {
      cluster.servers.push(
        new ServerProcess(await freePort(), {
          REDIS_URL: cluster.redis.url,
          CLUSTER_CHECK_SECONDS: "1",
          ...env,
          ...(await envOf(index)),
        }),
      );
    }
    await Promise.all(cluster.servers.map((server) => server.start()));
    return cluster;
  }

  /**
   * The process that hosts a joined room: the SDK connects straight to the address the seat reservation named, a
   * process's WebSocket port when it has one (and then never its main port).
   */
  hostOf(room: Room): ServerProcess {
    const port = socketPortOf(room);
    const host = this.servers.find((server) => (server.webSocketPort ?? server.port) === port);
    if (!host) throw new Error(`no process of the cluster listens on ${port}`);
    return host;
  }

  /** A process other than `server`. */
  other(server: ServerProcess): ServerProcess {
    return this.servers.find((candidate) => candidate !== server)!;
  }

  async stop(): Promise<void> {
    await Promise.all(this.servers.map((server) => server.stop()));
    await this.redis.destroy();
  }
}

/** The room ids GET /rooms of one process lists. */
export async function listedRoomIds(server: Pick<ServerProcess, "httpUrl">): Promise<string[]> {
  const response = await fetch(`${server.httpUrl}/rooms`);
  const rooms = (await response.json()) as Array<{ roomId: string }>;
  return rooms.map((room) => room.roomId).sort();
}
