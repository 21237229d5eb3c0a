/** What every game's replay says the same way: who acted, and how ("by the seat's bot", "the clock ran out"). */
import type { GameRecord, ReplayFrame } from "../../client-sdk/index";
import { DEALER } from "../../rooms/kit/engine";

/** A seat's name in a game's own terms (Tractor's seats are named Alice, Bob, Charles and David). */
export type SeatNamer = (seat: number) => string;

/** The actor of a step in words: the seat's name (by default as recorded), or the table itself. */
export function actorName(actor: ReplayFrame["actor"], record: GameRecord, seatName?: SeatNamer): string {
  if (actor === undefined || actor === DEALER) return "The dealer";
  return seatName?.(actor) ?? (record.seats[actor]?.name || `Seat ${actor + 1}`);
}

/** How a seat's action came, when not from the person (or program) at it. */
export function byWords(by: ReplayFrame["by"]): string {
  if (by === "bot") return " (the seat's bot)";
  if (by === "clock") return " (the clock ran out: the seat's bot chose)";
  return "";
}

/**
 * A step's action in words: "<who> <did what><how>", or nothing for the start (which has no action). `did` reads
 * the action as the game's engine defines it.
 */
export function actionLine<Action>(frame: ReplayFrame, record: GameRecord, did: (action: Action) => string, seatName?: SeatNamer): string[] {
  if (frame.actor === undefined || frame.action === undefined) return [];
  return [`${actorName(frame.actor, record, seatName)} ${did(frame.action as Action)}${byWords(frame.by)}`];
}
