/**
 * bin/bridge --url ws://HOST:PORT --game NAME [--games K] [table options] -- PROGRAM [ARGS...]
 * Plays one seat of any game for a program in any language: PROGRAM runs as a subprocess and speaks JSON lines
 * (docs/bridge.md; every message is defined in lib/bridge-protocol.ts). The bridge takes the seat through the SDK
 * (a new room, a room by id, or a named Tractor seat), hands the program each turn with the seat's view, the
 * legal actions and the bot's suggestion, makes the program's answers, and prints each game's result as
 * bin/bots does. A program that misbehaves never stalls the table: see `playTurn` and docs/bridge.md.
 */
import * as path from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { FOOL_AI_POLICIES } from "../../rooms/fool/protocol";
import { TRACTOR_SEATS, type TractorSeatName } from "../../rooms/tractor/protocol";
import { parseRank, rankLetter } from "../../rooms/tractor/cards";
import { choice, webSocketAddress, wholeNumber } from "./lib/arguments";
import { BRIDGE_GAMES, type BridgeGame } from "./lib/bridge-protocol";
import { Bridge, type BridgeRunOptions } from "./lib/bridge-run";
import {
  BRIDGE_SEATS,
  tableRules,
  takeSeat,
  type BridgedSeat,
  type TableOption,
  type TableRequest,
} from "./lib/bridge-seats";
import { EXIT_BAD_INPUT, EXIT_FAILED, usageErrorsAreBadInput } from "./lib/exit-status";
import { JsonLinesProgram } from "./lib/json-lines-program";

interface BridgeOptions extends BridgeRunOptions {
  url: string;
  game: BridgeGame;
  games?: number;
  room?: string;
  seat?: TractorSeatName;
  name?: string;
  seed?: number;
  n?: number;
  ai?: (typeof FOOL_AI_POLICIES)[number];
  mainSuit?: "H" | "S" | "C" | "D" | "O";
  bots?: TractorSeatName[];
  startRanks?: [string, string];
  turnTimeMs?: number;
  token?: string;
  queue?: boolean;
}

const DEFAULT_GAMES = 1;
/** The longest name a room accepts. */
const MAX_NAME = 40;

/** Which games take which table options (each game's bridge seat says); the others are refused as bad usage. */
const TABLE_OPTIONS: readonly TableOption[] = ["room", "seat", "n", "ai", "mainSuit", "bots", "startRanks", "queue"];
const OPTIONS_FOR = Object.fromEntries(
  TABLE_OPTIONS.map((option) => [option, BRIDGE_GAMES.filter((game) => BRIDGE_SEATS[game].options.includes(option))]),
);

function say(line: string): void {
  process.stderr.write(`bridge: ${line}\n`);
}

function usageProblem(options: BridgeOptions): string | undefined {
  for (const [option, games] of Object.entries(OPTIONS_FOR)) {
    if (options[option as keyof BridgeOptions] !== undefined && !games.includes(options.game)) {
      return `--${option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)} is for ${games.join(" and ")}, not ${options.game}`;
    }
  }
  if (options.bots?.includes(options.seat ?? "Alice")) return "--bots names the program's own seat";
  if (options.queue && !options.token)
    return "--queue plays rated games and ladders: it needs a bot's token (--token, or CARDHALL_TOKEN)";
  if (options.queue && options.room !== undefined) return "--queue and --room are two ways to a table: give one";
  if (
    options.queue &&
    (options.game === "evensteven" || options.game === "patience") &&
    (options.n !== undefined || options.seed !== undefined)
  )
    return "--queue plays the ladder's deals, which have their own seeds: give no --n or --seed";
  return undefined;
}

/** `A,A` or `10,J`: the two teams' ranks as the statement writes them (10 for T). */
function rankPair(text: string): [string, string] {
  const ranks = text.split(",").map((rank) => parseRank(rank.trim().toUpperCase()));
  if (ranks.length !== 2 || ranks.some((rank) => rank === undefined))
    throw new InvalidArgumentError("expected two ranks, team 1's then team 2's, e.g. A,A or 10,J");
  return [rankLetter(ranks[0]!), rankLetter(ranks[1]!)];
}

function seatList(text: string): TractorSeatName[] {
  const seats = text === "" ? [] : text.split(",");
  for (const seat of seats) choice(TRACTOR_SEATS)(seat);
  return seats as TractorSeatName[];
}

