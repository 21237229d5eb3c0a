/**
 * One game of Fool as a match engine (rooms/kit/engine.ts), on the rules (rules.ts): the seats make every move;
 * the dealer (the table) has nothing to do once the cards are dealt. Pure: the deal is the seed's shuffle, the
 * game ends when one player is left the Fool or when it hits its move cap ("capped"). The events are the wire
 * events' data (protocol.ts); the room adds what only the table knows (the room's game number, who moved, the
 * turn's deadline, the seats' names and wins).
 */
import {
  DEALER,
  refuse,
  SPECTATOR,
  type Actor,
  type GameEvent,
  type MatchEngine,
  type Outcome,
  type Viewer,
} from "../kit/engine";
import { seededRandom } from "../kit/random";
import { greedyPolicy } from "./bots";
import { isJoker } from "./cards";
import type {
  FoolErrorCode,
  FoolMoveEvent,
  FoolOutcome,
  FoolOverEvent,
  FoolPositionView,
  FoolStartEvent,
} from "./protocol";
import {
  applyMove,
  formatLaid,
  legalMoves,
  newGame,
  viewFor,
  type FoolEvent,
  type FoolMove,
  type FoolState,
  type FoolView,
} from "./rules";

export const FOOL_SEATS = 2;

export interface FoolOptions {
  /** The seat that deals: its left neighbour takes the face-up card's effect and moves first. */
  readonly dealer: number;
  /** A game still running after this many moves ends "capped". */
  readonly maxMoves: number;
  /** How many seats (2 in the room). */
  readonly seats?: number;
}

export interface FoolMatch {
  readonly game: FoolState;
  /** Stays hidden until the game is over. */
  readonly seed: number;
  readonly maxMoves: number;
  /** Set once the game is over. */
  readonly outcome: FoolOutcome | null;
}

/** The engine's part of each wire event; the room's wire() adds the rest. */
export type FoolStartData = Omit<FoolStartEvent, "game" | "seats" | "deadline">;
export type FoolMoveData = Omit<FoolMoveEvent, "game" | "by" | "deadline">;
export type FoolOverData = Omit<FoolOverEvent, "game" | "wins">;

export type FoolEngineEvent =
  | GameEvent<"start", FoolStartData>
  | GameEvent<"move", FoolMoveData>
  | GameEvent<"over", FoolOverData>;

export type FoolResult = FoolOverData;

function seatsOf(options: FoolOptions): number {
  return options.seats ?? FOOL_SEATS;
}

function position(game: FoolState): Pick<FoolMoveData, "faceUpText" | "handCounts" | "deckCount" | "turn"> {
  return {
    faceUpText: formatLaid(game.faceUp),
    handCounts: game.hands.map((hand) => hand.length),
    deckCount: game.deck.length,
    turn: game.turn,
  };
}

/** The move as the rules recorded it (a play rebuilt from its `played` event, so nothing the sender added is echoed). */
export function moveMade(events: readonly FoolEvent[]): FoolMove {
  const first = events[0];
  if (first.type !== "played") return first.type === "passed" ? { kind: "pass" } : { kind: "draw" };
  const { card, as, namedSuit } = first.faceUp;
  return {
    kind: "play",
    card,
    ...(isJoker(card) ? { as } : {}),
    ...(namedSuit !== null ? { namedSuit } : {}),
  };
}

function resultOf(match: FoolMatch): FoolResult | undefined {
  const { game, outcome } = match;
  if (outcome === null) return undefined;
  return {
    outcome,
    fool: outcome === "fool" ? game.fool : null,
    winners: [...game.finished],
    seed: match.seed,
    dealer: game.dealer,
    moves: game.moveCount,
  };
}

