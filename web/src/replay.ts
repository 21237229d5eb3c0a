/**
 * A finished game's replay (GET /games/:id/replay): the game's own table, drawn by its table module exactly as it
 * was drawn live, step by step — every hand shown, since the game is over — with each step's action and events
 * in words. Previous and Next (or the arrow keys) step; the Step slider goes anywhere; Play steps on its own at a
 * pace a person can follow; the jumps go trick by trick and round by round (game by game for a record of several).
 *
 * What the page knows of a step it reads from the frames themselves, the same way for every game: a step the
 * dealer took that said nothing is one card of a deal dealt singly (a Tractor round deals 100 that way), skipped
 * unless "Show each dealt card" is on; a step whose events include a "trick" ends a trick; a "roundStart" (Tractor)
 * or a "start" (Fool) begins a round or a game.
 *
 * A Tractor or Fool replay also offers a seat's review against the AI beside the steps (review.ts).
 */
import "./replay.css";
import type { CardhallClient, GameRecord, Replay, ReplayedDeal, ReplayFrame } from "../../client-sdk/index";
import { revealMatches } from "../../rooms/kit/commitment";
import { DEALER } from "../../rooms/kit/engine";
import { GAME_TITLES, isGame, type GameName } from "./games";
import { button, draw, h } from "./dom";
import { holderWords } from "./results";
import type { TableModule, Teardown } from "./table";
import { REVIEWED_GAMES, reviewPanel } from "./review";

/** Play's pace: a step that says something gets time to be read; a silent one (a card dealt) goes quickly. */
const STEP_MS = 900;
const SILENT_STEP_MS = 200;

/** The parts a replay can be jumped through, by the event that marks them. */
const TRICK_EVENT = "trick";
const PART_EVENTS: ReadonlyArray<{ event: string; word: string }> = [
  { event: "roundStart", word: "round" },
  { event: "start", word: "game" },
];

const says = (frame: ReplayFrame, name: string) => frame.events.some((event) => event.name === name);

/** One card of a deal dealt singly: the dealer's step, with nothing said. */
export function isSingleDealtCard(frame: ReplayFrame): boolean {
  return frame.actor === DEALER && frame.action !== undefined && frame.events.length === 0;
}

/** The steps at which each kind of part of a replay happens: tricks ending, rounds (or games) starting. */
export function replayMarks(frames: readonly ReplayFrame[]): {
  tricks: number[];
  parts: { word: string; starts: number[] } | undefined;
} {
  const at = (name: string) => frames.filter((frame) => says(frame, name)).map((frame) => frame.index);
  const parts = PART_EVENTS.map(({ event, word }) => ({ word, starts: at(event) })).find(
    (part) => part.starts.length > 1,
  );
  return { tricks: at(TRICK_EVENT), parts };
}

