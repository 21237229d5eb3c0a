/**
 * What a finished game does to its players' standings: counts for every named player, and a rating for the games
 * where players beat players.
 *
 * Ratings are OpenSkill's (the Plackett-Luce model of the `openskill` package): it rates teams of any size and
 * draws natively, which Tractor (two teams of two) needs and Glicko-2 (one against one) does not offer, and it is
 * pure JavaScript under an open licence. A player is ranked by the ordinal mu − 3 sigma, which rises only as the
 * rating becomes both high and certain.
 *
 * - Fool: the two seats, the AI under its own name ("AI (search)"); the Fool loses, a capped game is a draw.
 * - Tractor: each round; the team that goes up wins, a round where nobody goes up is a draw. Only people (and
 *   programs) are rated: the table's bots share one label and are not players. The match record changes nothing
 *   (its rounds did).
 * - Even-Steven (a player against the dealer) and Patience (a deal) are not contests between players: they get
 *   counts only (wins and unnecessary losses; deals completed).
 */
import { ordinal, rate, rating, type Rating } from "openskill";
import type { GameRecord, RecordedSeat } from "../../rooms/kit/record";
import type { EvenStevenResult } from "../../rooms/evensteven/match";
import type { FoolResult } from "../../rooms/fool/match";
import type { PatienceResult } from "../../rooms/patience/match";
import type { TractorResult, TractorTeam } from "../../rooms/tractor/protocol";
import { teamOf, type Seat } from "../../rooms/tractor/scoring";

/** One player's change of counts from one game. */
export interface CountChange {
  name: string;
  win?: boolean;
  loss?: boolean;
  draw?: boolean;
  unnecessaryLoss?: boolean;
  completed?: boolean;
}

/** A rated contest: teams of player names, and each team's rank (1 best; equal ranks are a draw). */
export interface Contest {
  teams: string[][];
  ranks: number[];
}

export interface GameEffect {
  counts: CountChange[];
  contest?: Contest;
}

const named = (seat: RecordedSeat | undefined): seat is RecordedSeat => seat !== undefined && seat.name !== "" && seat.kind !== "open";

/** The effect of one record on the standings of its game. */
export function effectOf(record: GameRecord): GameEffect {
  switch (record.game) {
    case "evensteven":
      return evenStevenEffect(record);
    case "patience":
      return patienceEffect(record);
    case "fool":
      return foolEffect(record);
    case "tractor":
      return record.part === "round" ? tractorRoundEffect(record) : { counts: [] };
    default:
      return { counts: [] };
  }
}

function evenStevenEffect(record: GameRecord): GameEffect {
  const player = record.seats[0];
  if (!named(player)) return { counts: [] };
  const { outcome } = record.result as EvenStevenResult;
  return { counts: [{ name: player.name, win: outcome === "WIN", loss: outcome !== "WIN", unnecessaryLoss: outcome === "LOSE UNNECESSARILY" }] };
}

function patienceEffect(record: GameRecord): GameEffect {
  const owner = record.seats[0];
  if (!named(owner)) return { counts: [] };
  const { outcome } = record.result as PatienceResult;
  return { counts: [{ name: owner.name, completed: outcome.kind === "finished" }] };
}

function foolEffect(record: GameRecord): GameEffect {
  const { fool } = record.result as FoolResult;
  const seats = record.seats.filter(named);
  const counts = seats.map(({ seat, name }) => (fool === null ? { name, draw: true } : { name, win: seat !== fool, loss: seat === fool }));
  if (seats.length < 2 || seats[0].name === seats[1].name) return { counts };
  const ranks = seats.map(({ seat }) => (fool === null || seat !== fool ? 1 : 2));
  return { counts, contest: { teams: seats.map(({ name }) => [name]), ranks } };
}

function tractorRoundEffect(record: GameRecord): GameEffect {
  const { team: winners, levels } = record.result as TractorResult;
  const people = record.seats.filter((seat) => named(seat) && seat.kind === "person");
  const outcome = (team: TractorTeam) => (levels === 0 ? { draw: true } : { win: team === winners, loss: team !== winners });
  const counts = people.map(({ seat, name }) => ({ name, ...outcome(teamOf(seat as Seat)) }));
  const teams = TRACTOR_TEAMS.map((team) => people.filter(({ seat }) => teamOf(seat as Seat) === team).map(({ name }) => name));
  const distinct = new Set(teams.flat()).size === teams.flat().length;
  if (teams.some((members) => members.length === 0) || !distinct) return { counts };
  const ranks = TRACTOR_TEAMS.map((team) => (levels === 0 || team === winners ? 1 : 2));
  return { counts, contest: { teams, ranks } };
}

const TRACTOR_TEAMS: readonly TractorTeam[] = [1, 2];

/** OpenSkill's estimate as stored. */
export interface StoredRating {
  mu: number;
  sigma: number;
}

/** New ratings for a contest's players, from their current ones (a newcomer starts at OpenSkill's default). */
export function rateContest(contest: Contest, current: ReadonlyMap<string, StoredRating>): Map<string, StoredRating & { ordinal: number }> {
  const teams: Rating[][] = contest.teams.map((team) => team.map((name) => current.get(name) ?? rating()));
  const rated = rate(teams, { rank: contest.ranks });
  const next = new Map<string, StoredRating & { ordinal: number }>();
  contest.teams.forEach((team, index) =>
    team.forEach((name, member) => {
      const { mu, sigma } = rated[index][member];
      next.set(name, { mu, sigma, ordinal: ordinal({ mu, sigma }) });
    }),
  );
  return next;
}
