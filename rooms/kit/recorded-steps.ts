/**
 * A match's steps, kept for its record until the game (or round) ends.
 *
 * Each step is held as its JSON text, not as the objects the engine made: those would live for the whole game, be
 * promoted to V8's old generation and be marked by every major GC.
 * And a step is kept without its events while the game is played: the events are two thirds to three quarters of a
 * step's text (a Fool step 320 bytes with them, 75 without), and the engine gives them again. When a record needs
 * the steps, those played since the last record are replayed from the state the earlier ones ended on (the match's
 * start for the first record): the engine is pure, so the replay's events are the ones the table sent. A Tractor
 * match, whose every round is a record of the match so far, replays each round once.
 *
 * The record is stored as JSON, so a step read back is what the store would give back: nothing the record keeps is
 * lost by the round trip. The match's last record takes the steps just replayed as the replay made them: turning
 * them into text and back cost the event loop about a fifth of making the record, for nothing.
 */
import type { RecordedEvent, RecordedStep } from "./record";

/** A step as the table takes it: without its events. */
export type PlayedStep<Step extends RecordedStep> = Omit<Step, "events">;

/**
 * Plays `steps` again from `from` (undefined: the match's start): each step's events, and the state they end on.
 * It does not throw: a replay that fails says so and gives what it can, so the record is still kept, with the
 * replay's events.
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
  /** The match's last record has read its steps: none is kept any more. */
  private finished = false;
  /** Every step pushed, whether kept as text or gone to the match's last record. */
  private pushed = 0;

  push(step: PlayedStep<Step>): void {
    this.played.push(JSON.stringify(step));
    this.pushed++;
  }

  get length(): number {
    return this.pushed;
  }

  /**
   * Every step so far with its events, as new objects (a record of them is the caller's to keep). `last`: the match's
   * last record, after which its steps are never read again: the steps just replayed go to the record as the replay
   * made them, without being written as text and read back for a later record that will not come (a game's only
   * record, a Tractor match's final one). The record is stored as JSON, so what it keeps is the same either way.
   */
  read(replay: StepReplay<Step, State>, last = false): Step[] {
    if (this.finished) throw new Error("a match's steps were read again after its last record");
    this.finished = last;
    const settled = this.settled.length === 0 ? [] : (JSON.parse(`[${this.settled.join(",")}]`) as Step[]);
    if (this.played.length === 0) return settled;
    const replayed = this.replayPlayed(replay);
    if (last) this.forget();
    else for (const step of replayed) this.settled.push(JSON.stringify(step));
    return settled.concat(replayed);
  }

  /** After the match's last record: nothing more is read, so nothing is kept. */
  private forget(): void {
    this.settled.length = 0;
    this.settledState = undefined;
  }

  /** The steps played since the last record, with the events a replay gives them, from the state the settled ones end on. */
  private replayPlayed(replay: StepReplay<Step, State>): Step[] {
    const played = JSON.parse(`[${this.played.join(",")}]`) as PlayedStep<Step>[];
    const { events, state } = replay(this.settledState, played);
    this.played = [];
    this.settledState = state;
    return played.map((step, index) => ({ ...step, events: events[index] ?? [] }) as Step);
  }
}
