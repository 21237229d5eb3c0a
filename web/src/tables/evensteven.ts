/**
 * Even-Steven: the dealer's card to cover, the player's hand, each cover so far, and at the end the verdict in
 * words — what winning and losing "necessarily" or "unnecessarily" mean for this hand, the order of play that
 * would have won when there was one, and the cards never dealt. A person plays against the dealer; anyone may
 * watch (no hand is shown to a spectator until the game is over: the room sends none); a replay shows the hand too.
 */
import type {
  CardhallClient,
  EvenStevenPlayer,
  EvenStevenSpectator,
  EvenStevenStateView,
  GameRecord,
  ReplayFrame,
} from "../../../client-sdk/index";
import type { EvenStevenAction, EvenStevenEngineEvent } from "../../../rooms/evensteven/match";
import type { EvenStevenPositionView, EvenStevenTableView } from "../../../rooms/evensteven/protocol";
import { cardValue, covers, VALUES } from "../../../rooms/evensteven/cards";
import { optimalPlay } from "../../../rooms/evensteven/strategy";
import { mergeViews, wholeTableView } from "../../../rooms/kit/views";
import { sealOfRecord } from "../../../rooms/kit/commitment";
import { cardButton, cardName, cardRow, cardView } from "../cards";
import { endedInWords, inWords, queryOptions, rejoinOr } from "../connection";
import { button, draw, h } from "../dom";
import { closeEnding, showEnding } from "../ending";
import { guardSeat } from "../leaving";
import { joinName } from "../name";
import { Requests } from "../requests";
import { replaceLocation } from "../router";
import { news, notice, say, timeOf, toMove, turnClock } from "../seats";
import { play } from "../sound";
import { stepWords } from "../steps";
import { tableHeader } from "../table-header";
import type { TableMode, TableModule, Teardown } from "../table";
import { timed } from "../timings";
import "./evensteven.css";

const ROOM_OPTIONS = ["n", "seed", "cardTimeLimitMs", "reconnectSeconds", "name"] as const;

interface Actions {
  play(card: string): void;
  newGame(): void;
  /** Whether a message of `control` is on its way. */
  pending(control?: string): boolean;
  /** False once the session ended (the seat taken over from another tab). */
  live: boolean;
}
const NO_ACTIONS: Actions = { play: () => undefined, newGame: () => undefined, pending: () => false, live: false };

const VALUE_WORDS: Record<string, string> = { J: "Jack", Q: "Queen", K: "King", A: "Ace" };

/** "a 9", "an 8", "a Queen": a card's value in words (suits do not count in Even-Steven). */
function valueWords(card: string): string {
  const value = VALUES[cardValue(card)];
  const word = VALUE_WORDS[value] ?? value;
  return `${/^(8|A)/.test(word) ? "an" : "a"} ${word}`;
}

/** The game as it ended: the whole hand, every card it had to cover, and the covers played. */
interface Ended {
  hand: string[];
  toCover: string[];
}

function endedGame(view: EvenStevenStateView): Ended | null {
  const unplayed = view.unplayed ?? [];
  const undealt = view.undealt ?? [];
  const hand = [...view.played, ...unplayed];
  const toCover = [...view.dealt, ...undealt];
  // A view from before the room showed these (an old record) cannot explain the verdict.
  return hand.length === view.handSize && toCover.length === view.handSize ? { hand, toCover } : null;
}

/** The covers that win, card by card (the lowest card that covers each keeps the higher ones), or null when none does. */
export function winningCovers(game: Ended): string[] | null {
  const hand = [...game.hand];
  const answers: string[] = [];
  for (const dealt of game.toCover) {
    const card = optimalPlay(hand, dealt);
    if (!covers(card, dealt)) return null;
    answers.push(card);
    hand.splice(hand.indexOf(card), 1);
  }
  return answers;
}

