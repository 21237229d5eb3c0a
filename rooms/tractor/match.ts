/**
 * A whole Tractor match as a match engine (rooms/kit/engine.ts): rounds until a team passes Ace, each dealt from
 * its own seed derived from the match seed. Built on the pure round modules (round.ts, declaration.ts, scoring.ts,
 * legality.ts, seat-view.ts, policy.ts); no Colyseus, no I/O, no clock.
 *
 * Who acts:
 * - the DEALER deals each card of a declaration deal (pace "deal"), closes the declaration window (pace
 *   "declareWindow") and deals the next round after a round's end (pace "roundPause");
 * - any seat may declare while the dealer deals (the bots volunteer their declarations); the round's dealer buries,
 *   then the seats play in turn.
 * Every event comes from the action that caused it, with the payloads of protocol.ts (`played.auto` is the room's:
 * only the table knows who moved). A round's seed stays in the state until its end reveals it (`roundEnd.seed`).
 */
import { DEALER, refuse, SPECTATOR, type Actor, type Applied, type GameEvent, type MatchEngine, type Outcome, type Viewer } from "../kit/engine";
import { freshSeed, seededRandom } from "../kit/random";
import { Card, cardName, parseCard } from "./cards";
import { botDeclaration, checkDeclaration, DEAL_STEPS, dealtTo, declarationOptions, declaredMainSuit, type Declaration } from "./declaration";
import { cardOrdering, sortedHighFirst, type MainSuit } from "./order";
import { heuristicPolicy } from "./policy";
import {
  type TractorErrorCode,
  type TractorEvents,
  type TractorMatchEndEvent,
  type TractorPlay,
  type TractorPositionView,
  type TractorResult,
  type TractorSeatPositionView,
  type TractorTrick,
  type TractorTrumpMode,
} from "./protocol";
import { TRACTOR_MAX_SEED, TRACTOR_MIN_SEED, TRACTOR_SEATS, type TractorSeatName } from "./wire-names";
import {
  applyPlay,
  buryCards,
  dealRound,
  HIDDEN_CARDS,
  legalPlaysFor,
  orderingOf,
  startRound,
  type BuryingRound,
  type CompletedTrick,
  type FinishedRound,
  type PlayingRound,
  type RoundState,
  type TrickInProgress,
} from "./round";
import type { TractorRuleset } from "./ruleset";
import { roundContext, SEATS, teamOf, type RoundResult, type RoundSetup, type Seat } from "./scoring";
import { seatView } from "./seat-view";

export interface TractorMatchOptions {
  readonly trump: TractorTrumpMode;
  /** Every round's main suit with trump "fixed" (ignored with "declare"). */
  readonly mainSuit: MainSuit;
  /** The first round's dealer. */
  readonly dealer: Seat;
  /** The teams' ranks at the start (2..14). */
  readonly startRanks: readonly [number, number];
  readonly ruleset: TractorRuleset;
}

/** A declaration deal under way: the round's hands as they will be, dealt `steps` cards so far. */
export interface Dealing {
  readonly hands: readonly (readonly Card[])[];
  readonly steps: number;
}

/** What a match holds in every phase. */
interface MatchFields {
  readonly options: TractorMatchOptions;
  /** 1 for the first round. */
  readonly roundNumber: number;
  /** The match seed (each round's seed is derived from it); never shown. */
  readonly seed: number;
  /** This round's deal seed, shown only once the round is over. */
  readonly roundSeed: number;
  /** This round's setup (with trump "declare", the main suit is "O" until declaring is over). */
  readonly setup: RoundSetup;
  /** The standing declaration of this round (kept after declaring is over, to show who declared). */
  readonly declaration: Declaration | undefined;
  /** Counts accepted declarations, burials, plays and burial starts (never reset). */
  readonly step: number;
}

/** The declaration deal (trump "declare" only): the round begins once declaring is over. */
export interface DeclaringMatch extends MatchFields {
  readonly phase: "declaring";
  readonly dealing: Dealing;
}

