/**
 * Tractor's records (server/records/games.ts): its engine replays them, and its standings: each round; the team that
 * goes up wins, a round where nobody goes up is a draw. People (and programs) are rated, and the house's bots a table
 * was made with, each under its level's name ("Bot (strong)"), when no two of them are one; a guest stands nowhere,
 * and a round with a guest at the table is rated for nobody. A person who left a round they had played in (`left`)
 * forfeits it for their team, however their seat's bot finished it (as a team game abandoned is lost); leavers on
 * both teams make it a draw. The match record changes nothing (its rounds did).
 */
import type { RecordedSeat } from "../kit/record";
import { defineRecordedGame, guestSeat, standingSeat, type GameEffect, type RecordOutcome } from "../kit/recorded-game";
import { tractorGame } from "./game";
import { tractorEngine } from "./match";
import type { TractorResult, TractorTeam } from "./protocol";
import { teamOf, type Seat } from "./scoring";

const TRACTOR_TEAMS: readonly TractorTeam[] = [1, 2];

/**
 * The seats a round counts for: people (and programs), and the house's bots when each of them is a different one
 * (a table of three bots at one level has no three players to tell apart, and stands for its people only).
 */
function ratedSeats(seats: readonly RecordedSeat[]): RecordedSeat[] {
  const people = seats.filter((seat) => standingSeat(seat) && (seat.kind === "person" || seat.left === true));
  const house = seats.filter((seat) => standingSeat(seat) && seat.identity?.kind === "house");
  return new Set(house.map(({ name }) => name)).size === house.length ? [...people, ...house] : people;
}

/** The round's winners, or a draw (nobody went up): as played, unless someone left (their team forfeits). */
function roundOutcome(record: RecordOutcome): { winners: TractorTeam; drawn: boolean } {
  const played = record.result as TractorResult;
  const forfeiting = new Set(record.seats.filter((seat) => seat.left).map(({ seat }) => teamOf(seat as Seat)));
  if (forfeiting.size === 0) return { winners: played.team, drawn: played.levels === 0 };
  if (forfeiting.size === 2) return { winners: played.team, drawn: true };
  return { winners: forfeiting.has(1) ? 2 : 1, drawn: false };
}

function tractorStanding(record: RecordOutcome): GameEffect {
  if (record.part !== "round") return { counts: [] };
  const { winners, drawn } = roundOutcome(record);
  const people = ratedSeats(record.seats);
  const outcome = (team: TractorTeam) => (drawn ? { draw: true } : { win: team === winners, loss: team !== winners });
  const counts = people.map(({ seat, name }) => ({ name, ...outcome(teamOf(seat as Seat)) }));
  const teams = TRACTOR_TEAMS.map((team) =>
    people.filter(({ seat }) => teamOf(seat as Seat) === team).map(({ name }) => name),
  );
  const distinct = new Set(teams.flat()).size === teams.flat().length;
  if (teams.some((members) => members.length === 0) || !distinct || record.seats.some(guestSeat)) return { counts };
  const ranks = TRACTOR_TEAMS.map((team) => (drawn || team === winners ? 1 : 2));
  return { counts, contest: { teams, ranks } };
}

export const tractorRecords = defineRecordedGame({
  game: tractorGame,
  engine: tractorEngine,
  standing: tractorStanding,
});
