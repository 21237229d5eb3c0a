/**
 * A match's steps, kept for its record until the game (or round) ends.
 *
 * Each step is held as its JSON text, not as the objects the engine made: those would live for the whole game, be
 * promoted to V8's old generation and be marked by every major GC (BENCHMARKS.md, "A match's steps kept as text").
 * And a step is kept without its events while the game is played: the events are two thirds to three quarters of a
 * step's text (a Fool step 320 bytes with them, 75 without), and the engine gives them again. When a record needs
 * the steps, those played since the last record are replayed from the state the earlier ones ended on (the match's
 * start for the first record): the engine is pure, so the replay's events are the ones the table sent. A Tractor
 * match, whose every round is a record of the match so far, replays each round once.
 *
 * The record is stored as JSON, so a step read back is what the store would give back: nothing the record keeps is
 * lost by the round trip.
 */
import type { RecordedEvent, RecordedStep } from "./record";

/** A step as the table takes it: without its events. */
export type PlayedStep<Step extends RecordedStep> = Omit<Step, "events">;

/**
 * Plays `steps` again from `from` (undefined: the match's start): each step's events, and the state they end on.
 * It does not throw: a replay that fails says so and gives what it can (BENCHMARKS.md, issue 34).
 */
export type StepReplay<Step extends RecordedStep, State> = (
  from: State | undefined,
  steps: readonly PlayedStep<Step>[],
) => { readonly events: readonly (readonly RecordedEvent[])[]; readonly state: State };

export class RecordedSteps<Step extends RecordedStep = RecordedStep, State = unknown> {
  /** Steps a record has already had, with their events. */
  private readonly settled: string[] = [];
  /** Steps since then, without their events. */
  private played: string[] = [];
  /** The state the settled steps end on (undefined: none settled yet, the match's start). */
  private settledState: State | undefined = undefined;

  push(step: PlayedStep<Step>): void {
    this.played.push(JSON.stringify(step));
  }

  get length(): number {
    return this.settled.length + this.played.length;
  }

  /** Every step so far with its events, as new objects (a record of them is the caller's to keep). */
  read(replay: StepReplay<Step, State>): Step[] {
    if (this.played.length > 0) this.settle(replay);
    return JSON.parse(`[${this.settled.join(",")}]`) as Step[];
  }

  /** The steps played since the last record get their events from a replay and join the settled ones. */
  private settle(replay: StepReplay<Step, State>): void {
    const played = JSON.parse(`[${this.played.join(",")}]`) as PlayedStep<Step>[];
    const { events, state } = replay(this.settledState, played);
    played.forEach((step, index) => this.settled.push(JSON.stringify({ ...step, events: events[index] ?? [] })));
    this.played = [];
    this.settledState = state;
  }
}
