/**
 * The Fool AI. It decides from what its seat may see — its hand, the public state — and from its memory of the
 * public events of the game (ai-memory.ts: the known run at the bottom of the deck, and the suits and values each
 * opponent showed it lacks when it drew or passed). Nothing else: the hidden hands and the deck order never reach it.
 *
 * Heads-up, on its turn it
 * 1. asks the exact search whether it can lay out its whole hand without the opponent moving, and if so plays
 *    that sequence out;
 * 2. otherwise, when it has a real choice (which card, a Queen's named suit, a joker's name, a joker or a draw),
 *    plays each candidate out on a few worlds sampled to fit its memory — the opponent's hand and the unseen deck
 *    dealt at random from the cards it has not seen, respecting what the opponent is known to lack — letting both
 *    seats play greedily for a few moves and scoring the cards, jokers and skip cards held then (ai-playouts.ts).
 * With more players it weighs each play by looking three cards ahead through its own turn and scoring the end of
 * the turn as a good player would, with the chance that the next player cannot cover taken from its memory.
 *
 * For a room: keep one FoolMemory per AI seat — `startMemory(viewFor(state, seat))` after the deal, then
 * `memory = remember(memory, events)` with the events of every move applied (anyone's, one call per move) — and
 * ask `aiPolicy(viewFor(state, seat), random, memory)`. Without a memory it starts one from the view, and plays
 * from the view alone.
 */
import type { Random } from "../kit/random";
import {
  isEight,
  isJoker,
  isQueen,
  isSkipCard,
  rankOf,
  skipPenalty,
  SKIP_CARDS,
  SUITS,
  suitOf,
  type Card,
  type NaturalCard,
} from "./cards";
import { commonestSuit, drawOrPass, identityOf, immediateDamage, playsIn, type PlayMove, type Policy } from "./bots";
import {
  applyMove,
  covers,
  legalMovesInView,
  viewFor,
  withoutOne,
  type FaceUp,
  type FoolMove,
  type FoolState,
  type FoolView,
} from "./rules";
import { findWinningSequence } from "./search";
import { chanceCannotCover, remember, startMemory, unseenPool, type FoolMemory } from "./ai-memory";
import { bestByPlayouts, DEFAULT_BUDGET, type PlayoutBudget } from "./ai-playouts";

/** The weights of the end-of-turn evaluation (games of three or more players), in tenths of a card. */
export interface AiWeights {
  /** Each card in a hand. */
  readonly card: number;
  /** Each joker kept: it answers any card later, and completes forced wins. */
  readonly joker: number;
  /** Each skip card kept for a closing run. */
  readonly skipCard: number;
  /** Each card that can answer a card of the face-up suit or value (what the opponent will likely lay). */
  readonly follow: number;
  /** Each distinct suit held. */
  readonly suit: number;
  /** Each card an opponent is expected to draw to cover an 8 (they must cover it, drawing as long as they cannot). */
  readonly eight: number;
  /** A hand with at most one card that is not a skip card or joker: one step from a forced win. */
  readonly setup: number;
  /** What a draw is expected to cost beyond the card taken. */
  readonly draw: number;
  /** Times the chance that the opponent holds nothing to cover the card left on top. */
  readonly stuck: number;
  /** Times the immediate damage of the card laid (see immediateDamage). */
  readonly damage: number;
}

export const DEFAULT_WEIGHTS: AiWeights = {
  card: 10,
  joker: 6,
  skipCard: 2,
  follow: 1.5,
  suit: 1,
  eight: 10,
  setup: 4,
  draw: 3,
  stuck: 20,
  damage: 0,
};

/** How many cards of its own turn the AI looks ahead beyond the one it is choosing. */
const LOOKAHEAD = 3;
const WIN = 1e6;

/** A Policy that also takes the seat's memory of the game (see ai-memory.ts); without one it plays from the view alone. */
export type AiPolicy = (view: FoolView, random: Random, memory?: FoolMemory) => FoolMove;

export function makeAiPolicy(weights: AiWeights = DEFAULT_WEIGHTS, budget: PlayoutBudget = DEFAULT_BUDGET): AiPolicy {
  return (view: FoolView, _random: Random, memory?: FoolMemory) => chooseMove(view, weights, budget, memory);
}

