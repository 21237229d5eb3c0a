/**
 * A review of one seat's moves in a recorded heads-up Fool game: the record is played again, and at each of the
 * seat's moves the Fool AI (ai.ts) chooses from that seat's view and memory at that moment — what the seat could
 * know, nothing more. Where the two differ, both are played out to the end of the game in the same sampled worlds
 * (the opponent's hand and the deck dealt again to fit the seat's memory, ai-worlds.ts), both seats then playing
 * the greedy bot, and the win chance the seat gave up is the share of worlds won with the AI's move minus the share
 * won with its own. A game that runs past the play-out's last move counts as half won.
 *
 * Pure: the budget is in sampled worlds unless a clock is given; with one, the review stops where the time runs out
 * and says so (`complete: false`).
 */
import type { Actor } from "../kit/engine";
import { seededRandom } from "../kit/random";
import { aiPolicy } from "./ai";
import type { NaturalCard } from "./cards";
import { remember, startMemory, type FoolMemory } from "./ai-memory";
import { sampleWorld } from "./ai-worlds";
import { greedyPolicy } from "./bots";
import { foolEngine, type FoolOptions } from "./match";
import { applyMove, formatLaid, viewFor, type FoolMove, type FoolState } from "./rules";

/** Worlds each of the two moves is played out in: a win chance to about ±0.1, the same worlds for both. */
export const FOOL_REVIEW_WORLDS = 24;
/** A play-out still going after this many moves is a draw (a Fool game rarely lasts 200). */
const PLAYOUT_MOVES = 400;

export interface FoolReviewedMove {
  /** The action's index in the record (1 for the first). */
  readonly step: number;
  /** The move in the page's words: "play 7H", "play *QS" (a joker named a Queen of spades), "draw", "pass". */
  readonly played: string;
  readonly aiChoice: string;
  readonly matches: boolean;
  /** The seat's win chance with the AI's move minus with its own (0 when they match; may be negative). */
  readonly winChanceLost: number;
}

export interface FoolReview {
  /** The seat reviewed (0 or 1). */
  readonly seat: number;
  readonly moves: FoolReviewedMove[];
  readonly summary: { readonly moves: number; readonly matching: number; readonly winChanceLost: number };
  /** False when the time ran out before the last of the seat's moves (the moves after it are not listed). */
  readonly complete: boolean;
}

/** What a review needs of a record. */
export interface ReviewedFoolRecord {
  readonly options: unknown;
  readonly seed: number;
  readonly actions: readonly { readonly actor: Actor; readonly action: unknown }[];
}

export function moveWords(move: FoolMove): string {
  if (move.kind !== "play") return move.kind;
  return `play ${formatLaid({ card: move.card, as: move.as ?? (move.card as NaturalCard), namedSuit: move.namedSuit ?? null })}`;
}

const sameMove = (a: FoolMove, b: FoolMove) => moveWords(a) === moveWords(b);
const round2 = (value: number) => Math.round(value * 100) / 100;

export function reviewFool(
  record: ReviewedFoolRecord,
  seat: number,
  worlds = FOOL_REVIEW_WORLDS,
  now?: () => number,
  timeMs?: number,
): FoolReview {
  let game: FoolState = foolEngine.start(record.options as FoolOptions, record.seed).state.game;
  let memory: FoolMemory = startMemory(viewFor(game, seat));
  const moves: FoolReviewedMove[] = [];
  const started = now?.();
  let complete = true;
  for (const [index, { actor, action }] of record.actions.entries()) {
    if (game.phase === "over") break;
    const move = action as FoolMove;
    if (actor === seat) {
      if (now !== undefined && timeMs !== undefined && now() - (started as number) >= timeMs) {
        complete = false;
        break;
      }
      moves.push(reviewMove(game, memory, seat, move, index + 1, worlds));
    }
    const applied = applyMove(game, actor as number, move);
    if (!applied.ok) throw new Error(`the record does not replay at action ${index + 1}: ${applied.reason}`);
    game = applied.state;
    memory = remember(memory, applied.events);
  }
  const summary = {
    moves: moves.length,
    matching: moves.filter((move) => move.matches).length,
    winChanceLost: round2(moves.reduce((sum, move) => sum + move.winChanceLost, 0)),
  };
  return { seat, moves, summary, complete };
}

function reviewMove(
  game: FoolState,
  memory: FoolMemory,
  seat: number,
  played: FoolMove,
  step: number,
  worlds: number,
): FoolReviewedMove {
  const view = viewFor(game, seat);
  const choice = aiPolicy(view, seededRandom("unused"), memory);
  const base = { step, played: moveWords(played), aiChoice: moveWords(choice) };
  if (sameMove(choice, played)) return { ...base, matches: true, winChanceLost: 0 };
  const random = seededRandom(`review|${step}|${base.played}|${base.aiChoice}`);
  let [aiWins, ownWins] = [0, 0];
  for (let world = 0; world < worlds; world++) {
    const dealt = sampleWorld(view, memory, random);
    const dice = random();
    aiWins += winShare(dealt, seat, choice, dice);
    ownWins += winShare(dealt, seat, played, dice);
  }
  return { ...base, matches: false, winChanceLost: round2((aiWins - ownWins) / worlds) };
}

/** The move played in a sampled world and the game played out greedily: 1 won, 0 lost, 0.5 still going. */
function winShare(world: FoolState, seat: number, move: FoolMove, dice: number): number {
  const first = applyMove(world, seat, move);
  if (!first.ok) throw new Error(`a reviewed move is illegal in a sampled world: ${first.reason}`);
  let state = first.state;
  const random = seededRandom(dice);
  for (let step = 0; step < PLAYOUT_MOVES && state.phase !== "over"; step++) {
    const next = applyMove(state, state.turn, greedyPolicy(viewFor(state, state.turn), random));
    if (!next.ok) throw new Error(`a play-out chose an illegal move: ${next.reason}`);
    state = next.state;
  }
  if (state.phase !== "over") return 0.5;
  return state.finished[0] === seat ? 1 : 0;
}
