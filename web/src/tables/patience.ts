/**
 * Shuffling Patience: the 4×4 grid of piles moving live, the step count and the deal's end in words (finished,
 * with the piles left, or overflowed, with the card that found no place); the owner's Pause, Resume, Step, pace
 * and Deal again controls. Nothing in a Patience room is hidden, so a spectator sees it all.
 */
import type {
  CardhallClient,
  GameRecord,
  PatienceOwner,
  PatienceSpectator,
  PatienceStateView,
  ReplayFrame,
} from "../../../client-sdk/index";
import type { PatienceEngineEvent } from "../../../rooms/patience/match";
import {
  PATIENCE_MAX_PACE_MS,
  type PatiencePositionView,
  type PatienceTableView,
} from "../../../rooms/patience/protocol";
import { mergeViews } from "../../../rooms/kit/views";
import { sealOfRecord } from "../../../rooms/kit/commitment";
import { cardView } from "../cards";
import { endedInWords, inWords, queryOptions, rejoinOr } from "../connection";
import { button, draw, h, logLine } from "../dom";
import { closeEnding, showEnding } from "../ending";
import { guardSeat } from "../leaving";
import { joinName } from "../name";
import { Requests } from "../requests";
import { replaceLocation } from "../router";
import { news, notice, say } from "../seats";
import { stepWords } from "../steps";
import { tableHeader } from "../table-header";
import type { TableMode, TableModule, Teardown } from "../table";
import { timed } from "../timings";
import "./patience.css";

const ROOM_OPTIONS = ["seed", "paused", "paceMs", "reconnectSeconds", "name"] as const;
const PILES = 16;

/** What the owner's page may send, one message per control at a time. */
interface Controls {
  owner: PatienceOwner;
  send(control: string, action: () => Promise<unknown>): () => void;
  pending(control: string): boolean;
  live: boolean;
}

interface PaceDraft {
  typed: number | undefined;
}

function pileGrid(view: PatienceStateView, label = "Piles"): HTMLElement {
  const moved = new Set(view.cover.piles);
  return h(
    "div",
    { class: "grid", role: "group", label },
    ...view.tops.map((top, index) =>
      h(
        "div",
        {
          class: `pile${moved.has(index) && view.phase !== "over" ? " moved" : ""}`,
          role: "group",
          label: `Pile ${index + 1}: ${view.counts[index]} card${view.counts[index] === 1 ? "" : "s"}`,
        },
        top ? cardView(top) : h("span", { class: "placeholder", text: "—" }),
        h("div", { class: "pile-count", text: String(view.counts[index]) }),
      ),
    ),
  );
}

/** The deal's end in words: a title and what it means, with the piles left. */
export function dealEnd(view: PatienceStateView): { title: string; words: string[] } {
  const outcome = view.outcome;
  const sizes = outcome.pileSizes.filter((size) => size > 0);
  if (outcome.kind === "finished") {
    return {
      title: `Finished: all ${view.deckSize} cards dealt`,
      words: [
        `Every card found a place within the 4 × 4 grid, covering pairs that add to 11 and Jack–Queen–King triples on the way.`,
        `${sizes.length} pile${sizes.length === 1 ? " is" : "s are"} left, holding ${listWords(sizes)} card${sizes.length === 1 && sizes[0] === 1 ? "" : "s"}, in grid order.`,
      ],
    };
  }
  const used = view.counts.filter((count) => count > 0).length;
  return {
    title: `Overflowed at card ${outcome.overflowCard}`,
    words: [
      `Card ${outcome.overflowCard} of ${view.deckSize} had nowhere to go: all ${used === PILES ? PILES : used} piles were in use and no pair or triple could be covered, so the deal stops there.`,
    ],
  };
}

function listWords(numbers: number[]): string {
  if (numbers.length <= 1) return numbers.join("");
  return `${numbers.slice(0, -1).join(", ")} and ${numbers.at(-1)}`;
}