export interface BuryingMatch extends MatchFields {
  readonly phase: "burying";
  readonly round: BuryingRound;
}

export interface PlayingMatch extends MatchFields {
  readonly phase: "playing";
  readonly round: PlayingRound;
}

/** The round is over: the dealer deals the next one, unless a team has passed Ace and the match is over too. */
export interface RoundOverMatch extends MatchFields {
  readonly phase: "roundOver" | "matchOver";
  readonly round: FinishedRound;
}

export type TractorMatch = DeclaringMatch | BuryingMatch | PlayingMatch | RoundOverMatch;

export type TractorAction =
  | { readonly type: "declare" | "bury" | "play"; readonly cards: readonly string[] }
  | { readonly type: "deal" | "closeDeclarations" }
  /**
   * `seed`: the round's deal, given by the table (a fresh one for each round of a match whose creator gave no seed,
   * so that a finished round's revealed seed tells nothing of the next: docs/arena.md). Without it the round's seed
   * follows from the match's (roundSeedOf), as a reproducible match and a play-out want.
   */
  | { readonly type: "nextRound"; readonly seed?: number };

/** The wire payloads; `played.auto` is added by the room. */
export type TractorEnginePayloads = Omit<TractorEvents, "played"> & { played: Omit<TractorEvents["played"], "auto"> };
export type TractorEngineEvent = { [Name in keyof TractorEnginePayloads]: GameEvent<Name, TractorEnginePayloads[Name]> }[keyof TractorEnginePayloads];


type Result = Outcome<TractorMatch, TractorEngineEvent, TractorErrorCode>;

const names = (cards: readonly Card[]): string[] => cards.map(cardName);
const seatName = (seat: Seat): TractorSeatName => TRACTOR_SEATS[seat];

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

/**
 * A round's seed from the match seed, for a match that is reproducible from its seed. Whoever knows a revealed round
 * seed can search the match seeds (31 bits) for the one it follows from, and with it the next rounds' deals: a
 * table whose creator gave no seed deals each later round from a fresh seed instead (the `nextRound` action's).
 */
export function roundSeedOf(matchSeed: number, round: number): number {
  return freshSeed(seededRandom(`${matchSeed}:round:${round}`));
}

/** How many steps of the declaration deal are done: all of them once declaring is over. */
function dealtSteps(match: TractorMatch): number {
  return match.phase === "declaring" ? match.dealing.steps : DEAL_STEPS;
}

/** The round, from the burial on (null while the cards are dealt for declaring). */
export function roundOf(match: TractorMatch): RoundState | null {
  return match.phase === "declaring" ? null : match.round;
}

export function roundIsOver(match: TractorMatch): match is RoundOverMatch {
  return match.phase === "roundOver" || match.phase === "matchOver";
}

/** The round's settlement, once the round is over. */
function roundResultOf(match: TractorMatch): RoundResult | undefined {
  return roundIsOver(match) ? match.round.result : undefined;
}

function currentRank(match: TractorMatch): number {
  return roundContext(match.setup).currentRank;
}

/** The cards `seat` holds now: what it has been dealt while dealing, else its round hand. */
export function heldCards(match: TractorMatch, seat: Seat): readonly Card[] {
  if (match.phase !== "declaring") return match.round.hands[seat];
  const dealing = match.dealing;
  return dealtTo(dealing.hands[seat], match.setup.dealer, seat, dealing.steps);
}

/** A seat's hand as the table shows it: highest first, in the round's order (no main suit while dealing). */
export function shownHand(match: TractorMatch, seat: Seat): string[] {
  const ordering = match.phase === "declaring" ? cardOrdering({ mainSuit: "O", currentRank: currentRank(match) }) : orderingOf(match.round);
  return names(sortedHighFirst(heldCards(match, seat), ordering));
}

/**
 * A finished trick as the table shows it; made once per trick (a round's tricks are shown after every action), and
 * frozen: the state writer writes a kept view once (rooms/kit/state-writer.ts).
 */
