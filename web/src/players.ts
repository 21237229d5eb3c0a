/**
 * A player's page (`/players/<name>`, GET /profiles/:name): who stands under the name (an account, a bot and its
 * owner, or a name nobody registered such as the house's AI), their standing in each game, their rating over time
 * in each rated game (a small inline SVG line), their newest games with links to the replays, and their games,
 * wins, draws and losses against each opponent, each opponent's name a link to their own page.
 */
import "./players.css";
import type { CardhallClient, OpponentTally, PlayerProfile, RatingPoint, Standing } from "../../client-sdk/index";
import { h } from "./dom";
import { finishedItem } from "./finished";
import { isHousePlayer, playerWords } from "./house-names";
import { GAME_TITLES, isGame } from "./games";
import { ratingChart } from "./rating-chart";
import { playerPath } from "./router";
import type { Teardown } from "./table";

const titleOf = (game: string) => (isGame(game) ? GAME_TITLES[game] : game);

/** A link to a player's page. */
export function playerLink(name: string): HTMLAnchorElement {
  return h("a", { href: playerPath(name), text: playerWords(name), class: "player-link", attrs: { "data-link": "" } });
}

export async function showPlayer(client: CardhallClient, name: string, root: HTMLElement): Promise<Teardown> {
  const profile = await client.player(name);
  document.title = `${playerWords(profile.name)} · cardhall`;
  root.append(
    h("h1", { text: playerWords(profile.name) }),
    h("p", { class: "player-identity" }, ...identityWords(profile)),
    h("h2", { text: "Standings" }),
    profile.standings.length === 0 ? h("p", { text: "No games counted yet." }) : standingsTable(profile.standings),
    ...ratingCharts(profile.ratingHistory),
    h("h2", { text: "Newest games" }),
    profile.recentGames.length === 0
      ? h("p", { text: "No games yet." })
      : h("ul", { class: "finished", label: "Newest games" }, ...profile.recentGames.map(finishedItem)),
    h("h2", { text: "Against each opponent" }),
    opponentsPart(profile),
  );
  return () => undefined;
}

function identityWords(profile: PlayerProfile): Array<Node | string> {
  switch (profile.identity.kind) {
    case "account":
      return ["Account"];
    case "bot":
      return ["Bot of ", playerLink(profile.identity.owner)];
    default:
      if (isHousePlayer(profile.name)) return ["One of the house's computer players, rated like everyone"];
      return ["Not a registered name: it played before accounts existed"];
  }
}

/** A small table: a header row of `columns`, then `rows`; numbers are right-aligned. */
function table(
  label: string,
  columns: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<Node | string | number>>,
): HTMLElement {
  return h(
    "table",
    { class: "player-table", label },
    h("thead", {}, h("tr", {}, ...columns.map((column) => h("th", { text: column, attrs: { scope: "col" } })))),
    h(
      "tbody",
      {},
      ...rows.map((row) =>
        h("tr", {}, ...row.map((cell) => h("td", { class: typeof cell === "number" ? "number" : "" }, cell))),
      ),
    ),
  );
}

function standingsTable(standings: readonly Standing[]): HTMLElement {
  return table(
    "Standings",
    ["Game", "Games", "Wins", "Draws", "Losses", "Rating"],
    standings.map((standing) => [
      titleOf(standing.game),
      standing.games,
      standing.wins,
      standing.draws,
      standing.losses,
      standing.rating === null ? "unrated" : standing.rating.ordinal.toFixed(1),
    ]),
  );
}

function ratingCharts(history: readonly RatingPoint[]): HTMLElement[] {
  const games = [...new Set(history.map((point) => point.game))];
  return games.map((game) => {
    const title = `Rating at ${titleOf(game)}`;
    return h(
      "section",
      { class: "rating", label: title, attrs: { "data-game": game } },
      h("h2", { text: title }),
      ratingChart(
        title,
        history.filter((point) => point.game === game),
      ),
    );
  });
}

function opponentsPart(profile: PlayerProfile): HTMLElement {
  if (profile.opponents.length === 0) return h("p", { text: "No games against other players yet." });
  const rows = profile.opponents.map((tally: OpponentTally) => [
    titleOf(tally.game),
    playerLink(tally.name),
    tally.games,
    tally.wins,
    tally.draws,
    tally.losses,
  ]);
  return h(
    "div",
    {},
    table("Against each opponent", ["Game", "Opponent", "Games", "Wins", "Draws", "Losses"], rows),
    h("p", {
      class: "player-note",
      text: `Counted over ${playerWords(profile.name)}'s newest ${profile.gamesTallied} game${profile.gamesTallied === 1 ? "" : "s"}.`,
    }),
  );
}
