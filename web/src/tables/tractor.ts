/**
 * Tractor: four seats around the table (names, hand sizes), the trick under way in the middle, the trump suit and
 * rank, the defenders' points after every trick, the trick history, declarations, the buried cards and their
 * bonus at the round's end, rank changes and the match's progress. A person takes a seat beside bots (or friends
 * by link): the cards the room's `hint` allows are the enabled ones, several are played by selecting them (each
 * choice narrows the rest to the plays that hold it: tractor-selection.ts), and the dealer buries by selecting
 * eight. Anyone may watch: a spectator's page holds no hand (the room sends none). A finished game's replay shows
 * every hand.
 */
import { ownTractorSeat, TRACTOR_SEATS, type CardhallClient, type GameRecord, type ReplayFrame, type TractorHint, type TractorPlayer, type TractorSeat, type TractorSeatName, type TractorSpectator, type TractorStateView, type TractorTrick } from "../../../client-sdk/index";
import type { TractorAction, TractorEngineEvent } from "../../../rooms/tractor/match";
import type { TractorPositionView, TractorTableView } from "../../../rooms/tractor/protocol";
import { mergeViews, wholeTableView } from "../../../rooms/kit/views";
import { cardBacks, cardButton, cardName, cardRow, suitView, SUIT_WORDS, type SuitLetter } from "../cards";
import { inWords, queryOptions, rejoinOr } from "../connection";
import { button, draw, h } from "../dom";
import { replaceLocation } from "../router";
import { notice, say, seatView, turnClock, type Holder } from "../seats";
import { stepWords } from "../steps";
import type { TableMode, TableModule, Teardown } from "../table";
import { timed } from "../timings";
import { selectionOf, type Selection } from "./tractor-selection";

const ROOM_OPTIONS = ["trump", "mainSuit", "dealer", "seed", "turnTimeMs", "reconnectSeconds", "botDelayMs", "dealDelayMs", "declareWindowMs", "startDelayMs", "roundPauseMs", "name"] as const;
const POSITIONS = ["south", "west", "north", "east"] as const;
const BURY_COUNT = 8;
/**
 * How many legal plays the page asks the hint for. The room lists 500 by default, which a lead from a long trump
 * holding exceeds (every sub-multiset of one suit is a lead); 2,000 covers nearly every hand, and a longer list
 * is still handled: the page lets the room judge. `?hintLimit=` sets it (the tests make a list incomplete).
 */
const HINT_LIMIT = 2_000;
const RANK_NAMES: Record<number, string> = { 11: "J", 12: "Q", 13: "K", 14: "A" };

function rankName(rank: number): string {
  return rank > 14 ? "past A" : (RANK_NAMES[rank] ?? String(rank));
}

/** What the person at the table may do now, from the room's hint, and the cards they have chosen. */
class SeatControls {
  hint: TractorHint | null = null;
  private hintFor = "";
  private position = "";
  readonly selected = new Set<number>();

  constructor(
    private readonly player: TractorPlayer,
    readonly redraw: () => void,
    private readonly refuse: (error: unknown) => void,
    private readonly hintLimit: number,
  ) {}