const shownTricks = new WeakMap<object, TractorTrick>();
function trickView(done: CompletedTrick): TractorTrick {
  let shown = shownTricks.get(done);
  if (shown === undefined) shownTricks.set(done, (shown = Object.freeze({ leader: seatName(done.leader), plays: playsOf(done), winner: seatName(done.winner), points: done.points })));
  return shown;
}

export function playsOf(trick: TrickInProgress): TractorPlay[] {
  return trick.plays.map((cards, index) => ({ seat: seatName(((trick.leader + index) % SEATS.length) as Seat), cards: names(cards) }));
}

export function resultOf(match: RoundOverMatch): TractorResult {
  const round = match.round;
  const result = round.result;
  return {
    seed: match.roundSeed,
    defenderPoints: result.defenderPoints,
    hiddenCards: names(round.hidden),
    hiddenBonus: result.hiddenBonus,
    make: result.change.make,
    team: result.change.team,
    levels: result.change.levels,
    teamRanks: [...result.teamRanks],
    nextDealer: seatName(result.nextDealer),
    matchWinner: result.matchWinner ?? 0,
  };
}

/** Deals round `roundNumber`: with trump "fixed" the dealer buries next, with "declare" the paced deal begins. */
function beginRound({ options, seed, step }: Pick<MatchFields, "options" | "seed" | "step">, roundNumber: number, setup: RoundSetup, roundSeed = roundSeedOf(seed, roundNumber)): Applied<TractorMatch, TractorEngineEvent> {
  const dealt = dealRound(setup, seededRandom(roundSeed), options.ruleset);
  const fixed = options.trump === "fixed";
  const table = { options, seed, roundNumber, roundSeed, setup, declaration: undefined };
  const state: TractorMatch = fixed
    ? { ...table, phase: "burying", round: dealt, step: step + 1 }
    : { ...table, phase: "declaring", dealing: { hands: dealt.hands, steps: 0 }, step };
  const payload = {
    round: roundNumber,
    dealer: seatName(setup.dealer),
    teamRanks: [...setup.teamRanks],
    currentRank: roundContext(setup).currentRank,
    trump: options.trump,
    mainSuit: fixed ? setup.mainSuit : "",
  };
  return { ok: true, state, events: [{ name: "roundStart", payload }] };
}

function parseCards(texts: readonly string[]): Card[] | TractorMatchRefusal {
  const cards: Card[] = [];
  for (const text of texts) {
    const card = parseCard(text);
    if (card === undefined) return refuse("NOT_A_CARD", `"${text}" is not a card (e.g. H5, ST, BJ, RJ)`);
    cards.push(card);
  }
  return cards;
}

type TractorMatchRefusal = Extract<Result, { ok: false }>;

function wrongPhase(match: TractorMatch, action: string): TractorMatchRefusal {
  const phase = match.phase;
  return refuse("WRONG_PHASE", `cannot ${action} now: the table is ${phase === "roundOver" ? "between rounds" : phase}`);
}

function declare(match: TractorMatch, seat: Seat, texts: readonly string[]): Result {
  if (match.phase !== "declaring") return wrongPhase(match, "declare");
  const cards = parseCards(texts);
  if (!Array.isArray(cards)) return cards;
  const check = checkDeclaration(match.declaration, seat, cards, heldCards(match, seat), currentRank(match), match.options.ruleset);
  if (!check.ok) return refuse("ILLEGAL_DECLARATION", check.reason);
  const declaration = check.declaration;
  const payload = { round: match.roundNumber, seat: seatName(seat), cards: names(declaration.cards), mainSuit: declaredMainSuit(declaration) };
  return { ok: true, state: { ...match, declaration, step: match.step + 1 }, events: [{ name: "declared", payload }] };
}

