/**
 * The end of a round: the defenders' points, the hidden-card bonus, make or down, rank changes, the next
 * dealer and the match winner — and the replay of a recorded round (the statement's simulator's whole job).
 */
import { ACE, type Card, COPIES_PER_CARD, DISTINCT_CARDS, pointsOf, type Rank } from "./cards";
import { cardOrdering, type MainSuit, type TrumpContext } from "./order";
import { classic, hiddenMultiplierExponent, type TractorRuleset } from "./ruleset";
import { judgeTrick } from "./trick";

/** Seats clockwise: 0 Alice, 1 Bob, 2 Charles, 3 David. */
export type Seat = 0 | 1 | 2 | 3;
export const SEATS: readonly Seat[] = [0, 1, 2, 3];
export const SEAT_NAMES: readonly string[] = ["Alice", "Bob", "Charles", "David"];
export const PLAYERS = 4;
/** Team 1 is Alice and Charles, team 2 is Bob and David. */
export type Team = 1 | 2;
export const MAKE_THRESHOLD = 80;
const POINTS_PER_LEVEL = 40;

export function teamOf(seat: Seat): Team {
  return seat % 2 === 0 ? 1 : 2;
}

export function otherTeam(team: Team): Team {
  return team === 1 ? 2 : 1;
}

/** The next seat clockwise (the player on the right-hand side in the statement's words). */
export function nextSeat(seat: Seat, steps = 1): Seat {
  return ((seat + steps) % PLAYERS) as Seat;
}

export interface RoundSetup {
  readonly mainSuit: MainSuit;
  readonly dealer: Seat;
  /** The current ranks of team 1 and team 2. */
  readonly teamRanks: readonly [Rank, Rank];
}

/** The declarers are the dealer's team; the defenders are the other one. */
export function declarersOf(setup: RoundSetup): Team {
  return teamOf(setup.dealer);
}

/** The round's main suit and current rank (the declarers' rank). */
export function roundContext(setup: RoundSetup): TrumpContext {
  return { mainSuit: setup.mainSuit, currentRank: setup.teamRanks[declarersOf(setup) - 1] };
}

/**
 * The defenders' bonus when they win the last trick: the hidden cards' points times 2^w; by the statement w is the
 * length of the last lead's longest component (for a single, pair or tractor that is the whole lead), and the
 * ruleset's `hiddenMultiplier` may count it otherwise (see hiddenMultiplierExponent).
 */
export function hiddenCardBonus(hidden: readonly Card[], exponent: number): number {
  return pointsOf(hidden) * 2 ** exponent;
}

export interface RankChange {
  /** "make": the defenders scored under 80 and stay defenders; "down": the teams swap. */
  readonly make: boolean;
  readonly team: Team;
  readonly levels: number;
}

/** The statement's level rules: 0 points +3, under 40 +2, under 80 +1 for the declarers; else +k for the defenders. */
export function rankChange(declarers: Team, defenderPoints: number): RankChange {
  if (defenderPoints < MAKE_THRESHOLD) {
    const levels = defenderPoints <= 0 ? 3 : defenderPoints < POINTS_PER_LEVEL ? 2 : 1;
    return { make: true, team: declarers, levels };
  }
  const levels = Math.floor((defenderPoints - MAKE_THRESHOLD) / POINTS_PER_LEVEL);
  return { make: false, team: otherTeam(declarers), levels };
}

export interface RoundResult {
  /** Everything the defenders scored, the hidden-card bonus included. */
  readonly defenderPoints: number;
  readonly hiddenBonus: number;
  readonly change: RankChange;
  /** The ranks after the round; a rank above Ace (14) means that team has won the match. */
  readonly teamRanks: readonly [number, number];
  /** On "make" the dealer's partner deals next, on "down" the next seat clockwise. */
  readonly nextDealer: Seat;
  readonly matchWinner: Team | undefined;
}

export function settleRound(setup: RoundSetup, defenderPoints: number, hiddenBonus: number): RoundResult {
  const change = rankChange(declarersOf(setup), defenderPoints);
  const teamRanks: [number, number] = [setup.teamRanks[0], setup.teamRanks[1]];
  teamRanks[change.team - 1] += change.levels;
  const matchWinner = ([1, 2] as const).find((team) => teamRanks[team - 1] > ACE);
  const nextDealer = nextSeat(setup.dealer, change.make ? 2 : 1);
  return { defenderPoints, hiddenBonus, change, teamRanks, nextDealer, matchWinner };
}

/** A round as the statement records it: each trick's plays in playing order, the leader's first. */
export interface RecordedRound {
  readonly setup: RoundSetup;
  readonly tricks: readonly (readonly (readonly Card[])[])[];
}

/** How many copies of each card id the record plays (as countCards would count them). */
function playedCounts(round: RecordedRound): Uint8Array {
  const counts = new Uint8Array(DISTINCT_CARDS);
  for (const plays of round.tricks) for (const play of plays) for (const card of play) counts[card]++;
  return counts;
}

/** The cards a record plays more often than the two decks hold (each once), in card order. */
export function overplayedCards(round: RecordedRound): Card[] {
  const played = playedCounts(round);
  const overplayed: Card[] = [];
  for (let card = 0; card < DISTINCT_CARDS; card++) if (played[card] > COPIES_PER_CARD) overplayed.push(card);
  return overplayed;
}

/**
 * The cards nobody played: the hidden cards, in card order. A record that plays some card more often than the two
 * decks hold (the statement's own sample plays S3 three times) simply leaves no copy of it hidden.
 */
export function unplayedCards(round: RecordedRound): Card[] {
  const played = playedCounts(round);
  const hidden: Card[] = [];
  for (let card = 0; card < DISTINCT_CARDS; card++) {
    for (let copy = played[card]; copy < COPIES_PER_CARD; copy++) hidden.push(card);
  }
  return hidden;
}

/**
 * Replays a recorded round trick by trick (the winner leads next) and settles it, under the ruleset's hidden-card
 * multiplier (the statement's by default). How to treat overplayed cards is the caller's (see `overplayedCards`).
 */
export function replayRound(
  round: RecordedRound,
  ruleset: Pick<TractorRuleset, "hiddenMultiplier"> = classic,
): RoundResult {
  const ordering = cardOrdering(roundContext(round.setup));
  const defenders = otherTeam(declarersOf(round.setup));
  let leader = round.setup.dealer;
  let points = 0;
  let lastLengths: readonly number[] = [0];
  for (const plays of round.tricks) {
    const judgement = judgeTrick(plays, ordering);
    leader = nextSeat(leader, judgement.winner);
    if (teamOf(leader) === defenders) points += judgement.points;
    lastLengths = judgement.structure.lengths;
  }
  const hidden = unplayedCards(round);
  const bonus =
    round.tricks.length > 0 && teamOf(leader) === defenders
      ? hiddenCardBonus(hidden, hiddenMultiplierExponent(ruleset, lastLengths))
      : 0;
  return settleRound(round.setup, points + bonus, bonus);
}
