/**
 * A tournament's page (`/tournaments/<id>`): its standings, each entrant's points with the 95% interval of its score
 * per game (docs/arena.md, "Tournaments"), and every game by round and deal with a link to its replay. Plain lines
 * that wrap, so that nothing is clipped at a phone's width.
 */
import "./tournament.css";
import type { CardhallClient, Tournament, TournamentGameEntry, TournamentStanding } from "../../client-sdk/index";
import { GAME_TITLES, isGame } from "./games";
import { h } from "./dom";
import type { Teardown } from "./table";

const FORMAT_WORDS: Record<Tournament["format"], string> = { "round-robin": "round-robin", swiss: "Swiss" };

const twoPlaces = (value: number): string => value.toFixed(2);
const pointsWords = (points: number): string => `${points} ${points === 1 ? "point" : "points"}`;

function standingItem(line: TournamentStanding): HTMLLIElement {
  const forfeited = line.forfeits > 0 ? ` · ${line.forfeits} forfeited` : "";
  return h(
    "li",
    { class: "standing" },
    h("span", { class: "entrant", text: line.entrant }),
    h("span", { text: ` ${pointsWords(line.points)} in ${line.games} games` }),
    h("span", {
      class: "score",
      text: ` · ${twoPlaces(line.score)} a game (95% between ${twoPlaces(line.low)} and ${twoPlaces(line.high)})${forfeited}`,
    }),
  );
}

/** How a game ended, in words: who won, a draw, and any forfeit with its reason. */
function resultWords(game: TournamentGameEntry): string {
  const [first, second] = game.points;
  const result = first === second ? (first === 0 ? "both lost" : "drawn") : `${game.seats[first > second ? 0 : 1]} won`;
  const forfeits = game.forfeits.map((forfeit) => `${forfeit.entrant} forfeited: ${forfeit.reason}`);
  return [result, ...forfeits].join("; ");
}

/** Where an entrant sat: "the first seat", or for a Tractor team "the first and third seats". */
function seatWords(game: TournamentGameEntry, entrant: string): string {
  const ordinals = ["first", "second", "third", "fourth"];
  const seats = game.seats.flatMap((sitting, seat) => (sitting === entrant ? [ordinals[seat]] : []));
  return seats.length === 1 ? `the ${seats[0]} seat` : `the ${seats.join(" and ")} seats`;
}

function gameItem(game: TournamentGameEntry): HTMLLIElement {
  return h(
    "li",
    { class: "tournament-game" },
    h("span", {
      text: `Deal ${game.deal}: ${game.seats[0]} in ${seatWords(game, game.seats[0])} against ${game.seats[1]} — ${resultWords(game)}. `,
    }),
    h("a", {
      href: `/replay/${encodeURIComponent(game.gameId)}`,
      text: "Replay",
      label: `Replay of deal ${game.deal}, ${game.seats[0]} in ${seatWords(game, game.seats[0])} against ${game.seats[1]}`,
      attrs: { "data-link": "" },
    }),
  );
}

function roundSections(games: readonly TournamentGameEntry[]): HTMLElement[] {
  const rounds = [...new Set(games.map((game) => game.round))].sort((a, b) => a - b);
  return rounds.map((round) =>
    h(
      "section",
      { class: "tournament-round" },
      h("h3", { text: `Round ${round}` }),
      h("ul", {}, ...games.filter((game) => game.round === round).map(gameItem)),
    ),
  );
}

export async function showTournament(client: CardhallClient, id: string, root: HTMLElement): Promise<Teardown> {
  const tournament = await client.tournament(id);
  const title = isGame(tournament.game) ? GAME_TITLES[tournament.game] : tournament.game;
  document.title = `${tournament.name} · cardhall`;
  root.append(
    h("h1", { text: tournament.name }),
    h("p", {
      text: `${title}, ${FORMAT_WORDS[tournament.format]} between ${tournament.entrants.join(", ")}: every pairing played the same ${tournament.deals === 1 ? "deal" : `${tournament.deals} deals`}, each twice with the ${tournament.game === "tractor" ? "teams" : "seats"} swapped. Played ${new Date(tournament.createdAt).toLocaleString()}.`,
    }),
    h("h2", { text: "Standings" }),
    h("ol", { class: "standings", label: "Standings" }, ...tournament.standings.map(standingItem)),
    h("p", {
      class: "note",
      text: "A win is 1 point, a draw ½. The range is where each entrant's score per game lies with 95% confidence (a Wilson interval): two entrants whose ranges overlap are not told apart by these games.",
    }),
    h("h2", { text: "Games" }),
    ...roundSections(tournament.games),
    h("a", { href: "/", text: "Back to the lobby", attrs: { "data-link": "" } }),
  );
  return () => undefined;
}
