/**
 * A whole Tractor match as a match engine (rooms/kit/engine.ts): rounds until a team passes Ace, each dealt from
 * its own seed derived from the match seed. Built on the pure round modules (round.ts, declaration.ts, scoring.ts,
 * legality.ts, seat-view.ts, policy.ts); no Colyseus, no I/O, no clock. The match's state is in match-state.ts, the
 * actions of its phases in match-declaring.ts and match-rounds.ts.
 *
 * Who acts:
 * - the DEALER deals each card of a declaration deal (pace "deal"), closes the declaration window (pace
 *   "declareWindow") and deals the next round after a round's end (pace "roundPause");
 * - any seat may declare while the dealer deals (the bots volunteer their declarations); the round's dealer buries,
 *   then the seats play in turn.
 * Every event comes from the action that caused it, with the payloads of protocol.ts (`played.auto` is the room's:
 * only the table knows who moved). A round's seed stays in the state until its end reveals it (`roundEnd.seed`).
 */
import { DEALER, refuse, SPECTATOR, type Actor, type MatchEngine, type Viewer } from "../kit/engine";
import { botDeclaration, DEAL_STEPS, declarationOptions } from "./declaration";
import { closeDeclarations, dealCard, declare } from "./match-declaring";
import { beginRound, bury, nextRound, play, playsOf, resultOf } from "./match-rounds";
import {
  currentRank,
  heldCards,
  names,
  roundIsOver,
  seatName,
  type Result,
  type TractorAction,
  type TractorEngineEvent,
  type TractorMatch,
  type TractorMatchOptions,
} from "./match-state";
import { cardOrdering, sortedHighFirst } from "./order";
import { heuristicPolicy } from "./policy";
import type {
  TractorErrorCode,
  TractorMatchEndEvent,
  TractorPositionView,
  TractorSeatPositionView,
  TractorTrick,
} from "./protocol";
import { TRACTOR_MAX_SEED, TRACTOR_MIN_SEED } from "./wire-names";
import { HIDDEN_CARDS, legalPlaysFor, orderingOf, type CompletedTrick, type RoundState } from "./round";
import { SEATS, teamOf, type RoundResult, type RoundSetup, type Seat } from "./scoring";
import { seatView } from "./seat-view";

// The match's types are the engine's: its importers take them from here, with the engine.
export type {
  BuryingMatch,
  Dealing,
  DeclaringMatch,
  PlayingMatch,
  RoundOverMatch,
  TractorAction,
  TractorEngineEvent,
  TractorEnginePayloads,
  TractorMatch,
  TractorMatchOptions,
} from "./match-state";

/** The table's plain fields as a view shows them (cheap: no hands, no tricks). */
export function tableOf(match: TractorMatch) {
  const waiting = tractorEngine.waiting(match);
  return {
    phase: match.phase,
    round: match.roundNumber,
    trump: match.options.trump,
    mainSuit: match.phase === "declaring" ? "" : match.setup.mainSuit,
    currentRank: currentRank(match),
    dealer: seatName(match.setup.dealer),
    turn: waiting.for === "seat" ? seatName(waiting.seat as Seat) : ("" as const),
    step: match.step,
    dealt: match.options.trump === "fixed" ? 0 : dealtSteps(match),
    winner: roundResultOf(match)?.matchWinner ?? (0 as const),
  };
}

/** How many steps of the declaration deal are done: all of them once declaring is over. */
function dealtSteps(match: TractorMatch): number {
  return match.phase === "declaring" ? match.dealing.steps : DEAL_STEPS;
}

/** The round, from the burial on (null while the cards are dealt for declaring). */
export function roundOf(match: TractorMatch): RoundState | null {
  return match.phase === "declaring" ? null : match.round;
}

/** The round's settlement, once the round is over. */
function roundResultOf(match: TractorMatch): RoundResult | undefined {
  return roundIsOver(match) ? match.round.result : undefined;
}

