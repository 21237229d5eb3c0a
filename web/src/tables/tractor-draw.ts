/**
 * The drawing of a Tractor table from a view, the same for the live table and a replay's frame: the seats around
 * the table, the trick in the middle and the last trick, the trumps and status lines, the score panel, the round's
 * result and the trick history. What moves and one's own hand come from the live page (DrawParts).
 */
import {
  ownTractorSeat,
  TRACTOR_SEATS,
  type TractorSeat,
  type TractorSeatName,
  type TractorStateView,
  type TractorTrick,
} from "../../../client-sdk/index";
import { cardBacks, cardRow, suitView } from "../cards";
import { h } from "../dom";
import { seatView, timeOf, toMove, turnClock, type Holder } from "../seats";
import type { TableMode } from "../table";
import { levelsWords } from "./tractor-ending";
import { handControls, type SeatControls } from "./tractor-hand";
import type { Motion } from "./tractor-motion";
import { TAKE_OVER, type TableRules } from "./tractor-rules";
import { capital, declaringTeam, nameFor, seatPerson, teamWords } from "./tractor-seat-words";
import { handInSuits, LEVELS, pointCardsTaken, rankName } from "./tractor-words";

const POSITIONS = ["south", "west", "north", "east"] as const;
type Position = (typeof POSITIONS)[number];

function seatBox(
  view: TractorStateView,
  seat: TractorSeat,
  position: Position,
  mine: boolean,
  cards: Node[] | null,
  botLevel?: string,
): HTMLElement {
  const level = botLevel && botLevel !== "normal" ? botLevel : undefined;
  const holder: Holder = mine
    ? { kind: "you" }
    : seat.occupant === "person"
      ? { kind: "person", name: seat.player }
      : seat.occupant === "bot"
        ? { kind: "computer", level }
        : { kind: "open" };
  const dealer = view.dealer === seat.seat && view.phase !== "waiting" ? "deals" : "";
  const box = seatView(
    {
      name: seat.seat,
      holder,
      connected: seat.connected || seat.occupant !== "person",
      cards: seat.handCount,
      active: view.turn === seat.seat,
      extra: [`team ${seat.team}`, dealer].filter(Boolean).join(" · "),
    },
    cards ?? [cardBacks(seat.handCount, `${seat.seat}'s hand`)],
  );
  box.classList.add(`pos-${position}`);
  return box;
}

interface TrickMotion {
  motion: Motion | null;
  round: number;
  /** The trick's number in the round (1 for the first). */
  number: number;
}

/** A trick's plays, each placed on the side of the table its seat sits on (and moving in from there when new). */
function trickView(
  trick: TractorTrick,
  label: string,
  positionOf: (seat: string) => Position,
  nameOf: (seat: string) => string,
  moving?: TrickMotion,
  extra = "",
): HTMLElement {
  return h(
    "div",
    { class: `trick${extra ? ` ${extra}` : ""}`, role: "group", label },
    ...trick.plays.map((play, index) => {
      const since = moving?.motion?.arriving(moving.round, moving.number, index);
      const slot = h(
        "div",
        { class: `play at-${positionOf(play.seat)}${since === undefined ? "" : " arriving"}` },
        h("span", { class: "play-name", text: nameOf(play.seat) }),
        cardRow(play.cards, `${play.seat} played`, "small"),
      );
      if (since !== undefined) slot.style.animationDelay = `${-Math.round(since)}ms`;
      return slot;
    }),
  );
}

/** What a seat's box holds beside its name: every hand in a replay, else backs (one's own hand is in the action bar). */
function seatCards(view: TractorStateView, seat: TractorSeat, mode: TableMode, own: boolean): Node[] | null {
  if (own && mode === "play") return [];
  if (mode !== "replay" || seat.hand === undefined) return null;
  const buried = seat.buried ?? [];
  const hand = handInSuits(seat.hand, view.mainSuit, view.currentRank);
  return [
    cardRow(hand, `${seat.seat}'s hand`, "small"),
    buried.length > 0
      ? h("div", { class: "buried" }, `${seat.seat} buried: `, cardRow(buried, `${seat.seat} buried`, "small"))
      : h("span"),
  ];
}

function rankPlural(rank: number): string {
  return ({ 11: "jacks", 12: "queens", 13: "kings", 14: "aces" } as Record<number, string>)[rank] ?? `${rank}s`;
}