function move(match: FoolMatch, seat: number, action: FoolMove): Outcome<FoolMatch, FoolEngineEvent, FoolErrorCode> {
  const { game } = match;
  if (typeof action !== "object" || action === null)
    return refuse("ILLEGAL_MOVE", "Unknown move: play a card, draw or pass.");
  const applied = applyMove(game, seat, action);
  if (!applied.ok) return refuse(seat === game.turn ? "ILLEGAL_MOVE" : "NOT_YOUR_TURN", applied.reason);
  const next = applied.state;
  const outcome: FoolOutcome | null =
    next.phase === "over" ? "fool" : next.moveCount >= match.maxMoves ? "capped" : null;
  const state: FoolMatch = { ...match, game: next, outcome };
  const moved: FoolEngineEvent = {
    name: "move",
    payload: {
      number: next.moveCount,
      seat,
      move: moveMade(applied.events),
      events: [...applied.events],
      ...position(next),
    },
  };
  if (outcome === null) return { ok: true, state, events: [moved] };
  return { ok: true, state, events: [moved, { name: "over", payload: resultOf(state)! }] };
}

/** The engine's own bot: the greedy baseline, its ties broken by dice seeded from what the seat sees. */
function greedyMove(match: FoolMatch, seat: number): FoolMove | undefined {
  if (match.outcome !== null || match.game.turn !== seat) return undefined;
  return greedyMoveInView(viewFor(match.game, seat), match.game.moveCount);
}

/**
 * The engine's bot from a seat's own view and the move count: a client holding the seat's view (the bridge's
 * suggestion) gets the very move the room's bot would make.
 */
export function greedyMoveInView(view: FoolView, moveCount: number): FoolMove {
  return greedyPolicy(view, seededRandom(`${view.hand.join(" ")}|${moveCount}`));
}

export const foolEngine: MatchEngine<
  FoolOptions,
  FoolMatch,
  FoolMove,
  FoolEngineEvent,
  FoolPositionView,
  FoolResult,
  FoolErrorCode
> = {
  seatCount: seatsOf,

  start(options, seed) {
    const game = newGame(seededRandom(seed), seatsOf(options), options.dealer);
    const start: FoolEngineEvent = {
      name: "start",
      payload: { dealer: game.dealer, faceUp: game.faceUp, ...position(game) },
    };
    return { ok: true, state: { game, seed, maxMoves: options.maxMoves, outcome: null }, events: [start] };
  },

  apply(match, actor: Actor, action) {
    if (match.outcome !== null) return refuse("NO_GAME", "the game is over; send newGame to play again");
    if (actor === DEALER) return refuse("NOT_YOUR_TURN", "in Fool only the seats move");
    return move(match, actor, action);
  },

  /** A seat sees its own hand and what it may do; a spectator only what is public; every hand once the game is over. */
  view(match, viewer: Viewer): FoolPositionView {
    const { game, outcome } = match;
    const over = outcome !== null;
    const seat = viewer === SPECTATOR ? null : viewer;
    const seen = seat === null || over ? null : viewFor(game, seat);
    return {
      phase: over ? "over" : "playing",
      dealer: game.dealer,
      // Every hand is shown to everyone once the game is over (the Fool's cards, the AI's).
      seats: game.hands.map((hand, index) => {
        const revealed = over ? [...hand] : [];
        return index === seat
          ? {
              handCount: hand.length,
              revealed,
              hand: [...hand],
              canDraw: seen?.canDraw ?? false,
              canPass: seen?.canPass ?? false,
            }
          : { handCount: hand.length, revealed };
      }),
      faceUp: {
        card: game.faceUp.card,
        as: game.faceUp.as,
        namedSuit: game.faceUp.namedSuit ?? "",
        text: formatLaid(game.faceUp),
      },
      deckCount: game.deck.length,
      turn: game.turn,
      turnPhase: over ? "over" : game.phase,
      moveCount: game.moveCount,
      winners: [...game.finished],
      fool: outcome === "fool" && game.fool !== null ? game.fool : -1,
      outcome: outcome ?? "",
      revealedSeed: over ? match.seed : 0,
    };
  },

  legalActions(match, seat, limit) {
    if (match.outcome !== null) return { actions: [], complete: true };
    const moves = legalMoves(match.game, seat);
    if (limit === undefined || moves.length <= limit) return { actions: moves, complete: true };
    return { actions: moves.slice(0, limit), complete: false };
  },

  waiting: (match) => (match.outcome === null ? { for: "seat", seat: match.game.turn } : { for: "nobody" }),

  botAction: greedyMove,

  timedOut: (match, seat) => ({
    actor: seat,
    action: greedyMove(match, seat) ?? legalMoves(match.game, seat)[0] ?? { kind: "pass" },
  }),

  result: resultOf,
};
