/**
 * Fool: the face-up card, the person's own hand face up and the other's as backs, the deck, every move and its
 * effects in words as they happen (the computer's at the room's pace), the turn clock. A person plays against the
 * computer or a friend (the link this page shows); anyone may watch. At the end a dialog names the Fool and shows
 * both hands.
 */
import {
  ownSeat,
  type CardhallClient,
  type FoolMove,
  type FoolPlayer,
  type FoolSpectator,
  type FoolStateView,
} from "../../../client-sdk/index";
import type { FoolEngineEvent } from "../../../rooms/fool/match";
import { endedInWords, inWords, queryOptions, rejoinOr } from "../connection";
import { button, draw, h, logLine } from "../dom";
import { closeEnding } from "../ending";
import { guardSeat } from "../leaving";
import { joinName } from "../name";
import { Requests } from "../requests";
import { navigate, replaceLocation } from "../router";
import { news, notice, say } from "../seats";
import { play } from "../sound";
import { stepWords } from "../steps";
import { tableHeader } from "../table-header";
import type { TableModule, Teardown } from "../table";
import { timed } from "../timings";
import { drawTable, type Actions, type Choosing } from "./fool-draw";
import { foolEnding } from "./fool-ending";
import { engineEventWords, viewOfFrame } from "./fool-replay";
import {
  describeEvent,
  describeMove,
  describeOver,
  describeStart,
  modeWords,
  moveText,
  namer,
  plainNamer,
  seatName,
} from "./fool-words";
import "./fool.css";

const ROOM_OPTIONS = [
  "mode",
  "seed",
  "ai",
  "aiLevel",
  "aiDelayMs",
  "turnTimeMs",
  "reconnectSeconds",
  "nextGameDelayMs",
  "maxMoves",
  "name",
] as const;

function tablePage(session: FoolSpectator, root: HTMLElement, player: FoolPlayer | null): Teardown {
  const region = h("div", { class: "table fool" });
  const log = h("ul", { class: "log", label: "Moves" });
  const refusals = notice();
  const newsLine = news();
  const header = tableHeader(player ? "Fool" : "Watching Fool", "fool");
  let choosing: Choosing | null = null;
  let view: FoolStateView | undefined;
  let live = true;
  root.append(header.element, refusals, newsLine, region, h("h2", { text: "Moves" }), log);
  const render = timed(
    () => view && draw(region, ...drawTable(view, player ? "play" : "watch", actions, choosing, choose)),
  );
  const requests = new Requests(refusals, () => render());
  const newGame = () => requests.send("newGame", () => player!.newGame());
  const actions: Actions | null = player && {
    move: (move) => {
      say(newsLine, "");
      choosing = null;
      void requests.send("move", () => player.move(move));
    },
    newGame: () => void newGame(),
    pending: () => requests.pending(),
    live: true,
  };
  // A card that may be laid several ways (a joker, a Queen) opens its choices; the keyboard goes to the first.
  const choose = (next: Choosing | null) => {
    choosing = next;
    render();
    region.querySelector<HTMLElement>(".choices button:not([disabled])")?.focus();
  };
  const mine = () => (view && player ? ownSeat(view) : null);
  const stop = session.onView((next) => {
    const before = view;
    if (next.moveCount !== before?.moveCount || next.game !== before?.game) choosing = null;
    view = next;
    header.update({ rules: modeWords(next.mode), spectators: next.spectators, seal: next.seal });
    const seat = mine();
    if (next.phase === "playing" && before?.phase === "over") closeEnding();
    if (next.phase === "playing" && next.turn === seat && (before?.turn !== seat || before?.phase !== "playing"))
      play("turn");
    if (next.phase === "over" && seat !== null && player) {
      foolEnding(
        next,
        seat,
        session.roomId,
        live
          ? () =>
              newGame().then((accepted) => {
                if (!accepted) throw new Error(refusals.textContent || "the room did not start a new game");
              })
          : undefined,
      );
    }
    render();
  });
  const name = namer(() => view, null);
  const named = () => namer(() => view, mine());
  session.on("start", (event) => logLine(log, describeStart(event, event.game, named())));
  session.on("move", (event) => {
    logLine(log, describeMove(event, named()));
    if (event.seat !== mine() || !player) play("card");
    if (event.by === "clock" && event.seat === mine())
      say(
        newsLine,
        `The clock played for you: ${event.events.map((inner) => describeEvent(inner, named())).join("; ")}.`,
      );
  });
  session.on("over", (event) => logLine(log, describeOver(event, event.game, player ? named() : name)));
  session.onError((error) => say(refusals, inWords(error)));
  session.onLeave(() => {
    live = false;
    if (actions) actions.live = false;
    choosing = null;
    say(refusals, endedInWords(session.ended));
    render();
  });
  const unguard = player
    ? guardSeat(() =>
        live && view?.phase === "playing"
          ? "Leave your seat? The game goes on: come back soon (Forward, or this table's address) to take your seat back."
          : null,
      )
    : () => undefined;
  return () => {
    stop();
    unguard();
    void (player ? session.leave({ keepSeat: true }) : session.leave());
  };
}

