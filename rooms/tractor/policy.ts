/**
 * Policies for a Tractor seat: pure functions from what the seat sees (a SeatView) to its next action.
 *
 * - `randomPolicy` (policy-random.ts): uniformly random among the legal plays (as multisets of cards, the way the
 *   engine's `legalPlays` lists them) and a uniformly random burial.
 * - `heuristicPolicy`: scores a handful of sensible candidate plays by the points at stake, its chance of
 *   taking the trick for its team (from the cards it has not seen and the voids it has noticed) and what the
 *   cards spent would be worth later; it buries to make voids while keeping trumps and points.
 *
 * Both only ever return plays the engine accepts: every candidate is checked with the engine's own legality
 * functions, and the fallback is a follow built to meet the obligations.
 */
import { type Card, cardPoints, countCards, pointsOf, withoutCards } from "./cards";
import { cardsOfGroup, checkFollow, legalPlays } from "./legality";
import { type CardOrdering, TRUMP_GROUP } from "./order";
import {
  expectedLaterPoints,
  hiddenStake,
  holdChance,
  keepValue,
  keepValueOf,
  outcomeValue,
  partners,
  tableOf,
  unseenShapeAbove,
  type Table,
} from "./policy-table";
import { applyPlay, buryCards, HAND_CARDS, HIDDEN_CARDS, type RoundState, type RoundUpdate } from "./round";
import { classic, type TractorRuleset } from "./ruleset";
import { nextSeat, PLAYERS, type Seat } from "./scoring";
import { seatView, type SeatView, viewOrdering } from "./seat-view";
import {
  type Component,
  type LeadStructure,
  leadStructure,
  matchTractors,
  pairCapacity,
  pairLevels,
  shapeDemand,
  type TractorPlacement,
} from "./structure";
import { followHonor, judgeTrick } from "./trick";

export interface TractorPolicy {
  /** The cards to play now; the view must be the seat's own, in the playing phase, on its turn. */
  choosePlay(view: SeatView): Card[];
  /** The dealer's 8 hidden cards; the view must be the dealer's, in the burying phase. */
  chooseBurial(view: SeatView): Card[];
}

export function requirePlayTurn(view: SeatView): void {
  if (view.phase !== "playing" || view.turn !== view.seat) throw new Error(`seat ${view.seat} has no play to make now`);
}

export function burialCandidates(view: SeatView): readonly Card[] {
  if (view.phase !== "burying" || view.buryFrom === undefined) throw new Error(`seat ${view.seat} has nothing to bury`);
  return view.buryFrom;
}

/** The lead of the trick under way, or undefined when the seat leads. */
export function leadOf(view: SeatView): readonly Card[] | undefined {
  return view.trick?.plays[0];
}

// ---------------------------------------------------------------------------------------------------------
// Shaping cards into a lead's structure

type Preference = (card: Card) => number;

function byPreference(cards: readonly Card[], prefer: Preference): Card[] {
  return cards.slice().sort((a, b) => prefer(a) - prefer(b) || a - b);
}

/** One packing of the most tractor pairs the cards can match, placed as high, or as low, as possible. */
function tractorPacking(
  cards: readonly Card[],
  tractorPairs: readonly number[],
  high: boolean,
  ordering: CardOrdering,
): TractorPlacement[] {
  const capacity = pairCapacity(cards, ordering);
  if (high) return matchTractors(capacity, tractorPairs);
  // Packing the mirrored levels from the top packs the real ones from the bottom.
  const last = capacity.length - 1;
  return matchTractors(capacity.slice().reverse(), tractorPairs).map(({ top, pairs }) => ({
    top: last - top + pairs - 1,
    pairs,
  }));
}

/**
 * `size` of the cards (all of them when there are fewer) arranged to meet a lead of shape `lengths` as far
 * as they can: the most tractor pairs, then as many pairs as the lead has, then singles. Which pairs and
 * singles is left to `prefer` (lowest first); tractors go high or low.
 */