function bury(match: TractorMatch, seat: Seat, texts: readonly string[]): Result {
  if (match.phase !== "burying") return wrongPhase(match, "bury");
  const round = match.round;
  if (seat !== round.setup.dealer) return refuse("NOT_YOUR_TURN", `only the dealer, ${seatName(round.setup.dealer)}, buries`);
  const cards = parseCards(texts);
  if (!Array.isArray(cards)) return cards;
  const update = buryCards(round, seat, cards);
  if (!update.ok) return refuse("ILLEGAL_BURIAL", update.reason);
  const payload = { round: match.roundNumber, dealer: seatName(seat) };
  return { ok: true, state: { ...match, phase: "playing", round: update.state, step: match.step + 1 }, events: [{ name: "buried", payload }] };
}

function play(match: TractorMatch, seat: Seat, texts: readonly string[]): Result {
  if (match.phase !== "playing") return wrongPhase(match, "play");
  const round = match.round;
  if (seat !== round.turn) return refuse("NOT_YOUR_TURN", `it is ${seatName(round.turn)}'s turn`);
  const cards = parseCards(texts);
  if (!Array.isArray(cards)) return cards;
  const update = applyPlay(round, seat, cards);
  if (!update.ok) return refuse("ILLEGAL_PLAY", update.reason);
  const next = update.state;
  const trickDone = next.tricks.length > round.tricks.length;
  // A completed trick leaves none under way: the play was the last of the last trick.
  const trick: TrickInProgress = next.trick ?? next.tricks[next.tricks.length - 1];
  const failed = next.failedThrows.length > round.failedThrows.length ? next.failedThrows[next.failedThrows.length - 1] : undefined;
  const finished = next.phase === "finished";
  const events: TractorEngineEvent[] = [
    {
      name: "played",
      payload: {
        round: match.roundNumber,
        seat: seatName(seat),
        cards: names(trick.plays[trick.plays.length - 1]),
        ...(failed ? { failedThrow: { attempted: names(failed.attempted), penalty: failed.penalty } } : {}),
        next: finished ? "" : seatName(next.turn),
      },
    },
  ];
  if (trickDone) events.push({ name: "trick", payload: trickEvent(match.roundNumber, next, trick as CompletedTrick) });
  if (next.phase === "playing") return { ok: true, state: { ...match, round: next, step: match.step + 1 }, events };
  return roundOver(match, next, events);
}

/** The round's last play ends the round, and the match too once a team has passed Ace. */
function roundOver(match: PlayingMatch, round: FinishedRound, events: TractorEngineEvent[]): Result {
  const { matchWinner, teamRanks } = round.result;
  const state: RoundOverMatch = { ...match, phase: matchWinner === undefined ? "roundOver" : "matchOver", round, step: match.step + 1 };
  events.push({ name: "roundEnd", payload: { round: match.roundNumber, ...resultOf(state) } });
  if (matchWinner !== undefined) events.push({ name: "matchEnd", payload: { winner: matchWinner, teamRanks: [...teamRanks], rounds: match.roundNumber } });
  return { ok: true, state, events };
}

function trickEvent(roundNumber: number, next: RoundState, completed: CompletedTrick): TractorEvents["trick"] {
  return {
    round: roundNumber,
    trick: next.tricks.length,
    leader: seatName(completed.leader),
    plays: playsOf(completed),
    winner: seatName(completed.winner),
    points: completed.points,
    defenderPoints: next.trickPoints,
    nextLeader: next.phase === "finished" ? "" : seatName(next.turn),
  };
}

/** The dealer's due action: one more card, the end of declaring, or the next round (from its seed, if it gives one). */
function dealerAction(match: TractorMatch, action: TractorAction): Result {
  const { type } = action;
  const waiting = tractorEngine.waiting(match);
  const due = waiting.for === "dealer" && waiting.action.type === type;
  if (due && match.phase === "declaring") return type === "deal" ? dealCard(match) : closeDeclarations(match);
  if (due && match.phase === "roundOver") {
    const seed = action.type === "nextRound" ? action.seed : undefined;
    if (seed !== undefined && !isDealSeed(seed)) return refuse("BAD_PAYLOAD", `a round's seed is a whole number from ${TRACTOR_MIN_SEED} to ${TRACTOR_MAX_SEED}`);
    return nextRound(match, seed);
  }
  return refuse("WRONG_PHASE", `the dealer cannot ${type} now`);
}

