/**
 * The rules of "Japanese Fool" (Funny Card Game, NEERC 2001 Northern Subregion) as plain data and functions.
 * A state never changes: applyMove returns a new one with the events a room would broadcast. Every choice the
 * statement leaves open is documented in docs/fool-rules.md.
 */
import { shuffled, type Random } from "../kit/random";
import {
  fullDeck,
  isCard,
  isEight,
  isJoker,
  isNaturalCard,
  isQueen,
  isSuit,
  NATURAL_CARDS,
  rankOf,
  skipPenalty,
  suitOf,
  SUITS,
  type Card,
  type NaturalCard,
  type Suit,
} from "./cards";

export const HAND_SIZE = 5;
export const MIN_PLAYERS = 2;
/** 10 hands of five and the face-up card are 51 of the 54 cards. */
export const MAX_PLAYERS = 10;

/** A card on the table as the rules see it: what it counts as, and the suit named with a Queen. */
export interface FaceUp {
  /** The physical card: a natural card or a joker. */
  readonly card: Card;
  /** What it counts as: the card itself, or the card its joker was named. */
  readonly as: NaturalCard;
  /** The suit its player named, when it counts as a Queen; null otherwise. */
  readonly namedSuit: Suit | null;
}

/**
 * cover: an ordinary turn, nothing drawn yet. afterDraw: the player drew because they could not cover.
 * coverEight: an 8 was laid on this player, who must cover it, drawing as long as they cannot.
 */
export type Phase = "cover" | "afterDraw" | "coverEight" | "over";

export interface FoolState {
  readonly players: number;
  readonly dealer: number;
  /** Seat k's hand. Seats sit clockwise: seat k's left neighbour is seat k+1. */
  readonly hands: readonly (readonly Card[])[];
  /** The deck, top card first. Laid cards go to its bottom at once (the deck is looped). */
  readonly deck: readonly Card[];
  readonly faceUp: FaceUp;
  readonly turn: number;
  readonly phase: Phase;
  /** Seats that emptied their hands, in the order they did. */
  readonly finished: readonly number[];
  /** The last player left, once the game is over. */
  readonly fool: number | null;
  /** How many moves have been applied: a room or a benchmark can cap a game with it. */
  readonly moveCount: number;
}

export type FoolMove =
  /** Lay a card. A joker names what it stands for (`as`); a Queen, or a joker named as one, names a suit. */
  | { readonly kind: "play"; readonly card: Card; readonly as?: NaturalCard; readonly namedSuit?: Suit }
  /** Take the top card of the deck: only when no natural card in hand covers. */
  | { readonly kind: "draw" }
  /** End the turn without laying: only when no natural card covers and drawing is over or impossible. */
  | { readonly kind: "pass" };

export type FoolEvent =
  | { readonly type: "played"; readonly seat: number; readonly faceUp: FaceUp }
  | { readonly type: "drew"; readonly seat: number; readonly count: number }
  | { readonly type: "penalised"; readonly seat: number; readonly drew: number }
  | { readonly type: "passed"; readonly seat: number }
  | { readonly type: "won"; readonly seat: number; readonly place: number }
  | { readonly type: "fool"; readonly seat: number };

export type MoveResult =
  | { readonly ok: true; readonly state: FoolState; readonly events: readonly FoolEvent[] }
  | { readonly ok: false; readonly reason: string };

/** What seat `seat` may see. */
export interface FoolView {
  readonly seat: number;
  readonly hand: readonly Card[];
  readonly handCounts: readonly number[];
  readonly faceUp: FaceUp;
  readonly deckCount: number;
  readonly turn: number;
  readonly phase: Phase;
  readonly finished: readonly number[];
  readonly fool: number | null;
  readonly canDraw: boolean;
  readonly canPass: boolean;
}

// ---------------------------------------------------------------- covering

/** Whether a card counting as `identity` may be laid on `faceUp`. After a Queen only its named suit counts. */
export function covers(faceUp: FaceUp, identity: NaturalCard): boolean {
  if (isQueen(faceUp.as)) return suitOf(identity) === faceUp.namedSuit;
  return suitOf(identity) === suitOf(faceUp.as) || rankOf(identity) === rankOf(faceUp.as);
}

