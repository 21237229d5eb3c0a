/**
 * Tournaments on duplicate deals (docs/arena.md, "Tournaments"): what bin/tournament reports, what the records keep
 * and serve, and the pure parts both sides share — pairings (round-robin, Swiss), each game's points, and the
 * standings with their 95% interval. Nothing here touches a network, a clock or a database.
 */

export const TOURNAMENT_FORMATS = ["round-robin", "swiss"] as const;
export type TournamentFormat = (typeof TOURNAMENT_FORMATS)[number];

/** The games a tournament plays: Fool heads-up, Tractor team against team (one identity holds both seats of a team). */
export const TOURNAMENT_GAMES = ["fool", "tractor"] as const;
export type TournamentGame = (typeof TOURNAMENT_GAMES)[number];

/**
 * Who sits where for a pairing's game, `first` and `second` the two entrants: the duplicate pair of a deal is this
 * game and the one with the entrants exchanged. Fool: seat 0 and seat 1. Tractor: `first` holds seats 0 and 2 (team
 * 1, the first round's declarers), `second` seats 1 and 3; exchanged, each team plays the other's hands.
 */
export const TOURNAMENT_TABLES: Record<
  TournamentGame,
  { seats: number; arrangement(first: string, second: string): string[] }
> = {
  fool: { seats: 2, arrangement: (first, second) => [first, second] },
  tractor: { seats: 4, arrangement: (first, second) => [first, second, first, second] },
};

/** Two entrants who meet in a round: every deal of the round twice, `a` in seat 0 first, then `b`. */
export interface Pairing {
  readonly a: string;
  readonly b: string;
}

export interface TournamentRound {
  readonly pairings: Pairing[];
  /** The entrant who sits the round out (an odd number of entrants): it scores nothing for it. */
  readonly bye?: string;
}

/** A program's seat given up: it crashed, or let the turn clock run out (the room played for it). */
export interface Forfeit {
  readonly entrant: string;
  readonly reason: string;
}

/**
 * One game as bin/tournament reports it: the server finds its record by room id and checks seats and seed. A
 * Tractor game is the first round of a match dealt from the seed.
 */
export interface TournamentGameReport {
  readonly round: number;
  readonly deal: number;
  readonly seed: number;
  /** The entrants by seat. */
  readonly seats: string[];
  readonly roomId: string;
  /** Entrants who gave up their seat in this game (none, one, or both). */
  readonly forfeits: Forfeit[];
}

/** POST /tournaments's body. */
export interface TournamentReport {
  readonly name: string;
  readonly game: TournamentGame;
  readonly format: TournamentFormat;
  readonly deals: number;
  readonly entrants: string[];
  readonly games: TournamentGameReport[];
}

/** A game of a stored tournament: its record's id (the replay's address) and each seat's points. */
export interface TournamentGameEntry extends Omit<TournamentGameReport, "roomId"> {
  readonly gameId: string;
  readonly points: number[];
}

/** An entrant's line of the standings: points over games, and the 95% interval of its score per game. */
export interface TournamentStanding {
  readonly entrant: string;
  readonly games: number;
  readonly points: number;
  readonly forfeits: number;
  /** Points per game, 0 to 1. */
  readonly score: number;
  readonly low: number;
  readonly high: number;
}

/** GET /tournaments/:id. */
export interface Tournament {
  readonly id: string;
  readonly name: string;
  readonly game: TournamentGame;
  readonly format: TournamentFormat;
  readonly deals: number;
  readonly entrants: string[];
  readonly createdAt: number;
  readonly standings: TournamentStanding[];
  readonly games: TournamentGameEntry[];
}

/**
 * Every entrant meets every other once (the circle method): with n entrants, n - 1 rounds (n when n is odd, each
 * entrant sitting one out), and nobody plays twice in a round.
 */
export function roundRobin(entrants: readonly string[]): TournamentRound[] {
  const circle: (string | null)[] = entrants.length % 2 === 0 ? [...entrants] : [...entrants, null];
  const rounds: TournamentRound[] = [];
  for (let round = 0; round < circle.length - 1; round++) {
    const pairings: Pairing[] = [];
    let bye: string | undefined;
    for (let i = 0; i < circle.length / 2; i++) {
      const [first, second] = [circle[i], circle[circle.length - 1 - i]];
      if (first === null || second === null) bye = (first ?? second) as string;
      else pairings.push(round % 2 === 0 ? { a: first, b: second } : { a: second, b: first });
    }
    rounds.push(bye === undefined ? { pairings } : { pairings, bye });
    circle.splice(1, 0, circle.pop()!); // the first stays; the others turn one place
  }
  return rounds;
}

/** The usual number of Swiss rounds: enough to separate the entrants, ⌈log2 n⌉. */
export function swissRounds(entrants: number): number {
  return Math.max(1, Math.ceil(Math.log2(Math.max(2, entrants))));
}

export const pairKey = (a: string, b: string): string => JSON.stringify(a < b ? [a, b] : [b, a]);

/** How far the search for a pairing without rematches goes before it settles for rematches. */
const SWISS_SEARCH_STEPS = 100_000;

/**
 * The next Swiss round: entrants ranked by points (the entry order breaks ties), each paired with the nearest-ranked
 * opponent it has not met, searched so that nobody is left without one while another pairing avoids the rematch.
 * With an odd number, the lowest-ranked entrant without a bye yet sits out. Only when no pairing avoids every rematch
 * is the ranking paired in order, rematches and all.
 */
