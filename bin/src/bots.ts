/**
 * bin/bots --url ws://HOST:PORT --game NAME --tables N [--games K]: fills N tables of a game with the SDK's scripted
 * players, plays, and prints each table's results: every game's outcome (for Tractor, every round's points and ranks
 * and the match's winner).
 */
import { Command, InvalidArgumentError } from "commander";
import { BOT_TABLES, type BotGame } from "../../client-sdk/bots/tables";
import { joinWhenTaken } from "../../client-sdk/retry";
import { webSocketAddress, wholeNumber } from "./lib/arguments";
import { EXIT_DONE, EXIT_FAILED, usageErrorsAreBadInput } from "./lib/exit-status";

const DEFAULT_GAMES = 3;
/** How long a table goes on asking a server that refuses new tables for a while (at capacity) before it gives up. */
const JOIN_PATIENCE_MS = 5 * 60_000;

function game(text: string): BotGame {
  if (!(text in BOT_TABLES))
    throw new InvalidArgumentError(`unknown game (known: ${Object.keys(BOT_TABLES).join(", ")})`);
  return text as BotGame;
}

usageErrorsAreBadInput(new Command("bots"))
  .description("Fills tables with scripted players built on the cardhall SDK, plays, and prints the results.")
  .requiredOption("--url <url>", "the server's WebSocket address, e.g. ws://127.0.0.1:2567", webSocketAddress)
  .requiredOption("--game <name>", `the game: ${Object.keys(BOT_TABLES).join(", ")}`, game)
  .option("--tables <n>", "how many tables", wholeNumber(1, 10_000), 1)
  .option(
    "--games <k>",
    `games per table (default ${DEFAULT_GAMES}); for tractor, rounds at most (default: the whole match)`,
    wholeNumber(1, 10_000),
  )
  .option("--think-ms <ms>", "mean think time before each move", wholeNumber(0, 60_000), 0)
  .action(async (options: { url: string; game: BotGame; tables: number; games?: number; thinkMs: number }) => {
    const table = BOT_TABLES[options.game];
    // A Tractor match is its own measure: its rounds go on until a team passes Ace.
    const games = options.games ?? (options.game === "tractor" ? undefined : DEFAULT_GAMES);
    // A server at capacity refuses a new table for a while: each table asks again, as bin/bridge does.
    const playPatiently = (index: number) =>
      joinWhenTaken(() => table.play({ url: options.url, games, thinkMs: options.thinkMs }), {
        withinMs: JOIN_PATIENCE_MS,
        onWait: (refusal, _attempt, waitMs) =>
          console.error(`bots: table ${index + 1}: ${refusal.message}; asking again in ${Math.ceil(waitMs / 1000)} s`),
      });
    const results = await Promise.allSettled(
      Array.from({ length: options.tables }, (_, index) => playPatiently(index)),
    );
    let failures = 0;
    results.forEach((result, index) => {
      if (result.status === "fulfilled") {
        console.log(`table ${index + 1} (room ${result.value.roomId}):`);
        for (const line of result.value.lines) console.log(`  ${line}`);
      } else {
        failures++;
        console.error(
          `bots: table ${index + 1}: failed: ${result.reason instanceof Error ? result.reason.message : String(result.reason)}`,
        );
      }
    });
    process.exitCode = failures > 0 ? EXIT_FAILED : EXIT_DONE;
  })
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    console.error(`bots: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = EXIT_FAILED;
  });
