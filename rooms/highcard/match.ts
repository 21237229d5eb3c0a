/**
 * High Card, the kit's example game (docs/architecture.md follows it as the recipe for a new game). Two seats; the
 * dealer deals three cards to each, one at a time at the table's pace; then three tricks: the leader plays a card,
 * the other answers, the higher rank takes the trick (a tie goes to the leader), who leads next. Most tricks wins.
 * A pure match engine (rooms/kit/engine.ts): the deck comes from the seed alone.
 */
import { DEALER, refuse, type Actor, type GameEvent, type MatchEngine, type Outcome } from "../kit/engine";
import { seededRandom, shuffled } from "../kit/random";
import type { HighCardErrorCode, HighCardPositionView } from "./protocol";

export const SEATS = 2;
export const HAND_SIZE = 3;
const RANKS = "23456789TJQKA";
const DECK = [...RANKS].flatMap((rank) => ["C", "D", "H", "S"].map((suit) => rank + suit));

export interface HighCardOptions {
  /** The seat that leads the first trick. */
  readonly leader: number;
}

export interface HighCardMatch {
  readonly seed: number;
  /** The cards still to deal, next first. */
  readonly stock: readonly string[];
  readonly hands: readonly (readonly string[])[];
  readonly leader: number;
  /** The cards played to the trick under way, the leader's first. */
  readonly trick: readonly string[];
  readonly tricksWon: readonly number[];
}

export type HighCardAction = { readonly type: "deal" } | { readonly type: "play"; readonly card: string };

export type HighCardEvent =
  | GameEvent<"dealt", { seat: number; card: string }>
  | GameEvent<"dealtTo", { seat: number }>
  | GameEvent<"played", { seat: number; card: string }>
  | GameEvent<"trick", { cards: string[]; winner: number }>
  | GameEvent<"over", HighCardResult>;

export interface HighCardResult {
  /** The seat with more tricks. */
  winner: number;
  tricksWon: number[];
  seed: number;
}

const rank = (card: string) => RANKS.indexOf(card[0]!);
const dealtCount = (match: HighCardMatch) => SEATS * HAND_SIZE - match.stock.length;
const isOver = (match: HighCardMatch) => match.tricksWon[0]! + match.tricksWon[1]! === HAND_SIZE;

/** The seat to play now, or undefined while dealing and once it is over. */
function turnOf(match: HighCardMatch): number | undefined {
  if (match.stock.length > 0 || isOver(match)) return undefined;
  return (match.leader + match.trick.length) % SEATS;
}

function resultOf(match: HighCardMatch): HighCardResult | undefined {
  if (!isOver(match)) return undefined;
  return {
    winner: match.tricksWon[0]! > match.tricksWon[1]! ? 0 : 1,
    tricksWon: [...match.tricksWon],
    seed: match.seed,
  };
}

function deal(match: HighCardMatch): Outcome<HighCardMatch, HighCardEvent, HighCardErrorCode> {
  if (match.stock.length === 0) return refuse("WRONG_PHASE", "every card is dealt");
  const seat = dealtCount(match) % SEATS;
  const card = match.stock[0]!;
  const hands = match.hands.map((hand, index) => (index === seat ? [...hand, card] : hand));
  const events: HighCardEvent[] = [
    { name: "dealt", payload: { seat, card }, to: seat },
    { name: "dealtTo", payload: { seat } },
  ];
  return { ok: true, state: { ...match, stock: match.stock.slice(1), hands }, events };
}

function play(
  match: HighCardMatch,
  seat: number,
  card: string,
): Outcome<HighCardMatch, HighCardEvent, HighCardErrorCode> {
  if (turnOf(match) === undefined)
    return refuse("WRONG_PHASE", isOver(match) ? "the game is over" : "the cards are still being dealt");
  if (turnOf(match) !== seat) return refuse("NOT_YOUR_TURN", `it is seat ${turnOf(match)}'s turn`);
  if (!match.hands[seat]!.includes(card)) return refuse("NOT_IN_HAND", `${card} is not in your hand`);
  const hands = match.hands.map((hand, index) => (index === seat ? hand.filter((held) => held !== card) : hand));
  const trick = [...match.trick, card];
  const events: HighCardEvent[] = [{ name: "played", payload: { seat, card } }];
  if (trick.length < SEATS) return { ok: true, state: { ...match, hands, trick }, events };
  const winner = rank(trick[1]!) > rank(trick[0]!) ? (match.leader + 1) % SEATS : match.leader;
  const tricksWon = match.tricksWon.map((won, index) => (index === winner ? won + 1 : won));
  const next: HighCardMatch = { ...match, hands, trick: [], leader: winner, tricksWon };
  events.push({ name: "trick", payload: { cards: trick, winner } });
  const result = resultOf(next);
  if (result) events.push({ name: "over", payload: result });
  return { ok: true, state: next, events };
}

/** The bot: the lowest card that wins the trick, else the lowest card. */
function botCard(match: HighCardMatch, seat: number): string {
  const hand = [...match.hands[seat]!].sort((a, b) => rank(a) - rank(b));
  const led = match.trick[0];
  return (led !== undefined && hand.find((card) => rank(card) > rank(led))) || hand[0]!;
}

export const highCardEngine: MatchEngine<
  HighCardOptions,
  HighCardMatch,
  HighCardAction,
  HighCardEvent,
  HighCardPositionView,
  HighCardResult,
  HighCardErrorCode
> = {
  seatCount: () => SEATS,

  start(options, seed) {
    const stock = shuffled(DECK, seededRandom(seed)).slice(0, SEATS * HAND_SIZE);
    return {
      ok: true,
      state: { seed, stock, hands: [[], []], leader: options.leader, trick: [], tricksWon: [0, 0] },
      events: [],
    };
  },

  apply(match, actor: Actor, action) {
    if (action.type === "deal")
      return actor === DEALER ? deal(match) : refuse("NOT_YOUR_TURN", "only the dealer deals");
    if (actor === DEALER) return refuse("NOT_A_PLAYER", "the dealer does not play");
    return play(match, actor, action.card);
  },

  /** A seat sees its own hand; everyone sees the counts, the trick and the tricks won; the seed once the game is over. */
  view(match, viewer): HighCardPositionView {
    const waiting = this.waiting(match);
    return {
      phase: waiting.for === "dealer" ? "dealing" : waiting.for === "seat" ? "playing" : "over",
      turn: turnOf(match) ?? -1,
      trick: [...match.trick],
      seats: match.hands.map((hand, seat) => ({
        handCount: hand.length,
        tricksWon: match.tricksWon[seat]!,
        ...(seat === viewer ? { hand: [...hand] } : {}),
      })),
      winner: resultOf(match)?.winner ?? -1,
      revealedSeed: isOver(match) ? match.seed : 0,
    };
  },

  legalActions(match, seat) {
    if (turnOf(match) !== seat) return { actions: [], complete: true };
    return { actions: match.hands[seat]!.map((card) => ({ type: "play" as const, card })), complete: true };
  },

  waiting(match) {
    if (match.stock.length > 0) return { for: "dealer", action: { type: "deal" }, pace: "deal" };
    const turn = turnOf(match);
    return turn === undefined ? { for: "nobody" } : { for: "seat", seat: turn };
  },

  botAction: (match, seat) => (turnOf(match) === seat ? { type: "play", card: botCard(match, seat) } : undefined),

  timedOut: (match, seat) => ({ actor: seat, action: { type: "play", card: botCard(match, seat) } }),

  result: resultOf,
};
