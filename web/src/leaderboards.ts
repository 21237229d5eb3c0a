/**
 * The lobby's leaderboards (GET /leaderboard): each game's best players, every name a link to its player page.
 * Rated games rank by the OpenSkill ordinal, the others by their counts (server/records/store.ts).
 */
import type { CardhallClient, Standing } from "../../client-sdk/index";
import { h } from "./dom";
import { GAME_TITLES, GAMES } from "./games";
import { playerLink } from "./players";

/** Players shown per game. */
const LEADERS_SHOWN = 5;

function standingWords(standing: Standing): string {
  const games = `${standing.games} game${standing.games === 1 ? "" : "s"}`;
  // The skill's 95% interval in words: two players whose ranges do not overlap are told apart by their games.
  if (standing.rating !== null)
    return `rating ${standing.rating.ordinal.toFixed(1)} · skill ${standing.rating.low.toFixed(0)} to ${standing.rating.high.toFixed(0)} · ${games}`;
  if (standing.game === "patience") return `${standing.completed} of ${games} came out`;
  return `${standing.wins} won of ${games}`;
}

/** Each game's leaderboard that has players, or null when no game has any (or the server keeps no records). */
export async function leaderboards(client: CardhallClient): Promise<HTMLElement[] | null> {
  const boards = await Promise.all(
    GAMES.map(async (game) => ({ game, players: await client.leaderboard(game, LEADERS_SHOWN).catch(() => []) })),
  );
  const shown = boards.filter((board) => board.players.length > 0);
  if (shown.length === 0) return null;
  return shown.map(({ game, players }) =>
    h(
      "section",
      { class: "leaderboard", label: `${GAME_TITLES[game]} leaderboard`, attrs: { "data-game": game } },
      h("h3", { text: GAME_TITLES[game] }),
      h(
        "ol",
        {},
        ...players.map((standing) =>
          h("li", {}, playerLink(standing.name), h("span", { class: "leader-facts", text: standingWords(standing) })),
        ),
      ),
    ),
  );
}
