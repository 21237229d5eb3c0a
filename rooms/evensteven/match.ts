/**
 * One Even-Steven game as a match engine (rooms/kit/engine.ts): seat 0 is the player, the dealer is the table.
 * The player answers each dealt card; the dealer calls time on a silent player (a forfeit, as the original dealer
 * aborts). Pure: the game is the original shuffle of its seed.
 */
import {
  DEALER,
  refuse,
  SPECTATOR,
  type Actor,
  type GameEvent,
  type MatchEngine,
  type Outcome,
  type Viewer,
} from "../kit/engine";
import { cardsToCover, cardToCover, describeFault, newGame, playCard, type Game, type PlayFault } from "./engine";
import type { EvenStevenErrorCode, EvenStevenOutcome, EvenStevenPositionView } from "./protocol";
import { optimalPlay } from "./strategy";

export const PLAYER_SEAT = 0;

export interface EvenStevenOptions {
  /** Cards in the hand (and cards to cover). */
  readonly n: number;
}

export interface EvenStevenMatch {
  readonly game: Game;
  /** Set once the game is over: the verdict, or a time-out. */
  readonly outcome: EvenStevenOutcome | null;
}

export type EvenStevenAction = { readonly type: "play"; readonly card: string } | { readonly type: "timeout" };

/** The engine's events; the room adds the game's number (and a deal's deadline) on the wire. */
export type EvenStevenEngineEvent =
  | GameEvent<"hand", { cards: string[] }>
  | GameEvent<"deal", { card: string; index: number }>
  | GameEvent<"played", { card: string; dealt: string; covered: boolean }>
  | GameEvent<"verdict", EvenStevenResult>;

export interface EvenStevenResult {
  outcome: EvenStevenOutcome;
  n: number;
  seed: number;
  dealt: string[];
  played: string[];
}

const FAULT_CODES: Record<PlayFault["kind"], EvenStevenErrorCode> = {
  "not-a-card": "NOT_A_CARD",
  "not-in-hand": "NOT_IN_HAND",
  "played-twice": "ALREADY_PLAYED",
  "game-over": "NO_CARD_TO_COVER",
};

/** The cards dealt so far: one per card played, and the one waiting to be covered (still there after a time-out). */
function dealtCards(match: EvenStevenMatch): string[] {
  const { game, outcome } = match;
  const waiting = outcome === null || outcome === "TIME OUT" ? 1 : 0;
  return cardsToCover(game).slice(0, game.played.length + waiting);
}

function dealEvent(game: Game): EvenStevenEngineEvent[] {
  const card = cardToCover(game);
  return card === null ? [] : [{ name: "deal", payload: { card, index: game.played.length + 1 } }];
}

function finish(
  match: EvenStevenMatch,
  outcome: EvenStevenOutcome,
): { match: EvenStevenMatch; event: EvenStevenEngineEvent } {
  const over = { ...match, outcome };
  return { match: over, event: { name: "verdict", payload: resultOf(over)! } };
}

function resultOf(match: EvenStevenMatch): EvenStevenResult | undefined {
  const { game, outcome } = match;
  if (outcome === null) return undefined;
  return { outcome, n: game.n, seed: game.seed, dealt: dealtCards(match), played: [...game.played] };
}

function play(
  match: EvenStevenMatch,
  card: string,
): Outcome<EvenStevenMatch, EvenStevenEngineEvent, EvenStevenErrorCode> {
  if (match.outcome !== null)
    return refuse("NO_CARD_TO_COVER", "no card is waiting to be covered; send newGame to play again");
  const played = playCard(match.game, card);
  if (!played.ok) return refuse(FAULT_CODES[played.fault.kind], describeFault(played.fault));
  const next: EvenStevenMatch = { game: played.game, outcome: null };
  const events: EvenStevenEngineEvent[] = [
    { name: "played", payload: { card, dealt: played.dealt, covered: played.covered } },
  ];
  if (played.game.verdict === null) return { ok: true, state: next, events: [...events, ...dealEvent(played.game)] };
  const over = finish(next, played.game.verdict);
  return { ok: true, state: over.match, events: [...events, over.event] };
}

function timeout(match: EvenStevenMatch): Outcome<EvenStevenMatch, EvenStevenEngineEvent, EvenStevenErrorCode> {
  if (match.outcome !== null) return refuse("NO_CARD_TO_COVER", "the game is over");
  const over = finish(match, "TIME OUT");
  return { ok: true, state: over.match, events: [over.event] };
}

/** The player's legal actions while a card waits to be covered: any card of the hand. */
export function playsFrom(hand: readonly string[]): EvenStevenAction[] {
  return hand.map((card) => ({ type: "play", card }));
}

/** The seat's bot: the lowest card that covers the dealt one (the optimal play), from what the player sees. */
export function botPlay(hand: readonly string[], dealt: string): EvenStevenAction {
  return { type: "play", card: optimalPlay(hand, dealt) };
}

export const evenStevenEngine: MatchEngine<
  EvenStevenOptions,
  EvenStevenMatch,
  EvenStevenAction,
  EvenStevenEngineEvent,
  EvenStevenPositionView,
  EvenStevenResult,
  EvenStevenErrorCode
> = {
  seatCount: () => 1,

  start(options, seed) {
    const game = newGame(options.n, seed);
    const events: EvenStevenEngineEvent[] = [
      { name: "hand", payload: { cards: [...game.hand] }, to: PLAYER_SEAT },
      ...dealEvent(game),
    ];
    return { ok: true, state: { game, outcome: null }, events };
  },

  apply(match, actor: Actor, action) {
    if (action.type === "timeout")
      return actor === DEALER ? timeout(match) : refuse("NOT_YOUR_TURN", "only the dealer calls time");
    if (actor !== PLAYER_SEAT) return refuse("NOT_A_PLAYER", "only the player plays");
    return play(match, action.card);
  },

  /** The player alone sees the hand while the game runs; the seed, the hand's rest and the undealt cards show once it is over. */
  view(match, viewer: Viewer): EvenStevenPositionView {
    const { game, outcome } = match;
    const position: EvenStevenPositionView = {
      phase: outcome === null ? "playing" : "over",
      handSize: game.n,
      cardsInHand: game.hand.length,
      toCover: outcome === null ? (cardToCover(game) ?? "") : "",
      dealt: dealtCards(match),
      played: [...game.played],
      outcome: outcome ?? "",
      revealedSeed: outcome === null ? 0 : game.seed,
      // Hidden while the game runs, shown to every viewer once it is over: what the verdict was judged on.
      undealt: outcome === null ? [] : cardsToCover(game).slice(dealtCards(match).length),
      unplayed: outcome === null ? [] : [...game.hand],
    };
    return viewer === SPECTATOR ? position : { ...position, player: { hand: [...game.hand] } };
  },

  legalActions(match, seat) {
    if (seat !== PLAYER_SEAT || match.outcome !== null) return { actions: [], complete: true };
    return { actions: playsFrom(match.game.hand), complete: true };
  },

  waiting: (match) => (match.outcome === null ? { for: "seat", seat: PLAYER_SEAT } : { for: "nobody" }),

  botAction(match, seat) {
    const dealt = cardToCover(match.game);
    if (seat !== PLAYER_SEAT || match.outcome !== null || dealt === null) return undefined;
    return botPlay(match.game.hand, dealt);
  },

  timedOut: () => ({ actor: DEALER, action: { type: "timeout" } }),

  result: resultOf,
};
