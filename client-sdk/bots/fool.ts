/**
 * The random and the greedy Fool bots, built only on the SDK: each move is the engine's pure policy applied to
 * what the SDK gives the player (its own view: its hand and the public state), never to the server's state.
 */
import type { CardhallClient } from "../index";
import { seededRandom, type Random } from "../../rooms/kit/random";
import { greedyPolicy, randomPolicy, type Policy } from "../../rooms/fool/bots";
import type { FoolAiPolicy, FoolMove, FoolOutcome } from "../../rooms/fool/protocol";
import { CardhallError } from "../errors";
import type { FoolPlayer } from "../fool";
import { NO_PROBE, StoppedEarly, think, type MoveProbe } from "./probe";

export const FOOL_BOT_POLICIES = { random: randomPolicy, greedy: greedyPolicy } satisfies Record<string, Policy>;
export type FoolBotPolicy = keyof typeof FOOL_BOT_POLICIES;

/** A game is bounded by the room's move cap; this bounds the bot's own loop whatever the room does. */
const MAX_TURNS_PER_GAME = 100_000;

export interface FoolGameOptions {
  /** How long to wait for each turn. */
  timeoutMs?: number;
  /** Mean think time before each move (0: answer at once). */
  thinkMs?: number;
  probe?: MoveProbe;
  /** Asked before each move: true abandons the game with StoppedEarly (a load test's deadline). */
  stopNow?: () => boolean;
}

export interface FoolBotOptions extends FoolGameOptions {
  policy: FoolBotPolicy;
  /** How many games to play against the room's AI; with `keepPlaying`, at most this many. */
  games?: number;
  /** The first game's seed; later games get the room's fresh seeds. */
  seed?: number;
  /** Seeds the bot's own choices (random ties and the random policy). */
  botSeed?: string | number;
  name?: string;
  /** Room options for the AI opponent. */
  ai?: FoolAiPolicy;
  aiDelayMs?: number;
  turnTimeMs?: number;
  /** Asked before each new game: false ends the session early. */
  keepPlaying?: () => boolean;
  /** Called once the bot has its seat, before its first move (e.g. to let a spectator in). */
  onJoined?: (session: FoolPlayer) => void | Promise<void>;
}

export interface FoolGameResult {
  game: number;
  seed: number;
  outcome: FoolOutcome;
  /** The Fool's seat, or null for a capped game. */
  fool: number | null;
  seat: number;
  won: boolean;
  /** Moves this bot made. */
  moves: number;
}

/** Plays the session's current (or next) game to its end with `policy`. */
export async function playFoolGame(
  session: FoolPlayer,
  policy: Policy,
  random: Random,
  options: FoolGameOptions = {},
): Promise<FoolGameResult> {
  const probe = options.probe ?? NO_PROBE;
  let moves = 0;
  for (let turns = 0; turns < MAX_TURNS_PER_GAME; turns++) {
    const turn = await session.nextTurn(options.timeoutMs);
    if (turn.kind === "over") {
      const { game, seed, outcome, fool, won } = turn;
      return { game, seed, outcome, fool, won, seat: session.seat() ?? -1, moves };
    }
    await think(options.thinkMs ?? 0, random);
    if (options.stopNow?.()) throw new StoppedEarly();
    probe.sent(`${turn.game}:${turn.moveCount + 1}`);
    if (await moveUnlessOvertaken(session, policy(turn.view, random))) moves++;
  }
  throw new CardhallError("TIMEOUT", `the game did not end within ${MAX_TURNS_PER_GAME} turns`);
}

/** Sends the move; false when the room moved on first (the turn clock played for this seat, or the game ended). */
async function moveUnlessOvertaken(session: FoolPlayer, move: FoolMove): Promise<boolean> {
  try {
    await session.move(move);
    return true;
  } catch (error) {
    if (error instanceof CardhallError && (error.code === "NOT_YOUR_TURN" || error.code === "NO_GAME")) return false;
    throw error;
  }
}

/** Seats a random or greedy bot against the room's AI in a new room and plays games; returns each game's result. */
export async function playFoolBot(
  client: CardhallClient,
  options: FoolBotOptions,
): Promise<{ roomId: string; results: FoolGameResult[] }> {
  const session = await client.playFool({
    name: options.name ?? `${options.policy}-bot`,
    seed: options.seed,
    ai: options.ai,
    aiDelayMs: options.aiDelayMs,
    turnTimeMs: options.turnTimeMs,
  });
  const probe = options.probe ?? NO_PROBE;
  session.on("move", (event) => {
    if (event.by === "player" && event.seat === session.seat()) probe.seen(`${event.game}:${event.number}`);
  });
  const policy = FOOL_BOT_POLICIES[options.policy];
  const random = seededRandom(options.botSeed ?? `${options.policy}-bot`);
  const results: FoolGameResult[] = [];
  try {
    await options.onJoined?.(session);
    const games = options.games ?? 1;
    for (let game = 1; game <= games; game++) {
      if (game > 1) {
        if (options.keepPlaying && !options.keepPlaying()) break;
        await session.newGame();
      }
      results.push(await playFoolGame(session, policy, random, options));
    }
    return { roomId: session.roomId, results };
  } finally {
    await session.leave();
  }
}
