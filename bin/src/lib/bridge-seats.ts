/**
 * One seat per game as the bridge plays it, built only on the SDK: the seat's turns (its view, the legal actions
 * and the bot's suggestion, from the match engines' own functions or the room's `hint`), its actions, the end of
 * each game, and the moment the room moves past a turn. No game rule is written here.
 */
import { CardhallClient, CardhallError, joinWhenTaken, type RoomSession } from "../../../client-sdk";
import { patienceDealLine, tractorOutcomeLine, tractorRoundLine } from "../../../client-sdk/bots/tables";
import type { EvenStevenPlayer } from "../../../client-sdk/evensteven";
import type { FoolPlayer } from "../../../client-sdk/fool";
import type { PatienceOwner } from "../../../client-sdk/patience";
import type { TractorPlayer } from "../../../client-sdk/tractor";
import { botPlay, playsFrom } from "../../../rooms/evensteven/match";
import { evenStevenEvents } from "../../../rooms/evensteven/protocol";
import { greedyMoveInView } from "../../../rooms/fool/match";
import { foolEvents, type FoolAiPolicy, type FoolMove } from "../../../rooms/fool/protocol";
import { patienceEvents } from "../../../rooms/patience/protocol";
import {
  TRACTOR_SEATS,
  tractorEvents,
  type TractorRoundEndEvent,
  type TractorSeatName,
} from "../../../rooms/tractor/protocol";
import type { z } from "zod";
import { GAMES } from "../../../rooms/games";
import type { BridgeAction, BridgeGame } from "./bridge-protocol";

/** A position the seat must act in. */
export interface SeatTurn {
  game: number;
  view: unknown;
  legal: unknown[];
  complete: boolean;
  suggestion: unknown | null;
  /** When the room's clock acts for the seat (ms since the epoch), or 0 when no clock runs. */
  deadline: number;
  /** Resolves once the room has moved past this position without the seat (its clock played), or `signal` aborts. */
  overtaken(signal: AbortSignal): Promise<void>;
}

export type SeatStep =
  | { kind: "turn"; turn: SeatTurn }
  | { kind: "gameOver"; game: number; result: unknown; line: string; last?: boolean };

export interface BridgedSeat {
  readonly session: RoomSession<unknown, object>;
  /** The seat as the hello names it. */
  readonly seat: number | string;
  /** The room's join options the bridge created the table with (docs/protocol.md names them). */
  readonly rules: TableRules;
  /** The next turn of the current game, or its end (`last`: the table plays no more games). */
  next(): Promise<SeatStep>;
  /** Makes the action (already checked against the game's action schema); a refusal throws the room's CardhallError. */
  act(action: unknown): Promise<void>;
  /** Starts the next game, once the last is over (Tractor's rounds follow by themselves). */
  newGame(): Promise<void>;
  /** A line for people once the run ends (Tractor: the match's outcome), or undefined. */
  summary(): string | undefined;
}

/** What the command line says about the table. */
export interface TableRequest {
  url: string;
  name: string;
  room?: string;
  seat?: string;
  seed?: number;
  n?: number;
  ai?: FoolAiPolicy;
  mainSuit?: "H" | "S" | "C" | "D" | "O";
  bots?: TractorSeatName[];
  /** Tractor: the teams' ranks at the start, as the statement writes them (`["A", "A"]` for a short match). */
  startRanks?: [string, string];
  /** A bot's token (docs/arena.md): the seat is the bot's, under its name; without one, a guest's. */
  token?: string;
  /**
   * Fool, Tractor: play rated games from the game's queue (with a token) instead of a table of the bridge's own;
   * Even-Steven, Patience: play the deals of the game's solo ladder, a table each.
   */
  queue?: boolean;
  turnTimeMs?: number;
  /** Fool: the seat to take (0 moves first) at a table for two programs (`mode: "two-players"`, bin/tournament's). */
  foolSeat?: 0 | 1;
  /** Called with each of the room's events as the seat receives it, from the moment the seat is taken. */
  onEvent: (name: string, payload: unknown) => void;
  /** Told when the server refuses a join for a while (at capacity) and the bridge waits to ask again. */
  onWaitToJoin?: (reason: string, waitMs: number) => void;
}

