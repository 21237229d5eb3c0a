/**
 * The optimal Even-Steven bot, built only on the SDK: it answers every dealt card with the lowest card that covers
 * it, so it never loses unnecessarily.
 */
import type { CardhallClient } from "../index";
import type { EvenStevenOutcome } from "../../rooms/evensteven/protocol";
import { optimalPlay } from "../../rooms/evensteven/strategy";
import type { EvenStevenPlayer } from "../evensteven";

export interface EvenStevenBotOptions {
  games: number;
  n?: number;
  /** The first game's seed; later games get the room's fresh seeds. */
  seed?: number;
  name?: string;
  timeoutMs?: number;
}

export interface EvenStevenGameResult {
  game: number;
  seed: number;
  outcome: EvenStevenOutcome;
}

/** Plays one game that has started in the session, to its end. */
export async function playOneGame(session: EvenStevenPlayer, game: number, timeoutMs = 30_000): Promise<EvenStevenGameResult> {
  for (let index = 1; ; index++) {
    const turn = await session.nextTurn(game, index, timeoutMs);
    if (turn.kind === "over") return { game, seed: turn.seed, outcome: turn.outcome };
    await session.play(optimalPlay(turn.hand, turn.card));
  }
}

/** Plays `games` games in a new room and returns each game's outcome with its revealed seed. */
export async function playEvenStevenBot(
  client: CardhallClient,
  options: EvenStevenBotOptions,
): Promise<{ roomId: string; results: EvenStevenGameResult[] }> {
  const session = await client.playEvenSteven({ n: options.n, seed: options.seed, name: options.name ?? "optimal-bot" });
  const results: EvenStevenGameResult[] = [];
  try {
    for (let game = 1; game <= options.games; game++) {
      if (game > 1) await session.newGame({ n: options.n });
      results.push(await playOneGame(session, game, options.timeoutMs));
    }
    return { roomId: session.roomId, results };
  } finally {
    await session.leave();
  }
}
