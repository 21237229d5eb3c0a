/**
 * bin/tournament at a server at capacity (BUSY_REFUSE_AT): a game's table refused for a moment is asked for again
 * after the wait the server names, the wait is said on the standard error, and the tournament is played and
 * reported once the server takes joins. The guard's samples are given here, as in busy-guard.test.ts, so that the
 * server is "busy" exactly when the test says.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { makeServer } from "../../server/app";
import { BusyGuard } from "../../server/capacity/busy-guard";
import { Records } from "../../server/records";
import { listeningTestServer, type RoomTestServer } from "../rooms/test-server";
import { registerBot } from "./identities";
import { finished } from "./server-process";
import { scratchDirectory } from "../setup/scratch";

const ROOT = path.resolve(__dirname, "..", "..");
const PLAYER = path.join(ROOT, "examples", "python", "fool_player.py");
const AT_CAPACITY =
  "the server is at capacity and takes no new players for a moment, so that the games under way keep their pace";

let colyseus: RoomTestServer;
let records: Records;
let guard: BusyGuard;

beforeAll(async () => {
  records = await Records.open({ file: path.join(scratchDirectory("cardhall-tournament-busy-"), "records.sqlite") });
  guard = new BusyGuard(0.9);
  colyseus = await listeningTestServer(makeServer({ gracefullyShutdown: false, busyGuard: guard, records }));
});

afterAll(async () => {
  await colyseus.shutdown();
  await records.close();
});

test("bin/tournament waits at a server at capacity, says which game waits, and plays the tournament once it takes joins", async () => {
  const httpUrl = colyseus.url.replace(/^ws:/, "http:");
  const tokens = {
    CARDHALL_TOKEN_ADA_BOT: await registerBot(httpUrl, "Owner A", "Ada Bot"),
    CARDHALL_TOKEN_BEA_BOT: await registerBot(httpUrl, "Owner B", "Bea Bot"),
  };
  guard.observe(0.97);
  guard.observe(0.99);
  const args = [
    "--server",
    colyseus.url,
    "--game",
    "fool",
    "--deals",
    "1",
    "--seed",
    "20261127",
    "--entry",
    `Ada Bot=python3 ${PLAYER} 1`,
    "--entry",
    `Bea Bot=python3 ${PLAYER} 2`,
  ];
  const child = spawn(path.join(ROOT, "bin", "tournament"), args, {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...tokens },
  });
  const run = finished(child, 90_000);
  let said = "";
  await new Promise<void>((resolve) => {
    const bound = setTimeout(resolve, 20_000); // a runner that waits without a word is let through, and fails below
    child.stderr.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes("asking again")) resolve(clearTimeout(bound));
    });
  });
  guard.observe(0.4); // a quiet second: the next try is taken
  const { status, stdout, stderr } = await run;
  expect(stderr).toMatch(
    new RegExp(`^tournament: round 1, deal 1, seat 0: ${AT_CAPACITY}; asking again in ([5-9]|10) s\n$`),
  );
  expect(stdout).toMatch(/^round 1, deal 1 \(seed \d+\): Ada Bot \(seat 0\) v Bea Bot \(seat 1\): /m);
  expect(stdout).toMatch(/^round 1, deal 1 \(seed \d+\): Bea Bot \(seat 0\) v Ada Bot \(seat 1\): /m);
  expect(stdout).toMatch(/^1\. (Ada|Bea) Bot: [\d.]+ points in 2 games/m);
  expect(stdout).toMatch(/^tournament \S+: http:\/\/127\.0\.0\.1:\d+\/tournaments\/\S+$/m);
  expect(status).toBe(0);
}, 120_000);
