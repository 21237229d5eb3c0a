/**
 * One registry of scripted tables, one entry per game: how many players sit at a table and how they play it.
 * `bin/bots` fills tables with them and prints results; the load test seats the same bots with latency probes.
 * Built only on the SDK.
 */
import { CardhallClient } from "../index";
import { playEvenStevenBot, type EvenStevenGameResult } from "./evensteven";
import { playFoolBot } from "./fool";
import { watchPatienceDeal } from "./patience";
import type { PatienceOutcomeData } from "../../rooms/patience/protocol";
import { playTractorBot } from "./tractor";
import type { TractorPlayer } from "../tractor";
import { NO_PROBE, StoppedEarly, type MoveProbe } from "./probe";
import { cardName } from "../../rooms/tractor/cards";
import {
  TRACTOR_SEATS,
  tractorRankName,
  type TractorBotLevel,
  type TractorRoundEndEvent,
  type TractorSeatName,
  type TractorStateView,
} from "../../rooms/tractor/protocol";
import type { GameName } from "../../rooms/games";

export interface TableOptions {
  url: string;
  /** One probe per seat (the load test's); none for plain runs. */
  probes?: MoveProbe[];
  /** Mean think time before each move. */
  thinkMs?: number;
  /** How many games (or rounds) to play at most. */
  games?: number;
  /** Asked before each new game, and before each move where games outlast a load test: false ends the table. */
  keepPlaying?: () => boolean;
  /** Called once per seat when its player has joined. */
  joined?: () => void;
  seed?: number;
  /** Tractor only: two scripted players (Alice and Bob, one a team) and the room's bots at this level (Charles, David). */
  tractorBots?: TractorBotLevel;
}

export interface TableResult {
  roomId: string;
  /** One line per game, for people. */
  lines: string[];
}

export interface BotTable {
  /** Scripted players (connections) per table. */
  seats: number;
  play(options: TableOptions): Promise<TableResult>;
}

/** The seats the room's bots hold at a Tractor table with `tractorBots` (one a team, so each team has a scripted player). */
const TRACTOR_BOT_SEATS: readonly TractorSeatName[] = ["Charles", "David"];

/** Scripted players at a table of `game`: fewer at a Tractor table whose room bots hold seats. */
export function scriptedSeats(game: BotGame, tractorBots?: TractorBotLevel): number {
  return game === "tractor" && tractorBots !== undefined ? 4 - TRACTOR_BOT_SEATS.length : BOT_TABLES[game].seats;
}

/** Mid-game stops are for tables whose games outlast a load test's deadline: asked before each move. */
function stopNow(options: TableOptions): (() => boolean) | undefined {
  const keepPlaying = options.keepPlaying;
  return keepPlaying && (() => !keepPlaying());
}

/** The bot's result, or null when it stopped in the middle of a game as asked. */
async function untilStopped<T>(playing: Promise<T>): Promise<T | null> {
  try {
    return await playing;
  } catch (error) {
    if (error instanceof StoppedEarly) return null;
    throw error;
  }
}

const evensteven: BotTable = {
  seats: 1,
  async play(options) {
    let roomId = "";
    const results: EvenStevenGameResult[] = [];
    const finished = await untilStopped(
      playEvenStevenBot(new CardhallClient(options.url), {
        games: options.games ?? Number.MAX_SAFE_INTEGER,
        n: 7,
        seed: options.seed,
        thinkMs: options.thinkMs,
        keepPlaying: options.keepPlaying,
        stopNow: stopNow(options),
        probe: options.probes?.[0],
        onJoined: (session) => {
          roomId = session.roomId;
          options.joined?.();
        },
        onGame: (result) => results.push(result),
        timeoutMs: 30_000,
      }),
    );
    const lines = results.map((r) => `game ${r.game} (seed ${r.seed}): ${r.outcome}`);
    return { roomId, lines: finished ? lines : [...lines, "stopped in the middle of a game"] };
  },
};

/**
 * One deal's result for people: the piles' sizes, or the card that overflowed (bin/patience's line numbers each deck
 * of its input, `1:` for a deck given alone, which would read as the first deal whatever the deal).
 */
