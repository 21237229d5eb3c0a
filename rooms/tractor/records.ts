/**
 * Tractor's records (server/records/games.ts): its engine replays them, and its standings: each round; the team that goes
 * up wins, a round where nobody goes up is a draw. Only people (and programs) are rated: the table's bots share one
 * label and are not players; a guest stands nowhere, and a round with a guest at the table is rated for nobody. The
 * match record changes nothing (its rounds did).
 */
import { defineRecordedGame, guestSeat, standingSeat, type GameEffect, type RecordOutcome } from "../kit/recorded-game";
import { tractorGame } from "./game";
import { tractorEngine } from "./match";
import type { TractorResult, TractorTeam } from "./protocol";
import { teamOf, type Seat } from "./scoring";

const TRACTOR_TEAMS: readonly TractorTeam[] = [1, 2];

function tractorStanding(record: RecordOutcome): GameEffect {
  if (record.part !== "round") return { counts: [] };
  const { team: winners, levels } = record.result as TractorResult;
  const people = record.seats.filter((seat) => standingSeat(seat) && seat.kind === "person");
  const outcome = (team: TractorTeam) => (levels === 0 ? { draw: true } : { win: team === winners, loss: team !== winners });
  const counts = people.map(({ seat, name }) => ({ name, ...outcome(teamOf(seat as Seat)) }));
  const teams = TRACTOR_TEAMS.map((team) => people.filter(({ seat }) => teamOf(seat as Seat) === team).map(({ name }) => name));
  const distinct = new Set(teams.flat()).size === teams.flat().length;
  if (teams.some((members) => members.length === 0) || !distinct || record.seats.some(guestSeat)) return { counts };
  const ranks = TRACTOR_TEAMS.map((team) => (levels === 0 || team === winners ? 1 : 2));
  return { counts, contest: { teams, ranks } };
}

export const tractorRecords = defineRecordedGame({ game: tractorGame, engine: tractorEngine, standing: tractorStanding });