  /** Asks for a fresh hint when the position this seat may act in has changed (a new step, or new cards while dealing). */
  follow(view: TractorStateView): void {
    const seat = ownTractorSeat(view);
    const mine = seat === undefined ? "" : TRACTOR_SEATS[seat];
    const hand = seat === undefined ? [] : (view.seats[seat].hand ?? []);
    const acting = view.phase === "declaring" || ((view.phase === "burying" || view.phase === "playing") && view.turn === mine);
    // While the cards are dealt the position is the round's declaration window (each dealt card is a step of the
    // room's, but a person choosing cards to declare keeps the choice); after that, each step is a new position.
    const position = !acting ? "" : view.phase === "declaring" ? `${view.round}:declaring` : `${view.round}:${view.phase}:${view.step}`;
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

  /**
   * The places of the hand that may be chosen now and whether the choice may be sent: while playing, the places
   * some legal play holds with the cards chosen; while burying, any eight; while declaring, the cards of any
   * declaration the hint lists (the room judges the combination).
   */
  selection(view: TractorStateView, hand: readonly string[]): Selection {
    const places = hand.map((_, place) => place);
    const chosen = this.selected.size;
    if (this.hint === null) return { enabled: new Set(), playable: false, roomJudges: false };
    if (view.phase === "burying") return { enabled: new Set(places), playable: chosen === BURY_COUNT, roomJudges: false };
    if (view.phase === "playing") return selectionOf(hand, this.selected, this.hint);
    const declarable = new Set(this.hint.options.flat());
    // A chosen card stays enabled (to be put back) even if a later hint no longer lists it.
    return { enabled: new Set(places.filter((place) => declarable.has(hand[place]) || this.selected.has(place))), playable: chosen > 0 && declarable.size > 0, roomJudges: true };
  }

  chosen(hand: readonly string[]): string[] {
    return [...this.selected].sort((a, b) => a - b).map((index) => hand[index]).filter((card) => card !== undefined);
  }

  /** Selects the seat bot's suggestion (a help for people, and how tests play quickly). */
  suggest(hand: readonly string[]): void {
    this.selected.clear();
    const taken = new Set<number>();
    for (const card of this.hint?.suggestion ?? []) {
      const index = hand.findIndex((held, at) => held === card && !taken.has(at));
      if (index >= 0) taken.add(index);
    }
    for (const index of taken) this.selected.add(index);
    this.redraw();
  }

  async send(kind: "play" | "bury" | "declare", hand: readonly string[]): Promise<void> {
    const cards = this.chosen(hand);
    try {
      if (kind === "play") await this.player.play(cards);
      else if (kind === "bury") await this.player.bury(cards);
      else await this.player.declare(cards);
      this.selected.clear();
    } catch (error) {
      this.refuse(error);
    }
    this.redraw();
  }
}

function tablePage(session: TractorSpectator, root: HTMLElement, player: TractorPlayer | null, hintLimit = HINT_LIMIT): Teardown {
  const region = h("div", { class: "table tractor" });
  const refusals = notice();
  let view: TractorStateView | undefined;
  /** The defenders' points this page showed after each trick of the round (what a person saw, trick by trick). */
  const afterTrick = new Map<string, number>();
  const render = timed(() => view && draw(region, ...drawTable(view, controls ? "play" : "watch", controls, afterTrick)));
  const controls = player ? new SeatControls(player, render, (error) => say(refusals, inWords(error)), hintLimit) : null;
  root.append(h("h1", { text: player ? "Tractor" : "Watching Tractor" }), refusals, region);
  const stop = session.onView((next) => {
    view = next;
    if (next.tricks.length > 0) afterTrick.set(`${next.round}:${next.tricks.length}`, next.defenderPoints);
    controls?.follow(next);
    render();
  });
  session.onError((error) => say(refusals, inWords(error)));
  session.onLeave(() => say(refusals, `The table closed: ${session.ended?.message ?? "left"}`));
  return () => {
    stop();
    void session.leave();
  };
}

function seatBox(view: TractorStateView, seat: TractorSeat, position: string, mine: boolean, hand: Node[] | null): HTMLElement {
  const holder: Holder = mine ? { kind: "you" } : seat.occupant === "person" ? { kind: "person", name: seat.player } : seat.occupant === "bot" ? { kind: "computer" } : { kind: "open" };
  const dealer = view.dealer === seat.seat ? "dealer" : "";
  const box = seatView({ name: seat.seat, holder, connected: seat.connected || seat.occupant !== "person", cards: seat.handCount, active: view.turn === seat.seat, extra: [`team ${seat.team}`, dealer].filter(Boolean).join(" · ") }, [
    ...(hand ?? [cardBacks(seat.handCount, `${seat.seat}'s hand`)]),
  ]);
  box.classList.add(`pos-${position}`);
  return box;
}

function trickView(trick: TractorTrick, label: string): HTMLElement {
  return h("div", { class: "trick", role: "group", label }, ...trick.plays.map((play) => h("div", { class: "play" }, h("span", { text: `${play.seat}: ` }), cardRow(play.cards, `${play.seat} played`, "small"))));
}

function handControls(view: TractorStateView, seat: TractorSeat, controls: SeatControls): Node {
  const hand = seat.hand ?? [];
  const selection = controls.selection(view, hand);
  const cards = hand.map((card, index) =>
    cardButton(card, {
      enabled: selection.enabled.has(index),
      legal: selection.enabled.has(index),
      selected: controls.selected.has(index),
      key: `card:${index}:${card}`,
      onClick: () => {
        if (!controls.selected.delete(index)) controls.selected.add(index);
        controls.redraw();
      },
    }),
  );
  const chosen = controls.selected.size;
  const myTurn = view.turn === seat.seat;
  const actions = h("div", { class: "actions" },
    view.phase === "declaring" ? button("Declare", () => void controls.send("declare", hand), { disabled: !selection.playable }) : null,
    view.phase === "burying" && myTurn ? button("Bury", () => void controls.send("bury", hand), { disabled: !selection.playable }) : null,
    view.phase === "playing" && myTurn ? button("Play", () => void controls.send("play", hand), { disabled: !selection.playable }) : null,
    controls.hint && controls.hint.suggestion.length > 0 ? button("Suggest", () => controls.suggest(hand)) : null,
    view.phase === "burying" && myTurn ? h("span", { text: `${chosen} of ${BURY_COUNT} chosen to bury` }) : null,
    view.phase === "playing" && myTurn && controls.hint !== null ? h("p", { class: "judging", text: judgingWords(selection, controls.hint) }) : null,
  );
  return h("div", { class: "hand", label: "Your hand" }, ...cards, actions);
}

/** Who judges the cards chosen, in words: the page from the hint's whole list, or the room. */
function judgingWords(selection: Selection, hint: TractorHint): string {
  if (selection.roomJudges) return `The hint lists only the first ${hint.options.length} legal plays of this hand: every card may be chosen, and the room judges the play.`;
  return `${hint.options.length} legal play${hint.options.length === 1 ? "" : "s"}: the cards that can join your choice are enabled, and Play is enabled once the choice is one of them.`;
}

/** What a seat's box holds beside its name: the person's own hand to play, every hand in a replay, else backs. */
function seatCards(view: TractorStateView, seat: TractorSeat, mode: TableMode, own: boolean, controls: SeatControls | null): Node[] | null {
  if (own && controls !== null) return [handControls(view, seat, controls)];
  if (mode !== "replay" || seat.hand === undefined) return null;
  const buried = seat.buried ?? [];
  return [cardRow(seat.hand, `${seat.seat}'s hand`, "small"), buried.length > 0 ? h("div", { class: "buried" }, `${seat.seat} buried: `, cardRow(buried, `${seat.seat} buried`, "small")) : h("span")];
}

/** The table drawn from a view: the one drawing of Tractor's table, live or replayed. */
function drawTable(view: TractorStateView, mode: TableMode, controls: SeatControls | null, afterTrick: ReadonlyMap<string, number>): Node[] {
  // A replay's view holds every hand: none of them is "yours", and Alice sits at the bottom.
  const mine = mode === "play" ? ownTractorSeat(view) : undefined;
  const south = mine ?? 0;
  const seats = view.seats.map((seat, index) => {
    const position = POSITIONS[(index - south + 4) % 4];
    return seatBox(view, seat, position, index === mine, seatCards(view, seat, mode, index === mine, controls));
  });
  const history = view.tricks.map((trick, index) => {
    const defenders = afterTrick.get(`${view.round}:${index + 1}`);
    const seen = defenders === undefined ? "" : ` · defenders ${defenders}`;
    return h("li", { class: "past-trick", attrs: { "data-trick": String(index + 1), "data-defenders": String(defenders ?? "") } }, h("span", { text: `Trick ${index + 1}: ${trick.winner} won ${trick.points}${seen} · ` }), trickView(trick, `Trick ${index + 1}`));
  });
  const middle = h("div", { class: "middle" },
    h("p", { text: `Round ${view.round} · ${view.phase}${view.phase === "declaring" ? ` (${view.dealt} of 100 dealt)` : ""}` }),
    h("p", {}, "Trumps: ", suitView(view.mainSuit), ` · rank ${rankName(view.currentRank)}`),
    view.declaration.seat ? h("p", {}, `Declared by ${view.declaration.seat}: `, cardRow(view.declaration.cards, "Declaration", "small")) : null,
    h("p", { class: "defenders", attrs: { "data-defender-points": String(view.defenderPoints) }, text: `Defenders' points: ${view.defenderPoints}${view.penaltyPoints ? ` (penalties ${view.penaltyPoints})` : ""}` }),
    view.trick.plays.length > 0 ? trickView(view.trick, "Trick under way") : h("p", { class: "placeholder", text: "No trick under way" }),
    mode === "replay" ? null : turnClock(view.deadline, view.turn ? `${view.turn}'s time` : ""),
  );
  const result = view.result;
  return [
    h("p", { class: "status", text: `Match: team 1 (Alice, Charles) at ${rankName(view.teamRanks[0])}, team 2 (Bob, David) at ${rankName(view.teamRanks[1])}${view.winner ? ` · team ${view.winner} won the match` : ""}` }),
    h("div", { class: "tractor-table" }, ...seats, middle),
    result ? h("section", { class: "verdict", role: "status", label: "Round result" },
      h("h2", { text: `Round ${view.round}: defenders scored ${result.defenderPoints} (bonus ${result.hiddenBonus} from the buried cards)` }),
      cardRow(result.hiddenCards, "Buried cards", "small"),
      h("p", { text: `${result.make ? "The declarers held" : "The defenders took over"}: team ${result.team} goes up ${result.levels} rank${result.levels === 1 ? "" : "s"} · ranks now ${result.teamRanks.map(rankName).join(" and ")} · next dealer ${result.nextDealer} · seed ${result.seed}` })) : null,
    h("section", { class: "history" }, h("h2", { text: "Tricks" }), h("ol", { class: "tricks", label: "Trick history" }, ...history)),
  ].filter((node): node is HTMLElement => node !== null);
}

/** The seat a friend's link takes: the first open one, else the first a bot holds (a person takes it over). */
async function seatForFriend(client: CardhallClient, roomId: string): Promise<TractorSeatName | undefined> {
  const listing = (await client.listRooms("tractor")).find((room) => room.roomId === roomId);
  const seats = Object.entries((listing?.metadata?.seats ?? {}) as Record<string, string>);
  const seat = seats.find(([, holder]) => holder === "open") ?? seats.find(([, holder]) => holder === "bot");
  return seat?.[0] as TractorSeatName | undefined;
}

/** A replay frame as the live table's view: the whole table (every hand, the buried cards) with the record's seats. */
function viewOfFrame(frame: ReplayFrame, record: GameRecord): TractorStateView {
  const position = wholeTableView(frame.table as TractorPositionView, frame.seats as TractorPositionView[]);
  const seats = TRACTOR_SEATS.map((_, index) => ({ occupant: record.seats[index]?.kind === "person" ? ("person" as const) : ("bot" as const), player: record.seats[index]?.name || "bot", connected: true }));
  return mergeViews(position, { deadline: 0, seats, spectators: 0 } satisfies TractorTableView) as TractorStateView;
}

const cardsInWords = (cards: readonly string[]) => cards.map(cardName).join("; ");

function mainSuitWords(letter: string): string {
  return letter in SUIT_WORDS ? SUIT_WORDS[letter as SuitLetter] : letter === "O" ? "no trump suit" : "to be declared";
}

function actionWords(action: TractorAction): string {
  switch (action.type) {
    case "declare":
      return `declared ${cardsInWords(action.cards)}`;
    case "bury":
      return `buried ${action.cards.length} cards`;
    case "play":
      return `played ${cardsInWords(action.cards)}`;
    case "deal":
      return "dealt a card to each seat in turn";
    case "closeDeclarations":
      return "closed the declarations";
    case "nextRound":
      return "began the next round";
  }
}

function eventWords(event: TractorEngineEvent): string {
  switch (event.name) {
    case "roundStart":
      return `Round ${event.payload.round}: ${event.payload.dealer} deals; trumps ${mainSuitWords(event.payload.mainSuit)}, rank ${rankName(event.payload.currentRank)}`;
    case "declared":
      return `${event.payload.seat} declared ${cardsInWords(event.payload.cards)}`;
    case "trump":
      return `Trumps: ${mainSuitWords(event.payload.mainSuit)}${event.payload.declaredBy ? `, declared by ${event.payload.declaredBy}` : ", nobody declared"}`;
    case "buried":
      return `${event.payload.dealer} buried ${BURY_COUNT} cards`;
    case "played": {
      const failed = event.payload.failedThrow;
      return `${event.payload.seat} played ${cardsInWords(event.payload.cards)}${failed ? ` (the throw of ${cardsInWords(failed.attempted)} failed: penalty ${failed.penalty})` : ""}`;
    }
    case "trick":
      return `Trick ${event.payload.trick}: ${event.payload.winner} won ${event.payload.points} points; defenders' points ${event.payload.defenderPoints}`;
    case "roundEnd":
      return `Round ${event.payload.round} over: defenders scored ${event.payload.defenderPoints} (bonus ${event.payload.hiddenBonus}); team ${event.payload.team} goes up ${event.payload.levels}`;
    case "matchEnd":
      return `Team ${event.payload.winner} won the match after ${event.payload.rounds} rounds`;
  }
}

export const tractorTable: TableModule = {
  async watch(client: CardhallClient, roomId: string, root: HTMLElement) {
    return tablePage(await client.spectateTractor(roomId), root, null);
  },

  async play(client: CardhallClient, roomId: string | undefined, root: HTMLElement) {
    const options = queryOptions(ROOM_OPTIONS);
    // Read before the address becomes the room's: not a room option, the page's own.
    const hintLimit = Number(new URLSearchParams(location.search).get("hintLimit")) || HINT_LIMIT;
    if (new URLSearchParams(location.search).get("watch") === "bots") {
      // The page that creates a table of bots watches it (a table nobody watches would close at once).
      const watcher = await client.watchTractor({ ...options, bots: [...TRACTOR_SEATS] });
      replaceLocation(`/watch/${watcher.roomId}`);
      return tablePage(watcher, root, null);
    }
    const session = await rejoinOr(roomId, (token) => client.reconnectTractor(token), async () =>
      roomId ? client.joinTractor(roomId, { name: "Friend", seat: await seatForFriend(client, roomId) }) : client.playTractor({ name: "You", seat: "Alice", bots: ["Bob", "Charles", "David"], ...options }));
    replaceLocation(`/play/tractor?room=${session.roomId}`);
    const close = tablePage(session, root, session, hintLimit);
    root.append(h("p", { class: "share", text: `A friend takes a bot's seat with this link: ${location.origin}/play/tractor?room=${session.roomId}` }));
    return close;
  },

  replayStep(frame, record) {
    return {
      table: drawTable(viewOfFrame(frame, record), "replay", null, new Map()),
      words: stepWords(frame, record, actionWords, frame.events.map((event) => eventWords(event as TractorEngineEvent)), (seat) => TRACTOR_SEATS[seat] ?? `Seat ${seat + 1}`),
    };
  },
};
