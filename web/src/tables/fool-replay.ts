/**
 * A finished Fool game's replay: a frame of the record as the live table's view (so that one drawing serves both),
 * and the record's engine events in the moves list's words for the replay's step list.
 */
import type { FoolStateView, GameRecord, ReplayFrame } from "../../../client-sdk/index";
import type { FoolEngineEvent } from "../../../rooms/fool/match";
import type { FoolPositionView, FoolTableView } from "../../../rooms/fool/protocol";
import { mergeViews, wholeTableView } from "../../../rooms/kit/views";
import { sealOfRecord } from "../../../rooms/kit/commitment";
import { describeMove, describeOver, describeStart, type Namer } from "./fool-words";

/** A replay frame as the live table's view: the whole table (both hands) with the record's seats. */
export function viewOfFrame(frame: ReplayFrame, record: GameRecord): FoolStateView {
  const position = wholeTableView(frame.table as FoolPositionView, frame.seats as FoolPositionView[]);
  const ai = record.seats.some((seat) => seat.kind === "ai");
  const seats = position.seats.map((_, index) => ({
    name: record.seats[index]?.name ?? "",
    controller: record.seats[index]?.kind === "ai" ? ("ai" as const) : ("player" as const),
    connected: true,
    wins: 0,
  }));
  const table: FoolTableView = {
    mode: ai ? "vs-ai" : "two-players",
    game: record.match,
    seats,
    deadline: 0,
    spectators: 0,
  };
  return mergeViews(position, { ...table, seal: sealOfRecord(record) }) as FoolStateView;
}

export function engineEventWords(event: FoolEngineEvent, game: number, name: Namer): string {
  switch (event.name) {
    case "start":
      return describeStart(event.payload, game, name);
    case "move":
      return describeMove(event.payload, name);
    case "over":
      return describeOver(event.payload, game, name);
  }
}
