/**
 * Even-Steven's records (server/records/games.ts): its engine replays them, and its standings: a player against the
 * dealer is no contest between players, so counts only (wins and unnecessary losses).
 */
import { defineRecordedGame, standingSeat, type GameEffect, type RecordOutcome } from "../kit/recorded-game";
import { evenStevenGame } from "./game";
import { evenStevenEngine, type EvenStevenResult } from "./match";

function evenStevenStanding(record: RecordOutcome): GameEffect {
  const player = record.seats[0];
  if (!standingSeat(player)) return { counts: [] };
  const { outcome } = record.result as EvenStevenResult;
  return {
    counts: [
      {
        name: player.name,
        win: outcome === "WIN",
        loss: outcome !== "WIN",
        unnecessaryLoss: outcome === "LOSE UNNECESSARILY",
      },
    ],
  };
}

export const evenStevenRecords = defineRecordedGame({
  game: evenStevenGame,
  engine: evenStevenEngine,
  standing: evenStevenStanding,
});
