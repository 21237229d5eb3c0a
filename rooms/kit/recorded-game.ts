/**
 * What the server's records know of a game (its entry in server/records/games.ts): the game's definition
 * (rooms/kit/game.ts), its engine, which replays its records, and what a finished record does to the standings.
 * Pure, like the engines: no Colyseus (bin/replay loads it), and neither the SDK nor the page imports it.
 */
import type { GameEvent, MatchEngine } from "./engine";
import type { GameDefinition } from "./game";
import type { GameRecord, RecordedSeat } from "./record";

/** What a record's effect on the standings reads: who sat where and how it ended (a listing's summary has it too). */
export type RecordOutcome = Pick<GameRecord, "game" | "part" | "seats" | "result">;

/** One player's change of counts from one game. */
export interface CountChange {
  name: string;
  win?: boolean;
  loss?: boolean;
  draw?: boolean;
  unnecessaryLoss?: boolean;
  completed?: boolean;
}

/** A rated contest: teams of player names, and each team's rank (1 best; equal ranks are a draw). */
export interface Contest {
  teams: string[][];
  ranks: number[];
}

export interface GameEffect {
  counts: CountChange[];
  contest?: Contest;
}

/**
 * A seat that stands in the standings: held under a name (not open), and not a guest's — a guest plays unrated
 * (docs/arena.md), so its games move no standing, its own or its opponents' ratings. The room's bots and AIs stand
 * under their labels; a seat recorded before identities stands under its name, as it did.
 */
/** A seat a guest held (docs/arena.md). */
export const guestSeat = (seat: RecordedSeat): boolean => seat.identity?.kind === "guest";

export const standingSeat = (seat: RecordedSeat | undefined): seat is RecordedSeat =>
  seat !== undefined && seat.name !== "" && seat.kind !== "open" && seat.identity?.kind !== "guest";

export interface RecordedGameEntry<
  Game extends GameDefinition,
  Options,
  State,
  Action,
  Event extends GameEvent,
  View,
  Result,
  Code extends string,
> {
  readonly game: Game;
  readonly engine: MatchEngine<Options, State, Action, Event, View, Result, Code>;
  /** What one finished record does to its players' standings (server/records/standings.ts); nothing when absent. */
  readonly standing?: (record: RecordOutcome) => GameEffect;
}

/** A game's records entry, its engine's types inferred. */
export function defineRecordedGame<
  Game extends GameDefinition,
  Options,
  State,
  Action,
  Event extends GameEvent,
  View,
  Result,
  Code extends string,
>(
  entry: RecordedGameEntry<Game, Options, State, Action, Event, View, Result, Code>,
): RecordedGameEntry<Game, Options, State, Action, Event, View, Result, Code> {
  return entry;
}
