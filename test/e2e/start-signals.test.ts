/**
 * SIGTERM or SIGINT to the process `npm start` launched stops the server gracefully, with no server left behind.
 * The test runs the server part of the start script (what follows its build) under npm as `npm start` runs it:
 * building here would rewrite dist/ under the feet of the other suites.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { CardhallClient } from "../../client-sdk";
import { waitUntil } from "../helpers";
import { portAnswers } from "./ports";
import { freePort } from "./server-process";

const ROOT = path.resolve(__dirname, "..", "..");
const SERVER_SIGNALS = ["SIGTERM", "SIGINT"] as const;

/** The start script's last step, the one that runs the server (`npm run build && exec node ...`). */
function serveStep(): string {
  const scripts = (
    JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
  ).scripts;
  return scripts.start.split("&&").pop()!.trim();
}

describe("npm start", () => {
  let prefix: string;

  beforeAll(() => {
    prefix = mkdtempSync(path.join(tmpdir(), "cardhall-start-"));
    writeFileSync(
      path.join(prefix, "package.json"),
      JSON.stringify({
        name: "start",
        private: true,
        scripts: { start: `cd ${JSON.stringify(ROOT)} && ${serveStep()}` },
      }),
    );
  });

  afterAll(() => rmSync(prefix, { recursive: true, force: true }));

  it("execs the server, so that signals to npm reach it", () => {
    expect(serveStep()).toMatch(/^exec node /);
  });

  it.each(SERVER_SIGNALS)("stops the server gracefully on %s to the npm process", async (signal) => {
    const port = await freePort();
    // No drain: the game under way is closed at once (the drain has its own test, test/e2e/cluster-faults.test.ts).
    const env = {
      ...process.env,
      HOST: "127.0.0.1",
      PORT: String(port),
      DRAIN_TIMEOUT: "0",
      PATH: `${path.join(ROOT, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`,
    };
    const npm: ChildProcess = spawn("npm", ["start", "--silent", "--prefix", prefix], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    npm.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => npm.on("exit", (code) => resolve(code)));
    try {
      await waitUntil(() => output.includes("listening") || npm.exitCode !== null, 20_000, "the server to listen");
      const player = await new CardhallClient(`ws://127.0.0.1:${port}`).playEvenSteven({ n: 5 });
      const closeCodes: number[] = [];
      player.onLeave((code) => closeCodes.push(code));

      npm.kill(signal);
      expect(await exited).toBe(0);
      await waitUntil(() => closeCodes.length > 0, 10_000, "the player to be told");
      expect(closeCodes).toEqual([4001]); // Colyseus's SERVER_SHUTDOWN: the rooms were closed, not cut off
      expect(await portAnswers(port)).toBe(false);
    } finally {
      if (npm.exitCode === null) npm.kill("SIGKILL");
    }
  });
});