/**
 * A table from the rated queue (docs/arena.md: logged-in people and bots only, paired by rating): the page says it
 * is waiting and how many are in its group until the queue seats it; Cancel leaves the queue for the lobby.
 */
async function ratedTable(client: CardhallClient, root: HTMLElement): Promise<FoolPlayer> {
  const waiting = new AbortController();
  const group = h("p", {
    class: "status",
    role: "status",
    text: "Waiting in the rated queue for an opponent near your rating…",
  });
  root.replaceChildren(
    h("h1", { text: "Fool, rated" }),
    group,
    button("Cancel", () => {
      waiting.abort();
      navigate("/");
    }),
  );
  return client.playRatedFool({
    signal: waiting.signal,
    onWaiting: (players) =>
      (group.textContent = `Waiting in the rated queue: ${players} player${players === 1 ? "" : "s"} in your group so far…`),
  });
}

export const foolTable: TableModule = {
  async watch(client: CardhallClient, roomId: string, root: HTMLElement) {
    return tablePage(await client.spectateFool(roomId), root, null);
  },

  async play(client: CardhallClient, roomId: string | undefined, root: HTMLElement) {
    const options = queryOptions(ROOM_OPTIONS) as { mode?: "vs-ai" | "two-players" };
    const rated = roomId === undefined && new URLSearchParams(location.search).get("rated") === "true";
    // Each person joins under their chosen name: the friend who opens the link too.
    const fresh = () =>
      roomId
        ? client.joinFool(roomId, { name: joinName("Guest") })
        : rated
          ? ratedTable(client, root)
          : client.playFool({ name: joinName("Guest"), ...options });
    const session = await rejoinOr(roomId, (token) => client.reconnectFool(token), fresh);
    root.replaceChildren();
    replaceLocation(`/play/fool?room=${session.roomId}`);
    const close = tablePage(session, root, session);
    if (session.view()?.mode === "two-players" || options.mode === "two-players") {
      // Above the table, where the person waiting for a friend looks.
      root.querySelector(".table")?.before(
        h("p", {
          class: "share",
          text: `A friend joins with this link: ${location.origin}/play/fool?room=${session.roomId}`,
        }),
      );
    }
    return close;
  },

  replayStep(frame, record) {
    const view = viewOfFrame(frame, record);
    const name = plainNamer((seat: number) => seatName(view, seat));
    return {
      table: drawTable(view, "replay"),
      words: stepWords(
        frame,
        record,
        (move: FoolMove) => `chose: ${moveText(move)}`,
        frame.events.map((event) => engineEventWords(event as FoolEngineEvent, record.match, name)),
      ),
    };
  },
};
