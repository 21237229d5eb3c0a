/**
 * Shuffling Patience's records (server/records/games.ts): its engine replays them, and its standings: a deal is no
 * contest between players, so counts only (deals completed).
 */
import { defineRecordedGame, standingSeat, type GameEffect, type RecordOutcome } from "../kit/recorded-game";
import { patienceGame } from "./game";
import { patienceEngine, type PatienceResult } from "./match";

function patienceStanding(record: RecordOutcome): GameEffect {
  const owner = record.seats[0];
  if (!standingSeat(owner)) return { counts: [] };
  const { outcome } = record.result as PatienceResult;
  return { counts: [{ name: owner.name, completed: outcome.kind === "finished" }] };
}

export const patienceRecords = defineRecordedGame({
  game: patienceGame,
  engine: patienceEngine,
  standing: patienceStanding,
});