export function patienceDealLine(deal: number, seed: number, outcome: PatienceOutcomeData): string {
  const result =
    outcome.kind === "finished"
      ? `piles ${outcome.pileSizes.join(" ")}`
      : `overflowed on card no ${outcome.cardNumber}`;
  return `deal ${deal} (seed ${seed}): ${result}`;
}

/** The owner deals step by step (each step a move whose broadcast the probe times), one room per deal. */
const patience: BotTable = {
  seats: 1,
  async play(options) {
    const client = new CardhallClient(options.url);
    const lines: string[] = [];
    let roomId = "";
    let joined = false;
    for (let deal = 1; deal <= (options.games ?? Number.MAX_SAFE_INTEGER); deal++) {
      if (deal > 1 && options.keepPlaying && !options.keepPlaying()) break;
      const result = await untilStopped(
        watchPatienceDeal(client, {
          seed: deal === 1 ? options.seed : undefined,
          stepByStep: true,
          thinkMs: options.thinkMs,
          probe: options.probes?.[0],
          onJoined: joined ? undefined : options.joined,
          timeoutMs: 60_000,
          stopNow: stopNow(options),
        }),
      );
      if (result === null) break;
      joined = true;
      roomId ||= result.roomId;
      lines.push(patienceDealLine(deal, result.seed, result.outcome));
    }
    return { roomId, lines };
  },
};

/** Times each of the seat's plays until the room's `played` broadcast; checks the final ranks against the last result. */
function probedTractorSeat(player: TractorPlayer, probe: MoveProbe) {
  // The round of the turn being answered (not the last roundStart seen: that event can arrive before this seat's
  // handlers exist, when the table starts while the last seat's join is still being processed).
  let round = 0;
  let lastRanks: number[] | null = null;
  const key = (cards: readonly string[]) => `${round}:${player.seat()}:${[...cards].sort().join("")}`;
  player.on("played", (event) => probe.seen(`${event.round}:${event.seat}:${[...event.cards].sort().join("")}`));
  player.on("roundEnd", (event) => (lastRanks = event.teamRanks));
  return {
    seat: {
      nextTurn: async (timeoutMs?: number, signal?: AbortSignal) => {
        const turn = await player.nextTurn(timeoutMs, signal);
        if (turn.kind !== "matchOver") round = turn.round;
        return turn;
      },
      bury: player.bury.bind(player),
      play: (cards: Parameters<TractorPlayer["play"]>[0]) => {
        probe.sent(key(cards.map((card) => (typeof card === "string" ? card : cardName(card)))));
        return player.play(cards);
      },
    },
    async checkAgreement(): Promise<void> {
      if (probe === NO_PROBE || lastRanks === null) return;
      const expected = lastRanks.join(",");
      // A round's ranks go up with the next deal; a match's last round has none, and its end shows them in `result`.
      const shownRanks = (v: TractorStateView) => (v.result?.teamRanks ?? v.teamRanks).join(",");
      const view = await player.waitForView((v) => shownRanks(v) === expected, 5_000).catch(() => undefined);
      if (!view) probe.desync(`tractor: the state's ranks never matched the last result's ${expected}`);
    },
  };
}

/** How long an event the state already announced may take to arrive. */
const EVENT_GRACE_MS = 5_000;