function shapedChoice(
  cards: readonly Card[],
  lengths: readonly number[],
  size: number,
  prefer: Preference,
  highTractors: boolean,
  ordering: CardOrdering,
): Card[] {
  if (cards.length <= size) return cards.slice();
  const demand = shapeDemand(lengths);
  const { pairs: levels } = pairLevels(cards, ordering);
  const chosen: Card[] = [];
  for (const { top, pairs } of tractorPacking(cards, demand.tractorPairs, highTractors, ordering)) {
    for (let order = top; order > top - pairs; order--) {
      const card = levels[order].pop() as Card;
      chosen.push(card, card);
    }
  }
  const morePairs = demand.pairsInTractors + demand.pairs - chosen.length / 2;
  for (const card of byPreference(levels.flat(), prefer).slice(0, Math.max(0, morePairs))) chosen.push(card, card);
  const rest = byPreference(withoutCards(cards, chosen) as Card[], prefer);
  return [...chosen, ...rest.slice(0, size - chosen.length)];
}

/** A follow meeting the obligations: the led group's cards shaped by `prefer`, topped up from the others. */
function shapedFollow(
  table: Table,
  structure: LeadStructure,
  size: number,
  prefer: Preference,
  high: boolean,
  ruff: boolean,
): Card[] {
  const { ordering, view } = table;
  const inGroup = cardsOfGroup(view.hand, structure.group, ordering);
  const groupPart = shapedChoice(inGroup, structure.lengths, size, prefer, high, ordering);
  const missing = size - groupPart.length;
  if (missing === 0) return groupPart;
  const others = withoutCards(view.hand, groupPart) as Card[];
  const trumps = cardsOfGroup(others, TRUMP_GROUP, ordering);
  const ruffing =
    ruff && groupPart.length === 0 ? shapedChoice(trumps, structure.lengths, missing, prefer, high, ordering) : [];
  const filler = byPreference(withoutCards(others, ruffing) as Card[], prefer).slice(0, missing - ruffing.length);
  return [...groupPart, ...ruffing, ...filler];
}

// ---------------------------------------------------------------------------------------------------------
// Following

/** Lowest keep value first, points last: what to throw off into a trick the seat's team will not take. */
function cheapFirst(table: Table): Preference {
  return (card) => keepValue(card, table.ordering, table.tuning) + 3 * cardPoints(card);
}

/** Points first (tens and kings, then fives), then the cheapest: what to give a partner who holds the trick. */
function pointsFirst(table: Table): Preference {
  return (card) => keepValue(card, table.ordering, table.tuning) - 3 * cardPoints(card);
}

function highFirst(table: Table): Preference {
  return (card) => -table.ordering.order[card];
}

/** Few enough legal follows to score them all? Counted as the choices the obligations pick among. */
const SCORED_FOLLOW_LIMIT = 300;

/** The trick under way as it stands before the seat plays, judged once for all the candidates. */
export interface TrickStanding {
  readonly leader: Seat;
  readonly lead: readonly Card[];
  readonly structure: LeadStructure;
  /** The seat's index in the playing order (1..3). */
  readonly position: number;
  /** The index of the play holding the trick so far, and its honor. */
  readonly holder: number;
  readonly honor: number;
  readonly points: number;
}

export function standingOf(table: Table): TrickStanding {
  const { leader, plays } = table.view.trick as NonNullable<SeatView["trick"]>;
  const judgement = judgeTrick(plays, table.ordering);
  const honor = judgement.honors[judgement.winner] as number;
  return {
    leader,
    lead: plays[0],
    structure: judgement.structure,
    position: plays.length,
    holder: judgement.winner,
    honor,
    points: judgement.points,
  };
}

/**
 * A few follows built for a purpose (throw off cheaply, give points, go high, ruff), each checked, and every
 * legal follow as well when there are few.
 */
