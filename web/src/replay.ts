/**
 * A finished game's replay (GET /games/:id/replay): the game's own table, drawn by its table module exactly as it
 * was drawn live, step by step — every hand shown, since the game is over — with each step's action and events
 * in words. Previous and Next (or the arrow keys) step; Play steps on its own at a pace a person can follow.
 */
import type { CardhallClient, GameRecord, Replay } from "../../client-sdk/index";
import { GAME_TITLES, isGame, type GameName } from "./games";
import { button, draw, h } from "./dom";
import type { TableModule, Teardown } from "./table";

/** Play's pace: a step that says something gets time to be read; a silent one (a card dealt) goes quickly. */
const STEP_MS = 900;
const SILENT_STEP_MS = 200;

export async function showReplay(client: CardhallClient, id: string, root: HTMLElement, tables: Record<GameName, TableModule>): Promise<Teardown> {
  const [replay, record]: [Replay, GameRecord] = await Promise.all([client.replay(id), client.game(id)]);
  if (!isGame(replay.game)) throw new Error(`this page cannot draw a game of ${replay.game}`);
  const table = tables[replay.game];
  const title = GAME_TITLES[replay.game];
  document.title = `Replay of ${title} · cardhall`;
  const last = replay.frames.length - 1;
  let index = 0;
  let playing: ReturnType<typeof setTimeout> | undefined;

  const controls = h("div", { class: "controls", role: "group", label: "Replay controls" });
  const said = h("ul", { class: "events", label: "What happened", attrs: { "aria-live": "polite" } });
  const region = h("div", { class: `table ${replay.game}` });

  const go = (to: number) => {
    index = Math.max(0, Math.min(last, to));
    if (index === last) pause();
    redraw();
  };
  const pause = () => {
    clearTimeout(playing);
    playing = undefined;
  };
  const tick = () => {
    go(index + 1);
    if (index < last) playing = setTimeout(tick, paceOf(index));
  };
  const play = () => {
    if (index === last) index = 0;
    playing = setTimeout(tick, paceOf(index));
    redraw();
  };
  const paceOf = (at: number) => (replay.frames[at + 1]?.events.length === 0 ? SILENT_STEP_MS : STEP_MS);

  function redraw(): void {
    const step = table.replayStep(replay.frames[index], record);
    draw(
      controls,
      button("Previous", () => go(index - 1), { disabled: index === 0 }),
      h("span", { class: "step-count", role: "status", text: `step ${index} of ${last}` }),
      button("Next", () => go(index + 1), { disabled: index === last }),
      playing === undefined ? button("Play", play, { key: "button:play" }) : button("Pause", () => (pause(), redraw()), { key: "button:play" }),
    );
    draw(said, ...(step.words.length === 0 ? ["The start: the cards as dealt"] : step.words).map((words) => h("li", { text: words })));
    draw(region, ...step.table);
  }

  const onKey = (event: KeyboardEvent) => {
    if (event.altKey || event.ctrlKey || event.metaKey || (event.target as HTMLElement).closest("input, textarea, select")) return;
    const keys: Record<string, number> = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: last };
    const to = keys[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(to);
  };
  document.addEventListener("keydown", onKey);

  root.append(h("h1", { text: `Replay of ${title} ${replay.id}` }), h("p", { text: `${partWords(record)} · ${record.seats.map((seat) => seat.name || "open").join(", ")}` }), controls, said, region);
  redraw();
  return () => {
    pause();
    document.removeEventListener("keydown", onKey);
  };
}

function partWords(record: GameRecord): string {
  if (record.part === "round") return `Match ${record.match}, round ${record.round ?? "?"} (from the match's start)`;
  return record.part === "match" ? `Match ${record.match}` : `Game ${record.match}`;
}
