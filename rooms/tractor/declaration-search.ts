/**
 * The strong Tractor AI's declarations: a search over the cards the seat has not been dealt yet, as the play and
 * burial searches (search.ts) do over the cards it has not seen. While the cards are dealt one at a time, a seat
 * holding a declaration it may make weighs each of them, and "not now", by dealing the rest of the deck out again
 * many times consistently with what it knows (its own cards so far, the standing declaration's shown cards pinned
 * to their declarer), finishing the deal in each with the other seats declaring as the seat bot would
 * (botDeclaration), then letting the dealer bury and the four seats play the round out with the heuristic
 * (policy.ts). Each candidate's value is the round's value to the seat's team (`roundValue`, the play search's),
 * its mean taken over the same sampled deals; the heuristic's own choice is kept unless another beats it clearly.
 *
 * "Not now" is modelled as waiting until the seat's hand is complete and then declaring what botDeclaration would
 * with all 25 cards: the room asks the search again whenever the seat's options change and once its hand is
 * complete, so waiting keeps every later chance open, and the best use of waiting is a choice made with the whole
 * hand. (Modelled as the heuristic later, "not now" would declare at the next card, the same as now; modelled as
 * never, waiting would look worse than it is.) Once the hand is complete, "not now" means never.
 *
 * Pure and deterministic: it reads only a DeclarationView (what the seat may know while the cards are dealt) and
 * draws its deals from a generator seeded by that view; it reads no clock unless one is given with the budget.
 */
import { seededRandom, shuffled, type Random } from "../kit/random";
import { type Card, cardName, doubleDeck, isJoker, rankOf, withoutCards, type Rank } from "./cards";
import {
  botDeclaration,
  DEAL_STEPS,
  dealStep,
  dealtTo,
  declarationOptions,
  declaredMainSuit,
  type Declaration,
} from "./declaration";
import type { DeclaringMatch } from "./match";
import { heuristicPolicy, playRound } from "./policy";
import { DEALER_CARDS, HAND_CARDS, startRound } from "./round";
import { classic, type TractorRuleset } from "./ruleset";
import { PLAYERS, SEATS, teamOf, type Seat } from "./scoring";
import { DEFAULT_WIN_VALUE, roundValue, type SearchBudget } from "./search";

/** What a seat may know while the cards are dealt: its own cards so far and what the table shows. */
export interface DeclarationView {
  readonly seat: Seat;
  readonly dealer: Seat;
  /** The current ranks of team 1 and team 2 (the dealer's team's is the current rank). */
  readonly teamRanks: readonly [Rank, Rank];
  /** How many of the DEAL_STEPS deal steps are done. */
  readonly steps: number;
  /** The seat's cards dealt so far, in the order they came. */
  readonly dealt: readonly Card[];
  /** The standing declaration, its cards shown to the table. */
  readonly standing?: Declaration;
}

/** A declaration candidate: its cards, or undefined for "not now". */
export type DeclarationCandidate = readonly Card[] | undefined;

export interface DeclarationChoice {
  /** The declaration to make now, or undefined for "not now". */
  readonly cards: Card[] | undefined;
  /** The deals each candidate was played out in. */
  readonly worlds: number;
  /** Each weighed candidate with its mean value to the seat's team, the heuristic's first. */
  readonly weighed: readonly { readonly cards: DeclarationCandidate; readonly value: number }[];
}

/**
 * A declaration plays whole rounds out (the rest of the deal, a burial and about 100 plays, 10–40 ms each) for
 * each candidate: a seat has a few such decisions a round, made while the dealer deals (150 ms a card).
 */
export const DEFAULT_DECLARATION_BUDGET: SearchBudget = {
  worlds: 24,
  minWorlds: 3,
  candidates: 5,
  confidence: 1,
  timeMs: 400,
};

/** The view of `seat` in a declaration deal: its cards dealt so far and the table's. */
export function declarationViewOf(
  match: Pick<DeclaringMatch, "setup" | "dealing" | "declaration">,
  seat: Seat,
): DeclarationView {
  const { dealer, teamRanks } = match.setup;
  const dealt = dealtTo(match.dealing.hands[seat], dealer, seat, match.dealing.steps);
  const standing =
    match.declaration === undefined
      ? {}
      : { standing: { seat: match.declaration.seat, cards: match.declaration.cards.slice() } };
  return {
    seat,
    dealer,
    teamRanks: [teamRanks[0], teamRanks[1]],
    steps: match.dealing.steps,
    dealt: dealt.slice(),
    ...standing,
  };
}

function currentRankOf(view: Pick<DeclarationView, "dealer" | "teamRanks">): Rank {
  return view.teamRanks[teamOf(view.dealer) - 1];
}

/** How many cards `seat` has been dealt once `steps` deal steps are done. */
function dealtCount(dealer: Seat, seat: Seat, steps: number): number {
  const offset = (seat - dealer + PLAYERS) % PLAYERS;
  return steps > offset ? Math.min(HAND_CARDS, Math.ceil((steps - offset) / PLAYERS)) : 0;
}

