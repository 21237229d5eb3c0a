/**
 * The strong Tractor AI: a search over the cards the seat has not seen (determinized Monte Carlo). On its turn
 * the seat deals the unseen cards out again many times, each time consistently with everything it has seen — its
 * own hand, every card played, the voids the others showed by failing to follow, the hidden cards if it buried
 * them, the cards a declaration showed — and plays each of its candidate plays (the partner-aware policy's choice,
 * then the heuristic's best few) out to the end of the round in every sampled deal, the seat's own team then
 * playing the partner-aware policy (policy-partner.ts) and the others the heuristic (policy.ts: the `normal` level,
 * the model of the other players). The candidates meet in the same deals, so their differences are not the deals'
 * luck; the first candidate is kept unless another beats it clearly (`confidence`), since a handful of deals is
 * noisy. (With `ownPolicy: "heuristic"`, the strong level as it was: the heuristic's best few, all four seats
 * playing the heuristic — one step of improvement on the heuristic, about 60% of rounds against it.) Value: the round won or
 * lost, the levels it moves, the points (`roundValue`). Optionally (`pool`, `evidence`) each deal played is drawn
 * among several by how well it explains the others' latest plays, the heuristic standing in for the other players.
 *
 * Pure: it reads only the seat's view (a SeatView, the seat's own projection of the round), draws its deals from a
 * generator seeded by that view (the same view always gets the same choice), and reads no clock unless one is
 * given with the budget (`now`): a budget of deals alone is exact, a time budget makes it anytime.
 */
import { seededRandom, type Random } from "../kit/random";
import type { Card } from "./cards";
import { heuristicPolicy, rankedBurials, rankedPlays, type TractorPolicy } from "./policy";
import { partnerPolicy } from "./policy-partner";
import { applyPlay, buryCards, type RoundState } from "./round";
import { PLAYERS } from "./scoring";
import { classic, type TractorRuleset } from "./ruleset";
import { declarersOf, teamOf, type RoundResult, type Seat, type Team } from "./scoring";
import { playOut, playOutFrom, sharedView } from "./search-playouts";
import { roundInWorld, sampleWorld, type SampledWorld, type SearchContext } from "./search-worlds";
import type { SeatView } from "./seat-view";

export interface SearchBudget {
  /** The most sampled deals; every candidate is played out once in each. */
  readonly worlds: number;
  /** At least this many deals, whatever the clock says. */
  readonly minWorlds: number;
  /** How many of the heuristic's best plays are weighed. */
  readonly candidates: number;
  /** Deals sampled for each one played out: the one played is drawn by how well it explains the others' plays. */
  readonly pool?: number;
  /** How many of the others' latest plays weigh a deal (0: every consistent deal is as likely). */
  readonly evidence?: number;
  /** What a play the heuristic would not have made multiplies a deal's weight by (SURPRISE unless given). */
  readonly surprise?: number;
  /** How clearly (in standard errors) a candidate must beat the first (the own policy's choice) to be played instead. */
  readonly confidence?: number;
  /**
   * How the seat's own team plays in the play-outs (the others always play the heuristic): "heuristic", or
   * "partner" (the partner-aware policy, policy-partner.ts), whose own choice is then weighed too, first.
   */
  readonly ownPolicy?: OwnPolicy;
  /** What winning the round is worth in the value, beside its points and levels (DEFAULT_WIN_VALUE). */
  readonly winValue?: number;
  /** With `now`, no new deal is sampled once this many milliseconds have passed. */
  readonly timeMs?: number;
  /** A clock in milliseconds (performance.now); without it the budget is the deals alone. */
  readonly now?: () => number;
}

export type OwnPolicy = "heuristic" | "partner";

/** The default: about 100 ms of one core on this project's machines early in a round, far less later. */
export const DEFAULT_SEARCH_BUDGET: SearchBudget = {
  worlds: 16,
  minWorlds: 2,
  candidates: 4,
  confidence: 1,
  ownPolicy: "partner",
  timeMs: 100,
};

/**
 * What a finished round is worth to `team`, in levels: the points (40 a level, as the rank change counts them),
 * plus half a level for winning the round and a quarter for each level it moves either way. The points make the
 * value smooth, so that a few sampled deals already tell candidates apart.
 */
