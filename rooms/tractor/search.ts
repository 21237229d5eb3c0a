/**
 * The strong Tractor AI: a search over the cards the seat has not seen (determinized Monte Carlo). On its turn
 * the seat deals the unseen cards out again many times, each time consistently with everything it has seen — its
 * own hand, every card played, the voids the others showed by failing to follow, the hidden cards if it buried
 * them, the cards a declaration showed — and plays each of its candidate plays (the heuristic's best few) out to
 * the end of the round in every sampled deal, all four seats then playing the heuristic (policy.ts). It chooses
 * the candidate with the best mean result for its team: the round won or lost, the levels it moves, the points.
 *
 * Pure: it reads only the seat's view (a SeatView, the seat's own projection of the round), draws its deals from a
 * generator seeded by that view (the same view always gets the same choice), and reads no clock unless one is
 * given with the budget (`now`): a budget of deals alone is exact, a time budget makes it anytime.
 */
import { seededRandom, shuffled, type Random } from "../kit/random";
import { Card, withoutCards } from "./cards";
import { TRUMP_GROUP } from "./order";
import { heuristicPolicy, rankedPlays, type TractorPolicy } from "./policy";
import { applyPlay, HAND_CARDS, HIDDEN_CARDS, type RoundState } from "./round";
import { PLAYERS } from "./scoring";
import { classic, type TractorRuleset } from "./ruleset";
import { declarersOf, SEATS, teamOf, type RoundResult, type Seat, type Team } from "./scoring";
import { knownVoids, unseenCounts, viewOrdering, type SeatView } from "./seat-view";

export interface SearchBudget {
  /** The most sampled deals; every candidate is played out once in each. */
  readonly worlds: number;
  /** At least this many deals, whatever the clock says. */
  readonly minWorlds: number;
  /** How many of the heuristic's best plays are weighed. */
  readonly candidates: number;
  /** With `now`, no new deal is sampled once this many milliseconds have passed. */
  readonly timeMs?: number;
  /** A clock in milliseconds (performance.now); without it the budget is the deals alone. */
  readonly now?: () => number;
}

/** The default: about 100 ms of one core on this project's machines early in a round, far less later. */
export const DEFAULT_SEARCH_BUDGET: SearchBudget = { worlds: 16, minWorlds: 2, candidates: 4, timeMs: 100 };

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
  const holders = (card: Card) => [0, 1, 2, 3, HIDDEN].filter((holder) => room[holder] > 0 && mayHold(constraints, holder, card, honourVoids));
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
  return worldOf(view, dealOnce(constraints, random, false) as Card[][], false);
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

/**
 * What a finished round is worth to `team`, in levels: the points (40 a level, as the rank change counts them),
 * plus half a level for winning the round and a quarter for each level it moves either way. The points make the
 * value smooth, so that a few sampled deals already tell candidates apart.
 */
export function roundValue(result: RoundResult, team: Team, declarers: Team): number {
  const won = result.change.team === team;
  const points = (team === declarers ? -1 : 1) * (result.defenderPoints - 80);
  return points / 40 + (won ? 1 : -1) * (0.5 + 0.25 * result.change.levels);
}

/** The heuristic's own choice is kept unless another candidate beats it by this much (in levels) on the mean. */
const PREFERENCE = 0.05;

/**
 * Plays a sampled round to its end, every seat with `policy`, and returns its result. The same as playRound
 * (policy.ts), built for speed: each seat's view shares the state's arrays instead of copying them (the policies
 * never change what they are shown) and the cards each seat has played are kept as the play-out goes.
 */
