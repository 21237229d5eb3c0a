/** A finished game as the lobby and the player pages list it (its words from results.ts). */
import type { GameSummary } from "../../client-sdk/index";
import { h } from "./dom";
import { GAME_TITLES, isGame } from "./games";
import { playersWords, resultWords } from "./results";

/** A finished game as a list item: the game, who played, how it ended, when, and a link to its replay. */
export function finishedItem(summary: GameSummary): HTMLElement {
  const title = isGame(summary.game) ? GAME_TITLES[summary.game] : summary.game;
  const part =
    summary.part === "match" ? "match" : summary.part === "round" ? `round ${summary.round ?? ""}`.trim() : "game";
  const endedAt = new Date(summary.endedAt);
  // A game of today by its time; an older one (a player page goes back further than the lobby) by its day too.
  const time = endedAt.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  const ended = endedAt.toDateString() === new Date().toDateString() ? time : `${endedAt.toLocaleDateString()} ${time}`;
  return h(
    "li",
    {
      class: "finished-game",
      key: `finished:${summary.id}`,
      attrs: { "data-record": summary.id, "data-game": summary.game },
    },
    h("span", { class: "room-game", text: title }),
    h("span", { class: "finished-players", text: playersWords(summary) }),
    h("span", { class: "finished-result", text: resultWords(summary) }),
    h("span", { class: "finished-when", text: `ended ${ended}` }),
    // A ladder deal of the running period is withheld (docs/arena.md, "Solo ladders"): no replay until it ends.
    withheld(summary)
      ? h("span", { class: "finished-when", text: "replay once the ladder's period is over" })
      : h("a", {
          href: `/replay/${summary.id}`,
          text: "Replay",
          label: `Replay of ${title} · ${part} · ${playersWords(summary)} · ended ${ended}`,
          attrs: { "data-link": "" },
        }),
  );
}

function withheld(summary: GameSummary): boolean {
  return summary.ladder !== undefined && summary.result === null;
}
