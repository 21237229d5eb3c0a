/**
 * The match and its time: its start, every action checked by the engine, and after every change whoever acts next
 * gets the clock: a bot seat's bot (at once or after its pause), a person's turn clock (what the engine's
 * `timedOut` says happens when it runs out), or the dealer's pace (paused and stepped by a person where the game
 * lets them).
 */
import { DEALER, type Actor, type Applied, type GameEvent, type MatchEngine, type Waiting } from "../engine";
import { tableMetrics } from "../metrics";
import type { Mover } from "../record";
import { RecordedSteps } from "../recorded-steps";
import { Rejection, type RoomTimer } from "../room-kit";
import type { SeatRoster } from "../seats";
import { ACTIONS_PER_BURST, type BotTurns } from "./bot-turns";
import type { Made, MatchInPlay, TableTimings } from "./types";

/** The table as its match sees it. */
export interface PlayedTable<Options, State, Action, Event extends GameEvent> {
  readonly engine: MatchEngine<Options, State, Action, Event, unknown, unknown>;
  readonly roster: SeatRoster;
  readonly timings: TableTimings;
  readonly roomName: string;
  /** Set once the room is closing: nobody plays on. */
  readonly closing: boolean;
  showChanges(): void;
  /** A step was taken (the match's state is the step's): its events go out, and what it finished is recorded. */
  committed(
    match: MatchInPlay<Options, State, Action>,
    applied: Applied<State, Event>,
    made: Made,
    waiting: Waiting<Action>,
  ): void;
  /** The action the dealer makes when `due` is due (the game may add what only the table decides). */
  dealerActionFor(due: Action): Action;
}

export class MatchLoop<Options, State, Action, Event extends GameEvent> {
  /** The match being played, or the last one played. */
  match: MatchInPlay<Options, State, Action> | null = null;
  /** The dealer's run of paced actions: when the next is due (a late timer catches up instead of drifting). */
  private dealerRun: { pace: string; dueAt: number } | null = null;
  private dealerPaused = false;
  /** A person's turn deadline (ms since the epoch), or 0. */
  private deadlineAt = 0;
  /**
   * The seat whose turn clock runs, and the number of its match (read when the clock runs out). Kept in fields, not
   * in a closure made at every turn: the timeout lives as long as the turn, long enough to be promoted to V8's old
   * generation, and a closure a move would then be collected by major collections only.
   */
  private clockSeat = -1;
  private clockMatchNumber = 0;

  constructor(
    private readonly table: PlayedTable<Options, State, Action, Event>,
    /** The one timer of the match: a turn clock, a bot's pause, or the dealer's pace. */
    private readonly timer: RoomTimer,
    private readonly bots: BotTurns<Options, State, Action>,
    /** Whether each action is kept, for the match's record. */
    private readonly records: { readonly kept: boolean },
  ) {}

  get deadline(): number {
    return this.deadlineAt;
  }

  get paused(): boolean {
    return this.dealerPaused;
  }

  /** Starts a match from `seed`: the state shows it and its start's events go out. */
  start(options: Options, seed: number): void {
    const started = this.table.engine.start(options, seed);
    const number = (this.match?.number ?? 0) + 1;
    const match: MatchInPlay<Options, State, Action> = {
      number,
      options,
      seed,
      state: started.state,
      actions: new RecordedSteps(),
      actionCount: 0,
      start: started.events,
      startedAt: Date.now(),
    };
    this.match = match;
    this.dealerRun = null;
    this.commit(match, started, { actor: DEALER, by: "dealer" });
    this.advance();
  }

  /**
   * Applies one action; a refusal throws a Rejection with the engine's code (nothing changed). The caller then
   * calls advance() to let the bots and the clocks go on.
   */
  act(match: MatchInPlay<Options, State, Action>, actor: Actor, action: Action, by: Mover): void {
    const outcome = this.table.engine.apply(match.state, actor, action);
    if (!outcome.ok) throw new Rejection(outcome.code, outcome.reason);
    match.actionCount++;
    if (this.records.kept) match.actions.push({ actor, action, at: Date.now(), by });
    tableMetrics().actionTaken(this.table.roomName, by);
    this.commit(match, outcome, { actor, by });
  }

