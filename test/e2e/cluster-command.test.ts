/**
 * bin/cluster: a redis-server and N processes on consecutive ports, one cluster with one record store, all stopped
 * by Ctrl-C (each process saying so once) or by a signal to the `npm run cluster` that started them; without
 * redis-server, one line naming the package.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CardhallClient } from "../../client-sdk";
import { BOT_TABLES } from "../../client-sdk/bots/tables";
import { waitUntil } from "../helpers";
import { listedRoomIds } from "./cluster-process";
import { freePort, portAnswers } from "./ports";
import { socketPortOf } from "./raw-client";
import { finished } from "./server-process";

const ROOT = path.join(__dirname, "..", "..");
const CLUSTER = path.join(ROOT, "bin", "cluster");

/** A first port with the next one free too. */
async function twoFreePorts(): Promise<number> {
  let first = await freePort();
  while (!(await portsFree(first + 1))) first = await freePort();
  return first;
}

test("without redis-server it says which Debian package to install, in one line, and fails", () => {
  const run = spawnSync(CLUSTER, ["--processes", "2"], {
    encoding: "utf8",
    env: { ...process.env, PATH: "/nonexistent" },
    timeout: 30_000,
  });
  expect(run.stderr).toBe(
    "cluster: redis-server is not installed: install Debian's redis-server package (apt-get install -y redis-server)\n",
  );
  expect(run.status).toBe(1);
});

test("starts two processes on consecutive ports as one cluster with one record store, prints their addresses, and stops all on Ctrl-C", async () => {
  const first = await twoFreePorts();
  // The processes' SQLite file goes to a scratch directory, not the project's data/.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cardhall-cluster-"));
  // A process group of its own, as a terminal gives the programs it runs: Ctrl-C signals the whole group.
  const child = spawn(CLUSTER, ["--processes", "2", "--port", String(first)], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, DATA_DIR: dataDir },
    detached: true,
  });
  const done = finished(child, 60_000);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitUntil(
      () => output.includes("Ctrl-C stops them all") || child.exitCode !== null,
      30_000,
      "the cluster to start",
    );
    const urls = [first, first + 1].map((port) => `ws://127.0.0.1:${port}`);
    for (const url of urls) expect(output).toContain(`cluster:   ${url}\n`);
    const watcher = await new CardhallClient(urls[0]).watchTractor({ bots: ["Alice", "Bob", "Charles", "David"] });
    for (const port of [first, first + 1])
      expect(await listedRoomIds({ httpUrl: `http://127.0.0.1:${port}` })).toContain(watcher.roomId);
    // A game played through the first process is in the records every process lists.
    const { roomId } = await BOT_TABLES.evensteven.play({ url: urls[0], games: 1 });
    for (const port of [first, first + 1]) {
      const client = new CardhallClient(`ws://127.0.0.1:${port}`);
      const listed = async () => (await client.games({ limit: 100 })).games.some((game) => game.roomId === roomId);
      await waitUntilAsync(listed, 10_000, `the game in /games on port ${port}`);
    }
    process.kill(-child.pid!, "SIGINT");
    const { status } = await done;
    expect(status).toBe(0);
    expect(watcher.ended?.code).toBe("SHUT_DOWN"); // the drain closed its game (10 s at most) before the exit
    for (const port of [first, first + 1]) await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    // Each process says once that it stops, though Ctrl-C and bin/cluster both asked it to.
    for (const port of [first, first + 1])
      expect(output.match(new RegExp(`^\\[:${port}\\] .*"event":"shutting_down"`, "gm"))).toHaveLength(1);
    expect(fs.readdirSync(dataDir).filter((name) => !name.endsWith("-wal") && !name.endsWith("-shm"))).toEqual([
      "cardhall.sqlite",
    ]);
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 90_000);

test("with --websocket-port each process takes its clients' WebSockets on its own consecutive port, and says so", async () => {
  const first = await twoFreePorts();
  let webSocketFirst = await twoFreePorts();
  while (Math.abs(webSocketFirst - first) < 2) webSocketFirst = await twoFreePorts();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cardhall-cluster-"));
  const args = ["--processes", "2", "--port", String(first), "--websocket-port", String(webSocketFirst)];
  const child = spawn(CLUSTER, args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, DATA_DIR: dataDir },
    detached: true,
  });
  const done = finished(child, 60_000);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitUntil(
      () => output.includes("Ctrl-C stops them all") || child.exitCode !== null,
      30_000,
      "the cluster to start",
    );
    for (const index of [0, 1])
      expect(output).toContain(
        `cluster:   ws://127.0.0.1:${first + index} (its clients' WebSockets on ${webSocketFirst + index})\n`,
      );
    // Matchmade through either process, a client's socket is on a WebSocket port, never a main one.
    for (const port of [first, first + 1]) {
      const watcher = await new CardhallClient(`ws://127.0.0.1:${port}`).watchTractor({
        bots: ["Alice", "Bob", "Charles", "David"],
      });
      expect([webSocketFirst, webSocketFirst + 1]).toContain(socketPortOf(watcher.room));
      await watcher.leave();
    }
    process.kill(-child.pid!, "SIGINT");
    expect((await done).status).toBe(0);
    for (const port of [first, first + 1, webSocketFirst, webSocketFirst + 1])
      expect({ port, answers: await portAnswers(port) }).toEqual({ port, answers: false });
  } finally {
    if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 90_000);

test("WebSocket ports that overlap the processes' ports are refused before anything starts", () => {
  const run = spawnSync(CLUSTER, ["--processes", "3", "--port", "5000", "--websocket-port", "5002"], {
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(run.stderr).toBe("cluster: the WebSocket ports 5002–5004 overlap the processes' ports 5000–5002\n");
  expect(run.status).toBe(1);
});

test("SIGINT to the `npm run cluster` process stops every process it started, Redis included", async () => {
  const first = await twoFreePorts();
  const redisPort = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cardhall-cluster-"));
  // The cluster script's step after its build, run by npm as `npm run cluster` runs it (building here would rewrite
  // dist/ under the other suites' feet).
  const scripts = (
    JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
  ).scripts;
  const step = scripts.cluster.split("&&").pop()!.trim();
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), "cardhall-cluster-npm-"));
  fs.writeFileSync(
    path.join(prefix, "package.json"),
    JSON.stringify({ name: "cluster", private: true, scripts: { cluster: `cd ${JSON.stringify(ROOT)} && ${step}` } }),
  );
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    PATH: `${path.join(ROOT, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`,
  };
  const npm = spawn(
    "npm",
    [
      "run",
      "--silent",
      "--prefix",
      prefix,
      "cluster",
      "--",
      "--processes",
      "2",
      "--port",
      String(first),
      "--redis-port",
      String(redisPort),
    ],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
  const done = finished(npm, 60_000);
  let output = "";
  npm.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitUntil(
      () => output.includes("Ctrl-C stops them all") || npm.exitCode !== null,
      30_000,
      "the cluster to start",
    );
    npm.kill("SIGINT");
    expect((await done).status).toBe(0);
    for (const port of [first, first + 1, redisPort])
      expect({ port, answers: await portAnswers(port) }).toEqual({ port, answers: false });
  } finally {
    if (npm.exitCode === null) npm.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(prefix, { recursive: true, force: true });
  }
}, 90_000);

/** Waits until `condition` resolves true, asking again every 100 ms, for `timeoutMs` at most. */
async function waitUntilAsync(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether nothing listens on `port` now. */
async function portsFree(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/`).then(
    () => false,
    () => true,
  );
}