/** What may be laid on `faceUp`, in words: "a spade or a 9", "a spade (named with the Queen)". */
export function describeRequirement(faceUp: FaceUp): string {
  if (isQueen(faceUp.as)) return `a card of the named suit ${faceUp.namedSuit}`;
  return `a card of suit ${suitOf(faceUp.as)} or value ${rankOf(faceUp.as)}`;
}

/** How a laid card is written in the statement's format: "7S", "QDS" (Queen and named suit), "*6D" (joker as 6D). */
export function formatLaid(laid: FaceUp): string {
  return (isJoker(laid.card) ? "*" : "") + laid.as + (laid.namedSuit ?? "");
}

/** The face-up record of a natural card laid as itself. */
export function laidAsItself(card: NaturalCard, namedSuit: Suit | null = null): FaceUp {
  return { card, as: card, namedSuit: isQueen(card) ? (namedSuit ?? suitOf(card)) : null };
}

export function hasNaturalCover(hand: readonly Card[], faceUp: FaceUp): boolean {
  return hand.some((card) => !isJoker(card) && covers(faceUp, card));
}

/** A joker can always be named as a card that covers, so holding one means a play is possible. */
function hasAnyCover(hand: readonly Card[], faceUp: FaceUp): boolean {
  return hand.some(isJoker) || hasNaturalCover(hand, faceUp);
}

// ---------------------------------------------------------------- dealing

/**
 * Shuffles, deals five cards to each player clockwise from the dealer's left neighbour and turns up the next
 * card as the dealer's first move on that neighbour (its 6, 7, Ace, King of spades or 8 takes effect on them).
 */
export function newGame(random: Random, players = MIN_PLAYERS, dealer = players - 1): FoolState {
  if (!Number.isInteger(players) || players < MIN_PLAYERS || players > MAX_PLAYERS) {
    throw new RangeError(`a game of Fool takes ${MIN_PLAYERS} to ${MAX_PLAYERS} players, not ${players}`);
  }
  if (!Number.isInteger(dealer) || dealer < 0 || dealer >= players) throw new RangeError(`no seat ${dealer}`);
  const deck = shuffled(fullDeck(), random);
  const hands: Card[][] = Array.from({ length: players }, () => []);
  for (let round = 0; round < HAND_SIZE; round++) {
    for (let i = 1; i <= players; i++) hands[(dealer + i) % players].push(deck.shift() as Card);
  }
  const faceUp = turnUpFirstCard(deck);
  const dealt: FoolState = {
    players,
    dealer,
    hands,
    deck,
    faceUp,
    turn: dealer,
    phase: "cover",
    finished: [],
    fool: null,
    moveCount: 0,
  };
  return passTurn(dealt, dealer, true, []).state;
}

/**
 * A position in the middle of a game, for puzzles and tests: the hands, the face-up card and the deck below it
 * (top first; the face-up card is put at its bottom), with `turn` to move in an ordinary turn.
 */
export function positionOf(
  hands: readonly (readonly Card[])[],
  faceUp: FaceUp,
  deck: readonly Card[],
  turn = 0,
): FoolState {
  return {
    players: hands.length,
    dealer: (turn + hands.length - 1) % hands.length,
    hands,
    deck: [...deck, faceUp.card],
    faceUp,
    turn,
    phase: "cover",
    finished: [],
    fool: null,
    moveCount: 0,
  };
}

/**
 * Turns up the first card and puts it at the bottom of the (looped) deck. A joker turned up goes to the
 * bottom unnamed and the next card is turned instead; a Queen turned up asks for its own suit.
 */
function turnUpFirstCard(deck: Card[]): FaceUp {
  for (;;) {
    const card = deck.shift() as Card;
    deck.push(card);
    if (!isJoker(card)) return laidAsItself(card);
  }
}

// ---------------------------------------------------------------- moves

export function legalMoves(state: FoolState, seat: number): FoolMove[] {
  return legalMovesInView(viewFor(state, seat));
}

/** The same moves from what the seat can see, so that a policy never needs the hidden hands. */
export function legalMovesInView(view: FoolView): FoolMove[] {
  if (view.phase === "over" || view.seat !== view.turn) return [];
  const moves: FoolMove[] = [];
  for (const card of new Set(view.hand)) moves.push(...playsOf(card, view.faceUp));
  if (view.canDraw) moves.push({ kind: "draw" });
  if (view.canPass) moves.push({ kind: "pass" });
  return moves;
}