/** The table drawn from a view: the one drawing of Patience's table, live or replayed. */
function drawTable(
  view: PatienceStateView,
  mode: TableMode,
  controls: Controls | null = null,
  pace: PaceDraft = { typed: undefined },
  mine = false,
): Node[] {
  const over = view.phase === "over";
  const paused = view.phase === "paused";
  const off = (control: string) => controls === null || !controls.live || controls.pending(control);
  const bar = controls
    ? h(
        "div",
        { class: "controls action-bar", role: "group", label: "Owner's controls" },
        paused
          ? button(
              "Resume",
              controls.send("resume", () => controls.owner.resume()),
              { disabled: over || off("resume") },
            )
          : button(
              "Pause",
              controls.send("pause", () => controls.owner.pause()),
              { disabled: over || off("pause") },
            ),
        button(
          "Step",
          controls.send("step", () => controls.owner.step()),
          { disabled: !paused || off("step") },
        ),
        h(
          "label",
          {},
          "Pace (ms) ",
          h("input", {
            type: "number",
            value: String(pace.typed ?? view.paceMs),
            key: "pace",
            attrs: { min: "0", max: String(PATIENCE_MAX_PACE_MS), step: "50" },
            onInput: (event) => (pace.typed = Number((event.target as HTMLInputElement).value)),
          }),
        ),
        button(
          "Set pace",
          controls.send("setPace", async () => {
            const wanted = pace.typed ?? view.paceMs;
            // Said before it is sent, in the page's words (the room's would name its field).
            if (!Number.isInteger(wanted) || wanted < 0 || wanted > PATIENCE_MAX_PACE_MS)
              throw new Error(
                `the pace is a whole number of milliseconds from 0 to ${PATIENCE_MAX_PACE_MS.toLocaleString("en")}`,
              );
            await controls.owner.setPace(wanted);
            pace.typed = undefined;
          }),
          { disabled: off("setPace") },
        ),
        button(
          "Deal again",
          controls.send("restart", () => controls.owner.restart()),
          { disabled: !over || off("restart") },
        ),
      )
    : null;
  const owner = mine ? "You" : view.ownerName || "nobody";
  // A replay has no pace or owner to speak of: its steps go at the replay page's pace.
  const live =
    mode === "replay"
      ? ""
      : ` · pace ${view.paceMs} ms · owner: ${owner}${view.owner && !view.ownerConnected ? " (away)" : ""}`;
  const end = over ? dealEnd(view) : null;
  return [
    h("p", {
      class: "status",
      text: `Deal ${view.deal} · ${view.phase} · step ${view.steps} · ${view.dealt} of ${view.deckSize} cards dealt${live}`,
    }),
    pileGrid(view),
    end
      ? h(
          "section",
          { class: "verdict", role: "status", label: "Deal over" },
          h("h2", { text: end.title }),
          ...end.words.map((text) => h("p", { text })),
          h(
            "p",
            { class: "final-words" },
            "As the original program prints it: ",
            h("code", { class: "final-line", text: view.outcome.line.trim() }),
          ),
          view.revealedSeed ? h("p", { text: `Seed ${view.revealedSeed}` }) : null,
        )
      : null,
    bar,
  ].filter((node): node is HTMLElement => node !== null);
}