/** Waits for `promise`, for `ms` at most. */
async function withinMs(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function tractorRanks(teamRanks: readonly number[]): string {
  return `ranks ${teamRanks.map(tractorRankName).join(" / ")}`;
}

/** One round's result for people: the defenders' points, who went up and by how much, and the ranks after it. */
export function tractorRoundLine(end: TractorRoundEndEvent): string {
  const points = `defenders ${end.defenderPoints} points${end.hiddenBonus > 0 ? ` (${end.hiddenBonus} from the hidden cards)` : ""}`;
  const change =
    end.levels === 0 ? "nobody goes up" : `team ${end.team} up ${end.levels}${end.make ? "" : ", the teams swap"}`;
  return `round ${end.round} (seed ${end.seed}): ${points}; ${change}; ${tractorRanks(end.teamRanks)}`;
}

/** The match's outcome: its winner, or where it stood when the table stopped. */
export function tractorOutcomeLine(rounds: readonly TractorRoundEndEvent[]): string {
  const last = rounds[rounds.length - 1];
  if (last === undefined) return "no round finished";
  const played = `${rounds.length} round${rounds.length === 1 ? "" : "s"}`;
  if (last.matchWinner !== 0)
    return `match over after ${played}: team ${last.matchWinner} won; final ${tractorRanks(last.teamRanks)}`;
  return `stopped after ${played} with no winner yet; ${tractorRanks(last.teamRanks)}`;
}

/**
 * Four SDK bots (heuristic) at one table with fixed trumps, as many rounds as the run allows (`games`: rounds at
 * most); with `tractorBots`, two SDK bots and two of the room's bots at that level, pacing their moves as the
 * scripted players think.
 */
const tractor: BotTable = {
  seats: 4,
  async play(options) {
    const client = new CardhallClient(options.url);
    const roomBots =
      options.tractorBots === undefined
        ? {}
        : {
            bots: [...TRACTOR_BOT_SEATS],
            botLevels: Object.fromEntries(TRACTOR_BOT_SEATS.map((seat) => [seat, options.tractorBots])) as Partial<
              Record<TractorSeatName, TractorBotLevel>
            >,
            botDelayMs: options.thinkMs ?? 0,
          };
    const scripted = TRACTOR_SEATS.filter(
      (seat) => options.tractorBots === undefined || !TRACTOR_BOT_SEATS.includes(seat),
    );
    const first = await client.playTractor({
      seat: scripted[0],
      trump: "fixed",
      mainSuit: "H",
      seed: options.seed,
      startDelayMs: 100,
      roundPauseMs: 0,
      ...roomBots,
    });
    const others = await Promise.all(
      scripted.slice(1).map((seat) => new CardhallClient(options.url).joinTractor(first.roomId, { seat })),
    );
    const players = [first, ...others];
    players.forEach(() => options.joined?.());
    const rounds: TractorRoundEndEvent[] = [];
    first.on("roundEnd", (end) => rounds.push(end));
    // The room sends matchEnd after the last roundEnd; the bots may see the match over in the state before either.
    const matchEnded = new Promise<void>((resolve) => first.on("matchEnd", () => resolve()));
    const keepPlaying = () =>
      rounds.length < (options.games ?? Number.MAX_SAFE_INTEGER) && (options.keepPlaying?.() ?? true);
    try {
      const seats = players.map((player, index) => probedTractorSeat(player, options.probes?.[index] ?? NO_PROBE));
      const results = await Promise.all(
        seats.map(({ seat }, index) =>
          playTractorBot(seat, "heuristic", {
            thinkMs: options.thinkMs,
            keepPlaying,
            botSeed: index,
            timeoutMs: 60_000,
          }),
        ),
      );
      await Promise.all(seats.map((seat) => seat.checkAgreement()));
      if (results.some((result) => result.matchWinner !== undefined)) await withinMs(matchEnded, EVENT_GRACE_MS);
      return { roomId: first.roomId, lines: [...rounds.map(tractorRoundLine), tractorOutcomeLine(rounds)] };
    } finally {
      await Promise.all(players.map((player) => player.leave().catch(() => undefined)));
    }
  },
};

/** One greedy SDK bot against the room's AI (the AI's moves are not timed: the probe times the bot's own). */
const fool: BotTable = {
  seats: 1,
  async play(options) {
    let roomId = "";
    const finished = await untilStopped(
      playFoolBot(new CardhallClient(options.url), {
        policy: "greedy",
        games: options.games ?? Number.MAX_SAFE_INTEGER,
        seed: options.seed,
        aiDelayMs: 0,
        thinkMs: options.thinkMs,
        keepPlaying: options.keepPlaying,
        probe: options.probes?.[0],
        onJoined: (session) => {
          roomId = session.roomId;
          options.joined?.();
        },
        stopNow: stopNow(options),
      }),
    );
    const results = finished?.results ?? [];
    const lines = results.map(
      (r) =>
        `game ${r.game} (seed ${r.seed}): ${r.won ? "won" : r.outcome === "capped" ? "capped" : "lost"} in ${r.moves} moves`,
    );
    return { roomId, lines: finished ? lines : [...lines, "stopped in the middle of a game"] };
  },
};

/** One line per game (rooms/games.ts): a game without its bot table does not compile. */
export const BOT_TABLES = { evensteven, fool, patience, tractor } satisfies Record<GameName, BotTable>;
export type BotGame = keyof typeof BOT_TABLES;