/** Every legal way to lay `card` on `faceUp`: each covering name for a joker, each named suit for a Queen. */
export function playsOf(card: Card, faceUp: FaceUp): FoolMove[] {
  const identities = isJoker(card)
    ? NATURAL_CARDS.filter((as) => covers(faceUp, as))
    : covers(faceUp, card)
      ? [card]
      : [];
  return identities.flatMap((as) => {
    const named = isQueen(as) ? SUITS.map((namedSuit) => ({ namedSuit })) : [{}];
    return named.map((suit): FoolMove => ({ kind: "play", card, ...(isJoker(card) ? { as } : {}), ...suit }));
  });
}

function canDraw(state: FoolState, seat: number): boolean {
  return state.phase !== "afterDraw" && state.deck.length > 0 && !hasNaturalCover(state.hands[seat], state.faceUp);
}

function canPass(state: FoolState, seat: number): boolean {
  if (hasNaturalCover(state.hands[seat], state.faceUp)) return false;
  return state.phase === "afterDraw" || state.deck.length === 0;
}

export function applyMove(state: FoolState, seat: number, move: FoolMove): MoveResult {
  if (state.phase === "over") return refuse("The game is over.");
  if (!Number.isInteger(seat) || seat < 0 || seat >= state.players) return refuse(`There is no seat ${seat}.`);
  if (seat !== state.turn) return refuse("It is not your turn.");
  const counted = { ...state, moveCount: state.moveCount + 1 };
  switch (move.kind) {
    case "play":
      return play(counted, seat, move);
    case "draw":
      return draw(counted, seat);
    case "pass":
      if (!canPass(state, seat)) return refuse(passProblem(state, seat));
      return accept(passTurn(counted, seat, false, [{ type: "passed", seat }]));
    default:
      return refuse("Unknown move: play a card, draw or pass.");
  }
}

function refuse(reason: string): MoveResult {
  return { ok: false, reason };
}

function accept(result: { state: FoolState; events: FoolEvent[] }): MoveResult {
  return { ok: true, state: result.state, events: result.events };
}

/** The face-up record of a play, or the reason it is not allowed. */
function laidOrProblem(state: FoolState, seat: number, move: Extract<FoolMove, { kind: "play" }>): FaceUp | string {
  const { card, as, namedSuit } = move;
  if (typeof card !== "string" || !isCard(card)) return `"${String(card)}" is not a card.`;
  if (!state.hands[seat].includes(card)) return `You do not hold ${card}.`;
  if (isJoker(card) && (typeof as !== "string" || !isNaturalCard(as))) {
    return "Say which card your joker stands for (a value and a suit, such as 6D).";
  }
  if (!isJoker(card) && as !== undefined && as !== card) return "Only a joker can stand for another card.";
  const identity = isJoker(card) ? (as as NaturalCard) : card;
  if (!covers(state.faceUp, identity)) {
    return `${identity} does not cover ${formatLaid(state.faceUp)}: lay ${describeRequirement(state.faceUp)}.`;
  }
  if (isQueen(identity) && (typeof namedSuit !== "string" || !isSuit(namedSuit))) {
    return "Name the suit that must follow your Queen (S, C, D or H).";
  }
  if (!isQueen(identity) && namedSuit !== undefined) return "Only a Queen names a suit.";
  return { card, as: identity, namedSuit: isQueen(identity) ? (namedSuit as Suit) : null };
}

function play(state: FoolState, seat: number, move: Extract<FoolMove, { kind: "play" }>): MoveResult {
  const laid = laidOrProblem(state, seat, move);
  if (typeof laid === "string") return refuse(laid);
  const hands = state.hands.map((hand, k) => (k === seat ? withoutOne(hand, laid.card) : hand));
  const events: FoolEvent[] = [{ type: "played", seat, faceUp: laid }];
  const after: FoolState = { ...state, hands, deck: [...state.deck, laid.card], faceUp: laid };
  if (hands[seat].length > 0) return accept(passTurn(after, seat, true, events));
  return accept(finish(after, seat, events));
}

/** The hand without one copy of `card`. */
export function withoutOne(hand: readonly Card[], card: Card): Card[] {
  const rest = hand.slice();
  rest.splice(rest.indexOf(card), 1);
  return rest;
}

