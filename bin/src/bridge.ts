/**
 * bin/bridge --url ws://HOST:PORT --game NAME [--games K] [table options] -- PROGRAM [ARGS...]
 * Plays one seat of any game for a program in any language: PROGRAM runs as a subprocess and speaks JSON lines
 * (docs/bridge.md; every message is defined in lib/bridge-protocol.ts). The bridge takes the seat through the SDK
 * (a new room, a room by id, or a named Tractor seat), hands the program each turn with the seat's view, the
 * legal actions and the bot's suggestion, makes the program's answers, and prints each game's result as
 * bin/bots does. A program that misbehaves never stalls the table: see `playTurn` and docs/bridge.md.
 */
import * as path from "path";
import { Command, InvalidArgumentError, Option } from "commander";
import { CardhallError } from "../../client-sdk";
import { describeIssues } from "../../rooms/kit/protocol";
import { CLIENT_RATE_BUDGET } from "../../rooms/kit/rate-limit";
import { FOOL_AI_POLICIES } from "../../rooms/fool/protocol";
import { TRACTOR_SEATS, type TractorSeatName } from "../../rooms/tractor/protocol";
import { parseRank, rankLetter } from "../../rooms/tractor/cards";
import { webSocketAddress, wholeNumber } from "./lib/arguments";
import { answerMessage, BRIDGE_GAMES, BRIDGE_PROTOCOL_VERSION, bridgeActions, type BridgeGame, type BridgeToProgram } from "./lib/bridge-protocol";
import { BRIDGE_SEATS, tableRules, takeSeat, type BridgedSeat, type SeatTurn, type TableOption, type TableRequest } from "./lib/bridge-seats";
import { EXIT_BAD_INPUT, EXIT_DONE, EXIT_FAILED, usageErrorsAreBadInput } from "./lib/exit-status";
import { JsonLinesProgram, type ProgramLine } from "./lib/json-lines-program";

interface BridgeOptions {
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
  maxErrors: number;
  maxLineBytes: number;
  timing: boolean;
}

const DEFAULT_GAMES = 1;
/** How long a program may take to exit once its input is closed at the end of the run. */
const EXIT_GRACE_MS = 5_000;
/** The longest name a room accepts. */
const MAX_NAME = 40;

/** Which games take which table options (each game's bridge seat says); the others are refused as bad usage. */
const TABLE_OPTIONS: readonly TableOption[] = ["room", "seat", "n", "ai", "mainSuit", "bots", "startRanks", "queue"];
const OPTIONS_FOR = Object.fromEntries(TABLE_OPTIONS.map((option) => [option, BRIDGE_GAMES.filter((game) => BRIDGE_SEATS[game].options.includes(option))]));

function out(line: string): void {
  process.stdout.write(line + "\n");
}

function say(line: string): void {
  process.stderr.write(`bridge: ${line}\n`);
}

/** Why a refused answer was refused: a room's error code and its sentence. */
interface Refusal {
  code: string;
  message: string;
}

/** The program's answer as an action of the game, or why it is none. */
function readAnswer(line: ProgramLine, game: BridgeGame, maxLineBytes: number, turn: number): { action: unknown } | Refusal | "stale" {
  if (line.kind === "tooLong") return { code: "BAD_PAYLOAD", message: `the line is longer than ${maxLineBytes} bytes (${line.bytes}); it was not read` };
  let json: unknown;
  try {
    json = JSON.parse(line.text);
  } catch {
    return { code: "BAD_PAYLOAD", message: "the line is not JSON" };
  }
  const answer = answerMessage.safeParse(json);
  if (!answer.success) return { code: "BAD_PAYLOAD", message: `not an answer: ${describeIssues(answer.error)}` };
  if (answer.data.turn !== undefined && answer.data.turn < turn) return "stale";
  if (answer.data.turn !== undefined && answer.data.turn > turn) return { code: "BAD_PAYLOAD", message: `turn ${answer.data.turn} has not come yet; this is turn ${turn}` };
  const action = bridgeActions[game].safeParse(answer.data.action);
  if (!action.success) return { code: "BAD_PAYLOAD", message: `not a ${game} action: ${describeIssues(action.error)}` };
  return { action: action.data };
}

