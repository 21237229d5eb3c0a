/**
 * The Even-Steven dealer as pure functions: the original shuffle, the judge and one game's progress.
 * Shared by bin/dealer, the `evensteven` room and the tests; no I/O, no clocks.
 */
import { cardValue, covers, freshDeck, isCard, type Card } from "./cards";

export const MIN_HAND = 1;
export const MAX_HAND = 13;
export const MIN_SEED = 1;
export const MAX_SEED = 2147483646;

const MODULUS = 2147483647; // 2^31 - 1
const MULTIPLIER = 16807;

/** The original dealer's generator: Park–Miller "minimal standard", the seed being its first state. */
export function parkMiller(seed: number): () => number {
  let state = seed;
  return () => {
    state = (MULTIPLIER * state) % MODULUS; // below 2^53, so exact in floating point
    return state;
  };
}

/** The deck exactly as the original dealer shuffles it for this seed (see docs/evensteven.md). */
export function shuffledDeck(seed: number): Card[] {
  const next = parkMiller(seed);
  const deck = freshDeck();
  for (let i = 0; i < deck.length - 1; i++) {
    const j = i + (next() % (deck.length - i));
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** A reason why `N seed` cannot start a game, or null when it can. */
export function gameParametersProblem(n: number, seed: number): string | null {
  if (!Number.isInteger(n) || n < MIN_HAND || n > MAX_HAND)
    return `N must be a whole number from ${MIN_HAND} to ${MAX_HAND}`;
  if (!Number.isInteger(seed) || seed < MIN_SEED || seed > MAX_SEED) {
    return `seed must be a whole number from ${MIN_SEED} to ${MAX_SEED}`;
  }
  return null;
}

/**
 * Whether some order of play covers every dealt card. Matching the hand and the dealt cards, both sorted, pairwise
 * is the best assignment (a larger card never helps more on a smaller dealt card), so this is exact.
 */
export function canWin(hand: readonly Card[], dealt: readonly Card[]): boolean {
  const byValue = (cards: readonly Card[]) => cards.map(cardValue).sort((a, b) => a - b);
  const handValues = byValue(hand);
  const dealtValues = byValue(dealt);
  return dealtValues.length <= handValues.length && dealtValues.every((value, i) => handValues[i] >= value);
}

export type Verdict = "WIN" | "LOSE NECESSARILY" | "LOSE UNNECESSARILY";

/** The line the original dealer prints (and sends to the player) for a verdict. */
export function verdictLine(verdict: Verdict): string {
  return `YOU ${verdict}`;
}

export interface Game {
  readonly n: number;
  readonly seed: number;
  /** The whole shuffled deck; the hand is its first n cards, the dealt cards follow. */
  readonly deck: readonly Card[];
  /** The cards still in the player's hand, in the order they were dealt. */
  readonly hand: readonly Card[];
  /** The player's cards so far, one per dealt card. */
  readonly played: readonly Card[];
  readonly verdict: Verdict | null;
}

export function newGame(n: number, seed: number): Game {
  const problem = gameParametersProblem(n, seed);
  if (problem) throw new RangeError(problem);
  const deck = shuffledDeck(seed);
  return { n, seed, deck, hand: deck.slice(0, n), played: [], verdict: null };
}

export function initialHand(game: Game): Card[] {
  return game.deck.slice(0, game.n);
}

/** The cards the player must cover, in order: the n cards after the hand. */
export function cardsToCover(game: Game): Card[] {
  return game.deck.slice(game.n, 2 * game.n);
}

/** The card the player must answer now, or null when the game is over. */
export function cardToCover(game: Game): Card | null {
  return game.verdict === null ? game.deck[game.n + game.played.length] : null;
}

export type PlayFault =
  | { kind: "not-a-card"; text: string }
  | { kind: "not-in-hand"; card: Card }
  | { kind: "played-twice"; card: Card }
  | { kind: "game-over" };

export type PlayResult = { ok: true; game: Game; dealt: Card; covered: boolean } | { ok: false; fault: PlayFault };

/** Plays one card against the card on the table; a fault leaves the game as it was. */
export function playCard(game: Game, text: string): PlayResult {
  const dealt = cardToCover(game);
  if (dealt === null) return { ok: false, fault: { kind: "game-over" } };
  if (!isCard(text)) return { ok: false, fault: { kind: "not-a-card", text } };
  if (!game.hand.includes(text)) {
    const kind = game.played.includes(text) ? "played-twice" : "not-in-hand";
    return { ok: false, fault: { kind, card: text } };
  }
  const covered = covers(text, dealt);
  const played = [...game.played, text];
  const hand = game.hand.filter((card) => card !== text);
  const verdict = covered ? (hand.length === 0 ? "WIN" : null) : lossVerdict(game);
  return { ok: true, game: { ...game, hand, played, verdict }, dealt, covered };
}

function lossVerdict(game: Game): Verdict {
  return canWin(initialHand(game), cardsToCover(game)) ? "LOSE UNNECESSARILY" : "LOSE NECESSARILY";
}

/** A sentence naming a fault, for error messages. */
export function describeFault(fault: PlayFault): string {
  switch (fault.kind) {
    case "not-a-card":
      return `"${fault.text}" is not a card (expected a value 2-10, J, Q, K or A followed by a suit c, d, h or s)`;
    case "not-in-hand":
      return `${fault.card} is not in the hand`;
    case "played-twice":
      return `${fault.card} was already played in this game`;
    case "game-over":
      return "the game is over; no card is waiting to be covered";
  }
}
