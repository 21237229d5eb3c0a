/**
 * One Shuffling Patience deal as a match engine (rooms/kit/engine.ts). The deal has one seat, its owner's, but no
 * seat ever plays: every step is the DEALER's, made at the pace named "step" (or one at a time while paused), until
 * the outcome; then the match waits for nobody. Pure: the deck is the seed's shuffle or the cards given.
 *
 * Where the cards come from. The contract starts a match from (options, seed); a deal is given by a seed or by its
 * cards, so:
 * - `{}` (no deck): the deal is `deckOfSeed(seed)`, and that seed is revealed with the outcome;
 * - `{ deck }`: the deal is those cards and the `seed` argument is IGNORED; the deal has no seed, and reports 0
 *   (the table records the seed it passed, conventionally 0, and a replay may pass any).
 *
 * What a view shows: the table (each pile's top card and size, the last cover, the outcome), never the deck: an
 * undealt card appears nowhere, and the seed (which would give the deck away) only once the deal is over.
 */
import { DEALER, refuse, type Actor, type GameEvent, type MatchEngine, type Outcome as Moved } from "../kit/engine";
import { deckOfSeed, formatCard, type Card } from "./cards";
import {
  MAX_PILES,
  startDeal,
  step,
  topCard,
  type Outcome,
  type PatienceEvent,
  type PatienceState as Deal,
} from "./engine";
import { DeckInputError, describeEvent, formatResult, parseDeal } from "./notation";
import type {
  PatienceDealOverEvent,
  PatienceErrorCode,
  PatienceMoveData,
  PatienceOutcomeData,
  PatiencePositionView,
  PatienceStateView,
} from "./protocol";

/** The owner's seat: a person's, which never acts in the game itself. */
export const OWNER_SEAT = 0;

/** The name of the dealer's pace between steps (the table maps it to milliseconds). */
export const STEP_PACE = "step";

/** A deal: the seed's deck (no `deck`), or the cards given (then the start's seed is ignored; see above). */
export interface PatienceOptions {
  readonly deck?: readonly Card[];
}

/**
 * The deal a seed or a deck (in bin/patience's notation) names: the engine's options and the seed to start with —
 * 0 for a deck, undefined when neither is given (the table picks a fresh seed). A bad deck throws a DeckInputError.
 */
export function dealOf(source: { seed?: number; deck?: string }): {
  options: PatienceOptions;
  seed: number | undefined;
} {
  return source.deck === undefined
    ? { options: {}, seed: source.seed }
    : { options: { deck: parseDeal(source.deck) }, seed: 0 };
}

export interface PatienceMatch {
  readonly deal: Deal;
  /** The seed that shuffled the deck, 0 for a deck given as cards. Shown only once the deal is over. */
  readonly seed: number;
  /** Steps made so far. */
  readonly steps: number;
  /** The last step's event (its cover is shown on the table), or null before the first step. */
  readonly last: PatienceEvent | null;
}

/** The one action: the dealer's next step. */
export interface PatienceAction {
  readonly type: "step";
}

export const STEP: PatienceAction = { type: "step" };

/** A move's payload as the engine reports it; the room adds the deal's number on the wire. */
export type PatienceMovePayload = PatienceMoveData & { step: number; dealt: number; description: string };
/** The deal's end as the engine reports it (and its result); the room adds the deal's number on the wire. */
export type PatienceResult = Omit<PatienceDealOverEvent, "deal">;

export type PatienceEngineEvent = GameEvent<"move", PatienceMovePayload> | GameEvent<"dealOver", PatienceResult>;

function outcomeData(outcome: Outcome): PatienceOutcomeData {
  return outcome.kind === "finished"
    ? { kind: "finished", pileSizes: [...outcome.pileSizes] }
    : { kind: "overflowed", cardNumber: outcome.cardNumber };
}

function moveData(event: PatienceEvent): PatienceMoveData {
  const cards = (list: readonly Card[]) => list.map(formatCard);
  switch (event.kind) {
    case "dealt":
      return { kind: "dealt", card: formatCard(event.card), cardNumber: event.cardNumber, pile: event.pile };
    case "covered":
      return {
        kind: "covered",
        group: event.group,
        piles: [...event.piles],
        covered: cards(event.covered),
        covering: cards(event.covering),
      };
    case "overflowed":
      return { kind: "overflowed", card: formatCard(event.card), cardNumber: event.cardNumber };
    case "finished":
      return { kind: "finished", pileSizes: [...event.pileSizes] };
  }
}

