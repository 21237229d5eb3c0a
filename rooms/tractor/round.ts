/**
 * A whole round at a live table, as plain functions over plain data, so a room only has to forward seats'
 * actions and broadcast the new state: deal a seeded deck, let the dealer bury 8 cards, then play the tricks
 * in order with every play validated, and settle the round when the hands are empty.
 *
 * States are never mutated; every update returns a new state or a reason the action was refused.
 */
import { type Random, shuffled } from "../kit/random";
import { type Card, cardsName, doubleDeck, withoutCards } from "./cards";
import { checkFollow, checkLead, failedThrowComponent, legalPlays, type LegalPlays } from "./legality";
import { type CardOrdering, cardOrdering } from "./order";
import { classic, hiddenMultiplierExponent, type TractorRuleset } from "./ruleset";
import {
  declarersOf,
  hiddenCardBonus,
  nextSeat,
  otherTeam,
  roundContext,
  type RoundResult,
  type RoundSetup,
  type Seat,
  SEAT_NAMES,
  SEATS,
  settleRound,
  teamOf,
} from "./scoring";
import { leadStructure } from "./structure";
import { judgeTrick } from "./trick";

export const HIDDEN_CARDS = 8;
export const HAND_CARDS = 25;
export const DEALER_CARDS = HAND_CARDS + HIDDEN_CARDS;

export type RoundPhase = "burying" | "playing" | "finished";

export interface TrickInProgress {
  readonly leader: Seat;
  /** The plays so far, the leader's first. */
  readonly plays: readonly (readonly Card[])[];
}

export interface CompletedTrick extends TrickInProgress {
  readonly winner: Seat;
  readonly points: number;
}

export interface FailedThrow {
  readonly seat: Seat;
  readonly attempted: readonly Card[];
  /** The component the thrower had to play instead. */
  readonly played: readonly Card[];
  /** The change to the defenders' points. */
  readonly penalty: number;
}

/** What a round holds in every phase. */
interface RoundFields {
  readonly ruleset: TractorRuleset;
  readonly setup: RoundSetup;
  /** Each seat's cards, indexed by seat, in no particular order. */
  readonly hands: readonly (readonly Card[])[];
  /** The 8 cards the dealer buried (empty until then). */
  readonly hidden: readonly Card[];
  /** The seat expected to act: the dealer while burying, then the next player. */
  readonly turn: Seat;
  /** The trick being played, undefined between tricks. */
  readonly trick: TrickInProgress | undefined;
  readonly tricks: readonly CompletedTrick[];
  /** The defenders' points from tricks won so far. */
  readonly trickPoints: number;
  /** The sum of failed-throw penalties (positive helps the defenders). */
  readonly penaltyPoints: number;
  readonly failedThrows: readonly FailedThrow[];
}

export interface BuryingRound extends RoundFields {
  readonly phase: "burying";
}

export interface PlayingRound extends RoundFields {
  readonly phase: "playing";
}

/** Only a finished round has a result. */
export interface FinishedRound extends RoundFields {
  readonly phase: "finished";
  readonly result: RoundResult;
}

export type RoundState = BuryingRound | PlayingRound | FinishedRound;

export type RoundUpdate<State extends RoundState = RoundState> =
  | { ok: true; state: State }
  | { ok: false; reason: string };

function refused(reason: string): { ok: false; reason: string } {
  return { ok: false, reason };
}

/** Starts a round from dealt hands (the dealer's holds 33 cards, the others 25): the dealer buries next. */
export function startRound(
  setup: RoundSetup,
  hands: readonly (readonly Card[])[],
  ruleset: TractorRuleset = classic,
): BuryingRound {
  return {
    ruleset,
    setup,
    phase: "burying",
    hands: hands.map((hand) => hand.slice()),
    hidden: [],
    turn: setup.dealer,
    trick: undefined,
    tricks: [],
    trickPoints: 0,
    penaltyPoints: 0,
    failedThrows: [],
  };
}

/** Shuffles the 108 cards with `random` and deals them: 33 to the dealer, 25 to everyone else. */
export function dealRound(setup: RoundSetup, random: Random, ruleset: TractorRuleset = classic): BuryingRound {
  const deck = shuffled(doubleDeck(), random);
  const hands: Card[][] = [];
  let next = 0;
  for (const seat of SEATS) {
    const size = seat === setup.dealer ? DEALER_CARDS : HAND_CARDS;
    hands.push(deck.slice(next, next + size));
    next += size;
  }
  return startRound(setup, hands, ruleset);
}

export function orderingOf(state: RoundState): CardOrdering {
  return cardOrdering(roundContext(state.setup));
}

/** Why an action of another phase is refused now. */
function phaseVerdict(state: RoundState): string {
  if (state.phase === "finished") return "The round is over.";
  return state.phase === "burying"
    ? `${SEAT_NAMES[state.setup.dealer]} must bury ${HIDDEN_CARDS} cards first.`
    : "The cards are already buried.";
}

function turnVerdict(state: RoundState, seat: Seat): string | undefined {
  return seat === state.turn ? undefined : `It is ${SEAT_NAMES[state.turn]}'s turn.`;
}

function replaceHand(hands: readonly (readonly Card[])[], seat: Seat, hand: readonly Card[]): (readonly Card[])[] {
  return hands.map((held, index) => (index === seat ? hand : held));
}