/** Counts for the run's last line. */
interface Tally {
  turns: number;
  answered: number;
  refused: number;
  byBot: number;
  timedOut: number;
}

class Bridge {
  private readonly tally: Tally = { turns: 0, answered: 0, refused: 0, byBot: 0, timedOut: 0 };
  /** Milliseconds from each turn line written to its answer read and checked (`--timing`). */
  private readonly roundTrips: number[] = [];
  /** Why the program no longer plays (it ended early), once it does not. */
  private programEnded: string | null = null;
  private helloSent = false;
  private readonly early: BridgeToProgram[] = [];

  constructor(
    private readonly program: JsonLinesProgram,
    private readonly options: BridgeOptions,
  ) {}

  /** Writes a message to the program (events that come before the hello wait for it). */
  send(message: BridgeToProgram): void {
    if (!this.helloSent && message.type !== "hello") {
      this.early.push(message);
      return;
    }
    this.program.send(message);
    if (message.type === "hello") {
      this.helloSent = true;
      for (const waiting of this.early.splice(0)) this.program.send(waiting);
    }
  }

  async run(seat: BridgedSeat, name: string, games: number): Promise<number> {
    const { options } = this;
    this.send({
      type: "hello",
      protocol: BRIDGE_PROTOCOL_VERSION,
      game: options.game,
      room: seat.session.roomId,
      seat: seat.seat,
      name,
      games,
      rules: seat.rules,
      maxErrors: options.maxErrors,
      maxLineBytes: options.maxLineBytes,
    });
    out(`room ${seat.session.roomId}: ${options.game}, seat ${seat.seat}, playing as ${name}`);
    let finished = 0;
    for (let game = 1; game <= games && this.programEnded === null; game++) {
      if (game > 1 && !this.program.running) {
        await this.programHasEnded(this.tally.turns + 1, "the run stops"); // between games: no game is left to finish
        break;
      }
      if (game > 1) await seat.newGame();
      const last = await this.playGame(seat);
      finished++;
      if (last) break;
    }
    const summary = seat.summary();
    if (summary) out(summary);
    const { turns, answered, refused, byBot, timedOut } = this.tally;
    out(`turns: ${turns}; answered by the program ${answered}, refused ${refused}, played by the bot ${byBot}, timed out ${timedOut}`);
    if (options.timing) {
      out(`round trips: ${JSON.stringify(this.roundTrips.map((ms) => Number(ms.toFixed(3))))}`);
      const { messages, ms } = seat.session.budgetWaits;
      out(`rate budget: ${messages} messages waited ${Math.round(ms)} ms in all (${CLIENT_RATE_BUDGET.perSecond} a second after a burst of ${CLIENT_RATE_BUDGET.burst})`);
    }
    // Every run ends the same way, even for a program that stopped playing early: it may have closed its output
    // and still be running, and the bridge cannot exit while its input is open.
    this.send({ type: "bye", games: finished, message: this.programEnded === null ? "the run is over" : `the run is over (${this.programEnded} early)` });
    const exit = await this.program.finish(EXIT_GRACE_MS);
    if (this.programEnded !== null) {
      if (exit.killed) say(`the program ${exit.description}`);
      return EXIT_FAILED;
    }
    if (exit.status === 0) return EXIT_DONE;
    say(`the program ${exit.description} at the end of the run`);
    return EXIT_FAILED;
  }

  /** Plays one game to its end; true when the table plays no more games. */
  private async playGame(seat: BridgedSeat): Promise<boolean> {
    for (;;) {
      const step = await seat.next();
      if (step.kind === "gameOver") {
        out(step.line);
        this.send({ type: "gameOver", game: step.game, result: step.result, line: step.line });
        return step.last ?? false;
      }
      await this.playTurn(seat, step.turn, ++this.tally.turns);
    }
  }

