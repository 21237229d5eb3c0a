import type { Card, NaturalCard, Suit } from "../rooms/fool/cards";
import {
  foolMessages,
  type FoolEvents,
  type FoolMove,
  type FoolOutcome,
  type FoolStateView,
  type FoolView,
} from "../rooms/fool/protocol";
import { legalMovesInView, type Phase } from "../rooms/fool/rules";
import { RoomSession } from "./session";

export type { FoolEvents };

/** What the player must do next: move (with what it may see and the legal moves), or nothing because a game ended. */
export type FoolTurn =
  | { kind: "move"; game: number; moveCount: number; view: FoolView; moves: FoolMove[] }
  | {
      kind: "over";
      game: number;
      outcome: FoolOutcome;
      fool: number | null;
      winners: number[];
      seed: number;
      /** Whether this player emptied its hand. */
      won: boolean;
    };

/** Watching a Fool room: the public state (face-up card, hand counts, deck count, turn) and the events; no hands. */
export class FoolSpectator extends RoomSession<FoolStateView, FoolEvents> {}

/** The seat whose hand this state holds: a player's state has its own hand only; null for a spectator. */
export function ownSeat(state: FoolStateView): number | null {
  const seat = state.seats.findIndex((held) => held.hand !== undefined);
  return seat >= 0 ? seat : null;
}

/** A player's state as the engine's FoolView, the input of its pure policies (randomPolicy, greedyPolicy, aiPolicy). */
export function foolViewOf(state: FoolStateView, seat: number): FoolView {
  const held = state.seats[seat];
  const fool = state.fool >= 0 && state.phase === "over" ? state.fool : null;
  return {
    seat,
    hand: (held.hand ?? []) as Card[],
    handCounts: state.seats.map((s) => s.handCount),
    faceUp: {
      card: state.faceUp.card as Card,
      as: state.faceUp.as as NaturalCard,
      namedSuit: state.faceUp.namedSuit === "" ? null : (state.faceUp.namedSuit as Suit),
    },
    deckCount: state.deckCount,
    turn: state.turn,
    phase: state.phase === "over" ? "over" : ((state.turnPhase || "cover") as Phase),
    finished: [...state.winners],
    fool,
    canDraw: held.canDraw ?? false,
    canPass: held.canPass ?? false,
  };
}

/**
 * A seat in a Fool room. `nextTurn` waits on the state (every patch carries the hand, the face-up card and the
 * turn together, so a position is never half-updated) and remembers the position it last moved in, so that it
 * never hands out a position the room has already moved past.
 */
export class FoolPlayer extends FoolSpectator {
  /** The position (game, move count) this session last moved in. */
  private movedAt: { game: number; moveCount: number } | null = null;
  private readonly reportedOver = new Set<number>();
  /** The seat never changes within a session: found once in the state, then remembered. */
  private ownSeat: number | null = null;

  /** This session's seat, once the first state has arrived. */
  seat(): number | null {
    if (this.ownSeat !== null) return this.ownSeat;
    const state = this.view();
    return (this.ownSeat = state ? ownSeat(state) : null);
  }

  /** Makes a move; throws a CardhallError (ILLEGAL_MOVE with the engine's reason, NOT_YOUR_TURN, ...) if refused. */
  async move(move: FoolMove): Promise<void> {
    // The position is read before the request: the live state may already show the move's effect when it resolves.
    const { game, moveCount } = this.live() ?? {};
    await this.request(foolMessages.move, move);
    if (game !== undefined && moveCount !== undefined) this.movedAt = { game, moveCount };
  }

  /** Lays a card: a joker needs `as` (the card it stands for), a Queen (or a joker as one) `namedSuit`. */
  play(card: Card, named: { as?: NaturalCard; namedSuit?: Suit } = {}): Promise<void> {
    return this.move({ kind: "play", card, ...named });
  }

  draw(): Promise<void> {
    return this.move({ kind: "draw" });
  }

  pass(): Promise<void> {
    return this.move({ kind: "pass" });
  }

  /** Starts the next game once the last is over (either seated person may). */
  newGame(options: { seed?: number } = {}): Promise<void> {
    return this.request(foolMessages.newGame, options);
  }

  /**
   * Resolves when this seat is to move in a position it has not moved in yet, or when a game ends (each game's
   * end is reported once). Rejects with a CardhallError TIMEOUT after `timeoutMs`, or ABORTED when `signal` aborts (a program that stops waiting).
   */
  async nextTurn(timeoutMs = 60_000, signal?: AbortSignal): Promise<FoolTurn> {
    const state = await this.waitForView(
      (view) => this.turnIn(view) !== null,
      timeoutMs,
      (live) => this.mayBeMyTurn(live),
      signal,
    );
    const turn = this.turnIn(state)!;
    if (turn.kind === "over") this.reportedOver.add(turn.game);
    return turn;
  }

  /** A cheap look at the live state: could this patch hold a turn (or an unreported end) for this seat? */
  private mayBeMyTurn(live: Partial<FoolStateView>): boolean {
    if (!live.game) return false;
    if (live.phase === "over") return !this.reportedOver.has(live.game);
    const seat = this.seat();
    const moved = this.movedAt;
    const answered = moved !== null && moved.game === live.game && moved.moveCount >= (live.moveCount ?? 0);
    return live.phase === "playing" && (seat === null || live.turn === seat) && !answered;
  }

  private turnIn(state: FoolStateView): FoolTurn | null {
    const seat = ownSeat(state);
    if (seat === null || state.game === 0) return null;
    if (state.phase === "over") {
      if (this.reportedOver.has(state.game)) return null;
      const winners = [...state.winners];
      const outcome = state.outcome as FoolOutcome;
      const fool = state.fool >= 0 ? state.fool : null;
      return {
        kind: "over",
        game: state.game,
        outcome,
        fool,
        winners,
        seed: state.revealedSeed,
        won: winners.includes(seat),
      };
    }
    if (state.phase !== "playing" || state.turn !== seat) return null;
    const moved = this.movedAt;
    if (moved && moved.game === state.game && moved.moveCount >= state.moveCount) return null;
    const view = foolViewOf(state, seat);
    return { kind: "move", game: state.game, moveCount: state.moveCount, view, moves: legalMovesInView(view) };
  }
}
