/**
 * The bridge's play, for bin/bridge and bin/tournament alike: a program speaking JSON lines (docs/bridge.md) plays
 * one seat through the SDK. It is handed each turn with the seat's view, the legal actions and the bot's
 * suggestion; its answers are made; a program that misbehaves never stalls the table (see `playTurn`).
 */
import { CardhallError } from "../../../client-sdk";
import { describeIssues } from "../../../rooms/kit/protocol";
import { CLIENT_RATE_BUDGET } from "../../../rooms/kit/rate-limit";
import {
  answerMessage,
  BRIDGE_PROTOCOL_VERSION,
  bridgeActions,
  type BridgeGame,
  type BridgeToProgram,
} from "./bridge-protocol";
import type { BridgedSeat, SeatTurn } from "./bridge-seats";
import { EXIT_DONE, EXIT_FAILED } from "./exit-status";
import type { JsonLinesProgram, ProgramLine } from "./json-lines-program";

/** What the play needs of the command line. */
export interface BridgeRunOptions {
  game: BridgeGame;
  maxErrors: number;
  maxLineBytes: number;
  timing: boolean;
}

/** Where the bridge's lines go: results (`out`) and its own reports (`say`). */
export interface BridgePrinter {
  out(line: string): void;
  say(line: string): void;
}

const STANDARD_PRINTER: BridgePrinter = {
  out: (line) => process.stdout.write(line + "\n"),
  say: (line) => process.stderr.write(`bridge: ${line}\n`),
};

/** How long a program may take to exit once its input is closed at the end of the run. */
const EXIT_GRACE_MS = 5_000;

/** Why a refused answer was refused: a room's error code and its sentence. */
interface Refusal {
  code: string;
  message: string;
}

/** The program's answer as an action of the game, or why it is none. */
function readAnswer(
  line: ProgramLine,
  game: BridgeGame,
  maxLineBytes: number,
  turn: number,
): { action: unknown } | Refusal | "stale" {
  if (line.kind === "tooLong")
    return {
      code: "BAD_PAYLOAD",
      message: `the line is longer than ${maxLineBytes} bytes (${line.bytes}); it was not read`,
    };
  let json: unknown;
  try {
    json = JSON.parse(line.text);
  } catch {
    return { code: "BAD_PAYLOAD", message: "the line is not JSON" };
  }
  const answer = answerMessage.safeParse(json);
  if (!answer.success) return { code: "BAD_PAYLOAD", message: `not an answer: ${describeIssues(answer.error)}` };
  if (answer.data.turn !== undefined && answer.data.turn < turn) return "stale";
  if (answer.data.turn !== undefined && answer.data.turn > turn)
    return { code: "BAD_PAYLOAD", message: `turn ${answer.data.turn} has not come yet; this is turn ${turn}` };
  const action = bridgeActions[game].safeParse(answer.data.action);
  if (!action.success) return { code: "BAD_PAYLOAD", message: `not a ${game} action: ${describeIssues(action.error)}` };
  return { action: action.data };
}

/** Counts for the run's last line. */
export interface Tally {
  turns: number;
  answered: number;
  refused: number;
  byBot: number;
  timedOut: number;
}

export class Bridge {
  private readonly tally: Tally = { turns: 0, answered: 0, refused: 0, byBot: 0, timedOut: 0 };
  /** Milliseconds from each turn line written to its answer read and checked (`--timing`). */
  private readonly roundTrips: number[] = [];
  /** Why the program no longer plays (it ended early), once it does not. */
  private programEnded: string | null = null;
  private helloSent = false;
  private readonly early: BridgeToProgram[] = [];

  constructor(
    private readonly program: JsonLinesProgram,
    private readonly options: BridgeRunOptions,
    private readonly print: BridgePrinter = STANDARD_PRINTER,
  ) {}

  /** How the program played so far: the run's counts, and why it stopped playing if it did (null while it plays). */
  verdict(): { tally: Readonly<Tally>; programEnded: string | null } {
    return { tally: { ...this.tally }, programEnded: this.programEnded };
  }

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
    this.print.out(`room ${seat.session.roomId}: ${options.game}, seat ${seat.seat}, playing as ${name}`);
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
    if (summary) this.print.out(summary);
    const { turns, answered, refused, byBot, timedOut } = this.tally;
    this.print.out(
      `turns: ${turns}; answered by the program ${answered}, refused ${refused}, played by the bot ${byBot}, timed out ${timedOut}`,
    );
    if (options.timing) {
      this.print.out(`round trips: ${JSON.stringify(this.roundTrips.map((ms) => Number(ms.toFixed(3))))}`);
      const { messages, ms } = seat.session.budgetWaits;
      this.print.out(
        `rate budget: ${messages} messages waited ${Math.round(ms)} ms in all (${CLIENT_RATE_BUDGET.perSecond} a second after a burst of ${CLIENT_RATE_BUDGET.burst})`,
      );
    }
    // Every run ends the same way, even for a program that stopped playing early: it may have closed its output
    // and still be running, and the bridge cannot exit while its input is open.
    this.send({
      type: "bye",
      games: finished,
      message: this.programEnded === null ? "the run is over" : `the run is over (${this.programEnded} early)`,
    });
    const exit = await this.program.finish(EXIT_GRACE_MS);
    if (this.programEnded !== null) {
      if (exit.killed) this.print.say(`the program ${exit.description}`);
      return EXIT_FAILED;
    }
    if (exit.status === 0) return EXIT_DONE;
    this.print.say(`the program ${exit.description} at the end of the run`);
    return EXIT_FAILED;
  }

  /** Plays one game to its end; true when the table plays no more games. */
  private async playGame(seat: BridgedSeat): Promise<boolean> {
    for (;;) {
      const step = await seat.next();
      if (step.kind === "gameOver") {
        this.print.out(step.line);
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
        this.send({
          type: "error",
          turn: number,
          code: refusal.code,
          message: refusal.message,
          attempt,
          maxErrors: this.options.maxErrors,
        });
        if (attempt++ >= this.options.maxErrors)
          return this.botPlays(seat, turn, number, `${this.options.maxErrors} answers were refused`);
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
    this.send({
      type: "turn",
      turn: number,
      game: turn.game,
      view,
      legal,
      complete,
      suggestion: suggestion ?? null,
      timeLeftMs,
    });
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
    this.print.say(`the program ${how} at turn ${number}, before the run was over; ${then}`);
  }
}
