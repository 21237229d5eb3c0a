/**
 * Tractor: four seats around the table (who holds each, hand sizes), the trick under way in the middle (each card
 * moving in from its seat; a finished trick stays there a moment, and the previous trick stays in "Last trick"),
 * the trumps in words, a score panel (teams, who declares and who defends, the defenders' points and point cards,
 * each team's rank on a level track), the trick history, and each round's and the match's end in a dialog. A
 * person takes a seat beside bots (or friends by link): their hand, grouped by suit with the trumps first, and
 * the Play, Bury, Declare and Suggest buttons sit in an action bar (kept at the bottom on a phone); the cards the
 * room's `hint` allows are the enabled ones (tractor-selection.ts). Tables started here check throws against the
 * other hands unless the address says otherwise, and the header says which rules apply. Anyone may watch: a
 * spectator's page holds no hand (the room sends none). A finished game's replay shows every hand.
 */
import "./tractor.css";
import {
  ownTractorSeat,
  TRACTOR_SEATS,
  type CardhallClient,
  type TractorPlayedEvent,
  type TractorPlayer,
  type TractorSpectator,
  type TractorStateView,
} from "../../../client-sdk/index";
import type { TractorEngineEvent } from "../../../rooms/tractor/match";
import { endedInWords, inWords, keepSeat, queryOptions, rejoinOr } from "../connection";
import { draw, h } from "../dom";
import { guardSeat } from "../leaving";
import { joinName } from "../name";
import { Requests } from "../requests";
import { navigate, replaceLocation } from "../router";
import { news, notice, say } from "../seats";
import { play as playSound } from "../sound";
import { stepWords } from "../steps";
import { tableHeader } from "../table-header";
import type { TableModule, Teardown } from "../table";
import { timed } from "../timings";
import { drawTable } from "./tractor-draw";
import { showRoundEnding } from "./tractor-ending";
import { SeatControls } from "./tractor-hand";
import { Motion } from "./tractor-motion";
import { actionWords, eventWords, viewOfFrame } from "./tractor-replay";
import {
  keepOptions,
  keptOptions,
  listedRules,
  seatForFriend,
  type StartOptions,
  type TableRules,
} from "./tractor-rules";
import { seatPerson } from "./tractor-seat-words";
import { cardsShort, rankNumber, rulesWords, startRanksOption } from "./tractor-words";

const ROOM_OPTIONS = [
  "trump",
  "mainSuit",
  "dealer",
  "seed",
  "turnTimeMs",
  "reconnectSeconds",
  "botDelayMs",
  "dealDelayMs",
  "declareWindowMs",
  "startDelayMs",
  "roundPauseMs",
  "throws",
  "startRanks",
  "botLevel",
  "name",
] as const;
/**
 * How many legal plays the page asks the hint for. The room lists 500 by default, which a lead from a long trump
 * holding exceeds (every sub-multiset of one suit is a lead); 2,000 covers nearly every hand, and a longer list
 * is still handled: the page lets the room judge. `?hintLimit=` sets it (the tests make a list incomplete).
 */
const HINT_LIMIT = 2_000;
const LEAVE_QUESTION = "Leave your seat? The bots will play it until you come back.";

interface PageSetup {
  client: CardhallClient;
  hintLimit: number;
  rules: TableRules;
}

