/**
 * One's own Tractor hand and what may be done with it: the cards chosen (held per copy while more are dealt and the
 * hand is sorted again), the room's hint that says which may be chosen, and the action bar that draws the hand with
 * its Play, Bury, Declare and Suggest buttons and a line saying what to do.
 */
import {
  ownTractorSeat,
  TRACTOR_SEATS,
  type TractorHint,
  type TractorPlayer,
  type TractorSeat,
  type TractorStateView,
} from "../../../client-sdk/index";
import { cardButton } from "../cards";
import { button, h } from "../dom";
import type { Requests } from "../requests";
import { BURY_COUNT } from "./tractor-rules";
import { selectionOf, type Selection } from "./tractor-selection";
import { handInSuits, rankName } from "./tractor-words";

/** What the person at the table may do now, from the room's hint, and the cards they have chosen. */
export class SeatControls {
  hint: TractorHint | null = null;
  private hintFor = "";
  private position = "";
  /**
   * The chosen cards, each as the card and which copy of it in the hand ("H5#0", "H5#1"), so that a choice holds
   * while more cards are dealt and the hand is sorted again.
   */
  readonly selected = new Set<string>();

  constructor(
    private readonly player: TractorPlayer,
    readonly requests: Requests,
    readonly redraw: () => void,
    private readonly refuse: (error: unknown) => void,
    private readonly hintLimit: number,
  ) {}

  /** Asks for a fresh hint when the position this seat may act in has changed (a new step, or new cards while dealing). */
  follow(view: TractorStateView): void {
    const seat = ownTractorSeat(view);
    const mine = seat === undefined ? "" : TRACTOR_SEATS[seat];
    const hand = seat === undefined ? [] : (view.seats[seat].hand ?? []);
    const acting =
      view.phase === "declaring" || ((view.phase === "burying" || view.phase === "playing") && view.turn === mine);
    // While the cards are dealt the position is the round's declaration window (each dealt card is a step of the
    // room's, but a person choosing cards to declare keeps the choice); after that, each step is a new position.
    const position = !acting
      ? ""
      : view.phase === "declaring"
        ? `${view.round}:declaring`
        : `${view.round}:${view.phase}:${view.step}`;
    const key = position === "" ? "" : `${position}:${hand.length}`;
    if (key === this.hintFor) return;
    if (position !== this.position) this.selected.clear();
    this.position = position;
    this.hintFor = key;
    this.hint = null;
    if (key === "") return;
    this.player.hint(this.hintLimit).then((hint) => {
      if (this.hintFor !== key) return;
      this.hint = hint;
      this.redraw();
    }, this.refuse);
  }

  /** The places of the shown hand that are chosen. */
  places(hand: readonly string[]): Set<number> {
    const keys = copyKeys(hand);
    return new Set(keys.flatMap((key, place) => (this.selected.has(key) ? [place] : [])));
  }

  toggle(hand: readonly string[], place: number): void {
    const key = copyKeys(hand)[place];
    if (!this.selected.delete(key)) this.selected.add(key);
    this.requests.clear();
    this.redraw();
  }

  /**
   * The places of the hand that may be chosen now and whether the choice may be sent: while playing, the places
   * some legal play holds with the cards chosen; while burying, any eight; while declaring, the cards of any
   * declaration the hint lists (the room judges the combination).
   */
  selection(view: TractorStateView, hand: readonly string[]): Selection {
    const places = hand.map((_, place) => place);
    const chosenPlaces = this.places(hand);
    const chosen = chosenPlaces.size;
    if (this.hint === null) return { enabled: new Set(), playable: false, roomJudges: false };
    if (view.phase === "burying")
      return { enabled: new Set(places), playable: chosen === BURY_COUNT, roomJudges: false };
    if (view.phase === "playing") return selectionOf(hand, chosenPlaces, this.hint);
    const declarable = new Set(this.hint.options.flat());
    // A chosen card stays enabled (to be put back) even if a later hint no longer lists it.
    return {
      enabled: new Set(places.filter((place) => declarable.has(hand[place]) || chosenPlaces.has(place))),
      playable: chosen > 0 && declarable.size > 0,
      roomJudges: true,
    };
  }

  chosen(hand: readonly string[]): string[] {
    return [...this.places(hand)].sort((a, b) => a - b).map((place) => hand[place]);
  }

