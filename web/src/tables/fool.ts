/**
 * Fool: the face-up card, the person's own hand face up and the other's as backs, the deck, every move and its
 * effects in words as they happen (the computer's at the room's pace), the turn clock. A person plays against the
 * computer or a friend (the link this page shows); anyone may watch. At the end a dialog names the Fool and shows
 * both hands.
 */
import {
  foolViewOf,
  ownSeat,
  type CardhallClient,
  type FoolMove,
  type FoolMoveEvent,
  type FoolOverEvent,
  type FoolPlayer,
  type FoolSpectator,
  type FoolStartEvent,
  type FoolStateView,
  type FoolEvent,
  type GameRecord,
  type ReplayFrame,
} from "../../../client-sdk/index";
import type { FoolEngineEvent } from "../../../rooms/fool/match";
import type { FoolPositionView, FoolSeatView, FoolTableView } from "../../../rooms/fool/protocol";
import { mergeViews, wholeTableView } from "../../../rooms/kit/views";
import { sealOfRecord } from "../../../rooms/kit/commitment";
import { legalMovesInView } from "../../../rooms/fool/rules";
import {
  cardBacks,
  cardButton,
  cardFace,
  cardName,
  cardRow,
  cardView,
  SUIT_SYMBOLS,
  SUIT_WORDS,
  type SuitLetter,
} from "../cards";
import { endedInWords, inWords, queryOptions, rejoinOr } from "../connection";
import { button, draw, h, logLine } from "../dom";
import { closeEnding, showEnding } from "../ending";
import { guardSeat } from "../leaving";
import { joinName } from "../name";
import { Requests } from "../requests";
import { navigate, replaceLocation } from "../router";
import { holderWords, news, notice, say, seatView, timeOf, toMove, turnClock, type Holder } from "../seats";
import { play } from "../sound";
import { stepWords, type SeatNamer } from "../steps";
import { tableHeader } from "../table-header";
import type { TableMode, TableModule, Teardown } from "../table";
import { timed } from "../timings";
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
/** The room's AI seats are named after their policy ("AI (greedy)"): the page says "Computer", with a level. */
const AI_NAME = /^AI \((\w+)(?:, (\w+))?\)$/;
const AI_LEVELS: Record<string, string | undefined> = { ai: undefined, greedy: "easy", random: "random" };

/** The level the AI's seat name carries ("AI (ai, strong)": strong; "AI (greedy)": easy; "AI (ai)": the usual, none said). */
function aiLevelOf(name: string): string | undefined {
  const match = AI_NAME.exec(name);
  return match?.[2] ?? AI_LEVELS[match?.[1] ?? ""];
}

/** What a seated person can do, and what the page knows of it; absent for a spectator. */
interface Actions {
  move(move: FoolMove): void;
  /** Starts the next game in the same seats (once this one is over). */
  newGame(): void;
  /** Whether a message is on its way (the controls wait for the room's answer). */
  pending(): boolean;
  /** False once the session ended (the seat taken over from another tab): nothing may be pressed. */
  live: boolean;
}