/** The AI. Its moves depend only on the view and the memory: the Random it is given is not used. */
export const aiPolicy: AiPolicy = makeAiPolicy();

/**
 * The strong level's budget: sixteen times the worlds, play-outs twice as long, 32 times the moves per decision.
 * Against greedy on the same 1,000 deals × 2: 32 worlds of 12 moves 68.0%, 64 of 16 70.5%, 64 of 24
 * 69.1%, 128 of 16 71.6%; more worlds help, longer play-outs past 16 moves do not.
 */
export const STRONG_BUDGET: PlayoutBudget = { worlds: 128, horizon: 16, maxMoves: 32768 };

/** The AI at the strong level (aiLevel "strong"): the same search with a larger budget. */
export const strongAiPolicy: AiPolicy = makeAiPolicy(DEFAULT_WEIGHTS, STRONG_BUDGET);

/** Where a room's AI decides: the server's pool of worker threads (server/ai/fool-ai-pool.ts) implements this. */
export interface FoolAiDecider {
  decide(view: FoolView, memory: FoolMemory, level?: FoolAiStrength): Promise<FoolMove>;
  /** Starts a thread ahead of the first decision, if none runs (a start takes up to seconds on a busy machine). */
  warm?(): void;
}

/** The levels the AI itself plays at (aiLevel "easy" is the greedy bot, not the AI). */
export type FoolAiStrength = "normal" | "strong";

function chooseMove(view: FoolView, weights: AiWeights, budget: PlayoutBudget, given?: FoolMemory): FoolMove {
  const look = firstLook(view, given);
  if (look.kind === "playouts") return bestByPlayouts(view, look.memory, look.candidates, budget);
  if (look.kind === "lookahead") return lookaheadMove(view, weights, look.memory, look.moves, look.plays);
  return look;
}

/**
 * The AI's move when it needs no weighing — no card to lay (it draws or passes), a forced win found by the exact
 * search, or a single candidate — else null. These take microseconds, where weighing plays out sampled worlds, so
 * the server makes them on its event loop and sends only the others to its threads: waking a thread costs more.
 */
export function immediateMove(view: FoolView, memory?: FoolMemory): FoolMove | null {
  const look = firstLook(view, memory);
  return look.kind === "playouts" || look.kind === "lookahead" ? null : look;
}

/** One move of a game with the AI: the state before it, the AI seat's memory then, the move, and the state after. */
export interface AiGameMove {
  readonly state: FoolState;
  readonly memory: FoolMemory;
  readonly move: FoolMove;
  readonly after: FoolState;
}

/**
 * A game with the AI at `aiSeat`, remembering every move's events as a room does, and `opponent` in the other
 * seats, move by move until it ends or `maxMoves` moves were made. `decide` stands in for the AI (to time it).
 */
export function* aiGame(
  start: FoolState,
  aiSeat: number,
  opponent: Policy,
  random: Random,
  maxMoves: number,
  decide: AiPolicy = aiPolicy,
): Generator<AiGameMove> {
  let state = start;
  let memory = startMemory(viewFor(state, aiSeat));
  while (state.phase !== "over" && state.moveCount < maxMoves) {
    const view = viewFor(state, state.turn);
    const move = state.turn === aiSeat ? decide(view, random, memory) : opponent(view, random);
    const result = applyMove(state, state.turn, move);
    if (!result.ok) throw new Error(`seat ${state.turn} chose an illegal move: ${result.reason}`);
    yield { state, memory, move, after: result.state };
    state = result.state;
    memory = remember(memory, result.events);
  }
}

/** What the first look at a position finds: the move itself, or the weighing that must choose it. */
type FirstLook =
  | FoolMove
  | { kind: "playouts"; memory: FoolMemory; candidates: FoolMove[] }
  | { kind: "lookahead"; memory: FoolMemory; moves: readonly FoolMove[]; plays: readonly PlayMove[] };

