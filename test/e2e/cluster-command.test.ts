/**
 * bin/cluster: a redis-server and N processes on consecutive ports, one cluster, all stopped by Ctrl-C; without
 * redis-server, one line naming the package.
 */
import { spawn, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { CardhallClient } from "../../client-sdk";
import { waitUntil } from "../helpers";
import { listedRoomIds } from "./cluster-process";
import { freePort } from "./ports";
import { finished } from "./server-process";

const CLUSTER = path.join(__dirname, "..", "..", "bin", "cluster");

test("without redis-server it says which Debian package to install, in one line, and fails", () => {
  const run = spawnSync(CLUSTER, ["--processes", "2"], { encoding: "utf8", env: { ...process.env, PATH: "/nonexistent" }, timeout: 30_000 });
  expect(run.stderr).toBe("cluster: redis-server is not installed: install Debian's redis-server package (apt-get install -y redis-server)\n");
  expect(run.status).toBe(1);
});

test("starts two processes on consecutive ports as one cluster, prints their addresses, and stops all on Ctrl-C", async () => {
  let first = await freePort();
  while (!(await portsFree(first + 1))) first = await freePort();
  // The processes' SQLite files go to a scratch directory, not the project's data/.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cardhall-cluster-"));
  const child = spawn(CLUSTER, ["--processes", "2", "--port", String(first)], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, DATA_DIR: dataDir } });
  const done = finished(child, 60_000);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  try {
    await waitUntil(() => output.includes("Ctrl-C stops them all") || child.exitCode !== null, 30_000, "the cluster to start");
    const urls = [first, first + 1].map((port) => `ws://127.0.0.1:${port}`);
    for (const url of urls) expect(output).toContain(`cluster:   ${url}\n`);
    const watcher = await new CardhallClient(urls[0]).watchTractor({ bots: ["Alice", "Bob", "Charles", "David"] });
    for (const port of [first, first + 1]) expect(await listedRoomIds({ httpUrl: `http://127.0.0.1:${port}` })).toContain(watcher.roomId);
    child.kill("SIGINT");
    const { status } = await done;
    expect(status).toBe(0);
    expect(watcher.ended?.code).toBe("SHUT_DOWN"); // the drain closed its game (10 s at most) before the exit
    for (const port of [first, first + 1]) await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow();
    expect(fs.readdirSync(dataDir).sort()).toEqual([`cluster-${first}`, `cluster-${first + 1}`]);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 90_000);

/** Whether nothing listens on `port` now. */
async function portsFree(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/`).then(() => false, () => true);
}
