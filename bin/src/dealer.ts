/**
 * bin/dealer PROGRAM [ARGS...]: the original Even-Steven dealer. Reads `N seed` lines from stdin, plays each game
 * with PROGRAM over its stdin/stdout and prints `Game k` and the verdict, byte for byte as the original does.
 * What happens when the player misbehaves is documented in docs/evensteven.md.
 */
import { Command } from "commander";
import { covers } from "../../rooms/evensteven/cards";
import {
  cardToCover,
  describeFault,
  initialHand,
  newGame,
  playCard,
  verdictLine,
  type Game,
} from "../../rooms/evensteven/engine";
import { seconds } from "./lib/arguments";
import { EXIT_BAD_INPUT, EXIT_DONE, EXIT_FAILED, usageErrorsAreBadInput } from "./lib/exit-status";
import { gameLines } from "./lib/game-lines";
import { PlayerFault, PlayerProcess } from "./lib/player-process";

const DEFAULT_TIMEOUT_SECONDS = 5;

interface DealerOptions {
  timeout: number;
}

function out(line: string): void {
  process.stdout.write(line + "\n");
}

/** Plays one game to its verdict; a misbehaving player raises a PlayerFault. */
async function playGame(player: PlayerProcess, start: Game, timeoutMs: number): Promise<Game> {
  let game = start;
  player.send(`${game.n} ${initialHand(game).join(" ")}`);
  for (let dealt = cardToCover(game); dealt !== null; dealt = cardToCover(game)) {
    player.send(dealt);
    const answer = await player.answer(timeoutMs, dealt);
    const result = playCard(game, answer);
    if (!result.ok)
      throw new PlayerFault(`the player answered ${dealt} with "${answer}": ${describeFault(result.fault)}`);
    game = result.game;
    if (!covers(answer, dealt) || game.verdict === "WIN") player.send(game.verdict === "WIN" ? "YOU WIN" : "YOU LOSE");
  }
  return game;
}

async function runDealer(command: string, args: string[], options: DealerOptions): Promise<number> {
  const timeoutMs = options.timeout * 1000;
  const player = new PlayerProcess(command, args, out);
  let gameNumber = 0;
  let playing = false; // a fault during a game names the game
  let refusedLines = 0;
  try {
    for await (const line of gameLines(process.stdin)) {
      if ("problem" in line) {
        process.stderr.write(`dealer: input line ${line.lineNumber} refused: ${line.problem}\n`);
        refusedLines++;
        continue;
      }
      gameNumber++;
      out(`Game ${gameNumber}`);
      playing = true;
      const game = await playGame(player, newGame(line.n, line.seed), timeoutMs);
      playing = false;
      out(verdictLine(game.verdict!));
    }
    await player.finish(timeoutMs);
    if (gameNumber === 0 && refusedLines === 0) process.stderr.write("dealer: the input holds no games\n");
    return refusedLines > 0 || gameNumber === 0 ? EXIT_BAD_INPUT : EXIT_DONE;
  } catch (error) {
    if (!(error instanceof PlayerFault)) throw error;
    player.kill();
    process.stdin.destroy(); // the rest of the input goes unread
    const where = playing ? `Game ${gameNumber}: ` : "";
    process.stderr.write(`dealer: ${where}${error.message}\n`);
    return EXIT_FAILED;
  }
}

function main(): void {
  const program = usageErrorsAreBadInput(new Command("dealer"))
    .description("The Even-Steven dealer: reads `N seed` lines, plays each game with PROGRAM, prints the verdicts.")
    .option(
      "-t, --timeout <seconds>",
      "how long the player may take to answer a card",
      seconds(3600),
      DEFAULT_TIMEOUT_SECONDS,
    )
    .argument("<program>", "the player program to run")
    .argument("[args...]", "arguments passed to the player program")
    .passThroughOptions()
    .action(async (command: string, args: string[], options: DealerOptions) => {
      process.exitCode = await runDealer(command, args, options);
    });
  process.stdout.on("error", () => process.exit(process.exitCode ?? 0)); // a closed pipe (e.g. `| head`) ends quietly
  program.parseAsync(process.argv).catch((error: unknown) => {
    process.stderr.write(`dealer: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = EXIT_FAILED;
  });
}

if (require.main === module) main();
