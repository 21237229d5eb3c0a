/**
 * Even-Steven: the dealer's card to cover, the player's hand, each cover so far, the verdict and the seed at the
 * end. A person plays against the dealer; anyone may watch (no hand is shown to a spectator: the room sends none).
 */
import type { CardhallClient, EvenStevenSpectator, EvenStevenStateView } from "../../../client-sdk/index";
import { cardButton, cardRow, cardView } from "../cards";
import { inWords, queryOptions, rejoinOr } from "../connection";
import { button, draw, h } from "../dom";
import { replaceLocation } from "../router";
import { notice, say, turnClock } from "../seats";
import type { TableModule, Teardown } from "../table";
import { timed } from "../timings";

const ROOM_OPTIONS = ["n", "seed", "cardTimeLimitMs", "reconnectSeconds", "name"] as const;

function tablePage(session: EvenStevenSpectator, root: HTMLElement, player: boolean, act: { play(card: string): void; newGame(): void }): Teardown {
  const region = h("div", { class: "table evensteven" });
  const refusals = notice();
  root.append(h("h1", { text: player ? "Even-Steven" : "Watching Even-Steven" }), refusals, region);
  const render = timed((view: EvenStevenStateView) => draw(region, ...body(view, player, act)));
  const stop = session.onView(render);
  session.onError((error) => say(refusals, inWords(error)));
  session.onLeave(() => say(refusals, `The table closed: ${session.ended?.message ?? "left"}`));
  return () => {
    stop();
    void session.leave();
  };
}

function body(view: EvenStevenStateView, player: boolean, act: { play(card: string): void; newGame(): void }): Node[] {
  const toCover = view.phase === "playing" && view.toCover !== "" ? view.toCover : "";
  const hand = view.player?.hand ?? [];
  const covers = view.dealt.map((dealt, index) => {
    const played = view.played[index];
    return h("li", { class: "cover" }, cardView(dealt, "small"), h("span", { text: played === undefined ? " …" : " ← " }), played === undefined ? null : cardView(played, "small"));
  });
  const score = view.score;
  return [
    h("p", { class: "status", text: `Game ${view.game} · ${view.phase === "over" ? "over" : view.phase === "playing" ? `card ${view.dealt.length} of ${view.handSize}` : "waiting"} · ${view.player ? `player: ${view.player.name || "someone"}${view.player.connected ? "" : " (away)"}` : "no player"}` }),
    h("section", { class: "to-cover", label: "Card to cover" }, h("h2", { text: "To cover" }), toCover ? cardView(toCover, "large") : h("span", { class: "placeholder", text: "—" })),
    turnClock(toCover ? view.deadline : 0, player ? "Your time" : "Player's time"),
    h("section", { class: "hand", label: "Your hand" }, h("h2", { text: player ? "Your hand" : `Hand: ${view.cardsInHand} cards` }),
      ...(player ? hand.map((card) => cardButton(card, { enabled: toCover !== "", onClick: () => act.play(card), key: `card:${card}` })) : [])),
    h("section", { class: "covers", label: "Covers" }, h("h2", { text: "Covers" }), h("ol", {}, ...covers)),
    view.phase === "over" ? h("section", { class: "verdict", role: "status", label: "Verdict" }, h("h2", { text: `Verdict: ${view.outcome}` }), h("p", { text: `Seed ${view.revealedSeed}` }), cardRow(view.dealt, "Dealt")) : null,
    h("p", { class: "score", text: `Games ${score.games} · won ${score.wins} · lost necessarily ${score.necessaryLosses} · lost unnecessarily ${score.unnecessaryLosses} · timed out ${score.timeOuts}` }),
    player ? button("New game", act.newGame, { disabled: view.phase !== "over" }) : null,
  ].filter((node): node is HTMLElement => node !== null);
}

export const evenStevenTable: TableModule = {
  async watch(client: CardhallClient, roomId: string, root: HTMLElement) {
    const session = await client.spectateEvenSteven(roomId);
    return tablePage(session, root, false, { play: () => undefined, newGame: () => undefined });
  },

  async play(client: CardhallClient, roomId: string | undefined, root: HTMLElement) {
    const session = await rejoinOr(roomId, (token) => client.reconnectEvenSteven(token), () => client.playEvenSteven({ name: "You", ...queryOptions(ROOM_OPTIONS) }));
    replaceLocation(`/play/evensteven?room=${session.roomId}`);
    const refuse = (error: unknown) => say(root.querySelector<HTMLElement>(".notice")!, inWords(error));
    return tablePage(session, root, true, {
      play: (card) => void session.play(card).catch(refuse),
      newGame: () => void session.newGame().catch(refuse),
    });
  },
};
