/**
 * The partner-aware policy: the heuristic (policy.ts) scoring the heuristic's own candidates, but
 *
 * - a lead in a plain suit the partner is known to be void in (and may still ruff) is taken by the partner's trump
 *   unless the opponent after it is void too: the lead is worth its points and the followers';
 * - a seat second to play, whose partner plays last and is void in the led plain suit, counts on the partner's ruff
 *   taking the trick, so it gives points instead of keeping them back;
 * - the highest trump held and trump pairs are kept for the last trick, which decides the hidden cards' points
 *   (doubled for a single, quadrupled for a pair): spending one earlier costs half the hidden cards' points;
 * - winning the lead is worth a point less, and high plain cards are kept twice as dearly (PARTNER_TUNING).
 *
 * Each was measured against the heuristic on duplicate deals: together about 54% of rounds,
 * where one alone moves the share by a point or two. The strong level (search.ts) plays its own team with this
 * policy in its play-outs and weighs its choice first. It reads the seat's view only, as the heuristic does.
 * `heuristicPolicy` itself stays as it is: it is the `normal` level the others are measured against.
 */
import { type Card, pointsOf } from "./cards";
import { legalPlays } from "./legality";
import { TRUMP_GROUP } from "./order";
import {
  bestBy,
  expectedFollowPoints,
  followCandidates,
  heuristicBurial,
  leadCandidates,
  leadChance,
  leadOf,
  requirePlayTurn,
  scoreFollow,
  standingOf,
  type TractorPolicy,
  type TrickStanding,
} from "./policy";
import {
  expectedLaterPoints,
  hiddenPoints,
  hiddenStake,
  keepValueOf,
  outcomeValue,
  tableOf,
  type Table,
  type Tuning,
  HEURISTIC_TUNING,
} from "./policy-table";
import { classic, type TractorRuleset } from "./ruleset";
import { nextSeat, PLAYERS } from "./scoring";
import { leadStructure, type LeadStructure } from "./structure";
import { followHonor } from "./trick";

/** The partner-aware policy's weights for the heuristic's scores: the lead worth less, high plain cards kept more. */
export const PARTNER_TUNING: Tuning = { ...HEURISTIC_TUNING, leadValue: -1, plainKeepStep: 0.3 };

/** The chance the partner's ruff takes a trick led in its void, the last opponent not known void there. */
const PARTNER_RUFF = 0.8;
/** The same with the last opponent known void too (it may overruff). */
const PARTNER_RUFF_OVERRUFFED = 0.4;

/** Can the seat at `offset` (2: the partner) ruff a trick led in this plain group, as far as the seat knows? */
function mayRuff(table: Table, offset: number, group: number): boolean {
  const seat = nextSeat(table.view.seat, offset);
  return (
    group !== TRUMP_GROUP &&
    table.voids[seat][group] &&
    !table.voids[seat][TRUMP_GROUP] &&
    table.unseenByGroup[TRUMP_GROUP].length > 0
  );
}

/** The chance the partner ruffs a lead in `group` and holds the trick, or 0 when it cannot ruff. */
function partnerRuffChance(table: Table, structure: LeadStructure): number {
  if (structure.isThrow || !mayRuff(table, 2, structure.group)) return 0;
  const lastOpponent = nextSeat(table.view.seat, 3);
  return table.voids[lastOpponent][structure.group] ? PARTNER_RUFF_OVERRUFFED : PARTNER_RUFF;
}

/** Extra weights of the partner-aware policy beside the heuristic's. */
export interface PartnerWeights {
  /** Before the last trick, spending the highest trump held costs this share of the hidden cards' points... */
  readonly endgameTop: number;
  /** ...and breaking a trump pair held this share. */
  readonly endgamePair: number;
}

export const PARTNER_WEIGHTS: PartnerWeights = { endgameTop: 0.5, endgamePair: 0.5 };

/** What a play costs beyond the heuristic's score (see endgameGuard), worked out once a decision. */
type PlayCost = (cards: readonly Card[]) => number;

const NO_COST: PlayCost = () => 0;

/**
 * The last trick decides the hidden cards (doubled for a single, quadrupled for a pair): what spending
 * the highest trump, or breaking a trump pair, before then costs, in the hidden cards' points.
 */
function endgameGuard(table: Table, weights: PartnerWeights): PlayCost {
  const { hand } = table.view;
  const { ordering } = table;
  const trumps = hand.filter((card) => ordering.group[card] === TRUMP_GROUP);
  if (trumps.length === 0) return NO_COST;
  const top = trumps.reduce((best, card) => (ordering.order[card] > ordering.order[best] ? card : best));
  const paired = new Set(trumps.filter((card, index) => trumps.indexOf(card) !== index));
  const stake = hiddenPoints(table);
  return (cards) => {
    if (cards.length === hand.length) return 0; // the last trick: nothing to keep for
    let cost = cards.includes(top) ? weights.endgameTop : 0;
    for (const card of paired)
      if (cards.indexOf(card) === cards.lastIndexOf(card) && cards.includes(card)) cost += weights.endgamePair;
    return cost * stake;
  };
}

function scorePartnerLead(table: Table, cards: readonly Card[], cost: PlayCost): number {
  const structure = leadStructure(cards, table.ordering) as LeadStructure;
  const stake =
    pointsOf(cards) +
    expectedFollowPoints(table, structure.group, cards.length) +
    hiddenStake(table, structure, cards.length);
  const chance = Math.max(leadChance(table, structure), partnerRuffChance(table, structure));
  return outcomeValue(chance, stake, table.tuning) - keepValueOf(cards, table) - cost(cards);
}

/**
 * A follow second in the trick, not taking it, with the partner last to play and void in the led plain suit: the
 * partner's ruff will likely take it. Otherwise the heuristic's score.
 */
function scorePartnerFollow(table: Table, standing: TrickStanding, cards: readonly Card[], cost: PlayCost): number {
  return partnerFollowValue(table, standing, cards) - cost(cards);
}

function partnerFollowValue(table: Table, standing: TrickStanding, cards: readonly Card[]): number {
  const { structure, position } = standing;
  if (position !== 1 || structure.isThrow || !mayRuff(table, 2, structure.group))
    return scoreFollow(table, standing, cards);
  const honor = followHonor(cards, structure, table.ordering);
  if (honor !== undefined && honor > standing.honor) return scoreFollow(table, standing, cards);
  const stake =
    standing.points +
    pointsOf(cards) +
    expectedLaterPoints(table, PLAYERS - 1 - position, cards.length) +
    hiddenStake(table, structure, cards.length);
  return outcomeValue(PARTNER_RUFF, stake, table.tuning) - keepValueOf(cards, table);
}

/** The partner-aware policy (see the top of this file); it buries as the heuristic. */
export function partnerPolicy(
  ruleset: TractorRuleset = classic,
  tuning: Tuning = PARTNER_TUNING,
  weights: PartnerWeights = PARTNER_WEIGHTS,
): TractorPolicy {
  return {
    choosePlay(view) {
      requirePlayTurn(view);
      const table = tableOf(view, ruleset, tuning);
      const lead = leadOf(view);
      const cost = endgameGuard(table, weights);
      if (lead === undefined)
        return bestBy(leadCandidates(table), (cards) => scorePartnerLead(table, cards, cost)).slice();
      const standing = standingOf(table);
      const candidates = followCandidates(table, standing);
      if (candidates.length === 0) return legalPlays(view.hand, lead, table.ordering, 1).plays[0];
      return bestBy(candidates, (cards) => scorePartnerFollow(table, standing, cards, cost)).slice();
    },
    chooseBurial: heuristicBurial,
  };
}
