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
 * A step in words: its action ("<who> <did what><how>"; nothing for the start, which has no action) and then the
 * events it caused. `did` reads the action as the game's engine defines it; an event that only repeats the action
 * ("Bob played H5" after "Bob played H5 (the seat's bot)") is left out.
 */
export function stepWords<Action>(
  frame: ReplayFrame,
  record: GameRecord,
  did: (action: Action) => string,
  events: readonly string[],
  seatName?: SeatNamer,
): string[] {
  if (frame.actor === undefined || frame.action === undefined) return [...events];
  const action = `${actorName(frame.actor, record, seatName)} ${did(frame.action as Action)}`;
  return [`${action}${byWords(frame.by)}`, ...events.filter((words) => words !== action)];
}
