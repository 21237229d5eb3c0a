/**
 * Who sits where at a Tractor table, in the words the table says it: a person's name or a bot's seat, "you" for
 * one's own, a team's players, the declaring team. The status line, the score panel, the news and the round's
 * ending all name people the same way.
 */
import { ownTractorSeat, TRACTOR_SEATS, type TractorStateView } from "../../../client-sdk/index";

export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Who sits at a seat, as the status line names them: a person's name, or the seat's own name for a bot. */
export function seatPerson(view: TractorStateView, seatName: string): string {
  const seat = view.seats.find((held) => held.seat === seatName);
  return seat?.occupant === "person" && seat.player ? seat.player : seatName;
}

/** A seat's name for the person looking: "you" for one's own. */
export function nameFor(view: TractorStateView, seatName: string, mine: string): string {
  return seatName === mine ? "you" : seatPerson(view, seatName);
}

/** A team's players in words: "you and Charles", "Bob and David". */
export function teamWords(view: TractorStateView, team: number, mine = ownSeatName(view)): string {
  const members = view.seats.filter((seat) => seat.team === team).map((seat) => nameFor(view, seat.seat, mine));
  return members.join(" and ");
}

export function ownSeatName(view: TractorStateView): string {
  const seat = ownTractorSeat(view);
  return seat === undefined ? "" : TRACTOR_SEATS[seat];
}

/** The declarers are the dealer's team. */
export function declaringTeam(view: TractorStateView): 1 | 2 {
  return (view.seats.find((seat) => seat.seat === view.dealer)?.team ?? 1) as 1 | 2;
}