/** Why no order wins, counted from the top: more cards to cover of some value or higher than the hand holds. */
function whyNecessarily(game: Ended): string {
  const high = (cards: string[]) => [...cards].sort((a, b) => cardValue(b) - cardValue(a));
  const hand = high(game.hand);
  const toCover = high(game.toCover);
  const at = toCover.findIndex((card, index) => cardValue(hand[index]!) < cardValue(card));
  const bar = toCover[at]!;
  const many = toCover.filter((card) => cardValue(card) >= cardValue(bar)).length;
  const held = hand.filter((card) => cardValue(card) >= cardValue(bar)).length;
  const needed =
    many === 1
      ? `One of the cards to cover is ${valueWords(bar)} or higher`
      : `${many} of the cards to cover are ${valueWords(bar)} or higher`;
  const had = held === 0 ? "the hand held none that high" : `the hand held only ${held} that high`;
  return `${needed}, but ${had}, so some card had to go uncovered whatever the order.`;
}

interface Verdict {
  title: string;
  words: string[];
  /** The order of play that would have won, dealt card by dealt card, when the game was lost but winnable. */
  wins: Array<[dealt: string, cover: string]> | null;
}

/** The verdict in words, for the player (`mine`) or a spectator (the player's name). */
export function verdictOf(view: EvenStevenStateView, mine: boolean, name: string): Verdict {
  const who = mine ? "You" : name;
  const game = endedGame(view);
  const winning = game && winningCovers(game);
  const wins =
    game && winning && view.outcome !== "WIN"
      ? game.toCover.map((dealt, index): [string, string] => [dealt, winning[index]!])
      : null;
  switch (view.outcome) {
    case "WIN":
      return {
        title: `${who} won: every card covered`,
        words: [
          `${mine ? "You" : name} covered each of the ${view.handSize} cards dealt with a card of equal or higher value.`,
        ],
        wins,
      };
    case "LOSE NECESSARILY":
      return {
        title: `${who} lost — necessarily`,
        words: [
          "“Necessarily” means that no order of play could have won with this hand: the loss was dealt, not played.",
          game ? whyNecessarily(game) : "",
        ].filter(Boolean),
        wins,
      };
    case "LOSE UNNECESSARILY":
      return {
        title: `${who} lost — unnecessarily`,
        words: [
          "“Unnecessarily” means this hand could have won: some order of play covers every card, and the dealer (a smart alec, says the original game) points it out.",
          "Covering each card with the lowest card that covers it keeps the higher cards for later. This order would have won:",
        ],
        wins,
      };
    default:
      return {
        title: `${who} ran out of time`,
        words: [
          `A card waited longer than the time to answer, so the game is forfeited.${game ? (winning ? " The hand could have won." : " The hand could not have won anyway.") : ""}`,
        ],
        wins,
      };
  }
}

function coverPairs(pairs: ReadonlyArray<[string, string | undefined]>, label: string): HTMLElement {
  return h(
    "ol",
    { class: "cover-pairs", label },
    ...pairs.map(([dealt, cover]) =>
      h(
        "li",
        { class: "cover" },
        cardView(dealt, "small"),
        h("span", { text: cover === undefined ? " …" : " ← " }),
        cover === undefined ? null : cardView(cover, "small"),
      ),
    ),
  );
}

/** What the verdict rests on: the explanation, the winning order if any, the whole hand, the covers (the dialog's; the table shows its own) and the cards never dealt. */
function verdictBody(view: EvenStevenStateView, verdict: Verdict, mine: boolean, withCovers: boolean): Node[] {
  const game = endedGame(view);
  const undealt = view.undealt ?? [];
  return [
    ...verdict.words.map((text) => h("p", { text })),
    verdict.wins ? coverPairs(verdict.wins, "The order that would have won") : null,
    game
      ? h(
          "div",
          {},
          h("h3", { text: mine ? "Your hand as dealt" : "The hand as dealt" }),
          cardRow(game.hand, "The hand as dealt", "small"),
        )
      : null,
    withCovers && view.dealt.length > 0
      ? h(
          "div",
          {},
          h("h3", { text: "As played" }),
          coverPairs(
            view.dealt.map((dealt, index) => [dealt, view.played[index]]),
            "As played",
          ),
        )
      : null,
    h(
      "div",
      {},
      h("h3", { text: "Never dealt" }),
      undealt.length > 0
        ? cardRow(undealt, "Never dealt", "small")
        : h("p", { text: "Every card to cover was dealt." }),
    ),
    h("p", { class: "seed", text: `Seed ${view.revealedSeed}` }),
  ].filter((node): node is HTMLElement => node !== null);
}