/** How long the bridge waits for the room to say anything (a person may be slow at another seat). */
const ROOM_WAIT_MS = 10 * 60_000;

/** Resolves once the live state satisfies `moved` (the room left the turn's position), or when `signal` aborts. */
function stateMoves<View>(
  session: RoomSession<View, object>,
  moved: (view: View) => boolean,
  signal: AbortSignal,
): Promise<void> {
  return session.waitForView(moved, ROOM_WAIT_MS, undefined, signal).then(
    () => undefined,
    () => undefined,
  );
}

/** Hands each of the game's events (its protocol's names) to `onEvent` as the session receives it. */
function forwardEvents(
  session: RoomSession<unknown, object>,
  names: Record<string, string>,
  request: TableRequest,
): void {
  for (const name of Object.values(names))
    (session.on as (name: string, listener: (payload: unknown) => void) => void)(name, (payload) =>
      request.onEvent(name, payload),
    );
}

/** Room options: those the command line set, and the bridge's own where it sets one. */
export type TableRules = Record<string, unknown>;

function defined(options: TableRules): TableRules {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

/** A ladder's deal has the ladder's seed and hand size: only the clock is the bridge's. */
const evenStevenRules = (request: TableRequest): TableRules =>
  request.queue
    ? defined({ cardTimeLimitMs: request.turnTimeMs })
    : defined({ n: request.n, seed: request.seed, cardTimeLimitMs: request.turnTimeMs });

/** An Even-Steven seat: a table of the bridge's own playing game after game, or the ladder's deals, a table each. */
async function evenStevenSeat(request: TableRequest, _games: number, rules: TableRules): Promise<BridgedSeat> {
  const client = clientFor(request);
  const join = (): Promise<EvenStevenPlayer> =>
    joinPatiently(request, () =>
      request.queue ? client.playLadder("evensteven", rules) : client.playEvenSteven({ ...rules, name: request.name }),
    );
  let session = await join();
  forwardEvents(session as RoomSession<unknown, object>, evenStevenEvents, request);
  let game = 1;
  /** The game's number at its table: a ladder table has one game. */
  let tableGame = 1;
  let index = 1;
  return {
    get session() {
      return session as RoomSession<unknown, object>;
    },
    seat: 0,
    rules,
    async next() {
      const turn = await session.nextTurn(tableGame, index, ROOM_WAIT_MS);
      if (turn.kind === "over")
        return {
          kind: "gameOver",
          game,
          result: { outcome: turn.outcome, seed: turn.seed },
          line: `game ${game} (seed ${turn.seed}): ${turn.outcome}`,
        };
      const [atGame, atIndex] = [tableGame, index++];
      // The turn comes from the room's events; its view is the state once the state shows the same card.
      const view = await session.waitForView(
        (v) => v.game === atGame && (v.dealt.length >= atIndex || v.phase === "over"),
        ROOM_WAIT_MS,
      );
      return {
        kind: "turn",
        turn: {
          game,
          view,
          legal: playsFrom(turn.hand),
          complete: true,
          suggestion: botPlay(turn.hand, turn.card),
          deadline: view.deadline,
          overtaken: (signal) =>
            stateMoves(session, (v) => v.game !== atGame || v.phase === "over" || v.dealt.length > atIndex, signal),
        },
      };
    },
    act: (action) => session.play((action as BridgeAction<"evensteven">).card),
    async newGame() {
      if (request.queue) {
        // A ladder deal is one table: the next deal is another.
        await session.leave();
        session = await join();
        forwardEvents(session as RoomSession<unknown, object>, evenStevenEvents, request);
      } else {
        await session.newGame(defined({ n: request.n }));
        tableGame++;
      }
      game++;
      index = 1;
    },
    summary: () => undefined,
  };
}

/** The SDK's client for the request: with the bot's token when given (the token is never printed). */
function clientFor(request: TableRequest): CardhallClient {
  return new CardhallClient(request.url, request.token ? { token: request.token } : {});
}

/** How long the bridge goes on asking a server that refuses joins for a while (at capacity) before it gives up. */
const JOIN_PATIENCE_MS = 5 * 60_000;

/** Runs a join, asking again while the server refuses it for a while (joinWhenTaken), and says so each time. */
function joinPatiently<T>(request: TableRequest, join: () => Promise<T>): Promise<T> {
  return joinWhenTaken(join, {
    withinMs: JOIN_PATIENCE_MS,
    onWait: (refusal, _attempt, waitMs) => request.onWaitToJoin?.(refusal.message, waitMs),
  });
}

/** A room the bridge creates has its AI move at once (`aiDelayMs: 0`): the pause is for people watching. */
const foolRules = (request: TableRequest): TableRules => {
  if (request.room || request.queue) return {};
  const twoPrograms = request.foolSeat === undefined ? {} : { mode: "two-players", seat: request.foolSeat };
  return defined({ seed: request.seed, ai: request.ai, turnTimeMs: request.turnTimeMs, aiDelayMs: 0, ...twoPrograms });
};

/** A Fool seat: at a table of the bridge's own, a friend's (`room`), or rated from the queue, one table a game. */
async function foolSeat(request: TableRequest, _games: number, rules: TableRules): Promise<BridgedSeat> {
  const client = clientFor(request);
  const join = (): Promise<FoolPlayer> =>
    joinPatiently(request, () =>
      request.queue
        ? client.playRatedFool({ waitMs: ROOM_WAIT_MS })
        : request.room
          ? client.joinFool(request.room, defined({ name: request.name, seat: request.foolSeat }))
          : client.playFool({ ...rules, name: request.name }),
    );
  let session = await join();
  forwardEvents(session as RoomSession<unknown, object>, foolEvents, request);
  await session.waitForView(() => true, ROOM_WAIT_MS);
  let game = 1;
  return {
    get session() {
      return session as RoomSession<unknown, object>;
    },
    seat: session.seat() ?? 0,
    rules,
    async next() {
      const turn = await session.nextTurn(ROOM_WAIT_MS);
      if (turn.kind === "over") {
        const { outcome, fool, winners, seed, won } = turn;
        const verdict = won ? "won" : outcome === "capped" ? "capped" : "lost";
        return {
          kind: "gameOver",
          game,
          result: { outcome, fool, winners, seed, won },
          line: `game ${game} (seed ${seed}): ${verdict}`,
        };
      }
      const { moveCount } = turn;
      const view = session.view()!;
      return {
        kind: "turn",
        turn: {
          game,
          view,
          legal: turn.moves,
          complete: true,
          suggestion: greedyMoveInView(turn.view, moveCount),
          deadline: view.deadline,
          overtaken: (signal) =>
            stateMoves(session, (v) => v.game !== turn.game || v.moveCount !== moveCount || v.phase === "over", signal),
        },
      };
    },
    act: (action) => session.move(action as FoolMove),
    async newGame() {
      if (request.queue) {
        // A rated game is one table: the next comes from the queue again.
        await session.leave();
        session = await join();
        forwardEvents(session as RoomSession<unknown, object>, foolEvents, request);
      } else await session.newGame();
      game++;
    },
    summary: () => undefined,
  };
}

/** The bridge's program steps every deal: it is dealt paused (a ladder's deal has the ladder's seed). */
const patienceRules = (request: TableRequest): TableRules =>
  request.queue ? { paused: true } : defined({ seed: request.seed, paused: true });

/** A Patience seat: a table of the bridge's own dealing deal after deal, or the ladder's deals, a table each. */
async function patienceSeat(request: TableRequest, _games: number, rules: TableRules): Promise<BridgedSeat> {
  const client = clientFor(request);
  const join = (): Promise<PatienceOwner> =>
    joinPatiently(request, () =>
      request.queue
        ? client.playLadder("patience", { paused: true })
        : client.createPatience({ ...rules, name: request.name }),
    );
  let owner = await join();
  forwardEvents(owner as RoomSession<unknown, object>, patienceEvents, request);
  // A deal has no player clock: the bridge keeps one, and steps for a silent program when it runs out.
  const stepTimeMs = request.turnTimeMs ?? 30_000;
  let deal = 1;
  /** The deal's number at its table: a ladder table has one deal. */
  let tableDeal = 1;
  return {
    get session() {
      return owner as RoomSession<unknown, object>;
    },
    seat: 0,
    rules,
    async next() {
      const view = await owner.waitForView((v) => v.deal === tableDeal, ROOM_WAIT_MS);
      if (view.phase === "over") {
        const over = await owner.dealOver(tableDeal, ROOM_WAIT_MS);
        return { kind: "gameOver", game: deal, result: over, line: patienceDealLine(deal, over.seed, over.outcome) };
      }
      const deadline = Date.now() + stepTimeMs;
      const [atDeal, steps] = [tableDeal, view.steps];
      return {
        kind: "turn",
        turn: {
          game: deal,
          view,
          legal: [{ type: "step" }],
          complete: true,
          suggestion: { type: "step" },
          deadline,
          async overtaken(signal) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, deadline - Date.now());
              signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
            });
            if (signal.aborted) return;
            await owner.step().catch(() => undefined);
            await stateMoves(owner, (v) => v.deal !== atDeal || v.steps > steps, signal);
          },
        },
      };
    },
    act: () => owner.step(),
    async newGame() {
      if (request.queue) {
        // A ladder deal is one table: the next deal is another.
        await owner.leave();
        owner = await join();
        forwardEvents(owner as RoomSession<unknown, object>, patienceEvents, request);
        tableDeal = 1;
      } else {
        await owner.restart({ paused: true });
        tableDeal++;
      }
      deal++;
    },
    summary: () => undefined,
  };
}

