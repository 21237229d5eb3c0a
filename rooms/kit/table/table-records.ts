/**
 * What a table hands the server's records: each finished game (or round of a match in rounds), with its seats,
 * its seal, its steps and their events. Nothing of a game in progress is ever kept.
 */
import { isDeepStrictEqual } from "node:util";
import { replayActions, type GameEvent, type MatchEngine } from "../engine";
import { roomLog } from "../log";
import {
  GUEST,
  type FinishedGame,
  type LadderTag,
  type RecordedSeat,
  type RecordPart,
  type RecordSink,
} from "../record";
import type { StepReplay } from "../recorded-steps";
import type { SeatRoster } from "../seats";
import type { DealSeals } from "./deal-seals";
import type { MatchInPlay, TableAction } from "./types";

/** The table as its records see it: its game, its room, its engine and its seats. */
export interface RecordedTable<Options, State, Action> {
  readonly roomName: string;
  readonly roomId: string;
  readonly engine: MatchEngine<Options, State, Action, GameEvent, unknown, unknown>;
  readonly roster: SeatRoster;
  /** How the record names who held the seat (the game may name its own bots). */
  recordedSeat(seat: number): RecordedSeat;
}

export class TableRecords<Options, State, Action> {
  /** For a ladder table: the period and deal its game is (docs/arena.md, "Solo ladders"), which its record names. */
  ladder: LadderTag | null = null;

  /** Where finished games go (the server's record writer); null when the server keeps no records. */
  sink: RecordSink | null = null;

  constructor(
    private readonly table: RecordedTable<Options, State, Action>,
    private readonly seals: DealSeals<State>,
  ) {}

  /** Whether finished games are kept: without records a match's actions would be kept for nothing (2.6 KB a table by a game's end). */
  get kept(): boolean {
    return this.sink !== null;
  }

  /** Hands a finished game (or round) to the records; the deal just over has had its seal revealed. */
  keep(match: MatchInPlay<Options, State, Action>, part: RecordPart, result: unknown, round?: number): void {
    if (this.sink === null) return;
    const { roomName, roomId, roster } = this.table;
    const seats = roster.seats.map((_, seat) => this.table.recordedSeat(seat));
    const { number, options, seed, start, startedAt } = match;
    const ladder = this.ladder === null ? {} : { ladder: this.ladder };
    const actions = match.actions.read(this.stepReplay(match), part !== "round");
    const finished: FinishedGame = {
      game: roomName,
      roomId,
      part,
      match: number,
      round,
      options,
      seed,
      ...this.seals.forRecord(),
      seats,
      start,
      actions,
      result,
      startedAt,
      endedAt: Date.now(),
      ...ladder,
    };
    this.sink.submit(finished);
  }

  /**
   * How a record gets its steps' events (rooms/kit/recorded-steps.ts): the steps played again from where the last
   * record left off. The engine is pure, so the replay ends where the table is; if it does not (an engine that is not
   * pure, a bug), the record still goes to the records with the events the replay gave, and the log says so: the
   * record replays as it is, and the next round's replay starts from where the table is.
   */
  private stepReplay(match: MatchInPlay<Options, State, Action>): StepReplay<TableAction<Action>, State> {
    return (from, steps) => {
      const start = from ?? this.table.engine.start(match.options, match.seed).state;
      try {
        const replayed = replayActions(this.table.engine, start, steps);
        if (!isDeepStrictEqual(replayed.state, match.state)) this.logReplayDiverged(match, "its replay ends elsewhere");
        return { events: replayed.events, state: match.state };
      } catch {
        // The engine's reason is not logged: it may name a card of a hand still hidden (a Tractor round's record).
        this.logReplayDiverged(match, "the engine refused one of its own recorded actions");
        return { events: [], state: match.state };
      }
    };
  }

  private logReplayDiverged(match: MatchInPlay<Options, State, Action>, why: string): void {
    roomLog(this.table).error(
      { event: "record_replay_diverged", match: match.number, why },
      "a record's steps replayed differently from the table's game: its events are the replay's",
    );
  }
}

/** How a record names who held a seat at the end: its person, its bot, or nobody. */
export function seatAsRecorded(roster: SeatRoster, seat: number): RecordedSeat {
  const { holder, name, identity, left } = roster.seats[seat]!;
  if (holder === "person") return { seat, name, kind: "person", identity: identity ?? GUEST };
  if (left) return { seat, name, kind: "bot", identity: identity ?? GUEST, left };
  return { seat, name, kind: holder === "bot" ? "bot" : "open" };
}
