/**
 * A review of one seat's plays in a recorded Tractor game: the record is played again through the engine, and at
 * each of the seat's plays the strong AI (search.ts) chooses from that seat's view at that moment. Where the two
 * differ, both are played out in the same sampled deals: the expected points the seat's team gave up (its
 * defenders' points, or the declarers' points kept from the defenders) and the value (roundValue, in levels).
 *
 * Pure: the budget is in sampled deals unless a clock is given; with one, the review stops where the time runs
 * out and says so (`complete: false`), so a long match is reviewed in bounded time.
 */
import type { Actor } from "../kit/engine";
import { cardName, parseCard, type Card } from "./cards";
import { tractorEngine, type TractorAction, type TractorMatch, type TractorMatchOptions } from "./match";
import { TRACTOR_SEATS, type TractorSeatName } from "./wire-names";
import type { Seat } from "./scoring";
import { DEFAULT_SEARCH_BUDGET, playOutCandidates, searchPlay, type SearchBudget } from "./search";
import { seatView } from "./seat-view";

/** Enough deals for a fair comparison of two plays, a few seconds for a whole round. */
export const REVIEW_BUDGET: SearchBudget = {
  worlds: 8,
  minWorlds: 8,
  candidates: 4,
  confidence: 1,
  ownPolicy: DEFAULT_SEARCH_BUDGET.ownPolicy,
};

export interface ReviewedMove {
  /** The action's index in the record (1 for the first). */
  readonly step: number;
  readonly round: number;
  readonly played: string[];
  readonly aiChoice: string[];
  readonly matches: boolean;
  /** Expected points the seat's team gave up by this play against the AI's (0 when they match; may be negative). */
  readonly pointsLost: number;
  /** The same in the search's value (levels: see roundValue). */
  readonly valueLost: number;
}

export interface TractorReview {
  readonly seat: TractorSeatName;
  readonly moves: ReviewedMove[];
  readonly summary: {
    readonly moves: number;
    readonly matching: number;
    readonly pointsLost: number;
    readonly valueLost: number;
  };
  /** False when the time ran out before the last of the seat's plays (the moves after it are not listed). */
  readonly complete: boolean;
}

/** What a review needs of a record. */
export interface ReviewedRecord {
  readonly options: unknown;
  readonly seed: number;
  readonly actions: readonly { readonly actor: Actor; readonly action: unknown }[];
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const sameCards = (a: readonly string[], b: readonly string[]) => [...a].sort().join(" ") === [...b].sort().join(" ");

export function reviewTractor(
  record: ReviewedRecord,
  seat: Seat,
  budget: SearchBudget = REVIEW_BUDGET,
  now?: () => number,
  timeMs?: number,
): TractorReview {
  let state: TractorMatch = tractorEngine.start(record.options as TractorMatchOptions, record.seed).state;
  const moves: ReviewedMove[] = [];
  const started = now?.();
  let complete = true;
  for (const [index, { actor, action }] of record.actions.entries()) {
    const step = action as TractorAction;
    if (actor === seat && step.type === "play" && state.phase === "playing") {
      if (now !== undefined && timeMs !== undefined && now() - (started as number) >= timeMs) {
        complete = false;
        break;
      }
      moves.push(reviewMove(state, seat, step.cards, index + 1, budget));
    }
    const outcome = tractorEngine.apply(state, actor, step);
    if (!outcome.ok) throw new Error(`the record does not replay at action ${index + 1}: ${outcome.reason}`);
    state = outcome.state;
  }
  const summary = {
    moves: moves.length,
    matching: moves.filter((move) => move.matches).length,
    pointsLost: moves.reduce((sum, move) => sum + move.pointsLost, 0),
    valueLost: moves.reduce((sum, move) => sum + move.valueLost, 0),
  };
  return { seat: TRACTOR_SEATS[seat], moves, summary, complete };
}

function reviewMove(
  state: Extract<TractorMatch, { phase: "playing" }>,
  seat: Seat,
  played: readonly string[],
  step: number,
  budget: SearchBudget,
): ReviewedMove {
  const round = state.round;
  const view = seatView(round, seat);
  const context =
    state.declaration === undefined
      ? {}
      : { declaration: { seat: state.declaration.seat, cards: [...state.declaration.cards] } };
  const choice = searchPlay(view, round.ruleset, budget, context).cards.map(cardName);
  const base = { step, round: state.roundNumber, played: [...played], aiChoice: choice };
  if (sameCards(choice, played)) return { ...base, matches: true, pointsLost: 0, valueLost: 0 };
  const candidates = [choice, played].map((names) => names.map((name) => parseCard(name) as Card));
  const compared = playOutCandidates(view, round.ruleset, candidates, { ...budget, now: undefined }, context);
  const round1 = (value: number) => Math.round(value * 100) / 100;
  return {
    ...base,
    matches: false,
    pointsLost: round1(mean(compared.points[0]) - mean(compared.points[1])),
    valueLost: round1(mean(compared.values[0]) - mean(compared.values[1])),
  };
}
