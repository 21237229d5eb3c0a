/**
 * A finished game in plain words, for the lobby's list: who played (people by name, "Computer" for a bot or the
 * AI) and how it ended, read from the record's summary (GET /games: its seats and the engine's result).
 */
import type { GameSummary } from "../../client-sdk/index";
import type { EvenStevenResult } from "../../rooms/evensteven/match";
import type { FoolResult } from "../../rooms/fool/match";
import type { PatienceResult } from "../../rooms/patience/match";
import type { TractorMatchEndEvent, TractorResult } from "../../rooms/tractor/protocol";

type Seat = GameSummary["seats"][number];

/**
 * Who holds a seat, in words: the person's name, "Computer" for a bot or an AI, "open seat" for nobody. `kind` is
 * a record's seat kind or a listing's holder (Fool's "player", Tractor's "bot").
 */
export function holderWords(kind: string, name: string): string {
  if (kind === "bot" || kind === "ai") return "Computer";
  return kind === "open" ? "open seat" : name || "a guest";
}

const seatWords = (seat: Seat | undefined): string =>
  seat === undefined ? "open seat" : holderWords(seat.kind, seat.name);

/** Tractor's teams: Alice and Charles (seats 0 and 2) are team 1, Bob and David (1 and 3) team 2. */
const TEAM_SEATS: Record<1 | 2, [number, number]> = { 1: [0, 2], 2: [1, 3] };

function teamWords(summary: GameSummary, team: 1 | 2): string {
  const [first, second] = TEAM_SEATS[team].map((seat) => seatWords(summary.seats[seat]));
  return first === "Computer" && second === "Computer" ? `the computer pair (team ${team})` : `${first} and ${second}`;
}

/** Who played, in one line. */
export function playersWords(summary: GameSummary): string {
  if (summary.game === "tractor") return `${teamWords(summary, 1)} against ${teamWords(summary, 2)}`;
  if (summary.game === "fool") return summary.seats.map(seatWords).join(" against ");
  return seatWords(summary.seats[0]);
}

const RANKS: Record<number, string> = { 11: "Jack", 12: "Queen", 13: "King", 14: "Ace" };
const rankWords = (rank: number) => (rank > 14 ? "past Ace" : (RANKS[rank] ?? String(rank)));

/** How the game ended, in one line. */
export function resultWords(summary: GameSummary): string {
  const result = summary.result;
  if (summary.ladder !== undefined && result === null)
    return "a ladder deal: its result shows once the ladder's period is over";
  if (result === null || result === undefined) return "no result";
  switch (summary.game) {
    case "evensteven": {
      const { outcome } = result as EvenStevenResult;
      const who = seatWords(summary.seats[0]);
      if (outcome === "WIN") return `${who} won`;
      if (outcome === "LOSE NECESSARILY") return `${who} lost: no way of playing that hand could have won`;
      if (outcome === "LOSE UNNECESSARILY") return `${who} lost: the hand could have won`;
      return `${who} ran out of time`;
    }
    case "fool": {
      const { fool } = result as FoolResult;
      if (fool === null) return "no Fool: the game reached its move limit";
      const winner = summary.seats.find((seat) => seat.seat !== fool);
      return `${seatWords(winner)} won; ${seatWords(summary.seats[fool])} is the Fool`;
    }
    case "patience": {
      const { outcome } = result as PatienceResult;
      if (outcome.kind === "finished")
        return `came out: ${outcome.pileSizes.filter((size) => size > 0).length} piles left`;
      return `overflowed: no room for card ${outcome.cardNumber}`;
    }
    case "tractor": {
      if (summary.part === "match") {
        const { winner, rounds } = result as TractorMatchEndEvent;
        return `${teamWords(summary, winner)} won the match in ${rounds} round${rounds === 1 ? "" : "s"}`;
      }
      const { defenderPoints, team, levels, teamRanks } = result as TractorResult;
      const moved =
        levels === 0 ? "nobody goes up" : `${teamWords(summary, team)} go up ${levels} rank${levels === 1 ? "" : "s"}`;
      return `round ${summary.round ?? "?"}: the defenders took ${defenderPoints} points; ${moved} (ranks now ${rankWords(teamRanks[0])} and ${rankWords(teamRanks[1])})`;
    }
    default:
      return "finished";
  }
}
