/**
 * The deals the search plays in: the cards the seat has not seen dealt out again, consistently with everything it
 * has seen (its own hand, every card played, the voids the others showed by failing to follow, the hidden cards if
 * it buried them, the cards a declaration showed), and the round as it would stand in such a deal.
 */
import { shuffled, type Random } from "../kit/random";
import type { Card } from "./cards";
import { TRUMP_GROUP } from "./order";
import { HIDDEN_CARDS, type RoundState } from "./round";
import type { TractorRuleset } from "./ruleset";
import { SEATS, type Seat } from "./scoring";
import { knownVoids, unseenCounts, viewOrdering, type SeatView } from "./seat-view";

/** Cards a declaration showed: the declarer held them then, and holds still those it has not played. */
export interface ShownCards {
  readonly seat: Seat;
  readonly cards: readonly Card[];
}

/** What the seat knows beyond its SeatView: the declaration's cards (shown at the table while dealing). */
export interface SearchContext {
  readonly declaration?: ShownCards;
}

/** A deal of the unseen cards: the three other hands and (unless the seat buried them) the hidden cards. */
export interface SampledWorld {
  readonly hands: readonly (readonly Card[])[];
  readonly hidden: readonly Card[];
  /** False only if no consistent deal was found and the voids were set aside (never expected: see the tests). */
  readonly consistent: boolean;
}

/** Where an unseen card may lie: a seat (0..3) or the hidden cards. */
const HIDDEN = 4;
const SAMPLING_ATTEMPTS = 64;

/** What the cards not seen must fit: each holder's room, its voids, and cards pinned to one holder. */
interface Constraints {
  readonly unseen: Card[];
  readonly capacity: number[];
  readonly voids: readonly (readonly boolean[])[];
  readonly group: readonly number[];
  /** Cards known to be in a holder (a declaration's cards not yet played), taken out of `unseen`. */
  readonly pinned: readonly (readonly Card[])[];
}

function constraintsOf(view: SeatView, context: SearchContext): Constraints {
  const ordering = viewOrdering(view);
  const counts = unseenCounts(view);
  const capacity = [...view.handCounts, view.buried !== undefined || view.phase === "burying" ? 0 : HIDDEN_CARDS];
  capacity[view.seat] = 0;
  const pinned: Card[][] = [[], [], [], [], []];
  const shown = context.declaration;
  // The dealer may have buried a declared card: pinned to a hand only for another declarer.
  if (shown !== undefined && shown.seat !== view.seat && shown.seat !== view.dealer) {
    const notPlayed = withoutCardsLoose(shown.cards, view.playedBy[shown.seat]);
    for (const card of notPlayed) {
      if (counts[card] > 0 && pinned[shown.seat].length < capacity[shown.seat]) {
        counts[card]--;
        pinned[shown.seat].push(card);
      }
    }
  }
  const unseen: Card[] = [];
  counts.forEach((copies, card) => {
    for (let copy = 0; copy < copies; copy++) unseen.push(card);
  });
  pinned.forEach((cards, holder) => (capacity[holder] -= cards.length));
  return { unseen, capacity, voids: knownVoids(view, ordering), group: ordering.group, pinned };
}

/** `from` without each of `taken` that it holds (cards it does not hold are ignored). */
function withoutCardsLoose(from: readonly Card[], taken: readonly Card[]): Card[] {
  const left = from.slice();
  for (const card of taken) {
    const index = left.indexOf(card);
    if (index >= 0) left.splice(index, 1);
  }
  return left;
}

function mayHold(constraints: Constraints, holder: number, card: Card, honourVoids: boolean): boolean {
  return holder === HIDDEN || !honourVoids || !constraints.voids[holder][constraints.group[card]];
}

/**
 * One deal attempt: the cards of the most constrained groups first (the fewest holders that may take them), each
 * to a holder that may take it, chosen with chance in proportion to the room it has left. Undefined at a dead end.
 */
function dealOnce(constraints: Constraints, random: Random, honourVoids: boolean): Card[][] | undefined {
  const room = constraints.capacity.slice();
  const holders = (card: Card) =>
    [0, 1, 2, 3, HIDDEN].filter((holder) => room[holder] > 0 && mayHold(constraints, holder, card, honourVoids));
  const byGroup: Card[][] = [[], [], [], [], []];
  for (const card of shuffled(constraints.unseen, random)) byGroup[constraints.group[card]].push(card);
  const freedom = (group: number) => (byGroup[group].length === 0 ? Infinity : holders(byGroup[group][0]).length);
  const groups = [0, 1, 2, 3, TRUMP_GROUP].sort((a, b) => freedom(a) - freedom(b) || b - a);
  const dealt: Card[][] = constraints.pinned.map((cards) => cards.slice());
  for (const group of groups) {
    for (const card of byGroup[group]) {
      const open = holders(card);
      const total = open.reduce((sum, holder) => sum + room[holder], 0);
      if (total === 0) return undefined;
      let ticket = random() * total;
      const holder = open.find((candidate) => (ticket -= room[candidate]) < 0) ?? open[open.length - 1];
      dealt[holder].push(card);
      room[holder]--;
    }
  }
  return dealt;
}