export function swissRound(
  entrants: readonly string[],
  points: ReadonlyMap<string, number>,
  played: ReadonlySet<string>,
  byes: ReadonlySet<string>,
): TournamentRound {
  const ranked = [...entrants].sort(
    (x, y) => (points.get(y) ?? 0) - (points.get(x) ?? 0) || entrants.indexOf(x) - entrants.indexOf(y),
  );
  let bye: string | undefined;
  if (ranked.length % 2 === 1) {
    bye = [...ranked].reverse().find((entrant) => !byes.has(entrant)) ?? ranked[ranked.length - 1];
    ranked.splice(ranked.indexOf(bye), 1);
  }
  const pairings = pairWithoutRematches(ranked, played) ?? inOrder(ranked);
  return bye === undefined ? { pairings } : { pairings, bye };
}

function inOrder(ranked: readonly string[]): Pairing[] {
  const pairings: Pairing[] = [];
  for (let i = 0; i + 1 < ranked.length; i += 2) pairings.push({ a: ranked[i], b: ranked[i + 1] });
  return pairings;
}

/** A depth-first search from the top of the ranking: the first entrant left takes the nearest opponent it may. */
function pairWithoutRematches(ranked: readonly string[], played: ReadonlySet<string>): Pairing[] | null {
  let steps = 0;
  const search = (left: readonly string[]): Pairing[] | null => {
    if (left.length === 0) return [];
    const [first, ...rest] = left;
    for (const opponent of rest) {
      if (++steps > SWISS_SEARCH_STEPS) return null;
      if (played.has(pairKey(first, opponent))) continue;
      const others = search(rest.filter((entrant) => entrant !== opponent));
      if (others !== null) return [{ a: first, b: opponent }, ...others];
    }
    return null;
  };
  return search(ranked);
}

/** A Tractor round's points by seat: the team that went up 1, the other 0; a round where nobody went up half each. */
export function tractorPoints(result: { team: 1 | 2; levels: number }, seats: number): number[] {
  const teamOfSeat = (seat: number) => (seat % 2 === 0 ? 1 : 2);
  return Array.from({ length: seats }, (_, seat) =>
    result.levels === 0 ? 0.5 : teamOfSeat(seat) === result.team ? 1 : 0,
  );
}

/** A Fool game's points by seat: the Fool 0, the other 1; a capped game (no Fool) half each. */
export function foolPoints(result: { fool: number | null }, seats: number): number[] {
  return Array.from({ length: seats }, (_, seat) => (result.fool === null ? 0.5 : seat === result.fool ? 0 : 1));
}

/**
 * A forfeit overrides the board: whoever gave up its seat scores 0 and the opponent who kept it 1 (both 0 when both
 * gave up), whatever the room's stand-in made of the game.
 */
export function pointsAfterForfeits(
  points: readonly number[],
  seats: readonly string[],
  forfeits: readonly Forfeit[],
): number[] {
  if (forfeits.length === 0) return [...points];
  const gaveUp = new Set(forfeits.map((forfeit) => forfeit.entrant));
  return seats.map((entrant) => (gaveUp.has(entrant) ? 0 : 1));
}

/** The normal quantile of a two-sided 95% interval. */
const Z_95 = 1.959964;

/**
 * The Wilson score interval of a score per game (points / games, a draw counting half) at 95%. Chosen over the
 * normal (Wald) interval because a tournament gives each entrant a handful of games: Wald's collapses to a point
 * at a score of 0 or 1 and spills outside [0, 1] near them, while Wilson's stays inside and keeps close to its
 * stated coverage for small n. A half point is taken as half a success, which makes the interval slightly wide for
 * an entrant with many draws (their variance is smaller) — the cautious side.
 */
export function wilsonInterval(points: number, games: number, z = Z_95): { low: number; high: number } {
  if (games === 0) return { low: 0, high: 1 };
  const p = points / games;
  const z2 = z * z;
  const centre = (p + z2 / (2 * games)) / (1 + z2 / games);
  const half = (z / (1 + z2 / games)) * Math.sqrt((p * (1 - p)) / games + z2 / (4 * games * games));
  // At a score of 0 or 1 the bound is exactly the score (rounding would put it a hair inside or outside).
  return {
    low: points === 0 ? 0 : Math.max(0, centre - half),
    high: points === games ? 1 : Math.min(1, centre + half),
  };
}

/** The standings: points, then score per game, then the entry order. */
export function tournamentStandings(
  entrants: readonly string[],
  games: readonly Pick<TournamentGameEntry, "seats" | "points" | "forfeits">[],
): TournamentStanding[] {
  const lines = entrants.map((entrant) => {
    const mine = games.filter((game) => game.seats.includes(entrant));
    const points = mine.reduce((sum, game) => sum + game.points[game.seats.indexOf(entrant)], 0);
    const forfeits = mine.filter((game) => game.forfeits.some((forfeit) => forfeit.entrant === entrant)).length;
    const score = mine.length === 0 ? 0 : points / mine.length;
    return { entrant, games: mine.length, points, forfeits, score, ...wilsonInterval(points, mine.length) };
  });
  return lines.sort(
    (x, y) => y.points - x.points || y.score - x.score || entrants.indexOf(x.entrant) - entrants.indexOf(y.entrant),
  );
}