export function followCandidates(table: Table, standing: TrickStanding): Card[][] {
  const { ordering, view } = table;
  const { lead, structure } = standing;
  const built = [
    shapedFollow(table, structure, lead.length, cheapFirst(table), false, false),
    shapedFollow(table, structure, lead.length, pointsFirst(table), false, false),
    shapedFollow(table, structure, lead.length, highFirst(table), true, true),
    shapedFollow(table, structure, lead.length, cheapFirst(table), false, true),
    shapedFollow(table, structure, lead.length, pointsFirst(table), false, true),
  ].filter((cards) => checkFollow(view.hand, lead, cards, ordering).ok);
  const listed = legalPlays(view.hand, lead, ordering, SCORED_FOLLOW_LIMIT);
  return listed.complete ? [...built, ...listed.plays] : built;
}

export function scoreFollow(table: Table, standing: TrickStanding, cards: readonly Card[]): number {
  const { view } = table;
  const { structure, position } = standing;
  const honor = followHonor(cards, structure, table.ordering);
  const takes = honor !== undefined && honor > standing.honor;
  const holder = nextSeat(standing.leader, takes ? position : standing.holder);
  const held = takes ? (honor as number) : standing.honor;
  let chance = partners(holder, view.seat)
    ? holdChance(table, structure, standing.leader, position, held, view.seat)
    : 0;
  if (chance === 0 && position === 1) chance = table.tuning.partnerLastChance; // the partner, last to play, may still take it
  const stillToPlay = PLAYERS - 1 - position;
  const points = standing.points + pointsOf(cards);
  const stake =
    points + expectedLaterPoints(table, stillToPlay, cards.length) + hiddenStake(table, structure, cards.length);
  return outcomeValue(chance, stake, table.tuning) - keepValueOf(cards, table);
}

// ---------------------------------------------------------------------------------------------------------
// Leading

/** Is the component out of reach of every combination of the same shape the seat has not seen? */
function isMaster(table: Table, component: Component, group: number): boolean {
  return !unseenShapeAbove(table, group, component.cards.length, component.top);
}

/** The chance that an opponent is void in a plain suit and ruffs: known voids weigh most, then a thin suit. */
function ruffRisk(table: Table, group: number): number {
  if (group === TRUMP_GROUP || table.unseenByGroup[TRUMP_GROUP].length === 0) return 0;
  const unseenInSuit = table.unseenByGroup[group].length;
  let safe = 1;
  for (const offset of [1, 3]) {
    const opponent = nextSeat(table.view.seat, offset);
    if (table.voids[opponent][TRUMP_GROUP]) continue;
    const { ruffKnownVoid, ruffThin, ruffShort, ruffLong } = table.tuning;
    const risk = table.voids[opponent][group]
      ? ruffKnownVoid
      : unseenInSuit <= 2
        ? ruffThin
        : unseenInSuit <= 5
          ? ruffShort
          : ruffLong;
    safe *= 1 - risk;
  }
  return 1 - safe;
}

/** The chance that the seat's team takes the trick it leads with these cards. */
export function leadChance(table: Table, structure: LeadStructure): number {
  const { group } = structure;
  const ruffed = ruffRisk(table, group);
  if (structure.isThrow) return group === TRUMP_GROUP ? 1 : 1 - ruffed;
  const component = structure.components[0];
  if (isMaster(table, component, group)) return 1 - ruffed;
  const above = table.unseenByGroup[group].filter((card) => table.ordering.order[card] > component.top).length;
  return (1 - ruffed) * (component.kind === "single" ? 1 / (1 + above) : 0.5 ** Math.ceil(above / 2));
}

/** Points the three followers will probably play to a lead of `size` cards of the group. */
export function expectedFollowPoints(table: Table, group: number, size: number): number {
  const unseen = table.unseenByGroup[group];
  if (unseen.length === 0) return 0;
  return Math.min(1, (3 * size) / unseen.length) * pointsOf(unseen);
}