function tablePage(
  session: TractorSpectator,
  root: HTMLElement,
  player: TractorPlayer | null,
  setup: PageSetup,
): Teardown {
  const header = tableHeader(player ? "Tractor" : "Watching Tractor", "tractor");
  const region = h("div", { class: "table tractor" });
  const refusals = notice();
  const newsLine = news();
  let view: TractorStateView | undefined;
  let ended = false;
  /** The defenders' points this page showed after each trick of the round (what a person saw, trick by trick). */
  const afterTrick = new Map<string, number>();
  const render = timed(() => {
    if (!view) return;
    header.update({ rules: rulesWords(setup.rules), spectators: view.spectators, seal: view.seal });
    draw(
      region,
      ...drawTable(view, controls ? "play" : "watch", {
        controls,
        afterTrick,
        motion,
        ended,
        botLevels: setup.rules.botLevels,
      }),
    );
  });
  const motion = new Motion(() => render());
  const requests = new Requests(refusals, () => render());
  const controls = player
    ? new SeatControls(
        player,
        requests,
        () => render(),
        (error) => say(refusals, inWords(error)),
        setup.hintLimit,
      )
    : null;
  root.classList.add("tractor-page");
  root.append(header.element, refusals, newsLine, region);
  let turnSaid = "";
  let roundShown = 0;
  const stop = session.onView((next) => {
    view = next;
    if (next.tricks.length > 0) afterTrick.set(`${next.round}:${next.tricks.length}`, next.defenderPoints);
    motion.follow(next);
    controls?.follow(next);
    const mine = ownTractorSeat(next);
    const myTurn =
      mine !== undefined && next.turn === TRACTOR_SEATS[mine] && (next.phase === "playing" || next.phase === "burying")
        ? `${next.round}:${next.step}`
        : "";
    if (myTurn && myTurn !== turnSaid) playSound("turn");
    turnSaid = myTurn;
    render();
    roundShown = showRoundEnding(next, roundShown, player ? () => playAgain(next) : undefined);
  });
  session.on("played", (event) => {
    playSound("card");
    if (!view) return;
    const mine = ownTractorSeat(view);
    const own = mine !== undefined && TRACTOR_SEATS[mine] === event.seat;
    const words = playedNews(view, event, own);
    if (words === "") return;
    // One's own failed throw is said where refusals are said: the room did not play what was chosen.
    if (own && event.failedThrow) say(refusals, words);
    else say(newsLine, words);
  });
  session.on("roundStart", () => say(newsLine, ""));
  session.onError((error) => say(refusals, inWords(error)));
  session.onLeave(() => {
    ended = true;
    say(refusals, endedInWords(session.ended));
    render();
  });
  /** A new match in the same seats with the same options: the room has no "new match", so a new table is made and the page goes there. */
  const playAgain = (last: TractorStateView) => async () => {
    const mine = ownTractorSeat(last);
    const seat = mine === undefined ? "Alice" : TRACTOR_SEATS[mine];
    // The same options but a fresh deal: a seed fixed in the address would deal the very same match again.
    const { seed: _dealt, ...options } =
      keptOptions(session.roomId) ??
      (setup.rules.throws ? { throws: setup.rules.throws as StartOptions["throws"] } : {});
    const bots = TRACTOR_SEATS.filter((name, index) => name !== seat && last.seats[index].occupant !== "person");
    const next = await setup.client.playTractor({ ...options, name: joinName("Guest"), seat, bots });
    keepOptions(next.roomId, options);
    keepSeat(next);
    // The seat is kept for its reconnection window: the table's page takes it back with the token just kept.
    await next.leave({ keepSeat: true });
    navigate(`/play/tractor?room=${next.roomId}`);
  };
  const unguard = player ? guardSeat(() => (view && !ended && inMatch(view) ? LEAVE_QUESTION : null)) : () => undefined;
  return () => {
    stop();
    unguard();
    motion.stop();
    // A person leaving the page keeps the seat (Back then Forward takes it again) unless the match is over.
    void session.leave({ keepSeat: player !== null && view?.phase !== "matchOver" }).catch(() => undefined);
  };
}

function inMatch(view: TractorStateView): boolean {
  return view.phase !== "waiting" && view.phase !== "matchOver";
}

