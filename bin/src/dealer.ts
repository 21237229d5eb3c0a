/**
 * bin/dealer PROGRAM [ARGS...]: the original Even-Steven dealer. Reads `N seed` lines from stdin, plays each game
 * with PROGRAM over its stdin/stdout and prints `Game k` and the verdict, byte for byte as the original does.
 * What happens when the player misbehaves is documented in docs/evensteven.md.
 */
import { Command } from "commander";
import * as readline from "readline";
import { covers } from "../../rooms/evensteven/cards";
import {
  cardToCover,
  describeFault,
  gameParametersProblem,
  initialHand,
  newGame,
  playCard,
  verdictLine,
  type Game,
} from "../../rooms/evensteven/engine";
import { seconds } from "./lib/arguments";
import { PlayerFault, PlayerProcess } from "./lib/player-process";

const DEFAULT_TIMEOUT_SECONDS = 5;

interface DealerOptions {
  timeout: number;
}

function out(line: string): void {
  process.stdout.write(line + "\n");
}

/** `N seed`, or a sentence saying what is wrong with the line. */
export function parseGameLine(line: string): { n: number; seed: number } | { problem: string } {
  const match = /^\s*(\d+)\s+(\d+)\s*$/.exec(line);
  if (!match) return { problem: `expected "N seed" (two whole numbers), got "${line.trim()}"` };
  const n = Number(match[1]);
  const seed = Number(match[2]);
  const problem = gameParametersProblem(n, seed);
  return problem ? { problem } : { n, seed };
}

/** Plays one game to its verdict; a misbehaving player raises a PlayerFault. */
async function playGame(player: PlayerProcess, start: Game, timeoutMs: number): Promise<Game> {
  let game = start;
  player.send(`${game.n} ${initialHand(game).join(" ")}`);
  for (let dealt = cardToCover(game); dealt !== null; dealt = cardToCover(game)) {
    player.send(dealt);
    const answer = await player.answer(timeoutMs, dealt);
    const result = playCard(game, answer);
    if (!result.ok) throw new PlayerFault(`the player answered ${dealt} with "${answer}": ${describeFault(result.fault)}`);
    game = result.game;
    if (!covers(answer, dealt) || game.verdict === "WIN") player.send(game.verdict === "WIN" ? "YOU WIN" : "YOU LOSE");
  }
  return game;
}

async function runDealer(command: string, args: string[], options: DealerOptions): Promise<number> {
  const timeoutMs = options.timeout * 1000;
  const player = new PlayerProcess(command, args, out);
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  let gameNumber = 0;
  let playing = false; // a fault during a game names the game
  let lineNumber = 0;
  let exitCode = 0;
  try {
    for await (const line of input) {
      lineNumber++;
      if (line.trim() === "") continue;
      const parsed = parseGameLine(line);
      if ("problem" in parsed) {
        process.stderr.write(`dealer: input line ${lineNumber} skipped: ${parsed.problem}\n`);
        exitCode = 1;
        continue;
      }
      gameNumber++;
      out(`Game ${gameNumber}`);
      playing = true;
      const game = await playGame(player, newGame(parsed.n, parsed.seed), timeoutMs);
      playing = false;
      out(verdictLine(game.verdict!));
    }
    await player.finish(timeoutMs);
    return exitCode;
  } catch (error) {
    if (!(error instanceof PlayerFault)) throw error;
    player.kill();
    const where = playing ? `Game ${gameNumber}: ` : "";
    process.stderr.write(`dealer: ${where}${error.message}\n`);
    return 2;
  } finally {
    input.close();
  }
}

function main(): void {
  const program = new Command("dealer")
    .description("The Even-Steven dealer: reads `N seed` lines, plays each game with PROGRAM, prints the verdicts.")
    .option("-t, --timeout <seconds>", "how long the player may take to answer a card", seconds(3600), DEFAULT_TIMEOUT_SECONDS)
    .argument("<program>", "the player program to run")
    .argument("[args...]", "arguments passed to the player program")
    .passThroughOptions()
    .action(async (command: string, args: string[], options: DealerOptions) => {
      process.exitCode = await runDealer(command, args, options);
    });
  process.stdout.on("error", () => process.exit(process.exitCode ?? 0)); // a closed pipe (e.g. `| head`) ends quietly
  program.parseAsync(process.argv).catch((error: unknown) => {
    process.stderr.write(`dealer: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  });
}

if (require.main === module) main();