function scoreLead(table: Table, cards: readonly Card[]): number {
  const structure = leadStructure(cards, table.ordering) as LeadStructure;
  const stake =
    pointsOf(cards) +
    expectedFollowPoints(table, structure.group, cards.length) +
    hiddenStake(table, structure, cards.length);
  return outcomeValue(leadChance(table, structure), stake, table.tuning) - keepValueOf(cards, table);
}

/**
 * Leads worth weighing in each group held: every tractor and pair, the highest and lowest single, the
 * components no unseen combination can beat thrown together, and (when throws always stand) the whole group.
 * Under checked throws a throw is offered only when every component is out of reach, so it never fails.
 */
export function leadCandidates(table: Table): Card[][] {
  const { ordering, view } = table;
  const candidates: Card[][] = [];
  for (let group = 0; group <= TRUMP_GROUP; group++) {
    const held = cardsOfGroup(view.hand, group, ordering);
    const structure = leadStructure(held, ordering);
    if (structure === undefined) continue;
    const singles = structure.components.filter((component) => component.kind === "single");
    for (const component of structure.components)
      if (component.kind !== "single") candidates.push(component.cards.slice());
    if (singles.length > 0) candidates.push(singles[0].cards.slice(), singles[singles.length - 1].cards.slice());
    const masters = structure.components.filter((component) => isMaster(table, component, group));
    if (masters.length > 1) candidates.push(masters.flatMap((component) => component.cards));
    if (table.ruleset.throwPolicy === "always-accept" && structure.isThrow) candidates.push(held);
  }
  return candidates;
}

// ---------------------------------------------------------------------------------------------------------
// Burying

/** Making a plain suit void lets the dealer ruff it later. */
const VOID_VALUE = 4;

/** What burying a card costs: trumps and pairs are strength, points risk being doubled for the defenders. */
function buryingCost(card: Card, hand: Uint8Array, ordering: CardOrdering): number {
  const trump = ordering.group[card] === TRUMP_GROUP ? 10 : 0;
  const pair = hand[card] >= 2 ? 2 : 0;
  return trump + pair + keepValue(card, ordering) + 0.8 * cardPoints(card);
}

/**
 * The burials the heuristic weighs, best first by its own value, each once: for every set of plain suits that
 * fits in 8 cards, those suits voided and the burial topped up with the cheapest other cards; value = the voids
 * made minus what the buried cards cost. The first is the heuristic's burial; the strong AI (search.ts) plays the
 * first few out on sampled deals.
 */
export function rankedBurials(view: SeatView): Card[][] {
  const hand = burialCandidates(view);
  const ordering = viewOrdering(view);
  const counts = countCards(hand);
  const cost = (card: Card) => buryingCost(card, counts, ordering);
  const suits = [0, 1, 2, 3].map((group) => cardsOfGroup(hand, group, ordering));
  const weighed = new Map<string, { burial: Card[]; value: number }>();
  for (let mask = 0; mask < 16; mask++) {
    const voided = suits.filter((_, group) => (mask >> group) & 1).flat();
    if (voided.length > HIDDEN_CARDS) continue;
    const burial = [
      ...voided,
      ...byPreference(withoutCards(hand, voided) as Card[], cost).slice(0, HIDDEN_CARDS - voided.length),
    ];
    const left = withoutCards(hand, burial) as Card[];
    const voids = suits.filter(
      (cards) => cards.length > 0 && !left.some((card) => ordering.group[card] === ordering.group[cards[0]]),
    ).length;
    const value = VOID_VALUE * voids - burial.reduce((sum, card) => sum + cost(card), 0);
    const key = burial
      .slice()
      .sort((a, b) => a - b)
      .join(",");
    if (!weighed.has(key)) weighed.set(key, { burial, value });
  }
  // Stable: among equal values the first found stays first, as the heuristic's own burial always did.
  return [...weighed.values()].sort((a, b) => b.value - a.value).map(({ burial }) => burial);
}

export function heuristicBurial(view: SeatView): Card[] {
  return rankedBurials(view)[0];
}