/** A table the bridge creates has fixed trumps, bots that move at once and no pause between rounds. */
function tractorRules(request: TableRequest): TableRules {
  const seat = (request.seat ?? "Alice") as TractorSeatName;
  if (request.room) return { seat };
  const mainSuit = request.mainSuit ?? "H";
  const bots = request.bots ?? TRACTOR_SEATS.filter((other) => other !== seat);
  const { seed, startRanks, turnTimeMs } = request;
  return defined({
    seat,
    trump: "fixed",
    mainSuit,
    bots,
    startRanks,
    seed,
    turnTimeMs,
    botDelayMs: 0,
    startDelayMs: 100,
    roundPauseMs: 0,
  });
}

async function tractorSeat(request: TableRequest, rounds: number, rules: TableRules): Promise<BridgedSeat> {
  const client = clientFor(request);
  const seat = rules.seat as TractorSeatName;
  const player: TractorPlayer = await joinPatiently(request, () =>
    request.queue
      ? client.playRatedTractor({ waitMs: ROOM_WAIT_MS })
      : request.room
        ? client.joinTractor(request.room, { seat, name: request.name })
        : client.playTractor({ ...(rules as object), name: request.name }),
  );
  forwardEvents(player as RoomSession<unknown, object>, tractorEvents, request);
  const ends: TractorRoundEndEvent[] = [];
  let roundsReported = 0;
  const roundEnded = new Set<() => void>();
  player.on("roundEnd", (end) => {
    ends.push(end);
    for (const wake of [...roundEnded]) wake();
  });
  const roundOver = (): SeatStep | undefined => {
    const end = ends[roundsReported];
    if (end === undefined) return undefined;
    roundsReported++;
    const last = end.matchWinner !== 0 || roundsReported >= rounds;
    return { kind: "gameOver", game: end.round, result: end, line: tractorRoundLine(end), last };
  };
  const next = async (): Promise<SeatStep> => {
    const earlier = roundOver();
    if (earlier) return earlier;
    // A round's end comes as an event; a turn comes in the state: whichever is first.
    const stop = new AbortController();
    const ended = new Promise<void>((resolve) => {
      const wake = () => (roundEnded.delete(wake), stop.abort(), resolve());
      roundEnded.add(wake);
      stop.signal.addEventListener("abort", wake, { once: true });
    });
    const turn = await player.nextTurn(ROOM_WAIT_MS, stop.signal).catch((error: unknown) => {
      if (error instanceof CardhallError && error.code === "ABORTED") return null;
      throw error;
    });
    stop.abort();
    await ended;
    // A round that ended meanwhile is reported first; its next round's turn is handed out again by nextTurn.
    const over = roundOver();
    if (over) return over;
    if (turn === null || turn.kind === "matchOver") return next();
    const hint = await player.hint();
    const type = turn.kind;
    const view = player.view()!;
    return {
      kind: "turn",
      turn: {
        game: turn.round,
        view,
        legal: hint.options.map((cards) => ({ type, cards })),
        complete: type === "play" && hint.complete,
        suggestion: hint.suggestion.length > 0 ? { type, cards: hint.suggestion } : null,
        deadline: view.deadline,
        overtaken: (signal) => stateMoves(player, (v) => v.step !== turn.step, signal),
      },
    };
  };
  return {
    session: player as RoomSession<unknown, object>,
    seat,
    rules,
    next,
    act(action) {
      const { type, cards } = action as BridgeAction<"tractor">;
      return type === "bury" ? player.bury(cards) : player.play(cards);
    },
    newGame: async () => undefined,
    summary: () => tractorOutcomeLine(ends),
  };
}

