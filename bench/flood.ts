/**
 * What one flooding client costs everyone else. For each build given (a project root with a compiled dist/), a
 * fresh server is started; a player in one Even-Steven room measures its request round trips (a refused play,
 * which changes nothing) at 15 a second — within any rate budget — first on a quiet server, then while a client in
 * another room sends 10,000 junk messages a second. Builds are measured in turn, twice, in one run, so a noisy
 * host hits them alike. Prints figures; never passes or fails.
 *
 *   node dist/bench/flood.js [ROOT ...]      (default: this project; e.g. an older build's worktree beside it)
 */
import * as path from "node:path";
import { Client, type Room } from "@colyseus/sdk";
import { startServer, stopServer } from "./server";
import { summarize, type LatencySummary } from "./stats";

const HERE = path.resolve(__dirname, "..", "..");
const SAMPLES = Number(process.env.SAMPLES ?? 150);
const SAMPLE_EVERY_MS = 1000 / 15;
const FLOOD_PER_SECOND = 10_000;
const ROUNDS = 2;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Round trips of `samples` refused plays, one every SAMPLE_EVERY_MS. */
async function roundTrips(room: Room, samples: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const sent = performance.now();
    await room.request("play", { card: "ZZ" }).catch(() => undefined);
    times.push(performance.now() - sent);
    await sleep(Math.max(0, SAMPLE_EVERY_MS - (performance.now() - sent)));
  }
  return times;
}

/** Sends FLOOD_PER_SECOND junk plays a second, in slices of 10 ms, until stopped. */
function flood(room: Room): () => void {
  const perSlice = FLOOD_PER_SECOND / 100;
  const timer = setInterval(() => {
    for (let i = 0; i < perSlice; i++) room.send("play", { card: "ZZ" });
  }, 10);
  return () => clearInterval(timer);
}

/** The server's CPU time so far (ms), from its /metrics.json. */
async function serverCpuMs(port: number): Promise<number> {
  const metrics = (await (await fetch(`http://127.0.0.1:${port}/metrics.json`)).json()) as {
    cpuUserMicros: number;
    cpuSystemMicros: number;
  };
  return (metrics.cpuUserMicros + metrics.cpuSystemMicros) / 1000;
}

interface Phase {
  latency: LatencySummary;
  /** The server's CPU use over the phase, as a share of one core. */
  cpuShare: number;
}

async function phase(port: number, room: Room): Promise<Phase> {
  const cpuBefore = await serverCpuMs(port);
  const started = performance.now();
  const latency = summarize(await roundTrips(room, SAMPLES));
  const cpuShare = ((await serverCpuMs(port)) - cpuBefore) / (performance.now() - started);
  return { latency, cpuShare };
}

async function measure(root: string, port: number): Promise<{ quiet: Phase; flooded: Phase }> {
  const server = await startServer(root, port);
  try {
    const url = `ws://127.0.0.1:${port}`;
    const measurer = await new Client(url).create("evensteven", { n: 7, seed: 1 });
    const flooder = await new Client(url).create("evensteven", { n: 7, seed: 2 });
    for (const room of [measurer, flooder]) room.onMessage("*", () => undefined);
    const quiet = await phase(port, measurer);
    const stop = flood(flooder);
    const flooded = await phase(port, measurer);
    stop();
    return { quiet, flooded };
  } finally {
    await stopServer(server);
  }
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

async function main(): Promise<void> {
  const roots = process.argv.length > 2 ? process.argv.slice(2).map((root) => path.resolve(root)) : [HERE];
  console.log(
    `round trips of a player in another room: ${SAMPLES} at 15/s quiet, then ${SAMPLES} during a flood of ${FLOOD_PER_SECOND}/s`,
  );
  console.log("build | round | quiet: p50 / p99, server CPU | flooded: p50 / p95 / p99 / max, server CPU");
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [index, root] of roots.entries()) {
      const { quiet, flooded } = await measure(root, 2890 + index);
      const [q, f] = [quiet.latency, flooded.latency];
      const cpu = (share: number) => `${(share * 100).toFixed(0)}%`;
      console.log(
        `${path.basename(root)} | ${round} | ${ms(q.p50)} / ${ms(q.p99)}, ${cpu(quiet.cpuShare)} | ${ms(f.p50)} / ${ms(f.p95)} / ${ms(f.p99)} / ${ms(f.max)}, ${cpu(flooded.cpuShare)}`,
      );
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