/**
 * What the seat may weigh now, in order: the heuristic's own choice first (a declaration, or "not now"), then
 * "not now" if that is not it, then the seat's other declarations (each card once as a single and once as a
 * pair, as declarationOptions lists them), at most `limit` in all. Empty when the seat may not declare at all.
 */
export function declarationCandidates(
  view: DeclarationView,
  rules: TractorRuleset = classic,
  limit = DEFAULT_DECLARATION_BUDGET.candidates,
): DeclarationCandidate[] {
  const rank = currentRankOf(view);
  const options = declarationOptions(view.standing, view.seat, view.dealt, rank, rules);
  if (options.length === 0) return [];
  const heuristic = botDeclaration(view.standing, view.seat, view.dealt, rank, rules);
  const others = options.filter((cards) => heuristic === undefined || !sameCards(cards, heuristic));
  const first: DeclarationCandidate[] = heuristic === undefined ? [undefined] : [heuristic, undefined];
  return [...first, ...others].slice(0, Math.max(2, limit));
}

/**
 * What the seat's next ask would be about: its options, the standing declaration, and whether its hand is
 * complete. The room (and the benchmark) ask the search again only when this changes.
 */
export function declarationMoment(view: DeclarationView, rules: TractorRuleset = classic): string {
  const options = declarationOptions(view.standing, view.seat, view.dealt, currentRankOf(view), rules);
  const standing =
    view.standing === undefined ? "" : `${view.standing.seat}:${view.standing.cards.map(cardName).join("")}`;
  return `${view.steps >= DEAL_STEPS ? "complete" : "dealing"}|${standing}|${options.map((cards) => cards.map(cardName).join("")).join(",")}`;
}

function sameCards(a: readonly Card[], b: readonly Card[]): boolean {
  return a.length === b.length && a.every((card, index) => card === b[index]);
}

/**
 * A completion of the deal consistent with the view: every seat's cards in the order they are dealt (the
 * dealer's 33, its last 8 the kitty), the seat's own so far as they came, the standing declaration's shown cards
 * among those its declarer has been dealt, everything else drawn from the rest of the two decks.
 */
export function sampleDeal(view: DeclarationView, random: Random): Card[][] {
  const shown = view.standing !== undefined && view.standing.seat !== view.seat ? view.standing : undefined;
  const rest = withoutCards(doubleDeck(), [...view.dealt, ...(shown?.cards ?? [])]);
  if (rest === undefined) throw new Error("the view holds more copies of a card than the two decks");
  const pool = shuffled(rest, random);
  const draw = (count: number) => pool.splice(pool.length - count, count);
  return SEATS.map((seat) => {
    const size = seat === view.dealer ? DEALER_CARDS : HAND_CARDS;
    if (seat === view.seat) return [...view.dealt, ...draw(size - view.dealt.length)];
    const known = dealtCount(view.dealer, seat, view.steps);
    if (shown?.seat !== seat) return draw(size);
    const soFar = shuffled([...shown.cards, ...draw(known - shown.cards.length)], random);
    return [...soFar, ...draw(size - known)];
  });
}

/** Seats that may declare with a card when it comes: cards of the current rank and jokers (the rest never declare). */
function mayDeclareWith(card: Card, rank: Rank): boolean {
  return rankOf(card) === rank || isJoker(card);
}

/**
 * The standing declaration at the end of the deal, from the view's moment on in a completed deal: the seat makes
 * `candidate` now; every other seat declares as botDeclaration whenever it may (after each card it is dealt and
 * after each declaration, as the table asks its bots); the seat after a declaration does the same, and after
 * "not now" waits until its hand is complete (or never declares, if it is complete already).
 */
export function finishDeal(
  view: DeclarationView,
  hands: readonly (readonly Card[])[],
  candidate: DeclarationCandidate,
  rules: TractorRuleset = classic,
): Declaration | undefined {
  const rank = currentRankOf(view);
  const held = SEATS.map((seat) => hands[seat].slice(0, dealtCount(view.dealer, seat, view.steps)));
  let standing: Declaration | undefined =
    candidate === undefined ? view.standing : { seat: view.seat, cards: candidate.slice() };
  const waits = candidate === undefined;
  const neverAgain = waits && view.steps >= DEAL_STEPS;
  let steps = view.steps;
  const volunteer = (seat: Seat): boolean => {
    if (seat === view.seat && (neverAgain || (waits && steps < DEAL_STEPS))) return false;
    const cards = botDeclaration(standing, seat, held[seat], rank, rules);
    if (cards !== undefined) standing = { seat, cards };
    return cards !== undefined;
  };
  // As the table asks its bots: every seat in order, again until none declares (each must be stronger: this ends).
  const everyone = () => {
    for (let acted = true, rounds = 0; acted && rounds < DEAL_STEPS; rounds++)
      acted = SEATS.map(volunteer).some(Boolean);
  };
  everyone();
  while (steps < DEAL_STEPS) {
    const { seat, index } = dealStep(view.dealer, steps);
    const card = hands[seat][index];
    held[seat].push(card);
    steps++;
    // Only a new declarable card (or the waiting seat's complete hand) can change what a seat would declare.
    if (steps === DEAL_STEPS || (mayDeclareWith(card, rank) && volunteer(seat))) everyone();
  }
  return standing;
}

