/**
 * Even-Steven: the dealer's card to cover, the player's hand, each cover so far, the verdict and the seed at the
 * end. A person plays against the dealer; anyone may watch (no hand is shown to a spectator: the room sends none);
 * a finished game's replay shows the hand too.
 */
import type { CardhallClient, EvenStevenSpectator, EvenStevenStateView, GameRecord, ReplayFrame } from "../../../client-sdk/index";
import type { EvenStevenAction, EvenStevenEngineEvent } from "../../../rooms/evensteven/match";
import type { EvenStevenPositionView, EvenStevenTableView } from "../../../rooms/evensteven/protocol";
import { mergeViews, wholeTableView } from "../../../rooms/kit/views";
import { cardButton, cardName, cardRow, cardView } from "../cards";
import { inWords, queryOptions, rejoinOr } from "../connection";
import { button, draw, h } from "../dom";
import { replaceLocation } from "../router";
import { notice, say, turnClock } from "../seats";
import { stepWords } from "../steps";
import type { TableMode, TableModule, Teardown } from "../table";
import { timed } from "../timings";

const ROOM_OPTIONS = ["n", "seed", "cardTimeLimitMs", "reconnectSeconds", "name"] as const;

interface Actions {
  play(card: string): void;
  newGame(): void;
}
const NO_ACTIONS: Actions = { play: () => undefined, newGame: () => undefined };

function tablePage(session: EvenStevenSpectator, root: HTMLElement, mode: TableMode, act: Actions): Teardown {
  const region = h("div", { class: "table evensteven" });
  const refusals = notice();
  root.append(h("h1", { text: mode === "play" ? "Even-Steven" : "Watching Even-Steven" }), refusals, region);
  const render = timed((view: EvenStevenStateView) => draw(region, ...drawTable(view, mode, act)));
  const stop = session.onView(render);
  session.onError((error) => say(refusals, inWords(error)));
  session.onLeave(() => say(refusals, `The table closed: ${session.ended?.message ?? "left"}`));
  return () => {
    stop();
    void session.leave();
  };
}

/** The table drawn from a view: the one drawing of Even-Steven's table, live or replayed. */
export function drawTable(view: EvenStevenStateView, mode: TableMode, act: Actions = NO_ACTIONS): Node[] {
  const toCover = view.phase === "playing" && view.toCover !== "" ? view.toCover : "";
  const hand = view.player?.hand ?? [];
  const covers = view.dealt.map((dealt, index) => {
    const played = view.played[index];
    return h("li", { class: "cover" }, cardView(dealt, "small"), h("span", { text: played === undefined ? " …" : " ← " }), played === undefined ? null : cardView(played, "small"));
  });
  const score = view.score;
  const cards = mode === "play" ? hand.map((card) => cardButton(card, { enabled: toCover !== "", onClick: () => act.play(card), key: `card:${card}` })) : hand.map((card) => cardView(card));
  return [
    h("p", { class: "status", text: `Game ${view.game} · ${view.phase === "over" ? "over" : view.phase === "playing" ? `card ${view.dealt.length} of ${view.handSize}` : "waiting"} · ${view.player ? `player: ${view.player.name || "someone"}${view.player.connected || mode === "replay" ? "" : " (away)"}` : "no player"}` }),
    h("section", { class: "to-cover", label: "Card to cover" }, h("h2", { text: "To cover" }), toCover ? cardView(toCover, "large") : h("span", { class: "placeholder", text: "—" })),
    mode === "replay" ? null : turnClock(toCover ? view.deadline : 0, mode === "play" ? "Your time" : "Player's time"),
    h("section", { class: "hand", label: mode === "play" ? "Your hand" : "Hand" }, h("h2", { text: mode === "play" ? "Your hand" : `Hand: ${view.cardsInHand} cards` }), ...cards),
    h("section", { class: "covers", label: "Covers" }, h("h2", { text: "Covers" }), h("ol", {}, ...covers)),
    view.phase === "over" ? h("section", { class: "verdict", role: "status", label: "Verdict" }, h("h2", { text: `Verdict: ${view.outcome}` }), h("p", { text: `Seed ${view.revealedSeed}` }), cardRow(view.dealt, "Dealt")) : null,
    mode === "replay" ? null : h("p", { class: "score", text: `Games ${score.games} · won ${score.wins} · lost necessarily ${score.necessaryLosses} · lost unnecessarily ${score.unnecessaryLosses} · timed out ${score.timeOuts}` }),
    mode === "play" ? button("New game", act.newGame, { disabled: view.phase !== "over" }) : null,
  ].filter((node): node is HTMLElement => node !== null);
}

/** A replay frame as the live table's view: the whole table (the hand shown) with the record's player. */
function viewOfFrame(frame: ReplayFrame, record: GameRecord): EvenStevenStateView {
  const position = wholeTableView(frame.table as EvenStevenPositionView, frame.seats as EvenStevenPositionView[]);
  const score = { games: 0, wins: 0, necessaryLosses: 0, unnecessaryLosses: 0, timeOuts: 0 };
  const table: EvenStevenTableView = { game: record.match, deadline: 0, score, player: { name: record.seats[0]?.name ?? "", connected: true }, spectators: 0 };
  return mergeViews(position, table) as EvenStevenStateView;
}

function eventWords(event: EvenStevenEngineEvent): string {
  switch (event.name) {
    case "hand":
      return `The player's hand: ${event.payload.cards.map(cardName).join("; ")}`;
    case "deal":
      return `Dealt card ${event.payload.index} to cover: ${cardName(event.payload.card)}`;
    case "played":
      return `${cardName(event.payload.card)} on ${cardName(event.payload.dealt)}: ${event.payload.covered ? "covered" : "not covered"}`;
    case "verdict":
      return `Verdict: ${event.payload.outcome} (seed ${event.payload.seed})`;
  }
}

function actionWords(action: EvenStevenAction): string {
  return action.type === "play" ? `played ${cardName(action.card)}` : "called time";
}

export const evenStevenTable: TableModule = {
  async watch(client: CardhallClient, roomId: string, root: HTMLElement) {
    const session = await client.spectateEvenSteven(roomId);
    return tablePage(session, root, "watch", NO_ACTIONS);
  },

  async play(client: CardhallClient, roomId: string | undefined, root: HTMLElement) {
    const session = await rejoinOr(roomId, (token) => client.reconnectEvenSteven(token), () => client.playEvenSteven({ name: "You", ...queryOptions(ROOM_OPTIONS) }));
    replaceLocation(`/play/evensteven?room=${session.roomId}`);
    const refuse = (error: unknown) => say(root.querySelector<HTMLElement>(".notice")!, inWords(error));
    return tablePage(session, root, "play", {
      play: (card) => void session.play(card).catch(refuse),
      newGame: () => void session.newGame().catch(refuse),
    });
  },

  replayStep(frame, record) {
    return {
      table: drawTable(viewOfFrame(frame, record), "replay"),
      words: stepWords(frame, record, actionWords, frame.events.map((event) => eventWords(event as EvenStevenEngineEvent))),
    };
  },
};