/** The table drawn from a view: the one drawing of Even-Steven's table, live or replayed. */
export function drawTable(view: EvenStevenStateView, mode: TableMode, act: Actions = NO_ACTIONS): Node[] {
  const toCover = view.phase === "playing" && view.toCover !== "" ? view.toCover : "";
  const hand = view.player?.hand ?? [];
  const mine = mode === "play";
  const name = view.player?.name || "The player";
  const covers = coverPairs(
    view.dealt.map((dealt, index) => [dealt, view.played[index]]),
    "Covers",
  );
  const score = view.score;
  const idle = !act.live || act.pending("play");
  const cards = mine
    ? hand.map((card) =>
        cardButton(card, { enabled: toCover !== "" && !idle, onClick: () => act.play(card), key: `card:${card}` }),
      )
    : hand.map((card) => cardView(card));
  const state =
    view.phase === "over"
      ? "over"
      : view.phase === "playing"
        ? `card ${view.dealt.length} of ${view.handSize} · ${toMove(name, mine, "to cover")}`
        : "waiting";
  const away = view.player && !view.player.connected && mode !== "replay" ? " (away)" : "";
  const verdict = view.phase === "over" ? verdictOf(view, mine, name) : null;
  const handBox = h(
    "section",
    { class: "hand", label: mine ? "Your hand" : "Hand" },
    h("h2", {
      text: mine
        ? "Your hand"
        : `${name}'s hand${hand.length > 0 ? "" : `: ${view.cardsInHand} card${view.cardsInHand === 1 ? "" : "s"}`}${away}`,
    }),
    ...cards,
  );
  return [
    h("p", {
      class: "status",
      text: `Game ${view.game} · ${state}${mine || view.phase === "playing" ? "" : ` · player: ${name}`}${mine ? "" : away}`,
    }),
    h(
      "section",
      { class: "to-cover", label: "Card to cover" },
      h("h2", { text: "To cover" }),
      toCover ? cardView(toCover, "large") : h("span", { class: "placeholder", text: "—" }),
    ),
    mode === "replay" ? null : turnClock(toCover ? view.deadline : 0, timeOf(name, mine)),
    h("section", { class: "covers", label: "Covers" }, h("h2", { text: "Covers" }), covers),
    verdict
      ? h(
          "section",
          { class: "verdict", role: "status", label: "Verdict" },
          h("h2", { text: verdict.title }),
          ...verdictBody(view, verdict, mine, false),
        )
      : null,
    mode === "replay"
      ? null
      : h("p", {
          class: "score",
          text: `Games ${score.games} · won ${score.wins} · lost necessarily ${score.necessaryLosses} · lost unnecessarily ${score.unnecessaryLosses} · timed out ${score.timeOuts}`,
        }),
    mine
      ? h(
          "div",
          { class: "action-bar evensteven-bar" },
          handBox,
          button("New game", act.newGame, { disabled: view.phase !== "over" || !act.live || act.pending("newGame") }),
        )
      : handBox,
  ].filter((node): node is HTMLElement => node !== null);
}