function firstLook(view: FoolView, given?: FoolMemory): FirstLook {
  const moves = legalMovesInView(view);
  const plays = playsIn(moves);
  if (plays.length === 0) return drawOrPass(moves);
  const memory = given !== undefined && given.seat === view.seat ? given : startMemory(view);
  if (opponentCounts(view).length === 1 && view.handCounts.length === 2) {
    const forced = findWinningSequence(view.hand, view.faceUp);
    if (forced !== null) return moveOf(forced[0]);
    const candidates = playoutCandidates(plays, moves);
    return candidates.length === 1 ? candidates[0] : { kind: "playouts", memory, candidates };
  }
  return { kind: "lookahead", memory, moves, plays };
}

/** How many cards each opponent still in the game holds. */
function opponentCounts(view: FoolView): number[] {
  return view.handCounts.filter((_, seat) => seat !== view.seat && !view.finished.includes(seat));
}

/**
 * With more players: the end-of-turn evaluation below, looking three cards ahead through its own turn, with the
 * chance that the next player cannot cover estimated from what this seat remembers of their cards.
 */
function lookaheadMove(
  view: FoolView,
  weights: AiWeights,
  memory: FoolMemory,
  moves: readonly FoolMove[],
  plays: readonly PlayMove[],
): FoolMove {
  const opponents = opponentCounts(view);
  const headsUp = opponents.length === 1;
  const outlook = rememberedOutlook(memory, view.hand, nextToMove(view));
  const look = new TurnLookahead(weights, headsUp, Math.min(...opponents), outlook);
  let best: { move: FoolMove; value: number } = { move: drawOrPass(moves), value: -Infinity };
  if (moves.some((move) => move.kind !== "play")) {
    best.value = look.endOfTurn(view.hand, view.faceUp, 0, false) - weights.draw * 10;
  }
  for (const move of candidatePlays(plays)) {
    const value = look.afterPlay(view.hand, move, 0, LOOKAHEAD) + weights.damage * immediateDamage(identityOf(move));
    if (value > best.value) best = { move, value };
  }
  return best.move;
}

function moveOf(laid: FaceUp): FoolMove {
  const base = isJoker(laid.card)
    ? { kind: "play" as const, card: laid.card, as: laid.as }
    : { kind: "play" as const, card: laid.card };
  return laid.namedSuit === null ? base : { ...base, namedSuit: laid.namedSuit };
}

/**
 * The moves worth playing out: the candidate plays (below) and drawing or passing when allowed. A joker named as a
 * Queen counts once per named suit: which Queen it stands for changes nothing.
 */
function playoutCandidates(plays: readonly PlayMove[], moves: readonly FoolMove[]): FoolMove[] {
  const seen = new Set<string>();
  const candidates: FoolMove[] = candidatePlays(plays).filter((move) => {
    const identity = identityOf(move);
    const effect =
      isJoker(move.card) && isQueen(identity) ? `*Q${move.namedSuit}` : `${move.card}${identity}${move.namedSuit}`;
    if (seen.has(effect)) return false;
    seen.add(effect);
    return true;
  });
  if (moves.some((move) => move.kind !== "play")) candidates.push(drawOrPass(moves));
  return candidates;
}

/**
 * The plays worth weighing. A joker is kept while a natural card covers (measured: spending it early, even as
 * the King of spades, loses games); when only jokers cover, it is weighed under the names that do something —
 * a skip card, an 8, or a Queen naming each suit — against drawing instead.
 */
function candidatePlays(plays: readonly PlayMove[]): PlayMove[] {
  const naturals = plays.filter((move) => !isJoker(move.card));
  return naturals.length > 0 ? naturals : plays.filter((move) => isSpecial(identityOf(move)));
}

function isSpecial(card: NaturalCard): boolean {
  return isSkipCard(card) || isEight(card) || isQueen(card);
}

class TurnLookahead {
  constructor(
    private readonly weights: AiWeights,
    private readonly headsUp: boolean,
    private readonly opponentCards: number,
    private readonly outlook: Outlook,
  ) {}