/** A seat's hand as the table shows it: highest first, in the round's order (no main suit while dealing). */
export function shownHand(match: TractorMatch, seat: Seat): string[] {
  const ordering =
    match.phase === "declaring"
      ? cardOrdering({ mainSuit: "O", currentRank: currentRank(match) })
      : orderingOf(match.round);
  return names(sortedHighFirst(heldCards(match, seat), ordering));
}

/**
 * A finished trick as the table shows it; made once per trick (a round's tricks are shown after every action), and
 * frozen: the state writer writes a kept view once (rooms/kit/state-writer.ts).
 */
const shownTricks = new WeakMap<object, TractorTrick>();
function trickView(done: CompletedTrick): TractorTrick {
  let shown = shownTricks.get(done);
  if (shown === undefined)
    shownTricks.set(
      done,
      (shown = Object.freeze({
        leader: seatName(done.leader),
        plays: playsOf(done),
        winner: seatName(done.winner),
        points: done.points,
      })),
    );
  return shown;
}

/** The dealer's due action: one more card, the end of declaring, or the next round (from its seed, if it gives one). */
function dealerAction(match: TractorMatch, action: TractorAction): Result {
  const { type } = action;
  const waiting = tractorEngine.waiting(match);
  const due = waiting.for === "dealer" && waiting.action.type === type;
  if (due && match.phase === "declaring") return type === "deal" ? dealCard(match) : closeDeclarations(match);
  if (due && match.phase === "roundOver") {
    const seed = action.type === "nextRound" ? action.seed : undefined;
    if (seed !== undefined && !isDealSeed(seed))
      return refuse("BAD_PAYLOAD", `a round's seed is a whole number from ${TRACTOR_MIN_SEED} to ${TRACTOR_MAX_SEED}`);
    return nextRound(match, seed);
  }
  return refuse("WRONG_PHASE", `the dealer cannot ${type} now`);
}

function isDealSeed(seed: number): boolean {
  return Number.isInteger(seed) && seed >= TRACTOR_MIN_SEED && seed <= TRACTOR_MAX_SEED;
}

function isSeat(actor: Actor): actor is Seat {
  return typeof actor === "number" && Number.isInteger(actor) && actor >= 0 && actor < SEATS.length;
}

/** The seat's bot: the heuristic policy for the table's ruleset, deciding from the seat's own view only. */
function botChoice(match: TractorMatch, seat: Seat): TractorAction | undefined {
  if ((match.phase !== "burying" && match.phase !== "playing") || match.round.turn !== seat) return undefined;
  const round = match.round;
  const policy = heuristicPolicy(match.options.ruleset);
  const view = seatView(round, seat);
  return round.phase === "burying"
    ? { type: "bury", cards: names(policy.chooseBurial(view)) }
    : { type: "play", cards: names(policy.choosePlay(view)) };
}

export const tractorEngine: MatchEngine<
  TractorMatchOptions,
  TractorMatch,
  TractorAction,
  TractorEngineEvent,
  TractorPositionView,
  TractorMatchEndEvent,
  TractorErrorCode