/** A card being laid in one of several ways: the card, and the card a joker stands for once chosen. */
interface Choosing {
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

/** A seat's name as people read it: the person's name, "Computer" for the room's AI (a person's seat the AI took keeps the name). */
function seatName(view: FoolStateView | undefined, seat: number): string {
  const held = view?.seats[seat];
  if (held === undefined) return `Seat ${seat + 1}`;
  if (held.controller === "ai" && AI_NAME.test(held.name)) return holderWords({ kind: "computer" });
  return held.name || holderWords({ kind: "person", name: "" });
}

/** Names a seat in a sentence: "You" for one's own seat (`mine`), else its name; `you` tells the verb's form. */
interface Namer {
  (seat: number): string;
  you(seat: number): boolean;
}

function namer(view: () => FoolStateView | undefined, mine: number | null): Namer {
  const name = ((seat: number) => (seat === mine ? "You" : seatName(view(), seat))) as Namer;
  name.you = (seat: number) => seat === mine;
  return name;
}

/** Names for a replay or the record's words: nobody is "You". */
function plainNamer(name: SeatNamer): Namer {
  const named = ((seat: number) => name(seat)) as Namer;
  named.you = () => false;
  return named;
}

/** A card laid as the moves list says it: "QH, queen of hearts, naming hearts", a joker "as six of diamonds". */
function laidWords({ card, as, namedSuit }: FoolStartEvent["faceUp"]): string {
  return `${cardName(card)}${card !== as ? ` as ${cardFace(as).words}` : ""}${namedSuit ? `, naming ${SUIT_WORDS[namedSuit as SuitLetter]}` : ""}`;
}

function describeStart(event: Pick<FoolStartEvent, "faceUp" | "turn">, game: number, name: Namer): string {
  const turn = name.you(event.turn) ? "your turn" : `${name(event.turn)} to move`;
  return `Game ${game} dealt: ${laidWords(event.faceUp)} face up; ${turn}`;
}

function describeOver(
  event: Pick<FoolOverEvent, "outcome" | "moves" | "seed" | "fool">,
  game: number,
  name: Namer,
): string {
  if (event.outcome === "capped")
    return `Game ${game} stopped after ${event.moves} moves, no Fool (seed ${event.seed})`;
  const fool = event.fool ?? -1;
  return `Game ${game} over: ${name(fool)} ${name.you(fool) ? "are" : "is"} the Fool (seed ${event.seed})`;
}

function describeEvent(event: FoolEvent, name: Namer): string {
  const who = name(event.seat);
  const you = name.you(event.seat);
  switch (event.type) {
    case "played":
      return `${who} laid ${laidWords(event.faceUp)}`;
    case "drew":
      return `${who} drew ${event.count}`;
    case "penalised":
      // An Ace makes the next player miss a turn without drawing; a 6, 7 or the King of spades also makes them draw
      // (as many as the deck still holds, perhaps none).
      return event.drew === 0
        ? `${who} ${you ? "miss" : "misses"} a turn`
        : `${who} ${you ? "draw" : "draws"} ${event.drew} and ${you ? "miss" : "misses"} a turn`;
    case "passed":
      return `${who} passed`;
    case "won":
      return `${who} ${you ? "are" : "is"} out (place ${event.place})`;
    case "fool":
      return `${who} ${you ? "are" : "is"} the Fool`;
  }
}

function describeMove(
  event: Pick<FoolMoveEvent, "number" | "events" | "seat"> & { by?: FoolMoveEvent["by"] },
  name: Namer,
): string {
  const by =
    event.by === "clock"
      ? name.you(event.seat)
        ? " (your time ran out: the computer moved for you)"
        : ` (time ran out: the computer moved for ${name(event.seat)})`
      : "";
  return `${event.number}. ${event.events.map((inner) => describeEvent(inner, name)).join("; ")}${by}`;
}

function moveText(move: FoolMove): string {
  if (move.kind !== "play") return move.kind === "draw" ? "Draw" : "Pass";
  return `Play ${move.card}${move.as && move.as !== move.card ? ` as ${move.as}` : ""}${move.namedSuit ? ` naming ${SUIT_WORDS[move.namedSuit as SuitLetter]}` : ""}`;
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
function drawTable(
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

/** The end in a sentence: who is the Fool, said to the person as "you". */
function overTitle(view: FoolStateView, mine: number | null): string {
  if (view.outcome === "capped") return "Game over: no Fool (move limit)";
  if (mine !== null)
    return view.fool === mine
      ? "Game over: you are the Fool"
      : `Game over: you won, ${seatName(view, view.fool)} is the Fool`;
  return `Game over: ${seatName(view, view.fool)} is the Fool`;
}

/** The ending: the result, what a Fool is, both hands as they ended and the games won at this table. */
function foolEnding(
  view: FoolStateView,
  mine: number,
  roomId: string,
  playAgain: (() => Promise<unknown>) | undefined,
): void {
  const name = (seat: number) => (seat === mine ? "You" : seatName(view, seat));
  const hands = view.seats.map((seat, index) => {
    const cards = seat.revealed ?? [];
    const whose = index === mine ? "Your hand" : `${seatName(view, index)}'s hand`;
    return h(
      "div",
      { class: "ending-hand" },
      h("h3", { text: whose }),
      cards.length > 0 ? cardRow(cards, whose, "small") : h("p", { text: "No cards left: out first." }),
    );
  });
  const title = view.outcome === "capped" ? "No Fool this time" : view.fool === mine ? "You are the Fool" : "You won";
  const meaning =
    view.outcome === "capped"
      ? `The game stopped after ${view.moveCount} moves, the table's limit, with cards in both hands: nobody is the Fool.`
      : view.fool === mine
        ? `${name(1 - mine)} laid out every card first, so you were left holding cards: the last player with cards is the Fool.`
        : `You laid out every card first, so ${name(view.fool)} was left holding cards: the last player with cards is the Fool.`;
  const wins = view.seats.map((seat, index) => `${name(index)} ${seat.wins}`).join(" · ");
  showEnding({
    key: `fool:${roomId}:${view.game}`,
    title,
    body: [h("p", { text: meaning }), ...hands, h("p", { text: `Games won at this table: ${wins}.` })],
    playAgain,
  });
}

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

function modeWords(mode: FoolTableView["mode"]): string {
  return mode === "two-players"
    ? "Two people"
    : mode === "ai-vs-ai"
      ? "Computer against computer"
      : "Against the computer";
}

/** A replay frame as the live table's view: the whole table (both hands) with the record's seats. */
function viewOfFrame(frame: ReplayFrame, record: GameRecord): FoolStateView {
  const position = wholeTableView(frame.table as FoolPositionView, frame.seats as FoolPositionView[]);
  const ai = record.seats.some((seat) => seat.kind === "ai");
  const seats = position.seats.map((_, index) => ({
    name: record.seats[index]?.name ?? "",
    controller: record.seats[index]?.kind === "ai" ? ("ai" as const) : ("player" as const),
    connected: true,
    wins: 0,
  }));
  const table: FoolTableView = {
    mode: ai ? "vs-ai" : "two-players",
    game: record.match,
    seats,
    deadline: 0,
    spectators: 0,
  };
  return mergeViews(position, { ...table, seal: sealOfRecord(record) }) as FoolStateView;
}

function engineEventWords(event: FoolEngineEvent, game: number, name: Namer): string {
  switch (event.name) {
    case "start":
      return describeStart(event.payload, game, name);
    case "move":
      return describeMove(event.payload, name);
    case "over":
      return describeOver(event.payload, game, name);
  }
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
