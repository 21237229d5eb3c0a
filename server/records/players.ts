/**
 * A player's page as data (GET /profiles/:name): who stands under the name, their standings, their rating after
 * each rated game, their newest games and their results against each opponent.
 *
 * The rating history is read from rating_history, written with the standings (server/records/store.ts): a rating
 * after a game depends on the opponents' ratings at that moment, hence on every earlier game of that game by
 * anyone, so recomputing one player's history would mean replaying the whole game's records. The tallies against
 * opponents are counted here from the player's newest games (at most TALLIED_GAMES), by the same rules that make
 * the standings (server/records/games.ts).
 */
import type { GameSummary, OpponentTally, PlayerIdentity, PlayerProfile } from "../../rooms/kit/record";
import { HOUSE_BOTS } from "../../rooms/house-bots";
import type { IdentityStore } from "../identity/store";
import { standingOf } from "./games";
import type { RecordStore } from "./store";

/** The newest games a page lists, the games its tallies are counted from, and the points of each game's chart. */
export const RECENT_GAMES = 20;
export const TALLIED_GAMES = 500;
export const HISTORY_POINTS = 200;

/** The page of the player under `name`, or null when nobody stands under it (an unknown name, a guest's) and it is not the house's. */
export async function playerProfile(
  store: RecordStore,
  identities: IdentityStore,
  name: string,
): Promise<PlayerProfile | null> {
  const registered = await identities.registeredAs(name);
  const shown = registered?.name ?? name;
  const standings = await store.standingsOf(shown);
  // A house player has a page from the start: it says who they are, and that they have not played yet.
  if (registered === null && standings.length === 0 && !HOUSE_BOTS.some((bot) => bot.name === name)) return null;
  const identity: PlayerIdentity = registered?.identity ?? { kind: "unregistered" };
  const rated = standings.filter((standing) => standing.rating !== null).map((standing) => standing.game);
  const ratingHistory = (
    await Promise.all(rated.map((game) => store.ratingHistory(game, shown, HISTORY_POINTS)))
  ).flat();
  const { games } = await store.list({ player: shown, limit: TALLIED_GAMES });
  return {
    name: shown,
    identity,
    standings,
    ratingHistory,
    recentGames: games.slice(0, RECENT_GAMES),
    opponents: opponentTallies(shown, games),
    gamesTallied: games.length,
  };
}

type Outcome = "win" | "draw" | "loss";

/**
 * The player's games against each opponent: an opponent is a player on the other side of a rated contest (the
 * other team at Tractor), or, in a game rated for nobody, one whose result was the opposite of the player's. A
 * guest is nobody's opponent: guests stand nowhere.
 */
export function opponentTallies(name: string, games: readonly GameSummary[]): OpponentTally[] {
  const tallies = new Map<
    string,
    { game: string; name: string; games: number; wins: number; draws: number; losses: number }
  >();
  for (const summary of games) {
    const { counts, contest } = standingOf(summary);
    const mine = counts.find((change) => change.name === name);
    const outcome: Outcome | undefined = mine?.win ? "win" : mine?.loss ? "loss" : mine?.draw ? "draw" : undefined;
    if (outcome === undefined) continue;
    const opponents = contest
      ? contest.teams.filter((team) => !team.includes(name)).flat()
      : counts
          .filter((change) => (outcome === "win" && change.loss) || (outcome === "loss" && change.win))
          .map((change) => change.name);
    for (const opponent of new Set(opponents)) {
      if (opponent === name) continue;
      const key = `${summary.game}\u0000${opponent}`;
      const tally = tallies.get(key) ?? { game: summary.game, name: opponent, games: 0, wins: 0, draws: 0, losses: 0 };
      tally.games++;
      if (outcome === "win") tally.wins++;
      else if (outcome === "draw") tally.draws++;
      else tally.losses++;
      tallies.set(key, tally);
    }
  }
  return [...tallies.values()].sort(
    (a, b) => b.games - a.games || a.game.localeCompare(b.game) || a.name.localeCompare(b.name),
  );
}