> = {
  seatCount: () => SEATS.length,

  start(options, seed) {
    const setup: RoundSetup = {
      mainSuit: options.mainSuit,
      dealer: options.dealer,
      teamRanks: [options.startRanks[0], options.startRanks[1]],
    };
    return beginRound({ options, seed, step: 0 }, 1, setup);
  },

  apply(match, actor, action) {
    if (actor === DEALER) {
      if (action.type === "declare" || action.type === "bury" || action.type === "play")
        return refuse("NOT_YOUR_TURN", "the dealer only deals");
      return dealerAction(match, action);
    }
    if (!isSeat(actor)) return refuse("NOT_A_PLAYER", "no such seat");
    if (action.type === "declare") return declare(match, actor, action.cards);
    if (action.type === "bury") return bury(match, actor, action.cards);
    if (action.type === "play") return play(match, actor, action.cards);
    return refuse("NOT_YOUR_TURN", "only the dealer deals");
  },

  /**
   * What a viewer may see: the table's public state, the hand sizes, and a seat's own hand (and, for the dealer,
   * the buried cards); the round seed only once the round is over.
   */
  view(match, viewer: Viewer): TractorPositionView {
    const round = roundOf(match);
    const own = viewer === SPECTATOR ? undefined : (viewer as Seat);
    const trick = round?.trick;
    const buried = own === match.setup.dealer && round !== null ? names(round.hidden) : [];
    return {
      ...tableOf(match),
      teamRanks: [...match.setup.teamRanks],
      declaration: {
        seat: match.declaration ? seatName(match.declaration.seat) : "",
        cards: names(match.declaration?.cards ?? []),
      },
      trick: { leader: trick ? seatName(trick.leader) : "", plays: trick ? playsOf(trick) : [], winner: "", points: 0 },
      tricks: (round?.tricks ?? []).map(trickView),
      defenderPoints: round?.trickPoints ?? 0,
      penaltyPoints: round?.penaltyPoints ?? 0,
      ...(roundIsOver(match) ? { result: resultOf(match) } : {}),
      seats: SEATS.map((seat) => {
        const shown: TractorSeatPositionView = {
          seat: seatName(seat),
          team: teamOf(seat),
          handCount: heldCards(match, seat).length,
        };
        return seat === own ? { ...shown, hand: shownHand(match, seat), buried } : shown;
      }),
    };
  },

  legalActions(match, seat, limit) {
    const none = { actions: [], complete: true };
    if (!isSeat(seat)) return none;
    if (match.phase === "declaring") {
      const options = declarationOptions(
        match.declaration,
        seat,
        heldCards(match, seat),
        currentRank(match),
        match.options.ruleset,
      );
      return { actions: options.map((cards) => ({ type: "declare", cards: names(cards) })), complete: true };
    }
    const round = match.round;
    if (round.phase === "burying" && seat === round.setup.dealer) {
      // Every 8 of 33 cards may be buried: listed as the first 8 only.
      return { actions: [{ type: "bury", cards: names(round.hands[seat].slice(0, HIDDEN_CARDS)) }], complete: false };
    }
    const legal = legalPlaysFor(round, seat, limit);
    return { actions: legal.plays.map((cards) => ({ type: "play", cards: names(cards) })), complete: legal.complete };
  },

  waiting(match) {
    if (match.phase === "declaring") {
      const dealing = match.dealing;
      // The first card comes as the round starts, the others at the deal's pace.
      if (dealing.steps === 0) return { for: "dealer", action: { type: "deal" } };
      return dealing.steps < DEAL_STEPS
        ? { for: "dealer", action: { type: "deal" }, pace: "deal" }
        : { for: "dealer", action: { type: "closeDeclarations" }, pace: "declareWindow" };
    }
    if (match.phase === "burying" || match.phase === "playing") return { for: "seat", seat: match.round.turn };
    if (match.phase === "matchOver") return { for: "nobody" };
    return { for: "dealer", action: { type: "nextRound" }, pace: "roundPause" };
  },

  botAction: (match, seat) => (isSeat(seat) ? botChoice(match, seat) : undefined),

  volunteer(match, seat) {
    if (match.phase !== "declaring" || !isSeat(seat)) return undefined;
    const cards = botDeclaration(
      match.declaration,
      seat,
      heldCards(match, seat),
      currentRank(match),
      match.options.ruleset,
    );
    return cards === undefined ? undefined : { type: "declare", cards: names(cards) };
  },

  timedOut(match, seat) {
    const action = tractorEngine.botAction(match, seat) ??
      tractorEngine.legalActions(match, seat, 1).actions[0] ?? { type: "play", cards: [] };
    return { actor: seat, action };
  },

  result(match) {
    const result = roundResultOf(match);
    if (result?.matchWinner === undefined) return undefined;
    return { winner: result.matchWinner, teamRanks: [...result.teamRanks], rounds: match.roundNumber };
  },

  roundEnd(event) {
    if (event.name !== "roundEnd") return undefined;
    const { round, ...result } = event.payload;
    return { round, result };
  },

  /** Each round is a deal of its own, from the round's seed (the one `roundEnd.seed` reveals). */
  currentDeal(match) {
    return { number: match.roundNumber, seed: match.roundSeed };
  },
};