function resultOf(match: PatienceMatch): PatienceResult | undefined {
  const { outcome } = match.deal;
  if (outcome === null) return undefined;
  return { outcome: outcomeData(outcome), line: formatResult(1, outcome), seed: match.seed, steps: match.steps };
}

function dealerStep(match: PatienceMatch): Moved<PatienceMatch, PatienceEngineEvent, PatienceErrorCode> {
  if (match.deal.outcome !== null) return refuse("DEAL_OVER", "the deal is over; send restart to deal again");
  const { state: deal, event } = step(match.deal);
  const next: PatienceMatch = { deal, seed: match.seed, steps: match.steps + 1, last: event };
  const move: PatienceEngineEvent = {
    name: "move",
    payload: { ...moveData(event), step: next.steps, dealt: deal.dealt, description: describeEvent(event) },
  };
  const result = resultOf(next);
  return {
    ok: true,
    state: next,
    events: result === undefined ? [move] : [move, { name: "dealOver", payload: result }],
  };
}

/** Each pile's top card ("" for a pile not started), in grid order. */
function topsOf(deal: Deal): string[] {
  return Array.from({ length: MAX_PILES }, (_, index) => {
    const pile = deal.piles[index];
    return pile ? formatCard(topCard(pile)) : "";
  });
}

/** Each pile's number of cards, in grid order. */
function countsOf(deal: Deal): number[] {
  return Array.from({ length: MAX_PILES }, (_, index) => deal.piles[index]?.length ?? 0);
}

function coverOf(last: PatienceEvent | null): PatienceStateView["cover"] {
  if (last?.kind !== "covered") return { group: "", piles: [], covered: [], covering: [] };
  return {
    group: last.group,
    piles: [...last.piles],
    covered: last.covered.map(formatCard),
    covering: last.covering.map(formatCard),
  };
}

function outcomeView(match: PatienceMatch): PatienceStateView["outcome"] {
  const result = resultOf(match);
  if (result === undefined) return { kind: "", pileSizes: [], overflowCard: 0, line: "" };
  const { outcome, line } = result;
  return outcome.kind === "finished"
    ? { kind: "finished", pileSizes: outcome.pileSizes, overflowCard: 0, line }
    : { kind: "overflowed", pileSizes: [], overflowCard: outcome.cardNumber, line };
}

export const patienceEngine: MatchEngine<
  PatienceOptions,
  PatienceMatch,
  PatienceAction,
  PatienceEngineEvent,
  PatiencePositionView,
  PatienceResult,
  PatienceErrorCode
> = {
  seatCount: () => 1,

  start(options, seed) {
    const given = options.deck !== undefined;
    const deck = options.deck ?? deckOfSeed(seed);
    return { ok: true, state: { deal: startDeal(deck), seed: given ? 0 : seed, steps: 0, last: null }, events: [] };
  },

  apply(match, actor: Actor, action) {
    if (actor !== DEALER)
      return refuse("NOT_YOUR_TURN", "the dealer makes every step of the deal; a seat has nothing to play");
    if (action.type !== "step") return refuse("BAD_PAYLOAD", "the dealer's only action is a step");
    return dealerStep(match);
  },

  /** The owner and a spectator see the same. */
  view(match): PatiencePositionView {
    const { deal } = match;
    const over = deal.outcome !== null;
    return {
      phase: over ? "over" : "dealing",
      steps: match.steps,
      dealt: deal.dealt,
      deckSize: deal.deck.length,
      tops: topsOf(deal),
      counts: countsOf(deal),
      cover: coverOf(match.last),
      outcome: outcomeView(match),
      revealedSeed: over ? match.seed : 0,
    };
  },

  legalActions: () => ({ actions: [], complete: true }),

  waiting: (match) =>
    match.deal.outcome === null ? { for: "dealer", action: STEP, pace: STEP_PACE } : { for: "nobody" },

  botAction: () => undefined,

  // No seat is ever waited for, so no seat's clock runs; were one to, the dealer would just deal on.
  timedOut: () => ({ actor: DEALER, action: STEP }),

  result: resultOf,

  /** A deal drawn from a seed is sealed; a deck given as cards comes from no seed, and has nothing to commit to. */
  currentDeal: (match) => (match.seed === 0 ? undefined : { number: 1, seed: match.seed }),
};

/** The deal a seed or a deck names (dealOf); a deck that is not 52 different cards throws `refuse(what is wrong)`. */
export function dealSource(
  source: { seed?: number; deck?: string },
  refuse: (problem: string) => Error,
): ReturnType<typeof dealOf> {
  try {
    return dealOf(source);
  } catch (error) {
    throw error instanceof DeckInputError ? refuse(error.message) : error;
  }
}
