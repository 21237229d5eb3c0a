/**
 * The optimal Even-Steven bot, built only on the SDK: it answers every dealt card with the lowest card that covers
 * it, so it never loses unnecessarily.
 */
import type { CardhallClient } from "../index";
import type { EvenStevenOutcome, EvenStevenStateView } from "../../rooms/evensteven/protocol";
import { optimalPlay } from "../../rooms/evensteven/strategy";

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

/** Plays `games` games in a new room and returns each game's outcome with its revealed seed. */
export async function playEvenStevenBot(client: CardhallClient, options: EvenStevenBotOptions): Promise<{ roomId: string; results: EvenStevenGameResult[] }> {
  const session = await client.playEvenSteven({ n: options.n, seed: options.seed, name: options.name ?? "optimal-bot" });
  const results: EvenStevenGameResult[] = [];
  let answered = ""; // "game:index" of the last card answered, so a stale view never answers a card twice
  let failure: Error | null = null;
  const answer = (view: EvenStevenStateView) => {
    const hand = view.player?.hand ?? [];
    const card = `${view.game}:${view.dealt.length}`;
    if (view.phase !== "playing" || view.toCover === "" || hand.length === 0 || answered === card) return;
    answered = card;
    session.play(optimalPlay(hand, view.toCover)).catch((error: Error) => (failure = error));
  };
  try {
    session.onView(answer);
    while (results.length < options.games) {
      const game = results.length + 1;
      const over = await session.waitForView((view) => view.phase === "over" && view.game === game, options.timeoutMs ?? 30_000);
      if (failure) throw failure;
      results.push({ game, seed: over.revealedSeed, outcome: over.outcome as EvenStevenOutcome });
      if (results.length < options.games) await session.newGame({ n: options.n });
    }
    return { roomId: session.roomId, results };
  } finally {
    await session.leave();
  }
}
