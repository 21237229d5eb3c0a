import { cardName, parseCard, type Card } from "../rooms/tractor/cards";
import type { MainSuit } from "../rooms/tractor/order";
import {
  TRACTOR_SEATS,
  tractorMessages,
  type TractorEvents,
  type TractorHint,
  type TractorResult,
  type TractorSeatName,
  type TractorStateView,
  type TractorTeam,
  type TractorTrick,
} from "../rooms/tractor/protocol";
import type { RoundPhase } from "../rooms/tractor/round";
import type { RoundResult, Seat } from "../rooms/tractor/scoring";
import type { SeatView, TrickSoFar, TrickWon } from "../rooms/tractor/seat-view";
import { RoomSession } from "./session";

export type { TractorEvents } from "../rooms/tractor/protocol";

/** A card as the wire writes it ("H5", "BJ") or as the engine numbers it (what a policy returns). */
export type TractorCardLike = string | Card;

/** What a seat must do next, with what it may see (the input of the policies in rooms/tractor/policy.ts). */
export type TractorTurn =
  | { kind: "bury" | "play"; round: number; step: number; view: SeatView }
  | { kind: "matchOver"; winner: TractorTeam; teamRanks: number[] };

/** Watching a Tractor room: the public table (counts, played cards, scores, results) and the events; no hand. */
export class TractorSpectator extends RoomSession<TractorStateView, TractorEvents> {}

/** The seat whose hand this state holds (a player's state holds its own hand only); undefined for a spectator. */
export function ownTractorSeat(state: TractorStateView): Seat | undefined {
  const seat = state.seats.findIndex((held) => held.hand !== undefined);
  return seat >= 0 ? (seat as Seat) : undefined;
}

function seatIndex(name: TractorSeatName | ""): Seat | undefined {
  const seat = TRACTOR_SEATS.indexOf(name as TractorSeatName);
  return seat >= 0 ? (seat as Seat) : undefined;
}

function cardsOf(names: readonly string[]): Card[] {
  return names.map((name) => {
    const card = parseCard(name);
    if (card === undefined) throw new Error(`the room sent "${name}", which is not a card`);
    return card;
  });
}

function trickOf(trick: TractorTrick): TrickSoFar {
  return { leader: seatIndex(trick.leader) as Seat, plays: trick.plays.map((play) => cardsOf(play.cards)) };
}

function roundPhaseOf(state: TractorStateView): RoundPhase | undefined {
  if (state.phase === "burying" || state.phase === "playing") return state.phase;
  return state.phase === "roundOver" || state.phase === "matchOver" ? "finished" : undefined;
}

function resultOf(result: TractorResult): RoundResult {
  return {
    defenderPoints: result.defenderPoints,
    hiddenBonus: result.hiddenBonus,
    change: { make: result.make, team: result.team, levels: result.levels },
    teamRanks: [result.teamRanks[0], result.teamRanks[1]],
    nextDealer: seatIndex(result.nextDealer) as Seat,
    matchWinner: result.matchWinner === 0 ? undefined : result.matchWinner,
  };
}

/**
 * The SeatView of `seat` built from nothing but a state that seat received: the same data the server's
 * `seatView(round, seat)` gives its own bots (the hand highest first). Undefined outside a round's burial, play
 * or end, and for a seat whose hand the state does not hold.
 */
export function tractorSeatView(state: TractorStateView, seat: Seat): SeatView | undefined {
  const phase = roundPhaseOf(state);
  const own = state.seats[seat];
  const dealer = seatIndex(state.dealer);
  if (phase === undefined || own?.hand === undefined || dealer === undefined || state.mainSuit === "") return undefined;
  const tricks: TrickWon[] = state.tricks.map((trick) => ({
    ...trickOf(trick),
    winner: seatIndex(trick.winner) as Seat,
    points: trick.points,
  }));
  const trick = state.trick.plays.length > 0 ? trickOf(state.trick) : undefined;
  const playedBy: Card[][] = TRACTOR_SEATS.map(() => []);
  for (const { leader, plays } of trick ? [...tricks, trick] : tricks) {
    plays.forEach((cards, index) => playedBy[(leader + index) % TRACTOR_SEATS.length].push(...cards));
  }
  const hand = cardsOf(own.hand);
  const isDealer = seat === dealer;
  // Once the round is over the engine's turn rests with the last trick's winner.
  const turn = phase === "finished" ? tricks[tricks.length - 1]?.winner : seatIndex(state.turn);
  return {
    seat,
    phase,
    mainSuit: state.mainSuit as MainSuit,
    currentRank: state.currentRank,
    teamRanks: [state.teamRanks[0], state.teamRanks[1]],
    dealer,
    turn: turn ?? dealer,
    hand,
    handCounts: state.seats.map((held) => held.handCount),
    ...(trick ? { trick } : {}),
    tricks,
    defenderTrickPoints: state.defenderPoints,
    penaltyPoints: state.penaltyPoints,
    playedBy,
    ...(isDealer && phase === "burying" ? { buryFrom: hand.slice() } : {}),
    ...(isDealer && phase !== "burying" ? { buried: cardsOf(own.buried ?? []) } : {}),
    ...(phase === "finished" && state.result ? { result: resultOf(state.result) } : {}),
  };
}