  /**
   * After every change: bots volunteer what they may, bots whose turn it is move (at once, or after their pause),
   * and whoever acts next gets the clock: a person's turn clock, or the dealer's pace.
   */
  advance(): void {
    const { engine, roster, timings } = this.table;
    const { timer, bots } = this;
    timer.clear();
    const match = this.match;
    if (match === null || this.table.closing) return;
    for (let actions = 0; actions < ACTIONS_PER_BURST; actions++) {
      if (this.match !== match || bots.isThinkingAbout(match.state)) return;
      bots.letVolunteer(match);
      const waiting = engine.waiting(match.state);
      if (waiting.for === "nobody") return;
      if (waiting.for === "dealer") {
        if (this.dealerPaused || !this.dealerActedWhenDue(match, waiting.action, waiting.pace)) return;
        continue;
      }
      const seat = waiting.seat;
      if (!roster.isBot(seat)) return this.startTurnClock(match, seat);
      if (this.deadlineAt !== 0) {
        this.deadlineAt = 0; // a person's seat has just gone to its bot
        this.table.showChanges();
      }
      if (timings.botDelayMs > 0) return this.after(timings.botDelayMs, () => bots.play(match, seat, "bot"));
      if (!bots.play(match, seat, "bot")) return; // the bot thinks elsewhere; its answer comes later
    }
    this.after(0, () => undefined);
  }

  /** Stops the dealer (a person controls the pace); seats' clocks still run. */
  pause(paused: boolean): void {
    this.dealerPaused = paused;
    this.dealerRun = null;
    this.advance();
  }

  /** Makes the dealer's due action now (a step while paused); false when the match does not wait for the dealer. */
  step(): boolean {
    const match = this.match;
    const waiting = match && this.table.engine.waiting(match.state);
    if (!match || waiting?.for !== "dealer") return false;
    this.actForDealer(match, waiting.action);
    this.advance();
    return true;
  }

  /** Changes a pace; the next paced action comes that long from now. */
  setPace(pace: string, ms: number): void {
    this.table.timings.paces[pace] = ms;
    this.dealerRun = null;
    this.advance();
  }

  /** The table is gone: no match, no clock. */
  end(): void {
    this.deadlineAt = 0;
    this.match = null; // a bot's decision still being thought out is dropped
  }

  /** Takes an accepted step: a person who must act next gets a new deadline, then the table shows the step. */
  private commit(match: MatchInPlay<Options, State, Action>, applied: Applied<State, Event>, made: Made): void {
    match.state = applied.state;
    const waiting = this.table.engine.waiting(applied.state);
    this.deadlineAt =
      waiting.for === "seat" && !this.table.roster.isBot(waiting.seat) ? Date.now() + this.table.timings.turnTimeMs : 0;
    if (waiting.for === "nobody") this.timer.clear();
    this.table.showChanges();
    this.table.committed(match, applied, made, waiting);
  }

  /** Runs `action` after `delayMs` on the match's timer, then lets the match go on. */
  private after(delayMs: number, action: () => void): void {
    this.timer.start(delayMs, () => {
      action();
      this.advance();
    });
  }

  /**
   * The dealer's paced action: made now if due (true), else its timer is set (false). A run of actions at one
   * pace is due at fixed intervals from the first, so a timer that fires late catches up instead of drifting.
   */
  private dealerActedWhenDue(
    match: MatchInPlay<Options, State, Action>,
    action: Action,
    pace: string | undefined,
  ): boolean {
    if (pace === undefined) {
      this.dealerRun = null;
      this.actForDealer(match, action);
      return true;
    }
    const paceMs = this.table.timings.paces[pace] ?? 0;
    const now = performance.now();
    if (this.dealerRun?.pace !== pace) this.dealerRun = { pace, dueAt: now + paceMs };
    const run = this.dealerRun;
    if (run.dueAt > now) {
      this.after(run.dueAt - now, () => undefined);
      return false;
    }
    run.dueAt += paceMs;
    this.actForDealer(match, action);
    const next = this.table.engine.waiting(match.state);
    if (next.for !== "dealer" || next.pace !== pace) this.dealerRun = null;
    return true;
  }

  private actForDealer(match: MatchInPlay<Options, State, Action>, due: Action): void {
    this.act(match, DEALER, this.table.dealerActionFor(due), "dealer");
  }

  private startTurnClock(match: MatchInPlay<Options, State, Action>, seat: number): void {
    const now = Date.now();
    if (this.deadlineAt <= now) {
      this.deadlineAt = now + this.table.timings.turnTimeMs;
      this.table.showChanges();
    }
    this.clockSeat = seat;
    this.clockMatchNumber = match.number;
    this.timer.start(this.deadlineAt - now, this.turnClockRanOut, this);
  }

  /** A person's turn clock ran out: the engine says who acts (the seat's bot, or the dealer), then the match goes on. */
  private turnClockRanOut(): void {
    const match = this.match;
    const seat = this.clockSeat;
    if (match === null || match.number !== this.clockMatchNumber) return;
    this.deadlineAt = 0;
    this.table.showChanges();
    const timedOut = this.table.engine.timedOut(match.state, seat);
    if (timedOut.actor === seat) this.bots.play(match, seat, "clock");
    else this.act(match, timedOut.actor, timedOut.action, "dealer");
    this.advance();
  }
}