  /**
   * One turn: the program answers, or gets an `error` line and the same turn again, up to the limit; then the
   * seat's bot plays it. A silent program meets the room's clock (the turn is overtaken); a program that has
   * ended has its turns played by the bot.
   */
  private async playTurn(seat: BridgedSeat, turn: SeatTurn, number: number): Promise<void> {
    if (this.programEnded !== null) return this.botPlays(seat, turn, number, this.programEnded);
    const watching = new AbortController();
    const overtaken = new AbortController();
    void turn.overtaken(watching.signal).then(() => watching.signal.aborted || overtaken.abort());
    try {
      this.program.dropQueued(); // anything read so far answered an earlier turn
      let sent = performance.now();
      this.sendTurn(turn, number);
      for (let attempt = 1; ; ) {
        const line = await this.program.next(overtaken.signal);
        if (line.kind === "aborted") return this.timedOut(number);
        if (line.kind === "ended") {
          await this.programHasEnded(number);
          return this.botPlays(seat, turn, number, "the program has ended");
        }
        const answer = readAnswer(line, this.options.game, this.options.maxLineBytes, number);
        if (answer === "stale") continue;
        this.roundTrips.push(performance.now() - sent);
        const refusal = "action" in answer ? await this.tryAction(seat, answer.action) : answer;
        if (refusal === null) {
          this.tally.answered++;
          return;
        }
        if (overtaken.signal.aborted) return this.timedOut(number); // refused because the clock acted first
        this.tally.refused++;
        this.send({ type: "error", turn: number, code: refusal.code, message: refusal.message, attempt, maxErrors: this.options.maxErrors });
        if (attempt++ >= this.options.maxErrors) return this.botPlays(seat, turn, number, `${this.options.maxErrors} answers were refused`);
        sent = performance.now();
        this.sendTurn(turn, number);
      }
    } finally {
      watching.abort();
    }
  }

  /** The turn as the program sees it, with the time its clock has left now. */
  private sendTurn(turn: SeatTurn, number: number): void {
    const { view, legal, complete, suggestion, deadline } = turn;
    const timeLeftMs = deadline > 0 ? Math.max(0, deadline - Date.now()) : null;
    this.send({ type: "turn", turn: number, game: turn.game, view, legal, complete, suggestion: suggestion ?? null, timeLeftMs });
  }

  /** Makes the action; null when the room accepted it, else the room's refusal. */
  private async tryAction(seat: BridgedSeat, action: unknown): Promise<Refusal | null> {
    try {
      await seat.act(action);
      return null;
    } catch (error) {
      if (error instanceof CardhallError) return { code: error.code, message: error.message };
      throw error;
    }
  }

  private timedOut(number: number): void {
    this.tally.timedOut++;
    this.send({ type: "timeout", turn: number, message: "the turn clock ran out and the room acted for the seat" });
  }

  /** The seat's bot plays the turn: its suggestion, or the first legal action; the program is told. */
  private async botPlays(seat: BridgedSeat, turn: SeatTurn, number: number, reason: string): Promise<void> {
    const action = turn.suggestion ?? turn.legal[0];
    if (action === undefined) return; // nothing to play: the room's clock will act
    const refusal = await this.tryAction(seat, action);
    if (refusal !== null) return; // the room moved on first (its clock played)
    this.tally.byBot++;
    this.send({ type: "botMove", turn: number, action, reason });
  }

  /** The program stopped before the run was over: one line says so, and the bot plays its seat to the game's end. */
  private async programHasEnded(number: number, then = "its seat goes to the bot until the game ends"): Promise<void> {
    const how = await this.program.endDescription();
    this.programEnded = `the program ${how}`;
    say(`the program ${how} at turn ${number}, before the run was over; ${then}`);
  }
}

