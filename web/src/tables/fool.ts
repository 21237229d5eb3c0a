/**
 * Fool: the face-up card, the person's own hand face up and the other's as backs, the deck, every move and its
 * effects in words as they happen (the AI's at the room's pace), the turn clock. A person plays against the AI or
 * a friend (the link this page shows); anyone may watch.
 */
import { foolViewOf, ownSeat, type CardhallClient, type FoolMove, type FoolMoveEvent, type FoolOverEvent, type FoolSpectator, type FoolStartEvent, type FoolStateView, type FoolEvent, type GameRecord, type ReplayFrame } from "../../../client-sdk/index";
import type { FoolEngineEvent } from "../../../rooms/fool/match";
import type { FoolPositionView, FoolTableView } from "../../../rooms/fool/protocol";
import { mergeViews, wholeTableView } from "../../../rooms/kit/views";
import { legalMovesInView } from "../../../rooms/fool/rules";
import { cardBacks, cardButton, cardName, cardRow, cardView, SUIT_WORDS, type SuitLetter } from "../cards";
import { inWords, queryOptions, rejoinOr } from "../connection";
import { button, draw, h, logLine } from "../dom";
import { replaceLocation } from "../router";
import { notice, say, seatView, turnClock, type Holder } from "../seats";
import { stepWords, type SeatNamer } from "../steps";
import type { TableMode, TableModule, Teardown } from "../table";
import { timed } from "../timings";

const ROOM_OPTIONS = ["mode", "seed", "ai", "aiDelayMs", "turnTimeMs", "reconnectSeconds", "nextGameDelayMs", "maxMoves", "name"] as const;

interface Actions {
  move(move: FoolMove): void;
  newGame(): void;
}

function tablePage(session: FoolSpectator, root: HTMLElement, actions: Actions | null): Teardown {
  const region = h("div", { class: "table fool" });
  const log = h("ul", { class: "log", label: "Moves" });
  const refusals = notice();
  let choosing: string | null = null;
  let view: FoolStateView | undefined;
  root.append(h("h1", { text: actions ? "Fool" : "Watching Fool" }), refusals, region, h("h2", { text: "Moves" }), log);
  const render = timed(() => view && draw(region, ...drawTable(view, actions ? "play" : "watch", actions, choosing, choose)));
  // A card that may be laid several ways (a joker, a Queen) opens its choices; the keyboard goes to the first.
  const choose = (card: string | null) => {
    choosing = choosing === card ? null : card;
    render();
    region.querySelector<HTMLElement>(".choices button")?.focus();
  };
  const stop = session.onView((next) => {
    if (next.moveCount !== view?.moveCount || next.game !== view?.game) choosing = null;
    view = next;
    render();
  });
  const name = (seat: number) => seatName(view, seat);
  session.on("start", (event) => logLine(log, describeStart(event, event.game, name)));
  session.on("move", (event) => logLine(log, describeMove(event, name)));
  session.on("over", (event) => logLine(log, describeOver(event, event.game, name)));
  session.onError((error) => say(refusals, inWords(error)));
  session.onLeave(() => say(refusals, `The table closed: ${session.ended?.message ?? "left"}`));
  return () => {
    stop();
    void session.leave();
  };
}

function seatName(view: FoolStateView | undefined, seat: number): string {
  return view?.seats[seat]?.name || `seat ${seat}`;
}


function describeStart(event: Pick<FoolStartEvent, "faceUpText" | "turn">, game: number, name: SeatNamer): string {
  return `Game ${game} dealt: ${event.faceUpText} face up, ${name(event.turn)} to move`;
}

function describeOver(event: Pick<FoolOverEvent, "outcome" | "moves" | "seed" | "fool">, game: number, name: SeatNamer): string {
  return event.outcome === "capped" ? `Game ${game} stopped after ${event.moves} moves, no Fool (seed ${event.seed})` : `Game ${game} over: ${name(event.fool ?? -1)} is the Fool (seed ${event.seed})`;
}

