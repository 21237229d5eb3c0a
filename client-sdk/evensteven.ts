import type { Room } from "@colyseus/sdk";
import {
  evenStevenMessages,
  type EvenStevenEvents,
  type EvenStevenOutcome,
  type EvenStevenStateView,
} from "../rooms/evensteven/protocol";
import { RoomSession } from "./session";

export type { EvenStevenEvents };

/** What the player must do next in a game: answer a dealt card, or nothing because the game is over. */
export type EvenStevenTurn =
  | { kind: "deal"; game: number; index: number; card: string; hand: string[] }
  | { kind: "over"; game: number; outcome: EvenStevenOutcome; seed: number };

/** Watching an Even-Steven room: public state and events, no hand. */
export class EvenStevenSpectator extends RoomSession<EvenStevenStateView, EvenStevenEvents> {}

/**
 * The player's seat in an Even-Steven room. `nextTurn` merges the room's events (sent at once) with its state
 * (patched a moment later, and the only source for what happened before the session's listeners existed), so a
 * program reacts as soon as either says a card was dealt or a game ended.
 */
export class EvenStevenPlayer extends EvenStevenSpectator {
  private readonly initialHands = new Map<number, string[]>();
  private readonly playedByGame = new Map<number, string[]>();
  private readonly deals = new Map<string, string>();
  private readonly outcomes = new Map<number, { outcome: EvenStevenOutcome; seed: number }>();
  private readonly waiters = new Set<() => void>();
  /** The game of the last card handed out by nextTurn: the one `play` answers. */
  private currentGame = 0;

  constructor(room: Room) {
    super(room);
    this.on("hand", (event) => this.learn(() => this.initialHands.set(event.game, event.cards)));
    this.on("deal", (event) => this.learn(() => this.deals.set(`${event.game}:${event.index}`, event.card)));
    this.on("verdict", (event) =>
      this.learn(() => this.outcomes.set(event.game, { outcome: event.outcome, seed: event.seed })),
    );
  }

  /** Answers the card on the table; throws a CardhallError (NOT_IN_HAND, ALREADY_PLAYED, ...) if refused. */
  async play(card: string): Promise<void> {
    await this.request(evenStevenMessages.play, { card });
    this.playedIn(this.currentGame || (this.view()?.game ?? 0)).push(card);
  }

  /** Starts the next game once the last has its verdict. */
  newGame(options: { n?: number; seed?: number } = {}): Promise<void> {
    return this.request(evenStevenMessages.newGame, options);
  }

  /**
   * Resolves with card `index` (1-based) of `game` once dealt, or with the game's end if it comes first; rejects
   * with a CardhallError TIMEOUT after `timeoutMs`, or ABORTED when `signal` aborts.
   */
  nextTurn(game: number, index: number, timeoutMs = 30_000, signal?: AbortSignal): Promise<EvenStevenTurn> {
    return this.waitFor(`card ${index} of game ${game}`, timeoutMs, signal, (found) => {
      const check = () => {
        const turn = this.turnIfKnown(game, index);
        if (turn) found(turn);
      };
      // Events normally answer at once; the state is consulted only while an answer is awaited, for what happened
      // before this session listened (e.g. while a dropped connection was being restored).
      const stopViewing = this.onView(
        (view) => this.learn(() => this.learnFromView(view)),
        (live) => this.mayAnswer(live, game, index),
      );
      this.waiters.add(check);
      check();
      return () => {
        stopViewing();
        this.waiters.delete(check);
      };
    });
  }

  private turnIfKnown(game: number, index: number): EvenStevenTurn | null {
    const over = this.outcomes.get(game);
    if (over) return { kind: "over", game, ...over };
    const card = this.deals.get(`${game}:${index}`);
    const hand = this.initialHands.get(game);
    if (card === undefined || hand === undefined) return null;
    const played = this.playedIn(game);
    this.currentGame = game;
    return { kind: "deal", game, index, card, hand: hand.filter((held) => !played.includes(held)) };
  }

  /** A cheap look at the live state: could it say more about card `index` of `game` than the events did? */
  private mayAnswer(live: Partial<EvenStevenStateView>, game: number, index: number): boolean {
    return live.game === game && (live.phase === "over" || (live.dealt?.length ?? 0) >= index);
  }

  private learnFromView(view: EvenStevenStateView): void {
    const hand = view.player?.hand;
    if (hand && view.game > 0 && !this.initialHands.has(view.game))
      this.initialHands.set(view.game, [...hand, ...view.played]);
    if (view.toCover !== "") this.deals.set(`${view.game}:${view.dealt.length}`, view.toCover);
    if (view.phase === "over" && !this.outcomes.has(view.game)) {
      this.outcomes.set(view.game, { outcome: view.outcome as EvenStevenOutcome, seed: view.revealedSeed });
    }
  }

  private learn(update: () => void): void {
    update();
    for (const waiter of [...this.waiters]) waiter();
  }

  private playedIn(game: number): string[] {
    let played = this.playedByGame.get(game);
    if (!played) this.playedByGame.set(game, (played = []));
    return played;
  }
}