function tablePage(session: PatienceSpectator, root: HTMLElement, owner: PatienceOwner | null): Teardown {
  const region = h("div", { class: "table patience" });
  const log = h("ul", { class: "log", label: "Steps" });
  const refusals = notice();
  const header = tableHeader(owner ? "Patience" : "Watching Patience", "patience");
  root.append(header.element, refusals, news(), region, h("h2", { text: "Steps" }), log);
  let view: PatienceStateView | undefined;
  let live = owner !== null;
  // The pace being typed outlives the redraws the running deal makes until it is set.
  const pace: PaceDraft = { typed: undefined };
  const isOwner = () => owner !== null && session.isOwner();
  const render = timed(
    () =>
      view &&
      draw(
        region,
        ...drawTable(view, owner ? "play" : "watch", controls && isOwner() ? controls : null, pace, isOwner()),
      ),
  );
  const requests = new Requests(refusals, () => render());
  const controls: Controls | null = owner && {
    owner,
    send: (control, action) => () => void requests.send(control, action),
    pending: (control) => requests.pending(control),
    live: true,
  };
  const stop = session.onView((next) => {
    const before = view;
    view = next;
    header.update({ rules: `Pace ${next.paceMs} ms a step`, spectators: next.spectators, seal: next.seal });
    if (next.phase !== "over" && before?.phase === "over") closeEnding();
    if (next.phase === "over" && isOwner()) {
      const end = dealEnd(next);
      showEnding({
        key: `patience:${session.roomId}:${next.deal}`,
        title: end.title,
        body: [...end.words.map((text) => h("p", { text })), pileGrid(next, "Piles at the end")],
        playAgain: live
          ? () =>
              requests
                .send("restart", () => owner!.restart())
                .then((accepted) => {
                  if (!accepted) throw new Error(refusals.textContent || "the deal did not start again");
                })
          : undefined,
        playAgainText: "Deal again",
      });
    }
    render();
  });
  session.on("move", (event) => logLine(log, moveWords(event)));
  session.on("dealOver", (event) => logLine(log, dealOverWords(event.deal, event)));
  session.onError((error) => say(refusals, inWords(error)));
  session.onLeave(() => {
    live = false;
    if (controls) controls.live = false;
    say(refusals, endedInWords(session.ended));
    render();
  });
  const unguard = owner
    ? guardSeat(() =>
        live && isOwner() && view !== undefined && view.phase !== "over"
          ? "Leave this deal? It goes on without you: come back soon (Forward, or this table's address) to take it back."
          : null,
      )
    : () => undefined;
  return () => {
    stop();
    unguard();
    void (owner ? session.leave({ keepSeat: true }) : session.leave());
  };
}

/** A replay frame as the live table's view (a Patience view is the same for everyone) with the record's owner. */
function viewOfFrame(frame: ReplayFrame, record: GameRecord): PatienceStateView {
  const table: PatienceTableView = {
    deal: record.match,
    paceMs: 0,
    owner: "",
    ownerName: record.seats[0]?.name ?? "",
    ownerConnected: false,
    spectators: 0,
  };
  return mergeViews(frame.table as PatiencePositionView, { ...table, seal: sealOfRecord(record) });
}

function moveWords(move: { step: number; description: string }): string {
  return `${move.step}. ${move.description}`;
}

function dealOverWords(deal: number, over: { steps: number; line: string }): string {
  const overflow = /Overflowed on card no (\d+)/.exec(over.line);
  return `Deal ${deal} over after ${over.steps} steps: ${
    overflow
      ? `overflowed at card ${overflow[1]}`
      : `finished, piles ${over.line
          .replace(/^\s*\d+:/, "")
          .trim()
          .split(/\s+/)
          .join(", ")}`
  }`;
}

export const patienceTable: TableModule = {
  async watch(client: CardhallClient, roomId: string, root: HTMLElement) {
    return tablePage(await client.spectatePatience(roomId), root, null);
  },

  async play(client: CardhallClient, roomId: string | undefined, root: HTMLElement) {
    const session = await rejoinOr(
      roomId,
      (token) => client.reconnectPatience(token),
      () => client.createPatience({ name: joinName("Guest"), ...queryOptions(ROOM_OPTIONS) }),
    );
    replaceLocation(`/play/patience?room=${session.roomId}`);
    return tablePage(session, root, session);
  },

  replayStep(frame, record) {
    return {
      table: drawTable(viewOfFrame(frame, record), "replay"),
      words: stepWords(
        frame,
        record,
        () => "made a step",
        frame.events.map((event) => {
          const happened = event as PatienceEngineEvent;
          return happened.name === "move" ? moveWords(happened.payload) : dealOverWords(record.match, happened.payload);
        }),
      ),
    };
  },
};
