/**
 * bin/evensteven-bridge --url ws://HOST:PORT [options] -- PROGRAM [ARGS...]
 * Makes a stdio Even-Steven contest program a network player: it takes the player's seat in a new `evensteven`
 * room and speaks the original dealer's protocol with PROGRAM, printing `Game k` and verdicts as bin/dealer does.
 */
import { Command } from "commander";
import { CardhallClient, CardhallError, type EvenStevenPlayer } from "../../client-sdk";
import { seconds, webSocketAddress, wholeNumber } from "./lib/arguments";
import { EXIT_BAD_INPUT, EXIT_DONE, EXIT_FAILED, usageErrorsAreBadInput } from "./lib/exit-status";
import { gameLines } from "./lib/game-lines";
import { PlayerFault, PlayerProcess } from "./lib/player-process";

interface BridgeOptions {
  url: string;
  games: number;
  n?: number;
  seed?: number;
  fromStdin: boolean;
  timeout: number;
  name: string;
}

interface GameRequest {
  n?: number;
  seed?: number;
}

function out(line: string): void {
  process.stdout.write(line + "\n");
}

/**
 * The games to play: `N seed` lines from stdin (as bin/dealer reads them), or --games of --n with --seed first;
 * a sentence instead when a line is malformed or stdin holds no game.
 */
async function gameRequests(options: BridgeOptions): Promise<GameRequest[] | string> {
  if (!options.fromStdin) {
    return Array.from({ length: options.games }, (_, i) => ({
      n: options.n,
      seed: i === 0 ? options.seed : undefined,
    }));
  }
  const requests: GameRequest[] = [];
  for await (const line of gameLines(process.stdin)) {
    if ("problem" in line) return `input line ${line.lineNumber} refused: ${line.problem}`;
    requests.push({ n: line.n, seed: line.seed });
  }
  return requests.length > 0 ? requests : "the input holds no games";
}

/** Plays the room's current game `game` with the program; returns the outcome. */
async function bridgeGame(
  session: EvenStevenPlayer,
  player: PlayerProcess,
  game: number,
  timeoutMs: number,
): Promise<string> {
  for (let index = 1; ; index++) {
    const turn = await session.nextTurn(game, index);
    if (turn.kind === "over") {
      player.send(turn.outcome === "WIN" ? "YOU WIN" : "YOU LOSE");
      return turn.outcome;
    }
    if (index === 1) player.send(`${turn.hand.length} ${turn.hand.join(" ")}`);
    player.send(turn.card);
    const answer = await player.answer(timeoutMs, turn.card);
    try {
      await session.play(answer);
    } catch (error) {
      if (error instanceof CardhallError)
        throw new PlayerFault(`the player answered ${turn.card} with "${answer}": ${error.message}`);
      throw error;
    }
  }
}

async function runBridge(command: string, args: string[], options: BridgeOptions): Promise<number> {
  const requests = await gameRequests(options);
  if (typeof requests === "string") {
    process.stderr.write(`evensteven-bridge: ${requests}\n`);
    return EXIT_BAD_INPUT;
  }
  const client = new CardhallClient(options.url);
  const session = await client.playEvenSteven({ ...requests[0], name: options.name });
  process.stderr.write(`evensteven-bridge: playing in room ${session.roomId}\n`);
  const player = new PlayerProcess(command, args, out);
  let game = 0;
  try {
    for (const request of requests) {
      game++;
      if (game > 1) await session.newGame(request);
      out(`Game ${game}`);
      out(`YOU ${await bridgeGame(session, player, game, options.timeout * 1000)}`);
    }
    await player.finish(options.timeout * 1000);
    return EXIT_DONE;
  } catch (error) {
    if (!(error instanceof PlayerFault)) throw error;
    player.kill();
    process.stderr.write(`evensteven-bridge: Game ${game}: ${error.message}\n`);
    return EXIT_FAILED;
  } finally {
    await session.leave().catch(() => undefined);
  }
}

function main(): void {
  usageErrorsAreBadInput(new Command("evensteven-bridge"))
    .description("Plays Even-Steven games in a cardhall room with a stdio contest PROGRAM as the player.")
    .requiredOption("--url <url>", "the server's WebSocket address, e.g. ws://127.0.0.1:2567", webSocketAddress)
    .option("--games <count>", "how many games to play", wholeNumber(1), 1)
    .option("--n <cards>", "cards in each hand (1..13; the room's default otherwise)", wholeNumber(1, 13))
    .option("--seed <seed>", "the first game's seed (later games get fresh seeds)", wholeNumber(1, 2147483646))
    .option("--from-stdin", "read `N seed` lines from stdin, as bin/dealer does, instead of --games/--n/--seed", false)
    .option("-t, --timeout <seconds>", "how long the program may take to answer a card", seconds(3600), 5)
    .option("--name <name>", "the player's name in the room", "bridge")
    .argument("<program>", "the player program to run")
    .argument("[args...]", "arguments passed to the program")
    .passThroughOptions()
    .action(async (command: string, args: string[], options: BridgeOptions) => {
      process.exitCode = await runBridge(command, args, options);
    })
    .parseAsync(process.argv)
    .catch((error: unknown) => {
      process.stderr.write(`evensteven-bridge: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = EXIT_FAILED;
    });
}

main();
