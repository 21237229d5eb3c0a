/**
 * The optimal Even-Steven bot, built only on the SDK: it answers every dealt card with the lowest card that covers
 * it, so it never loses unnecessarily.
 */
import type { CardhallClient } from "../index";
import type { EvenStevenOutcome, EvenStevenStateView } from "../../rooms/evensteven/protocol";
import { optimalPlay } from "../../rooms/evensteven/strategy";
import type { EvenStevenPlayer } from "../evensteven";
import { NO_PROBE, StoppedEarly, think, type MoveProbe } from "./probe";

export interface EvenStevenBotOptions {
  /** How many games to play; with `keepPlaying`, at most this many. */
  games: number;
  n?: number;
  /** The first game's seed; later games get the room's fresh seeds. */
  seed?: number;
  name?: string;
  timeoutMs?: number;
  /** Mean think time before each move (0: answer at once). */
  thinkMs?: number;
  /** Asked before each new game: false ends the session early. */
  keepPlaying?: () => boolean;
  /** Asked before each move: true stops the bot in the middle of a game (it rejects with StoppedEarly). */
  stopNow?: () => boolean;
  probe?: MoveProbe;
  /** Called once the bot has its seat. */
  onJoined?: (session: EvenStevenPlayer) => void;
  /** Called with each game's result as it ends. */
  onGame?: (result: EvenStevenGameResult) => void;
}

export interface EvenStevenGameResult {
  game: number;
  seed: number;
  outcome: EvenStevenOutcome;
}

interface GameOptions {
  timeoutMs?: number;
  thinkMs?: number;
  probe?: MoveProbe;
  stopNow?: () => boolean;
}

/** Plays one game that has started in the session, to its end. */
export async function playOneGame(
  session: EvenStevenPlayer,
  game: number,
  options: GameOptions = {},
): Promise<EvenStevenGameResult> {
  const probe = options.probe ?? NO_PROBE;
  const mine: string[] = [];
  for (let index = 1; ; index++) {
    const turn = await session.nextTurn(game, index, options.timeoutMs);
    if (turn.kind === "over") {
      await checkAgreement(session, game, mine, probe);
      return { game, seed: turn.seed, outcome: turn.outcome };
    }
    await think(options.thinkMs ?? 0);
    if (options.stopNow?.()) throw new StoppedEarly();
    const card = optimalPlay(turn.hand, turn.card);
    mine.push(card);
    probe.sent(`${game}:${card}`);
    await session.play(card);
  }
}

/** The server's record of the game (its verdict) and the client's state view must both match the bot's own plays. */
async function checkAgreement(
  session: EvenStevenPlayer,
  game: number,
  mine: string[],
  probe: MoveProbe,
): Promise<void> {
  if (probe === NO_PROBE) return;
  const over = (v: Partial<EvenStevenStateView>) => v.game === game && v.phase === "over";
  const view = await session.waitForView(over, 10_000, over).catch(() => undefined);
  if (!view) return probe.desync(`game ${game}: the state never showed the verdict`);
  if (view.played.join(" ") !== mine.join(" "))
    probe.desync(`game ${game}: state shows ${view.played.join(" ")}, played ${mine.join(" ")}`);
}

/** Plays games in a new room and returns each game's outcome with its revealed seed. */
export async function playEvenStevenBot(
  client: CardhallClient,
  options: EvenStevenBotOptions,
): Promise<{ roomId: string; results: EvenStevenGameResult[] }> {
  const session = await client.playEvenSteven({
    n: options.n,
    seed: options.seed,
    name: options.name ?? "optimal-bot",
  });
  options.onJoined?.(session);
  const probe = options.probe ?? NO_PROBE;
  session.on("played", (event) => probe.seen(`${event.game}:${event.card}`));
  const results: EvenStevenGameResult[] = [];
  try {
    for (let game = 1; game <= options.games; game++) {
      if (game > 1) {
        if (options.keepPlaying && !options.keepPlaying()) break;
        await session.newGame({ n: options.n });
      }
      const result = await playOneGame(session, game, options);
      results.push(result);
      options.onGame?.(result);
    }
    return { roomId: session.roomId, results };
  } finally {
    await session.leave();
  }
}