export function playOut(state: RoundState, policy: TractorPolicy, start: SeatView): RoundResult {
  const playedBy = start.playedBy.map((cards) => cards.slice());
  const last = state.trick ?? state.tricks[state.tricks.length - 1];
  // The play just made (the candidate) is the last of the trick under way, or of the trick it completed.
  const mover = ((last.leader + last.plays.length - 1) % PLAYERS) as Seat;
  playedBy[mover].push(...last.plays[last.plays.length - 1]);
  for (let action = 0; action < PLAYERS * HAND_CARDS && state.phase === "playing"; action++) {
    const seat = state.turn;
    const view: SeatView = {
      seat,
      phase: "playing",
      mainSuit: start.mainSuit,
      currentRank: start.currentRank,
      teamRanks: start.teamRanks,
      dealer: start.dealer,
      turn: seat,
      hand: state.hands[seat],
      handCounts: state.hands.map((hand) => hand.length),
      ...(state.trick ? { trick: state.trick } : {}),
      tricks: state.tricks,
      defenderTrickPoints: state.trickPoints,
      penaltyPoints: state.penaltyPoints,
      playedBy,
      ...(seat === start.dealer ? { buried: state.hidden } : {}),
    };
    const update = applyPlay(state, seat, policy.choosePlay(view));
    if (!update.ok) throw new Error(`the engine refused a play-out's play: ${update.reason}`);
    const trick = update.state.trick ?? update.state.tricks[update.state.tricks.length - 1];
    playedBy[seat].push(...trick.plays[trick.plays.length - 1]);
    state = update.state;
  }
  if (state.phase !== "finished") throw new Error("a play-out did not finish");
  return state.result;
}

export interface SearchChoice {
  readonly cards: Card[];
  /** The deals each candidate was played out in. */
  readonly worlds: number;
  /** Each weighed candidate with its mean value to the seat's team, in the heuristic's order. */
  readonly weighed: readonly { readonly cards: readonly Card[]; readonly value: number }[];
}

/** A seed from everything the view shows: the same view, the same deals. */
function viewSeed(view: SeatView): string {
  return `${view.seat}|${view.hand.join(",")}|${view.playedBy.map((cards) => cards.join(",")).join("/")}|${view.tricks.length}`;
}

/**
 * The seat's play by search, from its view alone. A single sensible play is played at once; otherwise the
 * candidates are played out in the same sampled deals (so their differences are not the deals' luck).
 */
export function searchPlay(view: SeatView, ruleset: TractorRuleset = classic, budget: SearchBudget = DEFAULT_SEARCH_BUDGET, context: SearchContext = {}): SearchChoice {
  const ranked = rankedPlays(view, ruleset);
  const candidates = ranked.slice(0, Math.max(1, budget.candidates));
  if (candidates.length === 1) return { cards: candidates[0], worlds: 0, weighed: [{ cards: candidates[0], value: 0 }] };
  const random = seededRandom(viewSeed(view));
  const policy = heuristicPolicy(ruleset);
  const team = teamOf(view.seat);
  const declarers = declarersOf({ dealer: view.dealer, mainSuit: view.mainSuit, teamRanks: view.teamRanks });
  const totals = candidates.map(() => 0);
  const started = budget.now?.();
  let worlds = 0;
  while (worlds < budget.worlds) {
    if (worlds >= budget.minWorlds && started !== undefined && budget.timeMs !== undefined && (budget.now as () => number)() - started >= budget.timeMs) break;
    const round = roundInWorld(view, sampleWorld(view, random, context), ruleset);
    candidates.forEach((cards, index) => {
      const played = applyPlay(round, view.seat, cards);
      if (!played.ok) throw new Error(`the heuristic offered a play the engine refuses: ${played.reason}`);
      totals[index] += roundValue(playOut(played.state, policy, view), team, declarers);
    });
    worlds++;
  }
  const weighed = candidates.map((cards, index) => ({ cards, value: totals[index] / Math.max(1, worlds) }));
  let best = 0;
  weighed.forEach(({ value }, index) => {
    if (value > weighed[best].value + (best === 0 ? PREFERENCE : 0)) best = index;
  });
  return { cards: candidates[best].slice(), worlds, weighed };
}

/** The strong AI as a policy: plays by search, buries as the heuristic does. */
export function searchPolicy(ruleset: TractorRuleset = classic, budget: SearchBudget = DEFAULT_SEARCH_BUDGET): TractorPolicy {
  const heuristic = heuristicPolicy(ruleset);
  return {
    choosePlay: (view) => searchPlay(view, ruleset, budget).cards,
    chooseBurial: (view) => heuristic.chooseBurial(view),
  };
}
