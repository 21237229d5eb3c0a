/**
 * The one drawing of the Fool table, live or replayed: the seats (one's own hand to play, the other's as backs,
 * every hand at the end), the face-up card, the deck, the turn clock, the action bar with the ways to lay a joker
 * or a Queen, and the verdict once the game is over.
 */
import { foolViewOf, ownSeat, type FoolMove, type FoolStateView } from "../../../client-sdk/index";
import type { FoolSeatView } from "../../../rooms/fool/protocol";
import { legalMovesInView } from "../../../rooms/fool/rules";
import {
  cardBacks,
  cardButton,
  cardFace,
  cardRow,
  cardView,
  SUIT_SYMBOLS,
  SUIT_WORDS,
  type SuitLetter,
} from "../cards";
import { button, h } from "../dom";
import { seatView, timeOf, toMove, turnClock, type Holder } from "../seats";
import type { TableMode } from "../table";
import { aiLevelOf, overTitle, seatName } from "./fool-words";

/** What a seated person can do, and what the page knows of it; absent for a spectator. */
export interface Actions {
  move(move: FoolMove): void;
  /** Starts the next game in the same seats (once this one is over). */
  newGame(): void;
  /** Whether a message is on its way (the controls wait for the room's answer). */
  pending(): boolean;
  /** False once the session ended (the seat taken over from another tab): nothing may be pressed. */
  live: boolean;
}

/** A card being laid in one of several ways: the card, and the card a joker stands for once chosen. */
export interface Choosing {
  card: string;
  as?: string;
}

function holderOf(view: FoolStateView, seat: number, mine: number | null): Holder {
  const held = view.seats[seat];
  if (seat === mine) return { kind: "you" };
  if (held?.controller === "ai") return { kind: "computer", level: aiLevelOf(held.name) };
  if (held?.controller === "open") return { kind: "open" };
  return { kind: "person", name: held?.name ?? "" };
}

/**
 * The ways to lay a card that may be laid several ways, as pictures: first the card a joker stands for (a group
 * of card faces), then, for a Queen, the suit it names (the suit's symbol and name). Each choice's accessible
 * name begins with the card's notation ("* as QC, joker as queen of clubs").
 */
function choicesView(
  choosing: Choosing,
  ways: FoolMove[],
  actions: Actions,
  choose: (next: Choosing | null) => void,
): HTMLElement {
  const plays = ways.filter((move): move is Extract<FoolMove, { kind: "play" }> => move.kind === "play");
  const identities = [...new Set(plays.map((move) => move.as ?? move.card))];
  const card = choosing.card;
  const joker = cardFace(card).words;
  const disabled = !actions.live || actions.pending();
  const cancel = button("Cancel", () => choose(null), { key: "choice:cancel", label: `Cancel laying ${card}` });
  const as = choosing.as ?? (identities.length === 1 ? identities[0] : undefined);
  if (as === undefined) {
    const faces = identities.map((identity) => {
      const face = cardButton(identity, {
        enabled: !disabled,
        key: `choice:as:${identity}`,
        onClick: () => {
          const named = plays.filter((move) => (move.as ?? move.card) === identity);
          if (named.length === 1) actions.move(named[0]);
          else choose({ card, as: identity });
        },
      });
      face.setAttribute("aria-label", `${card} as ${identity}, ${joker} as ${cardFace(identity).words}`);
      return face;
    });
    return h(
      "div",
      { class: "choices", role: "group", label: `Ways to play ${card}` },
      h("p", { class: "choices-head", text: `Lay the ${joker} as:` }),
      h("div", { class: "choice-cards" }, ...faces),
      cancel,
    );
  }
  const named = plays.filter((move) => (move.as ?? move.card) === as);
  const laid = `${card}${as !== card ? ` as ${as}` : ""}`;
  const suits = named.map((move) => {
    const suit = move.namedSuit as SuitLetter;
    const label = `${laid} naming ${SUIT_WORDS[suit]}, ${joker}${as !== card ? ` as ${cardFace(as).words}` : ""} naming ${SUIT_WORDS[suit]}`;
    return h(
      "button",
      {
        type: "button",
        class: `suit-choice${suit === "H" || suit === "D" ? " red" : ""}`,
        key: `choice:suit:${suit}`,
        label,
        disabled,
        onClick: () => actions.move(move),
      },
      h("span", { class: "suit-symbol", text: SUIT_SYMBOLS[suit], attrs: { "aria-hidden": "true" } }),
      h("span", { text: SUIT_WORDS[suit] }),
    );
  });
  return h(
    "div",
    { class: "choices", role: "group", label: `Ways to play ${card}` },
    h(
      "p",
      { class: "choices-head" },
      cardView(as, "small"),
      ` ${as !== card ? "The joker as this Queen" : "The Queen"} names the suit to follow:`,
    ),
    h("div", { class: "choice-suits" }, ...suits),
    cancel,
  );
}

