/**
 * Fool's records (server/records/games.ts): its engine replays them, and its standings: the two seats, the AI under
 * its own name ("AI (ai)"); the Fool loses, a capped game is a draw. A guest's seat stands nowhere, and a game
 * with a guest is rated for nobody (counts only). A player who left during the game forfeits it, however the AI
 * finished it for them; when both left, it is a draw.
 */
import { defineRecordedGame, guestSeat, standingSeat, type GameEffect, type RecordOutcome } from "../kit/recorded-game";
import { foolGame } from "./game";
import { foolEngine, type FoolResult } from "./match";

/** The seat that lost: the one that left (if only one did), else the Fool; null for a draw. */
function loserOf(record: RecordOutcome): number | null {
  const left = record.seats.filter((seat) => seat.left);
  if (left.length > 0) return left.length === 1 ? left[0].seat : null;
  return (record.result as FoolResult).fool;
}

function foolStanding(record: RecordOutcome): GameEffect {
  const loser = loserOf(record);
  const seats = record.seats.filter(standingSeat);
  const counts = seats.map(({ seat, name }) =>
    loser === null ? { name, draw: true } : { name, win: seat !== loser, loss: seat === loser },
  );
  // A guest's game is no contest: the ladder's ratings move only between identities and the house's AI.
  if (seats.length < 2 || seats[0].name === seats[1].name || record.seats.some(guestSeat)) return { counts };
  const ranks = seats.map(({ seat }) => (loser === null || seat !== loser ? 1 : 2));
  return { counts, contest: { teams: seats.map(({ name }) => [name]), ranks } };
}

export const foolRecords = defineRecordedGame({ game: foolGame, engine: foolEngine, standing: foolStanding });