/** The table options of the command line a game takes (the others are refused as bad usage for it). */
export type TableOption = "room" | "seat" | "n" | "ai" | "mainSuit" | "bots" | "startRanks" | "queue";

export interface BridgeSeatEntry {
  /** The room's join options for the request: what a new room is created with (or a room joined by id asked). */
  rules(request: TableRequest): TableRules;
  /** Takes the seat: a new room, or the one named; `games` is how many the run plays. */
  take(request: TableRequest, games: number, rules: TableRules): Promise<BridgedSeat>;
  readonly options: readonly TableOption[];
}

/** The bridge's seat of every game (rooms/games.ts), one line each. */
export const BRIDGE_SEATS: Record<BridgeGame, BridgeSeatEntry> = {
  evensteven: { rules: evenStevenRules, take: evenStevenSeat, options: ["n", "queue"] },
  fool: { rules: foolRules, take: foolSeat, options: ["room", "ai", "queue"] },
  patience: { rules: patienceRules, take: patienceSeat, options: ["queue"] },
  tractor: {
    rules: tractorRules,
    take: tractorSeat,
    options: ["room", "seat", "mainSuit", "bots", "startRanks", "queue"],
  },
};

/** The command line's name for each room option it sets. */
const OPTION_OF_FIELD: Record<string, string> = {
  cardTimeLimitMs: "--turn-time-ms",
  turnTimeMs: "--turn-time-ms",
  startRanks: "--start-ranks",
  mainSuit: "--main-suit",
};

/**
 * The request's room options checked against the room's own join options (rooms/<game>/protocol.ts), before
 * anything starts: a value the room would refuse (a turn clock out of its range) is bad usage, named by its option.
 */
export function tableRules(game: BridgeGame, request: TableRequest): { rules: TableRules } | { problem: string } {
  const rules = BRIDGE_SEATS[game].rules(request);
  const definition = GAMES.find((known) => known.name === game)!;
  const checked = (definition.joinOptions as z.ZodType).safeParse({ ...rules, name: request.name });
  if (checked.success) return { rules };
  const issues = checked.error.issues.map((issue) => {
    const field = String(issue.path[0] ?? "");
    return `${OPTION_OF_FIELD[field] ?? `--${field}`}: ${issue.message} (the ${game} room's ${field})`;
  });
  return { problem: issues.join("; ") };
}

/** Takes the seat for `game`: a new room, or the one named, with the checked room options. */
export function takeSeat(
  game: BridgeGame,
  request: TableRequest,
  games: number,
  rules: TableRules,
): Promise<BridgedSeat> {
  return BRIDGE_SEATS[game].take(request, games, rules);
}
