/**
 * Fool's records (server/records/games.ts): its engine replays them, and its standings: the two seats, the AI under
 * its own name ("AI (search)"); the Fool loses, a capped game is a draw. A guest's seat stands nowhere, and a game
 * with a guest is rated for nobody (counts only).
 */
import { defineRecordedGame, guestSeat, standingSeat, type GameEffect, type RecordOutcome } from "../kit/recorded-game";
import { foolGame } from "./game";
import { foolEngine, type FoolResult } from "./match";

function foolStanding(record: RecordOutcome): GameEffect {
  const { fool } = record.result as FoolResult;
  const seats = record.seats.filter(standingSeat);
  const counts = seats.map(({ seat, name }) => (fool === null ? { name, draw: true } : { name, win: seat !== fool, loss: seat === fool }));
  // A guest's game is no contest: the ladder's ratings move only between identities and the house's AI.
  if (seats.length < 2 || seats[0].name === seats[1].name || record.seats.some(guestSeat)) return { counts };
  const ranks = seats.map(({ seat }) => (fool === null || seat !== fool ? 1 : 2));
  return { counts, contest: { teams: seats.map(({ name }) => [name]), ranks } };
}

export const foolRecords = defineRecordedGame({ game: foolGame, engine: foolEngine, standing: foolStanding });