function isDealSeed(seed: number): boolean {
  return Number.isInteger(seed) && seed >= TRACTOR_MIN_SEED && seed <= TRACTOR_MAX_SEED;
}

function dealCard(match: DeclaringMatch): Result {
  const dealing = match.dealing;
  return { ok: true, state: { ...match, dealing: { ...dealing, steps: dealing.steps + 1 } }, events: [] };
}

/** The declaration (if any) sets the main suit; the dealt hands become the round's and the dealer buries. */
function closeDeclarations({ dealing, ...match }: DeclaringMatch): Result {
  const mainSuit = declaredMainSuit(match.declaration);
  const setup: RoundSetup = { ...match.setup, mainSuit };
  const round = startRound(setup, dealing.hands, match.options.ruleset);
  const payload = { round: match.roundNumber, mainSuit, declaredBy: match.declaration ? seatName(match.declaration.seat) : ("" as const) };
  return { ok: true, state: { ...match, phase: "burying", setup, round, step: match.step + 1 }, events: [{ name: "trump", payload }] };
}

function nextRound(match: RoundOverMatch, seed: number | undefined): Result {
  const result = match.round.result;
  return beginRound(match, match.roundNumber + 1, { mainSuit: match.options.mainSuit, dealer: result.nextDealer, teamRanks: [result.teamRanks[0], result.teamRanks[1]] }, seed);
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
  return round.phase === "burying" ? { type: "bury", cards: names(policy.chooseBurial(view)) } : { type: "play", cards: names(policy.choosePlay(view)) };
}

export const tractorEngine: MatchEngine<TractorMatchOptions, TractorMatch, TractorAction, TractorEngineEvent, TractorPositionView, TractorMatchEndEvent, TractorErrorCode> = {
  seatCount: () => SEATS.length,

  start(options, seed) {
    const setup: RoundSetup = { mainSuit: options.mainSuit, dealer: options.dealer, teamRanks: [options.startRanks[0], options.startRanks[1]] };
    return beginRound({ options, seed, step: 0 }, 1, setup);
  },

  apply(match, actor, action) {
    if (actor === DEALER) {
      if (action.type === "declare" || action.type === "bury" || action.type === "play") return refuse("NOT_YOUR_TURN", "the dealer only deals");
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
      declaration: { seat: match.declaration ? seatName(match.declaration.seat) : "", cards: names(match.declaration?.cards ?? []) },
      trick: { leader: trick ? seatName(trick.leader) : "", plays: trick ? playsOf(trick) : [], winner: "", points: 0 },
      tricks: (round?.tricks ?? []).map(trickView),
      defenderPoints: round?.trickPoints ?? 0,
      penaltyPoints: round?.penaltyPoints ?? 0,
      ...(roundIsOver(match) ? { result: resultOf(match) } : {}),
      seats: SEATS.map((seat) => {
        const shown: TractorSeatPositionView = { seat: seatName(seat), team: teamOf(seat), handCount: heldCards(match, seat).length };
        return seat === own ? { ...shown, hand: shownHand(match, seat), buried } : shown;
      }),
    };
  },

  legalActions(match, seat, limit) {
    const none = { actions: [], complete: true };
    if (!isSeat(seat)) return none;
    if (match.phase === "declaring") {
      const options = declarationOptions(match.declaration, seat, heldCards(match, seat), currentRank(match), match.options.ruleset);
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
    const cards = botDeclaration(match.declaration, seat, heldCards(match, seat), currentRank(match), match.options.ruleset);
    return cards === undefined ? undefined : { type: "declare", cards: names(cards) };
  },

  timedOut(match, seat) {
    const action = tractorEngine.botAction(match, seat) ?? tractorEngine.legalActions(match, seat, 1).actions[0] ?? { type: "play", cards: [] };
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

