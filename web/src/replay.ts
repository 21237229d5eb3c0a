/**
 * A finished game's replay (GET /games/:id/replay): the engine's account of every step, walked forwards and
 * backwards. The game is over, so every card is shown. This page is the same for every game: it shows each step's
 * action and events and the table as the engine's views give it, without drawing a game's table.
 */
import type { CardhallClient, Replay } from "../../client-sdk/index";
import { GAME_TITLES, isGame } from "./connection";
import { button, draw, h } from "./dom";
import type { Teardown } from "./table";

export async function showReplay(client: CardhallClient, id: string, root: HTMLElement): Promise<Teardown> {
  const replay: Replay = await client.replay(id);
  const title = isGame(replay.game) ? GAME_TITLES[replay.game] : replay.game;
  document.title = `Replay of ${title} · cardhall`;
  let index = 0;
  const controls = h("div", { class: "controls" });
  const frame = h("div", { class: "frame" });
  const redraw = () => {
    const step = replay.frames[index];
    draw(
      controls,
      button("Previous", () => ((index = Math.max(0, index - 1)), redraw()), { disabled: index === 0 }),
      h("span", { text: `step ${index} of ${replay.frames.length - 1}` }),
      button("Next", () => ((index = Math.min(replay.frames.length - 1, index + 1)), redraw()), { disabled: index === replay.frames.length - 1 }),
    );
    draw(
      frame,
      h("p", { text: step.actor === undefined ? "The start" : `${describe(step.actor)} (${step.by ?? "?"}): ${describe(step.action)}` }),
      h("ul", { class: "events" }, ...step.events.map((event) => h("li", { text: describe(event) }))),
      h("pre", { class: "view", text: JSON.stringify(step.table, null, 1) }),
    );
  };
  root.append(h("h1", { text: `Replay of ${title} ${replay.id}` }), controls, frame, h("h2", { text: "Result" }), h("pre", { text: JSON.stringify(replay.result, null, 1) }));
  redraw();
  return () => undefined;
}

function describe(value: unknown): string {
  return typeof value === "string" || typeof value === "number" ? String(value) : JSON.stringify(value);
}