/** A deal of the unseen cards consistent with the view (and the context), drawn with `random`. */
export function sampleWorld(view: SeatView, random: Random, context: SearchContext = {}): SampledWorld {
  const constraints = constraintsOf(view, context);
  for (let attempt = 0; attempt < SAMPLING_ATTEMPTS; attempt++) {
    const dealt = dealOnce(constraints, random, true);
    if (dealt !== undefined) return worldOf(view, dealt, true);
  }
  const fitted = fittedDeal(constraints, random);
  if (fitted !== undefined) return worldOf(view, fitted, true);
  return worldOf(view, dealOnce(constraints, random, false) as Card[][], false);
}

/** Random swaps that mix a fitted deal (each keeps every card with a holder that may take it). */
const MIXING_SWAPS = 400;

/**
 * When random dealing keeps running into dead ends (tight voids), a deal that fits by construction: how many cards
 * of each group each holder gets is found as a flow (each card in turn along a path of groups and holders with room),
 * then the deal is mixed by random swaps of two cards between holders that may each take the other's.
 */
function fittedDeal(constraints: Constraints, random: Random): Card[][] | undefined {
  const groups = TRUMP_GROUP + 1;
  const byGroup: Card[][] = Array.from({ length: groups }, () => []);
  for (const card of shuffled(constraints.unseen, random)) byGroup[constraints.group[card]].push(card);
  const allowed = (holder: number, group: number) => holder === HIDDEN || !constraints.voids[holder][group];
  // flow[group][holder]: cards of the group the holder gets.
  const flow = byGroup.map(() => [0, 0, 0, 0, 0]);
  const room = constraints.capacity.slice();
  for (let group = 0; group < groups; group++) {
    for (let unit = 0; unit < byGroup[group].length; unit++) {
      if (!augment(group, flow, room, allowed)) return undefined;
    }
  }
  const dealt: Card[][] = constraints.pinned.map((cards) => cards.slice());
  byGroup.forEach((cards, group) => {
    let next = 0;
    flow[group].forEach((count, holder) => {
      dealt[holder].push(...cards.slice(next, next + count));
      next += count;
    });
  });
  // Pinned cards stay where they are: only the cards dealt here are swapped.
  const free = dealt.map((cards, holder) => cards.length - constraints.pinned[holder].length);
  for (let swap = 0; swap < MIXING_SWAPS; swap++) {
    const [a, b] = [Math.floor(random() * 5), Math.floor(random() * 5)];
    if (a === b || free[a] === 0 || free[b] === 0) continue;
    const i = constraints.pinned[a].length + Math.floor(random() * free[a]);
    const j = constraints.pinned[b].length + Math.floor(random() * free[b]);
    const [x, y] = [dealt[a][i], dealt[b][j]];
    if (allowed(b, constraints.group[x]) && allowed(a, constraints.group[y])) [dealt[a][i], dealt[b][j]] = [y, x];
  }
  return dealt;
}

/**
 * One more card of `group` placed: a path from the group to a holder with room, through holders that may give
 * a card of another group back to that group's other holders (a breadth-first search on the residual graph).
 */
function augment(
  group: number,
  flow: number[][],
  room: number[],
  allowed: (holder: number, group: number) => boolean,
): boolean {
  const groups = flow.length;
  // Nodes: groups 0..groups-1, holders groups..groups+4. cameFrom[node] = previous node.
  const cameFrom = new Array<number>(groups + 5).fill(-1);
  cameFrom[group] = group;
  const queue = [group];
  while (queue.length > 0) {
    const node = queue.shift() as number;
    if (node < groups) {
      for (let holder = 0; holder < 5; holder++) {
        const target = groups + holder;
        if (cameFrom[target] !== -1 || !allowed(holder, node)) continue;
        cameFrom[target] = node;
        if (room[holder] > 0) return settle(target, group, cameFrom, flow, room, groups);
        queue.push(target);
      }
    } else {
      const holder = node - groups;
      for (let other = 0; other < groups; other++) {
        if (cameFrom[other] !== -1 || flow[other][holder] === 0) continue;
        cameFrom[other] = node;
        queue.push(other);
      }
    }
  }
  return false;
}

function settle(
  end: number,
  start: number,
  cameFrom: number[],
  flow: number[][],
  room: number[],
  groups: number,
): true {
  room[end - groups]--;
  let node = end;
  while (node !== start) {
    const previous = cameFrom[node];
    if (node >= groups) flow[previous][node - groups]++;
    else flow[node][previous - groups]--;
    node = previous;
  }
  return true;
}

function worldOf(view: SeatView, dealt: Card[][], consistent: boolean): SampledWorld {
  const hands = SEATS.map((seat) => (seat === view.seat ? view.hand.slice() : dealt[seat]));
  return { hands, hidden: view.buried?.slice() ?? dealt[HIDDEN], consistent };
}

/** The round as it would stand in a sampled deal: the view's table with the deal's hands. */
export function roundInWorld(view: SeatView, world: SampledWorld, ruleset: TractorRuleset): RoundState {
  const setup = { mainSuit: view.mainSuit, dealer: view.dealer, teamRanks: view.teamRanks };
  const fields = {
    ruleset,
    setup,
    hands: world.hands,
    hidden: world.hidden,
    turn: view.turn,
    trick: view.trick,
    tricks: view.tricks,
    trickPoints: view.defenderTrickPoints,
    penaltyPoints: view.penaltyPoints,
    failedThrows: [],
  };
  if (view.phase === "finished") throw new Error("the round is over");
  return { ...fields, phase: view.phase };
}