export async function showReplay(
  client: CardhallClient,
  id: string,
  root: HTMLElement,
  tables: Record<GameName, TableModule>,
): Promise<Teardown> {
  const [replay, record]: [Replay, GameRecord] = await Promise.all([client.replay(id), client.game(id)]);
  if (!isGame(replay.game)) throw new Error(`this page cannot draw a game of ${replay.game}`);
  const table = tables[replay.game];
  const title = GAME_TITLES[replay.game];
  document.title = `Replay of ${title} · cardhall`;
  const frames = replay.frames;
  const last = frames.length - 1;
  const singles = frames.filter(isSingleDealtCard).length;
  const marks = replayMarks(frames);
  let index = 0;
  let showSingles = false;
  let playing: ReturnType<typeof setTimeout> | undefined;

  /** The steps shown: all of them, or all but the single dealt cards (the first and last always). */
  let shown: number[] = [];
  const chooseShown = () => {
    shown = frames
      .filter((frame) => showSingles || !isSingleDealtCard(frame) || frame.index === 0 || frame.index === last)
      .map((frame) => frame.index);
  };
  chooseShown();
  const after = (from: number, steps: readonly number[]) => steps.find((step) => step > from);
  const before = (from: number, steps: readonly number[]) => lastOf(steps.filter((step) => step < from));

  const controls = h("div", { class: "controls", role: "group", label: "Replay controls" });
  const jumps = h("div", { class: "controls jumps", role: "group", label: "Jumps" });
  const slider = h("input", { type: "range", class: "step-slider", attrs: { min: "0", step: "1" } });
  slider.addEventListener("input", () => go(shown[Number(slider.value)] ?? index));
  const dealt = h("input", { type: "checkbox", attrs: { id: "show-dealt" } });
  dealt.addEventListener("change", () => {
    showSingles = dealt.checked;
    chooseShown();
    redraw();
  });
  const dealtBox =
    singles > 0
      ? h(
          "label",
          { class: "show-dealt", attrs: { for: "show-dealt" } },
          dealt,
          ` Show each dealt card (${singles} steps of a single card dealt are skipped otherwise)`,
        )
      : null;
  const said = h("ul", { class: "events", label: "What happened", attrs: { "aria-live": "polite" } });
  const region = h("div", { class: `table ${replay.game}` });
  const review = REVIEWED_GAMES.includes(replay.game) ? reviewPanel(client, record, (step) => go(step)) : undefined;

  const go = (to: number | undefined) => {
    if (to === undefined) return;
    index = Math.max(0, Math.min(last, to));
    if (index === last) pause();
    redraw();
  };
  const pause = () => {
    clearTimeout(playing);
    playing = undefined;
  };
  const tick = () => {
    go(after(index, shown));
    if (index < last) playing = setTimeout(tick, paceOf(index));
  };
  const play = () => {
    if (index === last) index = 0;
    playing = setTimeout(tick, paceOf(index));
    redraw();
  };
  const paceOf = (at: number) => {
    const next = after(at, shown);
    return next !== undefined && frames[next].events.length === 0 ? SILENT_STEP_MS : STEP_MS;
  };

  function redraw(): void {
    const step = table.replayStep(frames[index], record);
    draw(
      controls,
      button("Previous", () => go(before(index, shown)), { disabled: index === 0 }),
      h("span", { class: "step-count", role: "status", text: `step ${index} of ${last}` }),
      button("Next", () => go(after(index, shown)), { disabled: index === last }),
      playing === undefined
        ? button("Play", play, { key: "button:play" })
        : button("Pause", () => (pause(), redraw()), { key: "button:play" }),
    );
    const part = marks.parts;
    draw(
      jumps,
      ...(marks.tricks.length > 0
        ? [
            button("Previous trick", () => go(before(index, marks.tricks)), {
              disabled: before(index, marks.tricks) === undefined,
            }),
            button("Next trick", () => go(after(index, marks.tricks)), {
              disabled: after(index, marks.tricks) === undefined,
            }),
          ]
        : []),
      ...(part
        ? [
            button(`Previous ${part.word}`, () => go(before(index, part.starts)), {
              disabled: before(index, part.starts) === undefined,
            }),
            button(`Next ${part.word}`, () => go(after(index, part.starts)), {
              disabled: after(index, part.starts) === undefined,
            }),
          ]
        : []),
    );
    jumps.hidden = jumps.childElementCount === 0;
    // The slider runs over the steps shown; a step skipped (a single dealt card, while hidden) sits at the next one.
    const position = shown.findIndex((step) => step >= index);
    slider.max = String(shown.length - 1);
    slider.value = String(position === -1 ? shown.length - 1 : position);
    slider.setAttribute("aria-valuetext", `step ${index} of ${last}${where(index)}`);
    draw(
      said,
      ...(step.words.length === 0 ? ["The start: the cards as dealt"] : step.words).map((words) =>
        h("li", { text: words }),
      ),
    );
    draw(region, ...step.table);
    review?.showStep(index);
  }

  /** Where a step is: its round (or game) when the replay has several, and its trick. */
  function where(at: number): string {
    const part = marks.parts;
    const partNumber = part ? part.starts.filter((start) => start <= at).length : 0;
    const partStart = part ? (lastOf(part.starts.filter((start) => start <= at)) ?? 0) : 0;
    const tricks = marks.tricks.filter((end) => end > partStart && end < at).length;
    const words = [
      part && partNumber > 0 ? `${part.word} ${partNumber}` : "",
      marks.tricks.length > 0 ? `trick ${tricks + 1}` : "",
    ].filter(Boolean);
    return words.length > 0 ? ` (${words.join(", ")})` : "";
  }

  const onKey = (event: KeyboardEvent) => {
    if (
      event.altKey ||
      event.ctrlKey ||
      event.metaKey ||
      (event.target as HTMLElement).closest("input, textarea, select")
    )
      return;
    const keys: Record<string, number | undefined> = {
      ArrowLeft: before(index, shown),
      ArrowRight: after(index, shown),
      Home: 0,
      End: last,
    };
    if (!(event.key in keys)) return;
    event.preventDefault();
    go(keys[event.key]);
  };
  document.addEventListener("keydown", onKey);

  root.append(
    h("h1", { text: `Replay of ${title} ${replay.id}` }),
    h("p", {
      text: `${partWords(record)} · ${record.seats.map((seat) => holderWords(seat.kind, seat.name)).join(", ")}`,
    }),
    dealCheck(replay.deal),
    controls,
    h("label", { class: "step-line" }, h("span", { text: "Step" }), slider),
    jumps,
    dealtBox ?? "",
    said,
    review?.element ?? "",
    region,
  );
  redraw();
  return () => {
    pause();
    document.removeEventListener("keydown", onKey);
  };
}

/**
 * The deal's check, made here in the browser (Web Crypto's SHA-256, not the server's word): the seed the deal was
 * replayed from and the salt revealed at its end must hash to the commitment published when it started.
 */
function dealCheck(deal: ReplayedDeal | null): HTMLElement {
  const line = h("p", { class: "deal-check", role: "status" });
  const commitment = deal?.commitment;
  if (deal === null || commitment === undefined) {
    line.textContent =
      "No commitment recorded for this deal (a game recorded before deals were sealed, or a deal given as cards).";
    return line;
  }
  line.textContent = `Deal sealed: ${commitment}. Checking…`;
  const salt = deal.salt ?? "";
  void revealMatches(commitment, deal.seed, salt).then(
    (matches) => {
      line.classList.add(matches ? "verified" : "mismatch");
      line.textContent = matches
        ? `Deal verified: its seed ${deal.seed} and the salt ${salt} revealed at its end hash to the commitment ${commitment} published when it started, and the deal follows from the seed.`
        : `The deal does not match its commitment: the seed ${deal.seed} and the salt "${salt}" do not hash to ${commitment}.`;
    },
    () =>
      (line.textContent = `Deal sealed: ${commitment}. This browser cannot compute SHA-256 here (it needs a secure page: https or localhost).`),
  );
  return line;
}

const lastOf = (steps: readonly number[]): number | undefined => steps[steps.length - 1];

function partWords(record: GameRecord): string {
  if (record.part === "round") return `Match ${record.match}, round ${record.round ?? "?"} (from the match's start)`;
  return record.part === "match" ? `Match ${record.match}` : `Game ${record.match}`;
}