/** The trumps in words: declared or not, never both. */
function trumpsLine(view: TractorStateView, mine: string): HTMLElement {
  const declarer = nameFor(view, view.declaration.seat, mine);
  const rank = rankPlural(view.currentRank);
  const attrs = { "data-current-rank": String(view.currentRank) };
  if (view.phase === "waiting")
    return h("p", { class: "trumps", attrs, text: "Trumps are chosen when the cards are dealt." });
  if (view.mainSuit === "") {
    return view.declaration.seat
      ? h(
          "p",
          { class: "trumps", attrs },
          `Trumps so far: declared by ${declarer} with `,
          cardRow(view.declaration.cards, "Declaration", "small"),
          ` · the ${rank} and the jokers are trumps`,
        )
      : h("p", { class: "trumps", attrs, text: `Trumps: not declared yet · the ${rank} and the jokers are trumps` });
  }
  const declared = view.declaration.seat
    ? h("span", {}, ` (declared by ${declarer} with `, cardRow(view.declaration.cards, "Declaration", "small"), ")")
    : null;
  if (view.mainSuit === "O")
    return h("p", { class: "trumps", attrs }, `No trump suit: the ${rank} and the jokers are the trumps`, declared);
  return h(
    "p",
    { class: "trumps", attrs },
    "Trumps: ",
    suitView(view.mainSuit),
    declared,
    `, the ${rank} and the jokers`,
  );
}

/** The status line: who must act, in words. */
function statusWords(view: TractorStateView, mine: string): string {
  const turn = view.turn === "" ? "" : seatPerson(view, view.turn);
  const round = view.round > 0 ? `Round ${view.round} · ` : "";
  switch (view.phase) {
    case "waiting": {
      const open = view.seats.filter((seat) => seat.occupant === "open").length;
      return open > 0 ? `Waiting for ${open} more player${open === 1 ? "" : "s"}` : "The cards are about to be dealt";
    }
    case "declaring":
      return `${round}Dealing: ${view.dealt} of 100 cards · a ${rankName(view.currentRank)} declares trumps`;
    case "burying":
      return `${round}${view.turn === mine ? "Your turn: bury 8 cards" : `${turn} is burying 8 cards`}`;
    case "playing":
      return `${round}${toMove(turn, view.turn === mine, "to play")}`;
    case "roundOver":
      return `${round}Round over · the next round is dealt in a moment`;
    case "matchOver":
      return `${round}Match over · ${view.winner ? `${capital(teamWords(view, view.winner, mine))} won` : "finished"}`;
  }
}

/** The score panel: the teams (who declares, who defends), the defenders' points and point cards, the ranks. */
function scorePanel(view: TractorStateView, mine: string): HTMLElement {
  const playing = view.phase !== "waiting";
  const declarers = declaringTeam(view);
  const defenders = declarers === 1 ? 2 : 1;
  const defenderSeats = view.seats.filter((seat) => seat.team === defenders).map((seat) => seat.seat as string);
  const points = pointCardsTaken(view.tricks, defenderSeats);
  const teams = ([1, 2] as const).map((team) => {
    const rank = view.teamRanks[team - 1] ?? 2;
    const role = !playing ? "" : team === declarers ? "declaring" : "defending";
    return h(
      "div",
      { class: `team${role ? ` ${role}` : ""}` },
      h(
        "p",
        { class: "team-name" },
        h("strong", { text: `Team ${team}: ${capital(teamWords(view, team, mine))}` }),
        role ? h("span", { class: "role", text: role }) : null,
      ),
      h(
        "ol",
        { class: "level-track", label: `Team ${team}'s rank: ${rankName(rank)}` },
        ...LEVELS.map((level) =>
          h("li", {
            class: level === rank ? "at" : level < rank ? "passed" : "",
            text: rankName(level),
            attrs: level === rank ? { "aria-current": "step" } : {},
          }),
        ),
      ),
    );
  });
  const penalty = view.penaltyPoints
    ? ` (failed throws ${view.penaltyPoints > 0 ? "+" : ""}${view.penaltyPoints})`
    : "";
  return h(
    "section",
    { class: "score", label: "Score" },
    ...teams,
    playing
      ? h("p", {
          class: "defenders",
          attrs: { "data-defender-points": String(view.defenderPoints) },
          text: `Defenders' points: ${view.defenderPoints}${penalty} · ${TAKE_OVER} take over`,
        })
      : null,
    playing
      ? points.length > 0
        ? cardRow(points, "Point cards the defenders took", "small")
        : h("p", { class: "placeholder", text: "No point cards taken yet" })
      : null,
  );
}

export interface DrawParts {
  controls: SeatControls | null;
  /** The bots' levels, to name them ("Computer (strong)"); the usual level is not said. */
  botLevels?: TableRules["botLevels"];
  afterTrick: ReadonlyMap<string, number>;
  motion?: Motion;
  ended?: boolean;
}

