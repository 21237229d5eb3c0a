/** The shapes the table's parts share: the match in play, an action as the table took it, its timings and set-up. */
import type { Actor, RecordedAction } from "../engine";
import type { MessageDefinition } from "../protocol";
import type { Mover, RecordedEvent } from "../record";
import type { RecordedSteps } from "../recorded-steps";

/** Who made a step: the actor the engine saw, and what moved for it (a person, their clock, a bot, the dealer). */
export interface Made {
  readonly actor: Actor;
  readonly by: Mover;
}

/** An action the table accepted, with when (ms since the epoch), who made it and what it caused. */
export interface TableAction<Action> extends RecordedAction<Action> {
  readonly at: number;
  readonly by: Mover;
  readonly events: readonly RecordedEvent[];
}

/** The match being played, or the last one played. Its seed stays on the server until the engine reveals it. */
export interface MatchInPlay<Options, State, Action> {
  /** 1 for the room's first match. */
  readonly number: number;
  readonly options: Options;
  readonly seed: number;
  state: State;
  /** Every action, for the match's record: kept only when there are records (RecordSink). */
  readonly actions: RecordedSteps<TableAction<Action>, State>;
  /** How many actions were taken, kept or not. */
  actionCount: number;
  /** The events of the match's start. */
  readonly start: readonly RecordedEvent[];
  readonly startedAt: number;
}

export interface TableTimings {
  /** A person's time to act; when it runs out the engine's `timedOut` decides what happens. */
  turnTimeMs: number;
  /** A bot's pause before each of its actions (0: at once). */
  botDelayMs: number;
  /** How long a dropped person's seat is kept for them. */
  reconnectSeconds: number;
  /** The dealer's pauses, by the names the engine gives them (`Waiting.pace`). */
  paces: Record<string, number>;
}

export interface TableSetUp<Message extends MessageDefinition> {
  seats: number;
  maxSpectators: number;
  timings: TableTimings;
  /** Every message the room understands (the kit answers the rest with UNKNOWN_MESSAGE). */
  messages: readonly Message[];
}

/** Where a joining client goes: a seat (a given one, or the first open), or the spectators. */
export type SeatRequest = { watch: true } | { watch: false; seat?: number };
