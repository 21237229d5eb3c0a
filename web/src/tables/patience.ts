/**
 * Shuffling Patience: the 4×4 grid of piles moving live, the step count and the final line; the owner's Pause,
 * Resume, Step, pace and Deal again controls. Nothing in a Patience room is hidden, so a spectator sees it all.
 */
import type { CardhallClient, GameRecord, PatienceOwner, PatienceSpectator, PatienceStateView, ReplayFrame } from "../../../client-sdk/index";
import type { PatienceEngineEvent } from "../../../rooms/patience/match";
import type { PatiencePositionView, PatienceTableView } from "../../../rooms/patience/protocol";
import { mergeViews } from "../../../rooms/kit/views";
import { cardView } from "../cards";
import { inWords, queryOptions, rejoinOr } from "../connection";
import { button, draw, h, logLine } from "../dom";
import { replaceLocation } from "../router";
import { notice, say } from "../seats";
import { stepWords } from "../steps";
import type { TableMode, TableModule, Teardown } from "../table";
import { timed } from "../timings";

const ROOM_OPTIONS = ["seed", "paused", "paceMs", "reconnectSeconds", "name"] as const;

function tablePage(session: PatienceSpectator, root: HTMLElement, owner: PatienceOwner | null): Teardown {
  const region = h("div", { class: "table patience" });
  const log = h("ul", { class: "log", label: "Steps" });
  const refusals = notice();
  root.append(h("h1", { text: owner ? "Patience" : "Watching Patience" }), refusals, region, h("h2", { text: "Steps" }), log);
  const act = (action: () => Promise<void>) => () => void action().then(() => say(refusals, ""), (error: unknown) => say(refusals, inWords(error)));
  // The pace being typed outlives the redraws the running deal makes until it is set.
  const pace: PaceDraft = { typed: undefined };
  const render = timed((view: PatienceStateView) => draw(region, ...drawTable(view, owner ? "play" : "watch", owner && session.isOwner() ? owner : null, act, pace)));
  const stop = session.onView(render);
  session.on("move", (event) => logLine(log, moveWords(event)));
  session.on("dealOver", (event) => logLine(log, dealOverWords(event.deal, event)));
  session.onError((error) => say(refusals, inWords(error)));
  session.onLeave(() => say(refusals, `The table closed: ${session.ended?.message ?? "left"}`));
  return () => {
    stop();
    void session.leave();
  };
}

interface PaceDraft {
  typed: number | undefined;
}

/** The table drawn from a view: the one drawing of Patience's table, live or replayed. */
function drawTable(view: PatienceStateView, mode: TableMode, owner: PatienceOwner | null = null, act: (action: () => Promise<void>) => () => void = (action) => action, pace: PaceDraft = { typed: undefined }): Node[] {
  const moved = new Set(view.cover.piles);
  const piles = view.piles.map((pile, index) =>
    h("div", { class: `pile${moved.has(index) ? " moved" : ""}`, role: "group", label: `Pile ${index + 1}: ${pile.count} card${pile.count === 1 ? "" : "s"}` },
      pile.top ? cardView(pile.top) : h("span", { class: "placeholder", text: "—" }),
      h("div", { class: "pile-count", text: String(pile.count) })),
  );
  const over = view.phase === "over";
  const paused = view.phase === "paused";
  const controls = owner
    ? h("div", { class: "controls", role: "group", label: "Owner's controls" },
        paused ? button("Resume", act(() => owner.resume()), { disabled: over }) : button("Pause", act(() => owner.pause()), { disabled: over }),
        button("Step", act(() => owner.step()), { disabled: !paused }),
        h("label", {}, "Pace (ms) ", h("input", { type: "number", value: String(pace.typed ?? view.paceMs), key: "pace", attrs: { min: "0", max: "10000", step: "50" }, onInput: (event) => (pace.typed = Number((event.target as HTMLInputElement).value)) })),
        button("Set pace", act(async () => {
          await owner.setPace(pace.typed ?? view.paceMs);
          pace.typed = undefined;
        })),
        button("Deal again", act(() => owner.restart()), { disabled: !over }))
    : null;
  // A replay has no pace or owner to speak of: its steps go at the replay page's pace.
  const live = mode === "replay" ? "" : ` · pace ${view.paceMs} ms · owner: ${view.ownerName || "none"}${view.owner && !view.ownerConnected ? " (away)" : ""}`;
  return [
    h("p", { class: "status", text: `Deal ${view.deal} · ${view.phase} · step ${view.steps} · ${view.dealt} of ${view.deckSize} cards dealt${live}` }),
    h("div", { class: "grid", role: "group", label: "Piles" }, ...piles),
    controls,
    over ? h("section", { class: "verdict", role: "status", label: "Deal over" }, h("h2", { text: view.outcome.kind === "finished" ? "Finished" : `Overflowed at card ${view.outcome.overflowCard}` }), h("pre", { class: "final-line", text: view.outcome.line }), view.revealedSeed ? h("p", { text: `Seed ${view.revealedSeed}` }) : null) : null,
  ].filter((node): node is HTMLElement => node !== null);
}

/** A replay frame as the live table's view (a Patience view is the same for everyone) with the record's owner. */
function viewOfFrame(frame: ReplayFrame, record: GameRecord): PatienceStateView {
  const table: PatienceTableView = { deal: record.match, paceMs: 0, owner: "", ownerName: record.seats[0]?.name ?? "", ownerConnected: false, spectators: 0 };
  return mergeViews(frame.table as PatiencePositionView, table);
}

function moveWords(move: { step: number; description: string }): string {
  return `${move.step}. ${move.description}`;
}

function dealOverWords(deal: number, over: { steps: number; line: string }): string {
  return `Deal ${deal} over after ${over.steps} steps: ${over.line.trim()}`;
}

export const patienceTable: TableModule = {
  async watch(client: CardhallClient, roomId: string, root: HTMLElement) {
    return tablePage(await client.spectatePatience(roomId), root, null);
  },

  async play(client: CardhallClient, roomId: string | undefined, root: HTMLElement) {
    const session = await rejoinOr(roomId, (token) => client.reconnectPatience(token), () => client.createPatience({ name: "You", ...queryOptions(ROOM_OPTIONS) }));
    replaceLocation(`/play/patience?room=${session.roomId}`);
    return tablePage(session, root, session);
  },

  replayStep(frame, record) {
    return {
      table: drawTable(viewOfFrame(frame, record), "replay"),
      words: stepWords(frame, record, () => "made a step", frame.events.map((event) => {
        const happened = event as PatienceEngineEvent;
        return happened.name === "move" ? moveWords(happened.payload) : dealOverWords(record.match, happened.payload);
      })),
    };
  },
};