// ---------------------------------------------------------------------------------------------------------

export function bestBy(candidates: readonly Card[][], score: (cards: readonly Card[]) => number): Card[] {
  let best = candidates[0];
  let bestScore = -Infinity;
  for (const cards of candidates) {
    const value = score(cards);
    if (value > bestScore) [best, bestScore] = [cards, value];
  }
  return best;
}

/**
 * Plays sensibly from the seat's view alone: takes tricks worth points when it cheaply can, gives points to a
 * partner who holds the trick, throws off low cards that score nothing when the trick is lost, spends trumps
 * only when the points justify it, and leads what the others cannot beat. `ruleset` must be the table's: it
 * decides whether a throw can fail.
 */
export function heuristicPolicy(ruleset: TractorRuleset = classic): TractorPolicy {
  return {
    choosePlay(view) {
      requirePlayTurn(view);
      const table = tableOf(view, ruleset);
      const lead = leadOf(view);
      if (lead === undefined) return bestBy(leadCandidates(table), (cards) => scoreLead(table, cards)).slice();
      const standing = standingOf(table);
      const candidates = followCandidates(table, standing);
      if (candidates.length === 0) return legalPlays(view.hand, lead, table.ordering, 1).plays[0];
      return bestBy(candidates, (cards) => scoreFollow(table, standing, cards)).slice();
    },
    chooseBurial: heuristicBurial,
  };
}

// ---------------------------------------------------------------------------------------------------------

/**
 * The plays the heuristic weighs on the seat's turn, each once, best first by its own score: the first is the
 * heuristic's choice. The search (search.ts) plays the first few out on sampled deals.
 */
export function rankedPlays(view: SeatView, ruleset: TractorRuleset = classic): Card[][] {
  requirePlayTurn(view);
  const table = tableOf(view, ruleset);
  const lead = leadOf(view);
  let scored: { cards: Card[]; score: number }[];
  if (lead === undefined) scored = leadCandidates(table).map((cards) => ({ cards, score: scoreLead(table, cards) }));
  else {
    const standing = standingOf(table);
    const candidates = followCandidates(table, standing);
    if (candidates.length === 0) return [legalPlays(view.hand, lead, table.ordering, 1).plays[0]];
    scored = candidates.map((cards) => ({ cards, score: scoreFollow(table, standing, cards) }));
  }
  // Stable: among equal scores the first listed stays first, as `bestBy` picks it.
  scored.sort((a, b) => b.score - a.score);
  const seen = new Set<string>();
  const ranked: Card[][] = [];
  for (const { cards } of scored) {
    const key = cards
      .slice()
      .sort((a, b) => a - b)
      .join(",");
    if (seen.has(key)) continue;
    seen.add(key);
    ranked.push(cards.slice());
  }
  return ranked;
}

// ---------------------------------------------------------------------------------------------------------

function accepted(update: RoundUpdate, seat: Seat): RoundState {
  if (!update.ok) throw new Error(`the engine refused seat ${seat}'s choice: ${update.reason}`);
  return update.state;
}

/** As many actions as a round can take: one burial and 4 plays for each of at most 25 tricks. */
const ACTIONS_PER_ROUND = 1 + PLAYERS * HAND_CARDS;

/**
 * Plays a dealt round to its end through the engine, each seat deciding with its own policy from its own
 * SeatView only. Throws if a policy makes a choice the engine refuses.
 */
export function playRound(state: RoundState, policies: readonly TractorPolicy[]): RoundState {
  for (let action = 0; action < ACTIONS_PER_ROUND && state.phase !== "finished"; action++) {
    const seat = state.turn;
    const view = seatView(state, seat);
    state =
      state.phase === "burying"
        ? accepted(buryCards(state, seat, policies[seat].chooseBurial(view)), seat)
        : accepted(applyPlay(state, seat, policies[seat].choosePlay(view)), seat);
  }
  return state;
}