  /** The value of laying `move` from `hand`, with `penalties` cards already given to the opponent this turn. */
  afterPlay(hand: readonly Card[], move: PlayMove, penalties: number, depth: number): number {
    const rest = withoutOne(hand, move.card);
    if (rest.length === 0) return WIN;
    const laid: FaceUp = { card: move.card, as: identityOf(move), namedSuit: move.namedSuit ?? null };
    const penalty = skipPenalty(laid.as);
    if (penalty === null || !this.headsUp) return this.endOfTurn(rest, laid, penalties + (penalty ?? 0), true);
    return this.continueTurn(rest, laid, penalties + penalty, depth);
  }

  /** After a skip card the turn comes back: cover it again, or draw if nothing natural covers. */
  private continueTurn(hand: readonly Card[], top: FaceUp, penalties: number, depth: number): number {
    const natural = hand.some((card) => !isJoker(card) && covers(top, card));
    let best = natural ? -Infinity : this.endOfTurn(hand, top, penalties, false) - this.weights.draw * 10;
    if (depth === 0) return Math.max(best, this.endOfTurn(hand, top, penalties, false));
    for (const move of chainPlays(hand, top)) best = Math.max(best, this.afterPlay(hand, move, penalties, depth - 1));
    return best;
  }

  /** How good the position looks when the opponent is about to move (or this player is about to draw). */
  endOfTurn(hand: readonly Card[], top: FaceUp, penalties: number, laidByMe: boolean): number {
    const w = this.weights;
    const naturals = hand.filter((card): card is NaturalCard => !isJoker(card));
    const jokers = hand.length - naturals.length;
    const skips = naturals.filter(isSkipCard).length;
    const followSuit = top.namedSuit ?? suitOf(top.as);
    const follow = naturals.filter((card) => suitOf(card) === followSuit || rankOf(card) === rankOf(top.as)).length;
    const suits = SUITS.filter((suit) => naturals.some((card) => suitOf(card) === suit)).length;
    const setup = naturals.length - skips <= 1 ? w.setup : 0;
    const { stuckChance, coverFraction } = laidByMe ? this.outlook(top) : { stuckChance: 0, coverFraction: 1 };
    // Under an 8 a stuck opponent draws until they can cover: about 1 / coverFraction cards.
    const eight = isEight(top.as) ? (w.eight * stuckChance) / coverFraction : 0;
    const stuck = w.stuck * stuckChance;
    return (
      stuck +
      w.card * (this.opponentCards + penalties - hand.length) +
      w.joker * jokers +
      w.skipCard * skips +
      w.follow * follow +
      w.suit * suits +
      setup +
      eight
    );
  }
}

/** What the next player holds against a card left on top: the chance they cannot cover it, and how often a draw does. */
type Outlook = (top: FaceUp) => { stuckChance: number; coverFraction: number };

/** The seat that must answer the card this seat lays. */
function nextToMove(view: FoolView): number {
  for (let step = 1; step < view.handCounts.length; step++) {
    const seat = (view.seat + step) % view.handCounts.length;
    if (!view.finished.includes(seat)) return seat;
  }
  return view.seat;
}

/** The outlook from what this seat remembers of the next player's cards and of the unseen cards. */
function rememberedOutlook(memory: FoolMemory, hand: readonly Card[], next: number): Outlook {
  const pool = unseenPool(memory, hand);
  const unseen = [...pool.values()].reduce((sum, count) => sum + count, 0);
  return (top) => {
    let covering = 0;
    for (const [card, count] of pool) if (isJoker(card) || covers(top, card)) covering += count;
    return {
      stuckChance: chanceCannotCover(memory, pool, next, top),
      coverFraction: Math.max(0.02, covering / Math.max(1, unseen)),
    };
  };
}

/** Inside a run of skip cards: each natural card that covers, and a joker named as each covering skip card. */
function chainPlays(hand: readonly Card[], top: FaceUp): PlayMove[] {
  const plays: PlayMove[] = [];
  for (const card of new Set(hand)) {
    if (isJoker(card)) {
      for (const as of SKIP_CARDS) if (covers(top, as)) plays.push({ kind: "play", card, as });
    } else if (covers(top, card)) {
      plays.push(
        isQueen(card)
          ? { kind: "play", card, namedSuit: commonestSuit(withoutOne(hand, card)) }
          : { kind: "play", card },
      );
    }
  }
  return plays;
}
