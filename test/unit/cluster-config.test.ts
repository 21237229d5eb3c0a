import { clusterConfig } from "../../server/cluster/cluster";

describe("the cluster's settings from the environment", () => {
  test("without REDIS_URL there is no cluster: one process, in memory", () => {
    expect(clusterConfig({}, "127.0.0.1:2567")).toBeNull();
  });

  test("REDIS_URL alone: the process is reached at its listen address, checked every 10 s", () => {
    expect(clusterConfig({ REDIS_URL: "redis://127.0.0.1:6379" }, "127.0.0.1:2567")).toEqual({
      redisUrl: "redis://127.0.0.1:6379",
      publicAddress: "127.0.0.1:2567",
      checkSeconds: 10,
    });
  });

  test("PUBLIC_ADDRESS and CLUSTER_CHECK_SECONDS are taken as given", () => {
    const config = clusterConfig(
      {
        REDIS_URL: "rediss://redis.internal:6380/0",
        PUBLIC_ADDRESS: "play.example.org:443/p1",
        CLUSTER_CHECK_SECONDS: "2.5",
      },
      "0.0.0.0:2567",
    );
    expect(config).toEqual({
      redisUrl: "rediss://redis.internal:6380/0",
      publicAddress: "play.example.org:443/p1",
      checkSeconds: 2.5,
    });
  });

  test.each([
    [{ REDIS_URL: "127.0.0.1:6379" }, /REDIS_URL must be a redis:\/\/ address/],
    [{ REDIS_URL: "redis://r", PUBLIC_ADDRESS: "ws://host:1" }, /PUBLIC_ADDRESS must be host:port/],
    [{ REDIS_URL: "redis://r", PUBLIC_ADDRESS: "host" }, /PUBLIC_ADDRESS must be host:port/],
    [{ REDIS_URL: "redis://r", CLUSTER_CHECK_SECONDS: "0" }, /CLUSTER_CHECK_SECONDS must be a positive number/],
    [{ REDIS_URL: "redis://r", CLUSTER_CHECK_SECONDS: "soon" }, /CLUSTER_CHECK_SECONDS must be a positive number/],
  ])("a bad setting stops the start with a sentence naming it (%j)", (env, message) => {
    expect(() => clusterConfig(env, "127.0.0.1:2567")).toThrow(message);
  });
});