/** The table drawn from a view: the one drawing of Tractor's table, live or replayed. */
export function drawTable(view: TractorStateView, mode: TableMode, parts: DrawParts): Node[] {
  const { controls, afterTrick, motion = null, ended = false } = parts;
  // A replay's view holds every hand: none of them is "yours", and Alice sits at the bottom.
  const mineIndex = mode === "play" ? ownTractorSeat(view) : undefined;
  const mine = mineIndex === undefined ? "" : TRACTOR_SEATS[mineIndex];
  const south = mineIndex ?? 0;
  const positionOf = (seat: string) => POSITIONS[(TRACTOR_SEATS.indexOf(seat as TractorSeatName) - south + 4) % 4];
  const nameOf = (seat: string) => (seat === mine ? "You" : seatPerson(view, seat));
  const seats = view.seats.map((seat, index) =>
    seatBox(
      view,
      seat,
      positionOf(seat.seat),
      index === mineIndex,
      seatCards(view, seat, mode, index === mineIndex),
      parts.botLevels?.[seat.seat],
    ),
  );
  const history = view.tricks.map((trick, index) => {
    const defenders = afterTrick.get(`${view.round}:${index + 1}`);
    const seen = defenders === undefined ? "" : ` (defenders ${defenders})`;
    return h(
      "li",
      { class: "past-trick", attrs: { "data-trick": String(index + 1), "data-defenders": String(defenders ?? "") } },
      h("span", { text: `Trick ${index + 1}: ${nameOf(trick.winner)} won ${trick.points}${seen} ` }),
      trickView(trick, `Trick ${index + 1}`, positionOf, nameOf),
    );
  });
  const done = view.tricks.length;
  const last = view.tricks[done - 1];
  // A finished trick stays in the middle a moment (TRICK_LINGER_MS), the next trick's first plays beside it; a
  // replay shows it until the next trick's lead.
  const lingering =
    last !== undefined && (mode === "replay" ? view.trick.plays.length === 0 : (motion?.lingering() ?? false));
  const finished = lingering
    ? trickView(
        last,
        `Trick ${done}, won by ${nameOf(last.winner)}`,
        positionOf,
        nameOf,
        { motion, round: view.round, number: done },
        "finished",
      )
    : null;
  const underWay =
    view.trick.plays.length > 0
      ? trickView(
          view.trick,
          "Trick under way",
          positionOf,
          nameOf,
          { motion, round: view.round, number: done + 1 },
          lingering ? "next" : "",
        )
      : null;
  const lastTrick = last
    ? h(
        "section",
        {
          class: `last-trick${lingering ? " just-won" : ""}`,
          role: "region",
          label: "Last trick",
          attrs: { "data-trick": String(done) },
        },
        h("h2", { text: `Last trick: ${nameOf(last.winner)} won ${last.points} point${last.points === 1 ? "" : "s"}` }),
        ...last.plays.map((play) =>
          h(
            "div",
            { class: "play" },
            h("span", { class: "play-name", text: nameOf(play.seat) }),
            cardRow(play.cards, `${play.seat} played`, "small"),
          ),
        ),
      )
    : null;
  const middle = h(
    "div",
    { class: "middle" },
    h(
      "div",
      { class: "trick-area" },
      finished
        ? h(
            "div",
            { class: "finished-wrap" },
            finished,
            h("p", {
              class: "won-by",
              text: `${capital(nameOf(last.winner))} ${last.winner === mine ? "win" : "wins"} ${last.points} point${last.points === 1 ? "" : "s"}`,
            }),
          )
        : null,
      underWay ?? (finished ? null : h("p", { class: "placeholder", text: middleWords(view, mine) })),
    ),
    mode === "replay"
      ? null
      : turnClock(view.deadline, view.turn ? timeOf(seatPerson(view, view.turn), view.turn === mine) : ""),
    lastTrick,
  );
  const result = view.result;
  const own = mineIndex === undefined ? undefined : view.seats[mineIndex];
  return [
    h(
      "div",
      { class: "tractor-status" },
      h("p", { class: "status", text: statusWords(view, mine) }),
      trumpsLine(view, mine),
    ),
    h("div", { class: "tractor-table" }, ...seats, middle),
    own && controls ? handControls(view, own, controls, ended) : null,
    scorePanel(view, mine),
    result
      ? h(
          "section",
          { class: "verdict", role: "status", label: "Round result" },
          h("h2", {
            text: `Round ${view.round}: defenders scored ${result.defenderPoints} (bonus ${result.hiddenBonus} from the buried cards)`,
          }),
          cardRow(result.hiddenCards, "Buried cards", "small"),
          h("p", {
            text: `${result.make ? "The declarers held" : "The defenders took over"}: ${result.levels > 0 ? `${teamWords(view, result.team, mine)} go up ${levelsWords(result.levels)}` : "no rank moves"} · ranks now ${result.teamRanks.map(rankName).join(" and ")} · next dealer ${result.nextDealer} · seed ${result.seed}`,
          }),
        )
      : null,
    h(
      "section",
      { class: "history" },
      h("h2", { text: "Tricks" }),
      h("ol", { class: "tricks", label: "Trick history" }, ...history),
    ),
  ].filter((node): node is HTMLElement => node !== null);
}

/** What the middle says when no trick is on it. */
function middleWords(view: TractorStateView, mine: string): string {
  switch (view.phase) {
    case "waiting":
      return "Waiting for the deal";
    case "declaring":
      return `Dealing: ${view.dealt} of 100 cards`;
    case "burying":
      return view.turn === mine ? "Choose 8 cards to bury" : `${seatPerson(view, view.turn)} is burying 8 cards`;
    case "playing":
      return view.turn === mine ? "Your lead" : `${seatPerson(view, view.turn)} leads`;
    default:
      return "The round is over";
  }
}