function describeEvent(event: FoolEvent, name: SeatNamer): string {
  const who = name(event.seat);
  switch (event.type) {
    case "played": {
      const { card, as, namedSuit } = event.faceUp;
      return `${who} laid ${cardName(card)}${card !== as ? ` as ${as}` : ""}${namedSuit ? `, naming ${SUIT_WORDS[namedSuit as SuitLetter]}` : ""}`;
    }
    case "drew":
      return `${who} drew ${event.count}`;
    case "penalised":
      return `${who} must draw ${event.drew} as a penalty`;
    case "passed":
      return `${who} passed`;
    case "won":
      return `${who} is out (place ${event.place})`;
    case "fool":
      return `${who} is the Fool`;
  }
}

function describeMove(event: Pick<FoolMoveEvent, "number" | "events"> & { by?: FoolMoveEvent["by"] }, name: SeatNamer): string {
  const by = event.by === "clock" ? " (time ran out: the AI moved)" : "";
  return `${event.number}. ${event.events.map((inner) => describeEvent(inner, name)).join("; ")}${by}`;
}

function moveText(move: FoolMove): string {
  if (move.kind !== "play") return move.kind === "draw" ? "Draw" : "Pass";
  return `Play ${move.card}${move.as && move.as !== move.card ? ` as ${move.as}` : ""}${move.namedSuit ? ` naming ${SUIT_WORDS[move.namedSuit as SuitLetter]}` : ""}`;
}

/** The table drawn from a view: the one drawing of Fool's table, live or replayed. */
function drawTable(view: FoolStateView, mode: TableMode, actions: Actions | null = null, choosing: string | null = null, choose: (card: string | null) => void = () => undefined): Node[] {
  // Only a player's own hand is theirs to play; a replay holds every hand, each shown face up.
  const mine = mode === "play" ? ownSeat(view) : null;
  const moves = mine !== null && view.phase === "playing" ? legalMovesInView(foolViewOf(view, mine)) : [];
  const playsOf = (card: string) => moves.filter((move) => move.kind === "play" && move.card === card);
  const seats = view.seats.map((seat, index) => {
    const hand = index === mine && seat.hand
      ? h("div", { class: "hand", label: "Your hand" }, ...seat.hand.map((card, at) => cardButton(card, {
          enabled: actions !== null && playsOf(card).length > 0,
          key: `card:${card}:${at}`,
          selected: choosing === card ? true : undefined,
          onClick: () => {
            const ways = playsOf(card);
            if (ways.length === 1) actions?.move(ways[0]);
            else choose(card);
          },
        })))
      : seat.hand
        ? cardRow(seat.hand, `${seat.name || `seat ${index}`}'s hand`)
        : cardBacks(seat.handCount, `${seat.name || `seat ${index}`}'s hand`);
    const holder: Holder = index === mine ? { kind: "you" } : seat.controller === "ai" ? { kind: "computer" } : seat.controller === "open" ? { kind: "open" } : { kind: "person", name: seat.name };
    return seatView({ name: seat.name || `Seat ${index}`, holder, connected: seat.connected || seat.controller !== "player", cards: seat.handCount, active: view.phase === "playing" && view.turn === index, extra: mode === "replay" ? undefined : `${seat.wins} won` }, [hand]);
  });
  const faceUp = view.faceUp.card
    ? h("div", { class: "face-up", label: "Face-up card" }, cardView(view.faceUp.card, "large"),
        h("span", { text: `${view.faceUp.as && view.faceUp.as !== view.faceUp.card ? ` as ${view.faceUp.as}` : ""}${view.faceUp.namedSuit ? ` naming ${SUIT_WORDS[view.faceUp.namedSuit as SuitLetter]}` : ""}` }))
    : h("div", { text: "No card face up yet" });
  const choices = choosing === null ? [] : playsOf(choosing);
  const canDraw = moves.some((move) => move.kind === "draw");
  const canPass = moves.some((move) => move.kind === "pass");
  const over = view.phase === "over";
  return [
    h("p", { class: "status", text: `Game ${view.game} · ${view.phase === "waiting" ? "waiting for the second player" : over ? "over" : `${seatName(view, view.turn)} to move`} · move ${view.moveCount}` }),
    mine === null ? seats[0] : seats[1 - mine],
    h("div", { class: "middle" }, faceUp, h("div", { text: `Deck: ${view.deckCount} cards` }), cardBacks(view.deckCount, "Deck")),
    mode === "replay" ? null : turnClock(view.phase === "playing" ? view.deadline : 0, view.turn === mine ? "Your time" : `${seatName(view, view.turn)}'s time`),
    mine === null ? seats[1] : seats[mine],
    choices.length > 0 ? h("div", { class: "choices", role: "group", label: `Ways to play ${choosing}` }, ...choices.map((move) => button(moveText(move), () => actions?.move(move), { key: `choice:${moveText(move)}` }))) : null,
    actions ? h("div", { class: "actions moves" }, button("Draw", () => actions.move({ kind: "draw" }), { disabled: !canDraw }), button("Pass", () => actions.move({ kind: "pass" }), { disabled: !canPass })) : null,
    over ? h("section", { class: "verdict", role: "status", label: "Game over" }, h("h2", { text: view.outcome === "capped" ? "Game over: no Fool (move limit)" : `Game over: ${seatName(view, view.fool)} is the Fool` }), h("p", { text: `Seed ${view.revealedSeed}` })) : null,
    actions && over ? button("New game", actions.newGame) : null,
  ].filter((node): node is HTMLElement => node !== null);
}