/** The dealer puts 8 of their 33 cards aside as the hidden cards; the dealer then leads the first trick. */
export function buryCards(state: RoundState, seat: Seat, cards: readonly Card[]): RoundUpdate<PlayingRound> {
  if (state.phase !== "burying") return refused(phaseVerdict(state));
  const wrongTurn = turnVerdict(state, seat);
  if (wrongTurn) return refused(wrongTurn);
  if (cards.length !== HIDDEN_CARDS) return refused(`Bury exactly ${HIDDEN_CARDS} cards.`);
  const rest = withoutCards(state.hands[seat], cards);
  if (rest === undefined) return refused(`You do not hold all of ${cardsName(cards)}.`);
  return {
    ok: true,
    state: { ...state, phase: "playing", hands: replaceHand(state.hands, seat, rest), hidden: cards.slice() },
  };
}

/** The cards led in the current trick, or undefined when the next play is a lead. */
export function currentLead(state: RoundState): readonly Card[] | undefined {
  return state.trick?.plays[0];
}

/** What the seat may play now (see legalPlays for the limit); empty when it is not the seat's turn. */
export function legalPlaysFor(state: RoundState, seat: Seat, limit?: number): LegalPlays {
  if (state.phase !== "playing" || seat !== state.turn) return { plays: [], complete: true };
  return legalPlays(state.hands[seat], currentLead(state), orderingOf(state), limit);
}

interface AcceptedPlay {
  readonly cards: readonly Card[];
  readonly failedThrow?: FailedThrow;
}

/** A lead's check; under "check-other-hands" a throw another player could beat shrinks to one component. */
function acceptLead(state: RoundState, seat: Seat, cards: readonly Card[]): AcceptedPlay | string {
  const ordering = orderingOf(state);
  const verdict = checkLead(state.hands[seat], cards, ordering);
  if (!verdict.ok) return verdict.reason;
  if (state.ruleset.throwPolicy === "always-accept") return { cards };
  const structure = leadStructure(cards, ordering);
  const others = state.hands.filter((_, index) => index !== seat);
  const forced = structure && failedThrowComponent(structure, others, ordering);
  if (!forced) return { cards };
  const declarer = teamOf(seat) === declarersOf(state.setup);
  const penalty = declarer ? state.ruleset.failedThrowPenalty : -state.ruleset.failedThrowPenalty;
  return { cards: forced.cards, failedThrow: { seat, attempted: cards.slice(), played: forced.cards, penalty } };
}

/**
 * A seat plays cards: a lead when no trick is under way, else a follow. Refused (with the reason) when it is
 * not the seat's turn or the play breaks a rule. A completed trick goes to its winner, who leads next; after
 * the last trick the round is settled.
 */
export function applyPlay(
  state: RoundState,
  seat: Seat,
  cards: readonly Card[],
): RoundUpdate<PlayingRound | FinishedRound> {
  if (state.phase !== "playing") return refused(phaseVerdict(state));
  const wrongTurn = turnVerdict(state, seat);
  if (wrongTurn) return refused(wrongTurn);
  const lead = currentLead(state);
  let accepted: AcceptedPlay | string;
  if (lead === undefined) accepted = acceptLead(state, seat, cards);
  else {
    const verdict = checkFollow(state.hands[seat], lead, cards, orderingOf(state));
    accepted = verdict.ok ? { cards } : verdict.reason;
  }
  if (typeof accepted === "string") return refused(accepted);
  const hand = withoutCards(state.hands[seat], accepted.cards) as Card[];
  const trick: TrickInProgress = {
    leader: state.trick?.leader ?? seat,
    plays: [...(state.trick?.plays ?? []), accepted.cards.slice()],
  };
  const played: PlayingRound = {
    ...state,
    hands: replaceHand(state.hands, seat, hand),
    trick,
    turn: nextSeat(seat),
    penaltyPoints: state.penaltyPoints + (accepted.failedThrow?.penalty ?? 0),
    failedThrows: accepted.failedThrow ? [...state.failedThrows, accepted.failedThrow] : state.failedThrows,
  };
  return { ok: true, state: trick.plays.length === SEATS.length ? completeTrick(played, trick) : played };
}

function completeTrick(state: PlayingRound, trick: TrickInProgress): PlayingRound | FinishedRound {
  const judgement = judgeTrick(trick.plays, orderingOf(state));
  const winner = nextSeat(trick.leader, judgement.winner);
  const defenders = otherTeam(declarersOf(state.setup));
  const trickPoints = state.trickPoints + (teamOf(winner) === defenders ? judgement.points : 0);
  const done: PlayingRound = {
    ...state,
    trick: undefined,
    turn: winner,
    tricks: [...state.tricks, { ...trick, winner, points: judgement.points }],
    trickPoints,
  };
  if (done.hands.some((hand) => hand.length > 0)) return done;
  const bonus =
    teamOf(winner) === defenders
      ? hiddenCardBonus(done.hidden, hiddenMultiplierExponent(state.ruleset, judgement.structure.lengths))
      : 0;
  const result = settleRound(state.setup, Math.max(0, trickPoints + done.penaltyPoints) + bonus, bonus);
  return { ...done, phase: "finished", result };
}