function tablePage(session: EvenStevenSpectator, root: HTMLElement, player: EvenStevenPlayer | null): Teardown {
  const region = h("div", { class: "table evensteven" });
  const refusals = notice();
  const header = tableHeader(player ? "Even-Steven" : "Watching Even-Steven", "evensteven");
  root.append(header.element, refusals, news(), region);
  let view: EvenStevenStateView | undefined;
  let live = player !== null;
  const render = timed(() => view && draw(region, ...drawTable(view, player ? "play" : "watch", act)));
  const requests = new Requests(refusals, () => render());
  const newGame = () => requests.send("newGame", () => player!.newGame());
  const act: Actions = player
    ? {
        play: (card) => void requests.send("play", () => player.play(card)),
        newGame: () => void newGame(),
        pending: (control) => requests.pending(control),
        live: true,
      }
    : NO_ACTIONS;
  const stop = session.onView((next) => {
    const before = view;
    view = next;
    header.update({
      rules: `A hand of ${next.handSize || "?"} cards against the dealer`,
      spectators: next.spectators,
      seal: next.seal,
    });
    if (next.phase === "playing" && before?.phase === "over") closeEnding();
    if (next.toCover !== "" && next.toCover !== before?.toCover) play(player ? "turn" : "card");
    if (next.phase === "over" && player) {
      const verdict = verdictOf(next, true, "");
      showEnding({
        key: `evensteven:${session.roomId}:${next.game}`,
        title: verdict.title,
        body: verdictBody(next, verdict, true, true),
        playAgain: live
          ? () =>
              newGame().then((accepted) => {
                if (!accepted) throw new Error(refusals.textContent || "the dealer did not deal again");
              })
          : undefined,
      });
    }
    render();
  });
  session.onError((error) => say(refusals, inWords(error)));
  session.onLeave(() => {
    live = false;
    act.live = false;
    say(refusals, endedInWords(session.ended));
    render();
  });
  const unguard = player
    ? guardSeat(() =>
        live && view?.phase === "playing"
          ? "Leave your seat? The game goes on: come back soon (Forward, or this table's address) or the dealer calls time."
          : null,
      )
    : () => undefined;
  return () => {
    stop();
    unguard();
    void (player ? session.leave({ keepSeat: true }) : session.leave());
  };
}

/** A replay frame as the live table's view: the whole table (the hand shown) with the record's player. */
function viewOfFrame(frame: ReplayFrame, record: GameRecord): EvenStevenStateView {
  const position = wholeTableView(frame.table as EvenStevenPositionView, frame.seats as EvenStevenPositionView[]);
  const score = { games: 0, wins: 0, necessaryLosses: 0, unnecessaryLosses: 0, timeOuts: 0 };
  const table: EvenStevenTableView = {
    game: record.match,
    deadline: 0,
    score,
    player: { name: record.seats[0]?.name ?? "", connected: true },
    spectators: 0,
  };
  return mergeViews(position, { ...table, seal: sealOfRecord(record) }) as EvenStevenStateView;
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
      return `Verdict: ${verdictWords(event.payload.outcome)} (seed ${event.payload.seed})`;
  }
}

function verdictWords(outcome: string): string {
  return (
    (
      {
        WIN: "won",
        "LOSE NECESSARILY": "lost necessarily (no order of play could win)",
        "LOSE UNNECESSARILY": "lost unnecessarily (some order of play would have won)",
      } as Record<string, string>
    )[outcome] ?? "time ran out"
  );
}

function actionWords(action: EvenStevenAction): string {
  return action.type === "play" ? `played ${cardName(action.card)}` : "called time";
}

export const evenStevenTable: TableModule = {
  async watch(client: CardhallClient, roomId: string, root: HTMLElement) {
    return tablePage(await client.spectateEvenSteven(roomId), root, null);
  },

  async play(client: CardhallClient, roomId: string | undefined, root: HTMLElement) {
    const session = await rejoinOr(
      roomId,
      (token) => client.reconnectEvenSteven(token),
      () => client.playEvenSteven({ name: joinName("Guest"), ...queryOptions(ROOM_OPTIONS) }),
    );
    replaceLocation(`/play/evensteven?room=${session.roomId}`);
    return tablePage(session, root, session);
  },

  replayStep(frame, record) {
    return {
      table: drawTable(viewOfFrame(frame, record), "replay"),
      words: stepWords(
        frame,
        record,
        actionWords,
        frame.events.map((event) => eventWords(event as EvenStevenEngineEvent)),
      ),
    };
  },
};