/** A seat's cards: one's own hand to play, every hand once the game is over (or in a replay), else backs. */
function seatCards(
  view: FoolStateView,
  seat: FoolSeatView,
  index: number,
  mine: number | null,
  actions: Actions | null,
  choosing: Choosing | null,
  choose: (next: Choosing | null) => void,
  playsOf: (card: string) => FoolMove[],
): HTMLElement {
  const label = index === mine ? "Your hand" : `${seatName(view, index)}'s hand`;
  if (index === mine && seat.hand && view.phase !== "over") {
    const disabled = actions === null || !actions.live || actions.pending();
    return h(
      "div",
      { class: "hand", label },
      ...seat.hand.map((card, at) =>
        cardButton(card, {
          enabled: !disabled && playsOf(card).length > 0,
          key: `card:${card}:${at}`,
          selected: choosing?.card === card ? true : undefined,
          onClick: () => {
            const ways = playsOf(card);
            if (ways.length === 1) actions?.move(ways[0]);
            else choose(choosing?.card === card ? null : { card });
          },
        }),
      ),
    );
  }
  const shown = view.phase === "over" ? (seat.revealed ?? seat.hand) : seat.hand;
  if (shown !== undefined && (shown.length > 0 || view.phase === "over")) {
    return shown.length > 0
      ? cardRow(shown, label, "small")
      : h("p", { class: "empty-hand", text: `${label}: no cards left` });
  }
  return cardBacks(seat.handCount, label);
}

/** The table drawn from a view: the one drawing of Fool's table, live or replayed. */
export function drawTable(
  view: FoolStateView,
  mode: TableMode,
  actions: Actions | null = null,
  choosing: Choosing | null = null,
  choose: (next: Choosing | null) => void = () => undefined,
): Node[] {
  // Only a player's own hand is theirs to play; a replay holds every hand, each shown face up.
  const mine = mode === "play" ? ownSeat(view) : null;
  const moves = mine !== null && view.phase === "playing" ? legalMovesInView(foolViewOf(view, mine)) : [];
  const playsOf = (card: string) => moves.filter((move) => move.kind === "play" && move.card === card);
  const seats = view.seats.map((seat, index) => {
    const holder = holderOf(view, index, mine);
    const name = seatName(view, index);
    const box = seatView(
      {
        name,
        holder,
        connected: seat.connected || seat.controller !== "player",
        cards: seat.handCount,
        active: view.phase === "playing" && view.turn === index,
        extra: mode === "replay" ? undefined : `${seat.wins} won`,
      },
      [seatCards(view, seat, index, mine, actions, choosing, choose, playsOf)],
    );
    if (view.phase === "over" && view.fool === index) box.classList.add("fool-seat");
    return box;
  });
  const faceUp = view.faceUp.card
    ? h(
        "div",
        { class: "face-up", label: "Face-up card" },
        cardView(view.faceUp.card, "large"),
        h("span", {
          text: `${view.faceUp.as && view.faceUp.as !== view.faceUp.card ? ` as ${view.faceUp.as}` : ""}${view.faceUp.namedSuit ? ` naming ${SUIT_SYMBOLS[view.faceUp.namedSuit as SuitLetter]} ${SUIT_WORDS[view.faceUp.namedSuit as SuitLetter]}` : ""}`,
        }),
      )
    : h("div", { text: "No card face up yet" });
  const ways = choosing === null ? [] : playsOf(choosing.card);
  const idle = actions === null || !actions.live || actions.pending();
  const canDraw = !idle && moves.some((move) => move.kind === "draw");
  const canPass = !idle && moves.some((move) => move.kind === "pass");
  const over = view.phase === "over";
  const turnName = seatName(view, view.turn);
  const state =
    view.phase === "waiting" ? "waiting for the second player" : over ? "over" : toMove(turnName, view.turn === mine);
  const other = mine === null ? seats[0] : seats[1 - mine];
  const own = mine === null ? seats[1] : seats[mine];
  const bar = actions
    ? h(
        "div",
        { class: "action-bar fool-bar" },
        own,
        ways.length > 0 && choosing !== null ? choicesView(choosing, ways, actions, choose) : null,
        over
          ? h(
              "div",
              { class: "actions" },
              button("New game", actions.newGame, { disabled: !actions.live || actions.pending() }),
            )
          : h(
              "div",
              { class: "actions moves" },
              button("Draw", () => actions.move({ kind: "draw" }), { disabled: !canDraw }),
              button("Pass", () => actions.move({ kind: "pass" }), { disabled: !canPass }),
            ),
      )
    : own;
  return [
    h("p", { class: "status", text: `Game ${view.game} · ${state} · move ${view.moveCount}` }),
    other,
    h(
      "div",
      { class: "middle" },
      faceUp,
      h("div", { text: `Deck: ${view.deckCount} cards` }),
      cardBacks(view.deckCount, "Deck"),
    ),
    mode === "replay"
      ? null
      : turnClock(view.phase === "playing" ? view.deadline : 0, timeOf(turnName, view.turn === mine)),
    bar,
    over
      ? h(
          "section",
          { class: "verdict", role: "status", label: "Game over" },
          h("h2", { text: overTitle(view, mine) }),
          h("p", { text: `Seed ${view.revealedSeed}` }),
        )
      : null,
  ].filter((node): node is HTMLElement => node !== null);
}