async function runBridge(command: string, args: string[], options: BridgeOptions): Promise<number> {
  const problem = usageProblem(options);
  if (problem) {
    say(problem);
    return EXIT_BAD_INPUT;
  }
  const name = (options.name ?? path.basename(command)).slice(0, MAX_NAME);
  const games = options.games ?? DEFAULT_GAMES;
  const checked = tableRules(options.game, { ...options, name, onEvent: () => undefined });
  if ("problem" in checked) {
    say(checked.problem);
    return EXIT_BAD_INPUT;
  }
  const program = new JsonLinesProgram(command, args, options.maxLineBytes);
  const startFailure = await program.started();
  if (startFailure !== null) {
    say(`the program could not be started: ${startFailure}`);
    return EXIT_FAILED;
  }
  const bridge = new Bridge(program, options);
  const request: TableRequest = {
    ...options,
    name,
    onEvent: (event, payload) => bridge.send({ type: "event", name: event, payload }),
    onWaitToJoin: (reason, waitMs) => say(`${reason}; asking again in ${Math.ceil(waitMs / 1000)} s`),
  };
  let seat: BridgedSeat | undefined;
  try {
    seat = await takeSeat(options.game, request, games, checked.rules);
    return await bridge.run(seat, name, games);
  } catch (error) {
    program.kill();
    throw error;
  } finally {
    await seat?.session.leave().catch(() => undefined);
  }
}

function main(): void {
  usageErrorsAreBadInput(new Command("bridge"))
    .description(
      "Plays one seat of a cardhall game for a PROGRAM in any language that speaks JSON lines (docs/bridge.md).",
    )
    .requiredOption("--url <url>", "the server's WebSocket address, e.g. ws://127.0.0.1:2567", webSocketAddress)
    .requiredOption("--game <name>", `the game: ${BRIDGE_GAMES.join(", ")}`, choice(BRIDGE_GAMES))
    .option(
      "--games <k>",
      `games to play (default ${DEFAULT_GAMES}); for tractor, rounds at most`,
      wholeNumber(1, 10_000),
    )
    .option(
      "--room <id>",
      "join this live room instead of creating one (fool: a two-player room's free seat; tractor: --seat's)",
    )
    .addOption(
      new Option("--seat <name>", "tractor: the seat to take (default Alice; a bot's seat is taken over)").argParser(
        choice(TRACTOR_SEATS),
      ),
    )
    .option("--name <name>", "the name the program plays as and is recorded under (default: the program's file name)")
    .option("--seed <seed>", "the first game's seed (tractor: the match's)", wholeNumber(1, 2147483646))
    .option("--n <cards>", "evensteven: cards in each hand (1..13)", wholeNumber(1, 13))
    .addOption(new Option("--ai <policy>", "fool: the room's AI opponent").argParser(choice(FOOL_AI_POLICIES)))
    .addOption(
      new Option("--main-suit <suit>", "tractor: the fixed main suit (default H; O for none)").argParser(
        choice(["H", "S", "C", "D", "O"] as const),
      ),
    )
    .option("--bots <seats>", "tractor: the seats bots hold, comma-separated (default: every other seat)", seatList)
    .option(
      "--start-ranks <ranks>",
      "tractor: the teams' ranks at the start, e.g. A,A or 10,J for a short match (default 2,2)",
      rankPair,
    )
    .option(
      "--turn-time-ms <ms>",
      "the room's turn clock for the program's seat, within the room's range (patience: the bridge's own)",
      wholeNumber(50, 3_600_000),
    )
    .option("--max-errors <n>", "refused answers to one turn before the seat's bot plays it", wholeNumber(1, 1_000), 3)
    .option(
      "--max-line-bytes <n>",
      "the longest answer line read; longer lines are refused unread",
      wholeNumber(64, 16 * 1024 * 1024),
      65_536,
    )
    .addOption(
      new Option("--token <token>", "a bot's token (docs/arena.md): the seat is the bot's, under its name").env(
        "CARDHALL_TOKEN",
      ),
    )
    .option(
      "--queue",
      "fool, tractor: play rated games from the game's queue, a table each; evensteven, patience: play the solo ladder's deals, a table each (needs --token)",
    )
    .option(
      "--timing",
      "print, last, each answer's round trip: ms from the turn line written to the answer read and checked",
      false,
    )
    .argument("<program>", "the player program to run")
    .argument("[args...]", "arguments passed to the program")
    .passThroughOptions()
    .action(async (command: string, args: string[], options: BridgeOptions) => {
      process.exitCode = await runBridge(command, args, options);
    })
    .parseAsync(process.argv)
    .catch((error: unknown) => {
      say(error instanceof Error ? error.message : String(error));
      process.exitCode = EXIT_FAILED;
    });
}

main();