export function roundValue(result: RoundResult, team: Team, declarers: Team, winValue = DEFAULT_WIN_VALUE): number {
  const won = result.change.team === team;
  const points = (team === declarers ? -1 : 1) * (result.defenderPoints - 80);
  return points / 40 + (won ? 1 : -1) * (winValue + 0.25 * result.change.levels);
}

/** What winning the round is worth beyond its points and levels (roundValue), unless the budget says otherwise. */
export const DEFAULT_WIN_VALUE = 0.5;

/**
 * The first candidate (the own policy's choice) is kept unless another beats it in the same deals by this many
 * standard errors of the mean difference: the deals sampled are few, and a switch on noise costs more than it gains.
 */
const DEFAULT_CONFIDENCE = 1;

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

/** The candidate to play: the first (the heuristic's) unless another is better by a clear margin, deal for deal. */
function preferred(values: readonly (readonly number[])[], confidence: number): number {
  let best = 0;
  let bestGain = 0;
  for (let index = 1; index < values.length; index++) {
    const differences = values[index].map((value, world) => value - values[0][world]);
    const gain = mean(differences);
    const spread = Math.sqrt(
      differences.reduce((sum, difference) => sum + (difference - gain) ** 2, 0) / Math.max(1, differences.length - 1),
    );
    const clear = differences.length > 1 && gain > confidence * (spread / Math.sqrt(differences.length));
    if (clear && gain > bestGain) [best, bestGain] = [index, gain];
  }
  return best;
}

/** A play the heuristic would not have made in a sampled deal makes that deal this much less likely. */
const SURPRISE = 0.3;

/**
 * How well a sampled deal explains what the others did: the round is played again from its first trick in that
 * deal, and each of the others' latest `plays` plays that the heuristic (the model of the other players) would
 * not have made there multiplies the weight by SURPRISE. A throw that stood at the table but would fail in the
 * deal (checked throws) rules the deal out.
 */
export function evidenceWeight(
  view: SeatView,
  world: SampledWorld,
  ruleset: TractorRuleset,
  policy: TractorPolicy,
  plays: number,
  surprise = SURPRISE,
): number {
  const history = view.trick ? [...view.tricks, view.trick] : view.tricks;
  const moves: { seat: Seat; cards: readonly Card[] }[] = [];
  for (const trick of history)
    trick.plays.forEach((cards, index) => moves.push({ seat: ((trick.leader + index) % PLAYERS) as Seat, cards }));
  const othersMoves = moves.filter((move) => move.seat !== view.seat).length;
  const firstWeighed = othersMoves - plays;
  const hands = world.hands.map((hand, seat) => [...hand, ...view.playedBy[seat]]);
  const setup = { mainSuit: view.mainSuit, dealer: view.dealer, teamRanks: view.teamRanks };
  let state: RoundState = {
    ruleset,
    setup,
    phase: "playing",
    hands,
    hidden: world.hidden,
    turn: view.dealer,
    trick: undefined,
    tricks: [],
    trickPoints: 0,
    penaltyPoints: 0,
    failedThrows: [],
  };
  const playedBy: Card[][] = [[], [], [], []];
  let weight = 1;
  let othersSeen = 0;
  for (const { seat, cards } of moves) {
    if (
      seat !== view.seat &&
      othersSeen++ >= firstWeighed &&
      !sameCards(policy.choosePlay(sharedView(state, seat, view, playedBy)), cards)
    )
      weight *= surprise;
    const update = applyPlay(state, seat, cards);
    if (!update.ok || update.state.failedThrows.length > state.failedThrows.length) return 0;
    playedBy[seat].push(...cards);
    state = update.state;
  }
  return weight;
}

function sameCards(a: readonly Card[], b: readonly Card[]): boolean {
  if (a.length !== b.length) return false;
  const sorted = (cards: readonly Card[]) => cards.slice().sort((x, y) => x - y);
  const [x, y] = [sorted(a), sorted(b)];
  return x.every((card, index) => card === y[index]);
}

