/**
 * What a finished game does to its players' standings: counts for every named player, and a rating for the games
 * where players beat players.
 *
 * Ratings are OpenSkill's (the Plackett-Luce model of the `openskill` package): it rates teams of any size and
 * draws natively, which Tractor (two teams of two) needs and Glicko-2 (one against one) does not offer, and it is
 * pure JavaScript under an open licence. A player is ranked by the ordinal mu − 3 sigma, which rises only as the
 * rating becomes both high and certain.
 *
 * What each game's record does is its own (rooms/<game>/records.ts): Fool rates its two seats, Tractor its rounds'
 * people by team; Even-Steven (a player against the dealer) and Patience (a deal) are not contests between players
 * and get counts only.
 *
 * Two of OpenSkill's defaults are changed (RATING_OPTIONS): each update's damping `gamma` (by default sigma / c, which
 * lets sigma fall a third as fast as the evidence says) is 1, the Weng-Lin update itself; and the drift `tau` added
 * to sigma before every game is a tenth of the default. With the defaults sigma settles near 1.5 whatever the
 * number of games, so two players 65% apart never get separated 95% intervals, and the interval covers the true gap
 * 99% of the time rather than 95%. With these settings, in 400 simulated pairs (`npm run bench:ratings`), every
 * pair of players 65% apart is separated after 600 games, where the defaults separate 13.5% of them; equal players'
 * intervals still never come apart, and the intervals still cover the true gap at least 97% of the time.
 */
import { ordinal, rate, rating, type Options, type Rating } from "openskill";
import type { GameRecord } from "../../rooms/kit/record";
import type { Contest, GameEffect } from "../../rooms/kit/recorded-game";
import { standingOf } from "./games";

export type { Contest, CountChange, GameEffect } from "../../rooms/kit/recorded-game";

/** The effect of one record on the standings of its game (its entry's `standing` in server/records/games.ts). */
export function effectOf(record: GameRecord): GameEffect {
  return standingOf(record);
}

/** OpenSkill's estimate as stored. */
export interface StoredRating {
  mu: number;
  sigma: number;
}

/** OpenSkill's options as cardhall rates (see above; the rest are OpenSkill's defaults). */
export const RATING_OPTIONS: Options = { gamma: () => 1, tau: 25 / 3000 };

/** New ratings for a contest's players, from their current ones (a newcomer starts at OpenSkill's default). */
export function rateContest(
  contest: Contest,
  current: ReadonlyMap<string, StoredRating>,
): Map<string, StoredRating & { ordinal: number }> {
  const teams: Rating[][] = contest.teams.map((team) => team.map((name) => current.get(name) ?? rating()));
  const rated = rate(teams, { ...RATING_OPTIONS, rank: contest.ranks });
  const next = new Map<string, StoredRating & { ordinal: number }>();
  contest.teams.forEach((team, index) =>
    team.forEach((name, member) => {
      const { mu, sigma } = rated[index][member];
      next.set(name, { mu, sigma, ordinal: ordinal({ mu, sigma }) });
    }),
  );
  return next;
}