function usageProblem(options: BridgeOptions): string | undefined {
  for (const [option, games] of Object.entries(OPTIONS_FOR)) {
    if (options[option as keyof BridgeOptions] !== undefined && !games.includes(options.game)) {
      return `--${option.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)} is for ${games.join(" and ")}, not ${options.game}`;
    }
  }
  if (options.bots?.includes(options.seat ?? "Alice")) return "--bots names the program's own seat";
  if (options.queue && !options.token) return "--queue plays rated games and ladders: it needs a bot's token (--token, or CARDHALL_TOKEN)";
  if (options.queue && options.room !== undefined) return "--queue and --room are two ways to a table: give one";
  if (options.queue && options.game === "evensteven" && (options.n !== undefined || options.seed !== undefined)) return "--queue plays the ladder's deals, which have their own seeds and hand size: give no --n or --seed";
  return undefined;
}

function choice<T extends string>(values: readonly T[]): (text: string) => T {
  return (text) => {
    if (!values.includes(text as T)) throw new InvalidArgumentError(`expected one of ${values.join(", ")}`);
    return text as T;
  };
}

/** `A,A` or `10,J`: the two teams' ranks as the statement writes them (10 for T). */
function rankPair(text: string): [string, string] {
  const ranks = text.split(",").map((rank) => parseRank(rank.trim().toUpperCase()));
  if (ranks.length !== 2 || ranks.some((rank) => rank === undefined)) throw new InvalidArgumentError("expected two ranks, team 1's then team 2's, e.g. A,A or 10,J");
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
  const request: TableRequest = { ...options, name, onEvent: (event, payload) => bridge.send({ type: "event", name: event, payload }) };
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
    .description("Plays one seat of a cardhall game for a PROGRAM in any language that speaks JSON lines (docs/bridge.md).")
    .requiredOption("--url <url>", "the server's WebSocket address, e.g. ws://127.0.0.1:2567", webSocketAddress)
    .requiredOption("--game <name>", `the game: ${BRIDGE_GAMES.join(", ")}`, choice(BRIDGE_GAMES))
    .option("--games <k>", `games to play (default ${DEFAULT_GAMES}); for tractor, rounds at most`, wholeNumber(1, 10_000))
    .option("--room <id>", "join this live room instead of creating one (fool: a two-player room's free seat; tractor: --seat's)")
    .addOption(new Option("--seat <name>", "tractor: the seat to take (default Alice; a bot's seat is taken over)").argParser(choice(TRACTOR_SEATS)))
    .option("--name <name>", "the name the program plays as and is recorded under (default: the program's file name)")
    .option("--seed <seed>", "the first game's seed (tractor: the match's)", wholeNumber(1, 2147483646))
    .option("--n <cards>", "evensteven: cards in each hand (1..13)", wholeNumber(1, 13))
    .addOption(new Option("--ai <policy>", "fool: the room's AI opponent").argParser(choice(FOOL_AI_POLICIES)))
    .addOption(new Option("--main-suit <suit>", "tractor: the fixed main suit (default H; O for none)").argParser(choice(["H", "S", "C", "D", "O"] as const)))
    .option("--bots <seats>", "tractor: the seats bots hold, comma-separated (default: every other seat)", seatList)
    .option("--start-ranks <ranks>", "tractor: the teams' ranks at the start, e.g. A,A or 10,J for a short match (default 2,2)", rankPair)
    .option("--turn-time-ms <ms>", "the room's turn clock for the program's seat, within the room's range (patience: the bridge's own)", wholeNumber(50, 3_600_000))
    .option("--max-errors <n>", "refused answers to one turn before the seat's bot plays it", wholeNumber(1, 1_000), 3)
    .option("--max-line-bytes <n>", "the longest answer line read; longer lines are refused unread", wholeNumber(64, 16 * 1024 * 1024), 65_536)
    .addOption(new Option("--token <token>", "a bot's token (docs/arena.md): the seat is the bot's, under its name").env("CARDHALL_TOKEN"))
    .option("--queue", "fool, tractor: play rated games from the game's queue, a table each; evensteven: play the solo ladder's deals, a table each (needs --token)")
    .option("--timing", "print, last, each answer's round trip: ms from the turn line written to the answer read and checked", false)
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
