/**
 * Several server processes as one cardhall, on Redis: Colyseus's own presence (its messages between processes) and
 * driver (the listing of every room of the cluster), and each process's public address, which a seat reservation
 * carries so that a client matchmade through one process connects straight to the process that holds its room.
 * Without REDIS_URL none of this exists: one process, everything in memory.
 *
 * Colyseus checks a process's health when a seat reservation to it times out and once at start-up; a process that
 * was killed is otherwise listed (with its rooms) until someone tries to join one of them. The cluster watch asks
 * Colyseus to check every process whose channel has gone silent, every few seconds, so a dead process's rooms leave
 * the listing within seconds. The same watch repairs what a restarted (empty) Redis forgot: this process's entry
 * among the processes that take new rooms, and the listings of the rooms it runs.
 */
import { matchMaker, type MatchMakerDriver, type Presence } from "@colyseus/core";
import { RedisDriver } from "@colyseus/redis-driver";
import { RedisPresence } from "@colyseus/redis-presence";
import { Redis } from "ioredis";
import { log } from "../../rooms/kit/log";

/** How often the watch runs by default: a dead process's rooms go within this plus Colyseus's 2 s health check. */
const DEFAULT_CHECK_SECONDS = 10;

export interface ClusterConfig {
  redisUrl: string;
  /** host:port where clients reach this process. */
  publicAddress: string;
  /** How often the cluster watch runs. */
  checkSeconds: number;
}

/** The cluster's settings from the environment (REDIS_URL, PUBLIC_ADDRESS, CLUSTER_CHECK_SECONDS); null without REDIS_URL. */
export function clusterConfig(env: NodeJS.ProcessEnv, listenAddress: string): ClusterConfig | null {
  const redisUrl = env.REDIS_URL;
  if (!redisUrl) return null;
  if (!/^rediss?:\/\//.test(redisUrl)) throw new Error(`REDIS_URL must be a redis:// address, got "${redisUrl}"`);
  const publicAddress = env.PUBLIC_ADDRESS || listenAddress;
  if (!isPublicAddress(publicAddress)) throw new Error(`PUBLIC_ADDRESS must be host:port, got "${publicAddress}"`);
  const checkSeconds = Number(env.CLUSTER_CHECK_SECONDS || DEFAULT_CHECK_SECONDS);
  if (!(checkSeconds > 0))
    throw new Error(`CLUSTER_CHECK_SECONDS must be a positive number, got "${env.CLUSTER_CHECK_SECONDS}"`);
  return { redisUrl, publicAddress, checkSeconds };
}

/** Where clients reach a process, as Colyseus's publicAddress takes it: host:port, with a path after it or not. */
export function isPublicAddress(address: string): boolean {
  return /^[^\s/:]+:\d{1,5}(\/\S*)?$/.test(address);
}

/** What defineServer takes to run as one process of a cluster. */
export interface ClusterServices {
  presence: Presence;
  driver: MatchMakerDriver;
  publicAddress: string;
}

/**
 * A Redis connection that says once when Redis goes away and once when it is back (ioredis reconnects by itself,
 * and would otherwise print every failed attempt as an unhandled error).
 */
function redisConnection(url: string, name: string): Redis {
  const redis = new Redis(url, { connectionName: `cardhall-${name}` });
  let down = false;
  redis.on("error", (error: Error) => {
    if (down) return;
    down = true;
    log.warn({ event: "redis_down", connection: name }, `Redis is unreachable (${error.message}); reconnecting`);
  });
  redis.on("ready", () => {
    if (!down) return;
    down = false;
    log.info({ event: "redis_back", connection: name }, "Redis is reachable again");
  });
  return redis;
}

export function clusterServices(config: ClusterConfig): ClusterServices {
  return {
    presence: new RedisPresence(redisConnection(config.redisUrl, "presence")),
    driver: new RedisDriver(redisConnection(config.redisUrl, "driver")),
    publicAddress: config.publicAddress,
  };
}

/** One round of the watch; a failure (Redis away) waits for the next round. */
async function watchOnce(): Promise<void> {
  if (matchMaker.state !== matchMaker.MatchMakerState.READY) return; // starting, or draining: nothing to announce
  await matchMaker.healthCheckAllProcesses();
  await matchMaker.stats.persist(true);
  await matchMaker.restoreMissingRoomCaches();
}

/** Runs the cluster watch every `checkSeconds` until the returned function stops it. */
export function watchCluster(checkSeconds: number): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return; // a slow Redis must not stack rounds up
    running = true;
    watchOnce()
      .catch((error: unknown) =>
        log.debug({ event: "cluster_watch_failed" }, error instanceof Error ? error.message : String(error)),
      )
      .finally(() => (running = false));
  }, checkSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