/** A deal drawn among `pool` sampled ones in proportion to how well each explains the others' plays. */
function likelyWorld(
  view: SeatView,
  random: Random,
  context: SearchContext,
  ruleset: TractorRuleset,
  policy: TractorPolicy,
  budget: SearchBudget,
): SampledWorld {
  const pool = budget.pool ?? 1;
  const plays = budget.evidence ?? 0;
  if (pool <= 1 || plays <= 0) return sampleWorld(view, random, context);
  const worlds = Array.from({ length: pool }, () => sampleWorld(view, random, context));
  const weights = worlds.map((world) => evidenceWeight(view, world, ruleset, policy, plays, budget.surprise));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  if (total === 0) return worlds[0];
  let ticket = random() * total;
  return worlds.find((_, index) => (ticket -= weights[index]) < 0) ?? worlds[worlds.length - 1];
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

/** What each candidate came to in each sampled deal: its value to the seat's team, and the team's points. */
export interface PlayedOut {
  /** values[candidate][deal] (see roundValue). */
  readonly values: number[][];
  /** points[candidate][deal]: the defenders' points for a defending seat, minus them for a declaring one. */
  readonly points: number[][];
  readonly worlds: number;
}

/** Plays every candidate out in the same sampled deals, as many as the budget allows. */
/** The seat's own team's policy in the play-outs and for its first candidate. */
function ownPolicyOf(ruleset: TractorRuleset, budget: SearchBudget): TractorPolicy {
  return budget.ownPolicy === "partner" ? partnerPolicy(ruleset) : heuristicPolicy(ruleset);
}

/** Each seat of `team` plays `own`, the others `others`. */
function teamPolicy(team: Team, own: TractorPolicy, others: TractorPolicy): TractorPolicy {
  return {
    choosePlay: (view) => (teamOf(view.seat) === team ? own : others).choosePlay(view),
    chooseBurial: (view) => (teamOf(view.seat) === team ? own : others).chooseBurial(view),
  };
}

export function playOutCandidates(
  view: SeatView,
  ruleset: TractorRuleset,
  candidates: readonly (readonly Card[])[],
  budget: SearchBudget,
  context: SearchContext = {},
  random: Random = seededRandom(viewSeed(view)),
): PlayedOut {
  const model = heuristicPolicy(ruleset);
  const policy =
    budget.ownPolicy === undefined || budget.ownPolicy === "heuristic"
      ? model
      : teamPolicy(teamOf(view.seat), ownPolicyOf(ruleset, budget), model);
  const burying = view.phase === "burying";
  const outcome = (round: RoundState, cards: readonly Card[]): RoundResult => {
    if (!burying) {
      const played = applyPlay(round, view.seat, cards);
      if (!played.ok) throw new Error(`a candidate the engine refuses: ${played.reason}`);
      return playOut(played.state, policy, view);
    }
    const buried = buryCards(round, view.seat, cards);
    if (!buried.ok) throw new Error(`a burial the engine refuses: ${buried.reason}`);
    return playOutFrom(buried.state, policy, view, [[], [], [], []]);
  };
  return playOutEach(view, ruleset, model, candidates, budget, context, random, outcome);
}

function playOutEach(
  view: SeatView,
  ruleset: TractorRuleset,
  policy: TractorPolicy,
  candidates: readonly (readonly Card[])[],
  budget: SearchBudget,
  context: SearchContext,
  random: Random,
  outcome: (round: RoundState, cards: readonly Card[]) => RoundResult,
): PlayedOut {
  const team = teamOf(view.seat);
  const declarers = declarersOf({ dealer: view.dealer, mainSuit: view.mainSuit, teamRanks: view.teamRanks });
  const values: number[][] = candidates.map(() => []);
  const points: number[][] = candidates.map(() => []);
  const started = budget.now?.();
  let worlds = 0;
  while (worlds < budget.worlds) {
    if (
      worlds >= budget.minWorlds &&
      started !== undefined &&
      budget.timeMs !== undefined &&
      (budget.now as () => number)() - started >= budget.timeMs
    )
      break;
    const round = roundInWorld(view, likelyWorld(view, random, context, ruleset, policy, budget), ruleset);
    candidates.forEach((cards, index) => {
      const result = outcome(round, cards);
      values[index].push(roundValue(result, team, declarers, budget.winValue));
      points[index].push((team === declarers ? -1 : 1) * result.defenderPoints);
    });
    worlds++;
  }
  return { values, points, worlds };
}

/**
 * The seat's play by search, from its view alone. A single sensible play is played at once; otherwise the
 * candidates are played out in the same sampled deals (so their differences are not the deals' luck).
 */
export function searchPlay(
  view: SeatView,
  ruleset: TractorRuleset = classic,
  budget: SearchBudget = DEFAULT_SEARCH_BUDGET,
  context: SearchContext = {},
): SearchChoice {
  const candidates = candidatePlays(view, ruleset, budget);
  if (candidates.length === 1)
    return { cards: candidates[0], worlds: 0, weighed: [{ cards: candidates[0], value: 0 }] };
  const random = seededRandom(viewSeed(view));
  const { values, worlds } = playOutCandidates(view, ruleset, candidates, budget, context, random);
  const weighed = candidates.map((cards, index) => ({ cards, value: mean(values[index]) }));
  const best = preferred(values, budget.confidence ?? DEFAULT_CONFIDENCE);
  return { cards: candidates[best].slice(), worlds, weighed };
}

/**
 * The plays weighed: the heuristic's best few (rankedPlays), after the own policy's choice when it is another
 * policy's (then it is the one kept unless another beats it clearly).
 */
export function candidatePlays(view: SeatView, ruleset: TractorRuleset, budget: SearchBudget): Card[][] {
  const ranked = rankedPlays(view, ruleset).slice(0, Math.max(1, budget.candidates));
  if (budget.ownPolicy === undefined || budget.ownPolicy === "heuristic") return ranked;
  const own = ownPolicyOf(ruleset, budget).choosePlay(view);
  return [own, ...ranked.filter((cards) => !sameCards(cards, own))];
}

/** A burial is weighed over whole rounds (about 100 plays each, 10–40 ms): it gets this many plays' time. */
export const BURIAL_TIME_FACTOR = 6;
/** The burials weighed: the heuristic's and its next two (the other sets of suits it could void). */
const BURIAL_CANDIDATES = 3;

/**
 * The budget of a burial, from a play's: six times the time (one burial a round against some 25 plays, and under
 * a second on one core at the default), three candidates, and no evidence to weigh (nobody has played yet).
 */
export function burialBudgetOf(budget: SearchBudget): SearchBudget {
  const timeMs = budget.timeMs === undefined ? undefined : budget.timeMs * BURIAL_TIME_FACTOR;
  return {
    ...budget,
    candidates: Math.min(budget.candidates, BURIAL_CANDIDATES),
    pool: 1,
    ...(timeMs === undefined ? {} : { timeMs }),
  };
}

/**
 * The dealer's burial by search, from its view alone: the heuristic's best few burials (rankedBurials) are each
 * played out to the end of the round in the same sampled deals of the other 75 cards, and the heuristic's own is
 * kept unless another beats it clearly, as for a play.
 */
export function searchBurial(
  view: SeatView,
  ruleset: TractorRuleset = classic,
  budget: SearchBudget = DEFAULT_SEARCH_BUDGET,
  context: SearchContext = {},
): SearchChoice {
  const burialBudget = burialBudgetOf(budget);
  const candidates = rankedBurials(view).slice(0, Math.max(1, burialBudget.candidates));
  if (candidates.length === 1)
    return { cards: candidates[0], worlds: 0, weighed: [{ cards: candidates[0], value: 0 }] };
  const { values, worlds } = playOutCandidates(
    view,
    ruleset,
    candidates,
    burialBudget,
    context,
    seededRandom(`bury|${viewSeed(view)}`),
  );
  const weighed = candidates.map((cards, index) => ({ cards, value: mean(values[index]) }));
  return { cards: candidates[preferred(values, budget.confidence ?? DEFAULT_CONFIDENCE)].slice(), worlds, weighed };
}

/** The strong AI as a policy: plays and buries by search. */
export function searchPolicy(
  ruleset: TractorRuleset = classic,
  budget: SearchBudget = DEFAULT_SEARCH_BUDGET,
): TractorPolicy {
  return {
    choosePlay: (view) => searchPlay(view, ruleset, budget).cards,
    chooseBurial: (view) => searchBurial(view, ruleset, budget).cards,
  };
}