/** News of a play: the clock playing for the person, a failed throw (anyone's). */
function playedNews(view: TractorStateView, event: TractorPlayedEvent, own: boolean): string {
  const who = own ? "You" : seatPerson(view, event.seat);
  const failed = event.failedThrow;
  const clock = own && event.auto ? `The clock played for you: ${cardsShort(event.cards)}.` : "";
  if (!failed) return clock;
  const points =
    failed.penalty > 0 ? `the defenders get ${failed.penalty} points` : `the defenders lose ${-failed.penalty} points`;
  const throwWords = `${own ? "Your" : `${who}'s`} throw of ${cardsShort(failed.attempted)} failed: another hand beats part of it, so ${own ? "you" : who} played ${cardsShort(event.cards)} instead and ${points}.`;
  return [clock, throwWords].filter(Boolean).join(" ");
}

export const tractorTable: TableModule = {
  async watch(client: CardhallClient, roomId: string, root: HTMLElement) {
    const rules = await listedRules(client, roomId);
    return tablePage(await client.spectateTractor(roomId), root, null, { client, hintLimit: HINT_LIMIT, rules });
  },

  async play(client: CardhallClient, roomId: string | undefined, root: HTMLElement) {
    const query = queryOptions(ROOM_OPTIONS);
    const { name, startRanks, botLevel, ...rest } = query;
    // Tables started here check throws against the other hands (real Tractor) unless the address says otherwise.
    // `botLevel` (the lobby's choice) is every bot seat's level.
    const levels =
      typeof botLevel === "string" && botLevel !== "normal"
        ? { botLevels: Object.fromEntries(TRACTOR_SEATS.map((seat) => [seat, botLevel])) }
        : {};
    const options = {
      throws: "check-other-hands",
      ...rest,
      ...levels,
      ...(startRanks === undefined ? {} : { startRanks: startRanksOption(startRanks) }),
    } as StartOptions;
    // Read before the address becomes the room's: not a room option, the page's own.
    const hintLimit = Number(new URLSearchParams(location.search).get("hintLimit")) || HINT_LIMIT;
    const known: TableRules = { throws: options.throws, startRanks: options.startRanks?.map(rankNumber) };
    if (new URLSearchParams(location.search).get("watch") === "bots") {
      // The page that creates a table of bots watches it (a table nobody watches would close at once).
      const watcher = await client.watchTractor({ ...options, bots: [...TRACTOR_SEATS] });
      replaceLocation(`/watch/${watcher.roomId}`);
      return tablePage(watcher, root, null, {
        client,
        hintLimit,
        rules: await listedRules(client, watcher.roomId, known),
      });
    }
    const person = typeof name === "string" && name ? name : joinName("Guest");
    const session = await rejoinOr(
      roomId,
      (token) => client.reconnectTractor(token),
      async () =>
        roomId
          ? client.joinTractor(roomId, { name: person, seat: await seatForFriend(client, roomId) })
          : client.playTractor({ ...options, name: person, seat: "Alice", bots: ["Bob", "Charles", "David"] }),
    );
    if (roomId === undefined) keepOptions(session.roomId, options);
    replaceLocation(`/play/tractor?room=${session.roomId}`);
    const kept = keptOptions(session.roomId);
    const rules = await listedRules(
      client,
      session.roomId,
      kept ? { throws: kept.throws, startRanks: kept.startRanks?.map(rankNumber) } : {},
    );
    const close = tablePage(session, root, session, { client, hintLimit, rules });
    root.append(
      h("p", {
        class: "share",
        text: `A friend takes a bot's seat with this link: ${location.origin}/play/tractor?room=${session.roomId}`,
      }),
    );
    return close;
  },

  replayStep(frame, record) {
    return {
      table: drawTable(viewOfFrame(frame, record), "replay", { controls: null, afterTrick: new Map() }),
      words: stepWords(
        frame,
        record,
        actionWords,
        frame.events.map((event) => eventWords(event as TractorEngineEvent)),
        (seat) => TRACTOR_SEATS[seat] ?? `Seat ${seat + 1}`,
      ),
    };
  },
};