/** The seat leaves the game as a winner; when one player is left they are the Fool and the game is over. */
function finish(state: FoolState, seat: number, events: FoolEvent[]): { state: FoolState; events: FoolEvent[] } {
  const finished = [...state.finished, seat];
  events.push({ type: "won", seat, place: finished.length });
  const left = activeSeats({ ...state, finished });
  if (left.length > 1) return passTurn({ ...state, finished }, seat, true, events);
  events.push({ type: "fool", seat: left[0] });
  return { state: { ...state, finished, fool: left[0], phase: "over", turn: left[0] }, events };
}

function draw(state: FoolState, seat: number): MoveResult {
  if (!canDraw(state, seat)) return refuse(drawProblem(state, seat));
  const [card, ...deck] = state.deck;
  const hands = state.hands.map((hand, k) => (k === seat ? [...hand, card] : hand));
  const phase: Phase = state.phase === "coverEight" ? "coverEight" : "afterDraw";
  const after: FoolState = { ...state, hands, deck, phase };
  const events: FoolEvent[] = [{ type: "drew", seat, count: 1 }];
  const stuck = !hasAnyCover(hands[seat], state.faceUp) && (phase === "afterDraw" || deck.length === 0);
  if (!stuck) return accept({ state: after, events });
  events.push({ type: "passed", seat });
  return accept(passTurn(after, seat, false, events));
}

function drawProblem(state: FoolState, seat: number): string {
  if (state.phase === "afterDraw") return "You have already drawn this turn: cover or pass.";
  if (hasNaturalCover(state.hands[seat], state.faceUp)) {
    return `You can cover ${formatLaid(state.faceUp)}, so you must: lay ${describeRequirement(state.faceUp)}.`;
  }
  return "The deck is empty: pass instead.";
}

function passProblem(state: FoolState, seat: number): string {
  if (hasNaturalCover(state.hands[seat], state.faceUp)) {
    return `You can cover ${formatLaid(state.faceUp)}, so you must: lay ${describeRequirement(state.faceUp)}.`;
  }
  if (state.phase === "coverEight") return "An 8 must be covered: draw until you can.";
  return "Draw a card first; you may pass only if it does not help.";
}

// ---------------------------------------------------------------- turns

export function activeSeats(state: Pick<FoolState, "players" | "finished">): number[] {
  return Array.from({ length: state.players }, (_, seat) => seat).filter((seat) => !state.finished.includes(seat));
}

function nextActiveSeat(state: FoolState, from: number): number {
  for (let step = 1; step <= state.players; step++) {
    const seat = (from + step) % state.players;
    if (!state.finished.includes(seat)) return seat;
  }
  return from;
}

/**
 * Gives the turn to the next player in the game. When the face-up card was just laid (`freshlyLaid`) its effect
 * falls on that player once: a 6, 7, Ace or King of spades makes them draw and skip; an 8 makes them cover it.
 */
function passTurn(
  state: FoolState,
  from: number,
  freshlyLaid: boolean,
  events: FoolEvent[],
): { state: FoolState; events: FoolEvent[] } {
  const next = nextActiveSeat(state, from);
  const penalty = freshlyLaid ? skipPenalty(state.faceUp.as) : null;
  if (penalty === null) {
    const phase: Phase = freshlyLaid && isEight(state.faceUp.as) ? "coverEight" : "cover";
    return { state: { ...state, turn: next, phase }, events };
  }
  const drawn = state.deck.slice(0, penalty);
  const hands = state.hands.map((hand, k) => (k === next ? [...hand, ...drawn] : hand));
  events.push({ type: "penalised", seat: next, drew: drawn.length });
  const skipped: FoolState = { ...state, hands, deck: state.deck.slice(drawn.length) };
  return { state: { ...skipped, turn: nextActiveSeat(skipped, next), phase: "cover" }, events };
}

// ---------------------------------------------------------------- views

export function viewFor(state: FoolState, seat: number): FoolView {
  const myTurn = state.phase !== "over" && state.turn === seat;
  return {
    seat,
    hand: state.hands[seat].slice(),
    handCounts: state.hands.map((hand) => hand.length),
    faceUp: state.faceUp,
    deckCount: state.deck.length,
    turn: state.turn,
    phase: state.phase,
    finished: state.finished.slice(),
    fool: state.fool,
    canDraw: myTurn && canDraw(state, seat),
    canPass: myTurn && canPass(state, seat),
  };
}