/** A replay frame as the live table's view: the whole table (both hands) with the record's seats. */
function viewOfFrame(frame: ReplayFrame, record: GameRecord): FoolStateView {
  const position = wholeTableView(frame.table as FoolPositionView, frame.seats as FoolPositionView[]);
  const ai = record.seats.some((seat) => seat.kind === "ai");
  const seats = position.seats.map((_, index) => ({ name: record.seats[index]?.name ?? "", controller: record.seats[index]?.kind === "ai" ? ("ai" as const) : ("player" as const), connected: true, wins: 0 }));
  const table: FoolTableView = { mode: ai ? "vs-ai" : "two-players", game: record.match, seats, deadline: 0, spectators: 0 };
  return mergeViews(position, table) as FoolStateView;
}

function engineEventWords(event: FoolEngineEvent, game: number, name: SeatNamer): string {
  switch (event.name) {
    case "start":
      return describeStart(event.payload, game, name);
    case "move":
      return describeMove(event.payload, name);
    case "over":
      return describeOver(event.payload, game, name);
  }
}

export const foolTable: TableModule = {
  async watch(client: CardhallClient, roomId: string, root: HTMLElement) {
    return tablePage(await client.spectateFool(roomId), root, null);
  },

  async play(client: CardhallClient, roomId: string | undefined, root: HTMLElement) {
    const options = queryOptions(ROOM_OPTIONS) as { mode?: "vs-ai" | "two-players" };
    const session = await rejoinOr(roomId, (token) => client.reconnectFool(token), () => (roomId ? client.joinFool(roomId, { name: "Friend" }) : client.playFool({ name: "You", ...options })));
    replaceLocation(`/play/fool?room=${session.roomId}`);
    const refuse = (error: unknown) => say(root.querySelector<HTMLElement>(".notice")!, inWords(error));
    const close = tablePage(session, root, { move: (move) => void session.move(move).catch(refuse), newGame: () => void session.newGame().catch(refuse) });
    if (session.view()?.mode === "two-players" || options.mode === "two-players") {
      root.append(h("p", { class: "share", text: `A friend joins with this link: ${location.origin}/play/fool?room=${session.roomId}` }));
    }
    return close;
  },

  replayStep(frame, record) {
    const view = viewOfFrame(frame, record);
    const name = (seat: number) => seatName(view, seat);
    return {
      table: drawTable(view, "replay"),
      words: stepWords(frame, record, (move: FoolMove) => `chose: ${moveText(move)}`, frame.events.map((event) => engineEventWords(event as FoolEngineEvent, record.match, name))),
    };
  },
};