function wireCards(cards: readonly TractorCardLike[]): string[] {
  return cards.map((card) => (typeof card === "number" ? cardName(card) : card));
}

/**
 * A seat at a Tractor table. Moves are typed requests that throw a CardhallError with the room's code and reason
 * (ILLEGAL_PLAY with the engine's reason, NOT_YOUR_TURN, ...). `nextTurn` waits on the state (every patch carries
 * the hand, the table and the turn together) and remembers the step it last acted in, so it never hands out a
 * position the seat has already answered.
 */
export class TractorPlayer extends TractorSpectator {
  /** The state's `step` when this seat last buried or played. */
  private actedAt = -1;
  private matchOverReported = false;
  private seatName: TractorSeatName | undefined;

  /** This session's seat, once the first state has arrived. */
  seat(): TractorSeatName | undefined {
    if (this.seatName) return this.seatName;
    const state = this.view();
    const seat = state && ownTractorSeat(state);
    return (this.seatName = seat === undefined ? undefined : TRACTOR_SEATS[seat]);
  }

  /** The seat's own cards, highest first (empty before the first state). */
  hand(): string[] {
    const state = this.view();
    const seat = state && ownTractorSeat(state);
    return seat === undefined ? [] : [...(state!.seats[seat].hand ?? [])];
  }

  /** What this seat may see now, as the engine's SeatView (the policies' input); undefined outside a round's burial, play or end. */
  seatView(): SeatView | undefined {
    const state = this.view();
    const seat = state && ownTractorSeat(state);
    return seat === undefined ? undefined : tractorSeatView(state!, seat);
  }

  /** Declares the main suit while the cards are dealt: one current-rank card, a pair of it, or a pair of jokers. */
  declare(cards: readonly TractorCardLike[]): Promise<void> {
    return this.request(tractorMessages.declare, { cards: wireCards(cards) });
  }

  /** The dealer buries 8 of their 33 cards. */
  async bury(cards: readonly TractorCardLike[]): Promise<void> {
    const step = this.live()?.step ?? -1;
    await this.request(tractorMessages.bury, { cards: wireCards(cards) });
    this.actedAt = Math.max(this.actedAt, step);
  }

  /** Leads or follows with these cards. */
  async play(cards: readonly TractorCardLike[]): Promise<void> {
    const step = this.live()?.step ?? -1;
    await this.request(tractorMessages.play, { cards: wireCards(cards) });
    this.actedAt = Math.max(this.actedAt, step);
  }

  /** The engine's legal plays for this seat now (up to `limit`), or its declarations while dealing, with the seat bot's suggestion. */
  async hint(limit?: number): Promise<TractorHint> {
    return (await this.answer(tractorMessages.hint, limit === undefined ? {} : { limit })) as TractorHint;
  }

  /**
   * Resolves when this seat must bury or play in a position it has not acted in yet, or once when the match is
   * over. Rejects with a CardhallError TIMEOUT after `timeoutMs`, or ABORTED when `signal` aborts (a program that stops waiting).
   */
  async nextTurn(timeoutMs = 60_000, signal?: AbortSignal): Promise<TractorTurn> {
    const state = await this.waitForView(
      (view) => this.turnIn(view) !== undefined,
      timeoutMs,
      (live) => this.mayBeMyTurn(live),
      signal,
    );
    const turn = this.turnIn(state)!;
    if (turn.kind === "matchOver") this.matchOverReported = true;
    return turn;
  }

  /** A cheap look at the live state: could this patch hold a turn for this seat? */
  private mayBeMyTurn(live: Partial<TractorStateView>): boolean {
    if (live.phase === "matchOver") return !this.matchOverReported;
    if (live.phase !== "burying" && live.phase !== "playing") return false;
    const seat = this.seat();
    return (live.step ?? -1) > this.actedAt && (seat === undefined || live.turn === seat);
  }

  private turnIn(state: TractorStateView): TractorTurn | undefined {
    const seat = ownTractorSeat(state);
    if (seat === undefined) return undefined;
    if (state.phase === "matchOver") {
      if (this.matchOverReported || state.winner === 0) return undefined;
      return { kind: "matchOver", winner: state.winner, teamRanks: [...(state.result?.teamRanks ?? state.teamRanks)] };
    }
    if (
      (state.phase !== "burying" && state.phase !== "playing") ||
      state.turn !== TRACTOR_SEATS[seat] ||
      state.step <= this.actedAt
    )
      return undefined;
    const view = tractorSeatView(state, seat);
    if (view === undefined) return undefined;
    return { kind: state.phase === "burying" ? "bury" : "play", round: state.round, step: state.step, view };
  }
}