/** What `candidate` comes to in a completed deal: the rest of the deal, the burial and the round, as a value. */
function candidateValue(
  view: DeclarationView,
  hands: readonly (readonly Card[])[],
  candidate: DeclarationCandidate,
  rules: TractorRuleset,
  winValue: number,
): number {
  const standing = finishDeal(view, hands, candidate, rules);
  const setup = { mainSuit: declaredMainSuit(standing), dealer: view.dealer, teamRanks: view.teamRanks };
  const heuristic = heuristicPolicy(rules);
  const finished = playRound(startRound(setup, hands, rules), [heuristic, heuristic, heuristic, heuristic]);
  if (finished.phase !== "finished") throw new Error("a play-out did not finish");
  return roundValue(finished.result, teamOf(view.seat), teamOf(view.dealer), winValue);
}

/** A seed from everything the view shows: the same view, the same deals. */
function viewSeed(view: DeclarationView): string {
  const standing = view.standing === undefined ? "" : `${view.standing.seat}:${view.standing.cards.join(",")}`;
  return `declare|${view.seat}|${view.dealer}|${view.teamRanks.join(",")}|${view.steps}|${view.dealt.join(",")}|${standing}`;
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

/**
 * The candidate to take: the first (the heuristic's) unless another beats it deal for deal by `confidence`
 * standard errors of the mean difference, as the play search decides.
 */
function clearlyBest(values: readonly (readonly number[])[], confidence: number): number {
  let best = 0;
  let bestGain = 0;
  values.forEach((candidate, index) => {
    const differences = candidate.map((value, world) => value - values[0][world]);
    const gain = mean(differences);
    const variance =
      differences.reduce((sum, difference) => sum + (difference - gain) ** 2, 0) / Math.max(1, differences.length - 1);
    const standardError = Math.sqrt(variance / differences.length);
    if (index > 0 && differences.length > 1 && gain > confidence * standardError && gain > bestGain)
      [best, bestGain] = [index, gain];
  });
  return best;
}

/**
 * The seat's declaration by search, from its view alone: undefined cards for "not now". A seat with no
 * declaration to make gets "not now" at once, without a search.
 */
export function searchDeclaration(
  view: DeclarationView,
  rules: TractorRuleset = classic,
  budget: SearchBudget = DEFAULT_DECLARATION_BUDGET,
): DeclarationChoice {
  const candidates = declarationCandidates(view, rules, budget.candidates);
  if (candidates.length === 0) return { cards: undefined, worlds: 0, weighed: [] };
  const random = seededRandom(viewSeed(view));
  const values: number[][] = candidates.map(() => []);
  const started = budget.now?.();
  let worlds = 0;
  while (worlds < budget.worlds) {
    const timeUp =
      started !== undefined && budget.timeMs !== undefined && (budget.now as () => number)() - started >= budget.timeMs;
    if (worlds >= budget.minWorlds && timeUp) break;
    const hands = sampleDeal(view, random);
    candidates.forEach((candidate, index) =>
      values[index].push(candidateValue(view, hands, candidate, rules, budget.winValue ?? DEFAULT_WIN_VALUE)),
    );
    worlds++;
  }
  const chosen = candidates[clearlyBest(values, budget.confidence ?? 1)];
  return {
    cards: chosen?.slice(),
    worlds,
    weighed: candidates.map((cards, index) => ({ cards, value: mean(values[index]) })),
  };
}

/** One strong declaration as it crosses to a thread: plain data only. */
export interface TractorDeclarationTask {
  readonly view: DeclarationView;
  readonly rules: TractorRuleset;
  /** The time the search may take (shrunk under load). */
  readonly timeMs: number;
  /** When the answer is due (Date.now()'s clock; server/ai/ai-admission.ts): a late start searches only what is left. */
  readonly answerBy?: number;
}

/** Who makes the strong declarations: the server's threads (server/ai/tractor-ai-pool.ts), or in-process. */
export interface TractorDeclarationDecider {
  /** The declaration to make now, or undefined for "not now". */
  declaration(task: Omit<TractorDeclarationTask, "timeMs">): Promise<Card[] | undefined>;
}

/** The strong declaration on the calling thread, within `timeMs` (the default budget's time unless given). */
export function declareInProcess(
  task: Omit<TractorDeclarationTask, "timeMs">,
  timeMs = DEFAULT_DECLARATION_BUDGET.timeMs ?? 400,
): Card[] | undefined {
  return searchDeclaration(task.view, task.rules, {
    ...DEFAULT_DECLARATION_BUDGET,
    timeMs,
    now: () => performance.now(),
  }).cards;
}

/** The seat bot's declaration for a strong task that cannot wait for a search (overload, or a thread over its limit). */
export function declareAtOnce(task: Omit<TractorDeclarationTask, "timeMs">): Card[] | undefined {
  const { view, rules } = task;
  return botDeclaration(view.standing, view.seat, view.dealt, currentRankOf(view), rules);
}