  /** Selects the seat bot's suggestion (a help for people, and how tests play quickly). */
  suggest(hand: readonly string[]): void {
    this.selected.clear();
    const keys = copyKeys(hand);
    const taken = new Set<number>();
    for (const card of this.hint?.suggestion ?? []) {
      const place = hand.findIndex((held, at) => held === card && !taken.has(at));
      if (place >= 0) taken.add(place);
    }
    for (const place of taken) this.selected.add(keys[place]);
    this.requests.clear();
    this.redraw();
  }

  /** Sends the chosen cards, once: the control is disabled until the room answers, a refusal said in words. */
  send(kind: "play" | "bury" | "declare", hand: readonly string[]): void {
    const cards = this.chosen(hand);
    void this.requests
      .send(kind, () =>
        kind === "play"
          ? this.player.play(cards)
          : kind === "bury"
            ? this.player.bury(cards)
            : this.player.declare(cards),
      )
      .then((accepted) => {
        if (!accepted) return;
        this.selected.clear();
        this.redraw();
      });
  }
}

/** Each card of a hand with which copy of it it is: "H5#0", "H5#1". */
function copyKeys(hand: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return hand.map((card) => {
    const copy = seen.get(card) ?? 0;
    seen.set(card, copy + 1);
    return `${card}#${copy}`;
  });
}

export function handControls(
  view: TractorStateView,
  seat: TractorSeat,
  controls: SeatControls,
  ended: boolean,
): HTMLElement {
  const hand = handInSuits(seat.hand ?? [], view.mainSuit, view.currentRank);
  const selection = controls.selection(view, hand);
  const chosenPlaces = controls.places(hand);
  const keys = copyKeys(hand);
  const cards = hand.map((card, index) =>
    cardButton(card, {
      enabled: !ended && selection.enabled.has(index),
      legal: selection.enabled.has(index),
      selected: chosenPlaces.has(index),
      key: `card:${index}:${card}`,
      onClick: () => controls.toggle(hand, index),
    }),
  );
  cards.forEach((card, index) => (card.dataset.copy = keys[index]));
  const chosen = chosenPlaces.size;
  const myTurn = view.turn === seat.seat;
  const pending = controls.requests.pending();
  const act = (kind: "play" | "bury" | "declare", word: string) =>
    button(word, () => controls.send(kind, hand), {
      disabled: ended || pending || !selection.playable,
      class: "primary",
    });
  const actions = h(
    "div",
    { class: "actions" },
    view.phase === "declaring" ? act("declare", "Declare") : null,
    view.phase === "burying" && myTurn ? act("bury", "Bury") : null,
    view.phase === "playing" && myTurn ? act("play", "Play") : null,
    controls.hint && controls.hint.suggestion.length > 0 && !ended
      ? button("Suggest", () => controls.suggest(hand))
      : null,
    view.phase === "burying" && myTurn
      ? h("span", { class: "bury-count", text: `${chosen} of ${BURY_COUNT} chosen to bury` })
      : null,
  );
  const help = ended ? "" : helpWords(view, myTurn, selection, controls.hint, chosen);
  return h(
    "div",
    { class: "action-bar tractor-bar" },
    h("div", { class: "hand", label: "Your hand" }, ...cards),
    actions,
    help ? h("p", { class: "judging", text: help }) : null,
  );
}

/** The line under the hand: what to do now, in plain words. */
function helpWords(
  view: TractorStateView,
  myTurn: boolean,
  selection: Selection,
  hint: TractorHint | null,
  chosen: number,
): string {
  if (hint === null) return "";
  if (view.phase === "declaring")
    return hint.options.length > 0
      ? `You may declare trumps: choose a ${rankName(view.currentRank)} (or a pair of them, or of jokers) and press Declare.`
      : "";
  if (!myTurn) return "";
  if (view.phase === "burying")
    return `Choose ${BURY_COUNT} cards to put aside under the table; the defenders win their points twice over or more if they take the last trick.`;
  if (view.phase !== "playing") return "";
  if (selection.roomJudges) return "Any cards may be chosen here: the room judges the play when you press Play.";
  if (selection.playable) return "Your choice is a legal play: press Play.";
  if (chosen > 0) return "Add cards: only those that make a legal play with your choice are lit.";
  return "Choose the cards to play: the cards you may play are lit.";
}
