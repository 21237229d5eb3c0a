/**
 * What one seat may know during a round: its own cards and everything played face up at the table, never
 * another seat's hand, and the hidden cards only when this seat is the dealer who buried them.
 *
 * A SeatView is plain JSON-able data (numbers, strings, arrays, plain objects; absent fields are left out
 * rather than set to undefined), so the server can project it from a RoundState with `seatView` and a client
 * can build the very same object from what its seat receives over the network. Bots decide from it alone.
 */
import { type Card, COPIES_PER_CARD, DISTINCT_CARDS, type Rank } from "./cards";
import { type CardOrdering, cardOrdering, type MainSuit, TRUMP_GROUP } from "./order";
import type { RoundPhase, RoundState } from "./round";
import { nextSeat, type RoundResult, type Seat, SEATS, teamOf } from "./scoring";

export interface TrickSoFar {
  readonly leader: Seat;
  /** The plays so far in playing order, the leader's first; play i was made by seat (leader + i) mod 4. */
  readonly plays: readonly (readonly Card[])[];
}

export interface TrickWon extends TrickSoFar {
  readonly winner: Seat;
  /** Points of all the cards in the trick (they went to the defenders only if a defender won it). */
  readonly points: number;
}

export interface SeatView {
  readonly seat: Seat;
  readonly phase: RoundPhase;
  readonly mainSuit: MainSuit;
  /** The declarers' current rank, which fixes the trumps together with the main suit. */
  readonly currentRank: Rank;
  /** The current ranks of team 1 and team 2. */
  readonly teamRanks: readonly [Rank, Rank];
  readonly dealer: Seat;
  /** The seat expected to act: the dealer while burying, then the next player. */
  readonly turn: Seat;
  /** This seat's own cards (the dealer's 33 while burying). */
  readonly hand: readonly Card[];
  /** How many cards each seat holds, indexed by seat. */
  readonly handCounts: readonly number[];
  /** The trick being played; absent between tricks (then `turn` leads). */
  readonly trick?: TrickSoFar;
  readonly tricks: readonly TrickWon[];
  /** The defenders' points from tricks won so far. */
  readonly defenderTrickPoints: number;
  /** The sum of failed-throw penalties so far (positive helps the defenders). */
  readonly penaltyPoints: number;
  /** Every card each seat has played so far this round, indexed by seat, in playing order. */
  readonly playedBy: readonly (readonly Card[])[];
  /** The dealer's own, while burying only: the cards to choose the 8 hidden cards from (the whole hand). */
  readonly buryFrom?: readonly Card[];
  /** The dealer's own, once buried: the hidden cards. Nobody else ever sees them before the round ends. */
  readonly buried?: readonly Card[];
  /** The settled round, once finished. */
  readonly result?: RoundResult;
}

/** Are the seat and the dealer on the same team (the declarers)? */
export function isDeclarer(view: Pick<SeatView, "dealer">, seat: Seat): boolean {
  return teamOf(seat) === teamOf(view.dealer);
}

/** The round's card order, from the main suit and current rank the view shows. */
export function viewOrdering(view: Pick<SeatView, "mainSuit" | "currentRank">): CardOrdering {
  return cardOrdering({ mainSuit: view.mainSuit, currentRank: view.currentRank });
}

/**
 * How many copies of each card id the seat has not seen: neither in its hand, nor played, nor (for the dealer)
 * buried. Those cards are in the other three hands or, for everyone but the dealer, among the hidden cards.
 */
export function unseenCounts(view: SeatView): Uint8Array {
  const counts = new Uint8Array(DISTINCT_CARDS).fill(COPIES_PER_CARD);
  const seen = [view.hand, ...view.playedBy, view.buried ?? []];
  for (const cards of seen) for (const card of cards) counts[card]--;
  return counts;
}

/**
 * voids[seat][group]: the seat is known to hold no card of the group (a suit index or TRUMP_GROUP), because it
 * once followed a lead of that group with fewer of its cards than the lead had.
 */
export function knownVoids(view: SeatView, ordering: CardOrdering): boolean[][] {
  const voids = SEATS.map(() => new Array<boolean>(TRUMP_GROUP + 1).fill(false));
  for (const { leader, plays } of tricksSoFar(view)) {
    const group = ordering.group[plays[0][0]];
    for (let index = 1; index < plays.length; index++) {
      const followed = plays[index].filter((card) => ordering.group[card] === group).length;
      if (followed < plays[0].length) voids[nextSeat(leader, index)][group] = true;
    }
  }
  return voids;
}

function tricksSoFar(round: { tricks: readonly TrickSoFar[]; trick?: TrickSoFar }): readonly TrickSoFar[] {
  return round.trick ? [...round.tricks, round.trick] : round.tricks;
}

/** Every card each seat has played so far this round (the current trick included), indexed by seat. */
export function cardsPlayedBy(state: RoundState): Card[][] {
  const played: Card[][] = SEATS.map(() => []);
  for (const trick of tricksSoFar(state)) {
    trick.plays.forEach((cards, index) => played[nextSeat(trick.leader, index)].push(...cards));
  }
  return played;
}

function copyTrick(trick: { leader: Seat; plays: readonly (readonly Card[])[] }): TrickSoFar {
  return { leader: trick.leader, plays: trick.plays.map((cards) => cards.slice()) };
}

/** The projection of a round onto what `seat` may see; its cards and tricks are copies, never the state's own arrays. */
export function seatView(state: RoundState, seat: Seat): SeatView {
  const { setup } = state;
  const isDealer = seat === setup.dealer;
  const view: SeatView = {
    seat,
    phase: state.phase,
    mainSuit: setup.mainSuit,
    currentRank: setup.teamRanks[teamOf(setup.dealer) - 1],
    teamRanks: [setup.teamRanks[0], setup.teamRanks[1]],
    dealer: setup.dealer,
    turn: state.turn,
    hand: state.hands[seat].slice(),
    handCounts: state.hands.map((hand) => hand.length),
    ...(state.trick ? { trick: copyTrick(state.trick) } : {}),
    tricks: state.tricks.map((trick) => ({ ...copyTrick(trick), winner: trick.winner, points: trick.points })),
    defenderTrickPoints: state.trickPoints,
    penaltyPoints: state.penaltyPoints,
    playedBy: cardsPlayedBy(state),
    ...(isDealer && state.phase === "burying" ? { buryFrom: state.hands[seat].slice() } : {}),
    ...(isDealer && state.phase !== "burying" ? { buried: state.hidden.slice() } : {}),
    ...(state.phase === "finished" ? { result: state.result } : {}),
  };
  return view;
}
