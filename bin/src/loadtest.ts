/**
 * npm run loadtest -- --url ws://127.0.0.1:2567 --clients 2000 [--mix evensteven=1] [--duration 30] ...
 * Drives scripted players against a running cardhall server and reports throughput, joins, latency, errors and
 * desyncs, with a plain ws echo server as the baseline. `--url` takes several addresses (the
 * processes of a cluster, comma-separated): the tables matchmake through each in turn, and each process is reported.
 */
import { Command, InvalidArgumentError } from "commander";
import * as fs from "node:fs";
import { formatReport } from "../../bench/loadtest/report-text";
import { runLoadTest } from "../../bench/loadtest/master";
import type { LoadTestOptions } from "../../bench/loadtest/report-shape";
import { planTables } from "../../bench/loadtest/plan";
import { GAME_DRIVERS, type GameName } from "../../bench/loadtest/games";
import { TRACTOR_BOT_LEVELS, type TractorBotLevel } from "../../rooms/tractor/protocol";
import { seconds, webSocketAddresses, wholeNumber } from "./lib/arguments";
import { EXIT_BAD_INPUT, EXIT_FAILED, usageErrorsAreBadInput } from "./lib/exit-status";

const count = wholeNumber(0);

/** `evensteven=2,tractor=1`: each game's share of the clients. */
function parseMix(text: string): Partial<Record<GameName, number>> {
  const mix: Partial<Record<GameName, number>> = {};
  for (const part of text.split(",")) {
    const [name, weight = "1"] = part.split("=");
    if (!(name in GAME_DRIVERS))
      throw new InvalidArgumentError(`unknown game "${name}" (known: ${Object.keys(GAME_DRIVERS).join(", ")})`);
    const value = Number(weight);
    if (!Number.isFinite(value) || value < 0) throw new InvalidArgumentError(`bad weight "${weight}" for ${name}`);
    mix[name as GameName] = value;
  }
  return mix;
}

const defaultMix = Object.keys(GAME_DRIVERS).join(",");

usageErrorsAreBadInput(new Command("loadtest"))
  .description("Load-tests a running cardhall server with scripted players, against a ws echo baseline.")
  .requiredOption(
    "--url <url>",
    "the server's WebSocket address; several processes of a cluster: comma-separated",
    webSocketAddresses,
  )
  .option("--clients <n>", "scripted players", count, 100)
  .option("--workers <n>", "worker processes", count, 4)
  .option("--duration <seconds>", "how long to play after the ramp", seconds(3600), 20)
  .option("--ramp <seconds>", "how long to take opening the tables", seconds(3600, true), 5)
  .option("--think-ms <ms>", "mean think time before each move", count, 500)
  .option("--mix <games>", `games and weights, e.g. ${defaultMix}`, parseMix, parseMix(defaultMix))
  .option(
    "--tractor-bots <level>",
    "Tractor tables seat two scripted players and two of the room's bots at this level (easy, normal, strong)",
    (text) => {
      if ((TRACTOR_BOT_LEVELS as readonly string[]).includes(text)) return text as TractorBotLevel;
      throw new InvalidArgumentError(`expected one of ${TRACTOR_BOT_LEVELS.join(", ")}`);
    },
  )
  .option("--no-baseline", "skip the ws echo baseline")
  .option("--baseline-port <port>", "port for the echo server (127.0.0.1)", count, 2589)
  .option("--baseline-duration <seconds>", "how long the baseline plays after its ramp", seconds(3600), 10)
  .option(
    "--nice <n>",
    "the load generator's nice value, 0 to 19: on the server's own machine it then takes the cores only when the server leaves them (Linux: every thread of it)",
    wholeNumber(0, 19),
    0,
  )
  .option("--json <file>", "also write the report as JSON")
  .option("--quiet", "no progress bar", false)
  .action(async (raw: Record<string, unknown>) => {
    const options: LoadTestOptions = {
      urls: raw.url as string[],
      clients: raw.clients as number,
      workers: Math.max(1, raw.workers as number),
      durationSeconds: raw.duration as number,
      rampSeconds: raw.ramp as number,
      thinkMs: raw.thinkMs as number,
      mix: raw.mix as Partial<Record<GameName, number>>,
      tractorBots: raw.tractorBots as TractorBotLevel | undefined,
      baseline: raw.baseline as boolean,
      baselinePort: raw.baselinePort as number,
      baselineSeconds: raw.baselineDuration as number,
      quiet: raw.quiet as boolean,
      nice: raw.nice as number,
    };
    try {
      planTables(options.clients, options.mix, options.urls, options.tractorBots);
    } catch (error) {
      console.error(`loadtest: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = EXIT_BAD_INPUT;
      return;
    }
    const report = await runLoadTest(options);
    console.log(formatReport(report));
    if (raw.json) fs.writeFileSync(raw.json as string, JSON.stringify(report, null, 2));
  })
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    console.error(`loadtest: ${error instanceof Error ? error.message : String(error)}`);
    // A failed phase leaves its server sampling and its other workers running: stop here (workers follow, below).
    process.exit(EXIT_FAILED);
  });
