/**
 * Choosing among a few moves by playing each out on sampled worlds (determinized Monte-Carlo). Every candidate is
 * tried on the same worlds with the same dice, so the comparison measures the moves and not the luck of the
 * samples. Each play-out lets this seat play the greedy policy for a few moves, and the opponent, whose skill it
 * does not know, the greedy policy in half the worlds and the random one in the other half; then it scores the
 * position. (Measured: a greedy opponent in every play-out scored best against greedy, a random one against
 * random; half and half nearly as well as each against both, and better than a coin tossed at every move.)
 * The worlds are dealt from a seed made of what the seat has observed, so the choice is a function of the
 * observations alone: two games that differ only in what the seat cannot see get the same move.
 */
import { seededRandom, type Random } from "../kit/random";
import { isJoker, isSkipCard, type Card } from "./cards";
import { greedyPolicy, randomPolicy, type Policy } from "./bots";
import { applyMove, viewFor, type FoolMove, type FoolState, type FoolView } from "./rules";
import { spelledOut, type FoolMemory } from "./ai-memory";
import { sampleWorld } from "./ai-worlds";

export interface PlayoutBudget {
  /** How many sampled worlds each candidate is played out on. */
  readonly worlds: number;
  /** How many moves (both seats') a play-out lasts after the candidate, unless the game ends first. */
  readonly horizon: number;
  /**
   * The most play-out moves one decision may make in all: with many candidates (a joker's names) fewer worlds are
   * sampled, so no decision holds up a server's event loop for long. Counted in moves, so decisions stay reproducible.
   */
  readonly maxMoves: number;
  /**
   * How the opponent plays in the play-outs, world after world in turn (default: greedy, then random). A level
   * that expects a sound opponent models more of them greedy.
   */
  readonly opponentModels?: readonly OpponentModel[];
  /**
   * A time (Date.now()'s clock) past which no further world is sampled: the server's bound on a decision's wait
   * (server/ai/ai-admission.ts). At least one world is always played. Without it the decision is reproducible.
   */
  readonly answerBy?: number;
}

/** The policies a play-out's opponent may play: the greedy bot's, or uniformly random legal moves. */
export type OpponentModel = "greedy" | "random";
const OPPONENT_POLICIES: Record<OpponentModel, Policy> = { greedy: greedyPolicy, random: randomPolicy };
const HALF_AND_HALF: readonly OpponentModel[] = ["greedy", "random"];

export const DEFAULT_BUDGET: PlayoutBudget = { worlds: 8, horizon: 8, maxMoves: 1024 };

/** How many worlds a decision among `candidates` moves can afford (at least one). */
export function affordableWorlds(budget: PlayoutBudget, candidates: number): number {
  return Math.max(1, Math.min(budget.worlds, Math.floor(budget.maxMoves / (candidates * budget.horizon))));
}

/**
 * What the end of a play-out is worth to `seat`: a win or a loss outright, else 10 a card fewer than the opponent,
 * and as much again for each joker (it answers anything) and 4 for each skip card (it keeps the turn) held more.
 */
export function playoutScore(state: FoolState, seat: number): number {
  if (state.phase === "over") return state.finished[0] === seat ? 1000 : -1000;
  const mine = state.hands[seat];
  const theirs = state.hands[1 - seat];
  return (
    10 * (theirs.length - mine.length) +
    10 * (jokers(mine) - jokers(theirs)) +
    4 * (skipCards(mine) - skipCards(theirs))
  );
}

function jokers(hand: readonly Card[]): number {
  return hand.filter(isJoker).length;
}

function skipCards(hand: readonly Card[]): number {
  return hand.filter((card) => !isJoker(card) && isSkipCard(card)).length;
}

/** The candidate with the best total score over the sampled worlds (the first on ties). */
export function bestByPlayouts(
  view: FoolView,
  memory: FoolMemory,
  candidates: readonly FoolMove[],
  budget: PlayoutBudget = DEFAULT_BUDGET,
): FoolMove {
  const random = seededRandom(observationKey(view, memory));
  const totals = candidates.map(() => 0);
  const worlds = affordableWorlds(budget, candidates.length);
  const models = budget.opponentModels ?? HALF_AND_HALF;
  for (let w = 0; w < worlds; w++) {
    if (w > 0 && budget.answerBy !== undefined && Date.now() >= budget.answerBy) break;
    const opponent = OPPONENT_POLICIES[models[w % models.length]];
    const world = sampleWorld(view, memory, random);
    const diceSeed = random();
    candidates.forEach((move, i) => {
      const played = applyMove(world, view.seat, move);
      if (!played.ok) throw new Error(`a candidate move is illegal: ${played.reason}`);
      totals[i] += playOutFrom(played.state, view.seat, opponent, budget.horizon, seededRandom(diceSeed));
    });
  }
  let best = 0;
  for (let i = 1; i < candidates.length; i++) if (totals[i] > totals[best]) best = i;
  return candidates[best];
}

function playOutFrom(start: FoolState, seat: number, opponent: Policy, horizon: number, random: Random): number {
  let state = start;
  for (let step = 0; step < horizon && state.phase !== "over"; step++) {
    const policy = state.turn === seat ? greedyPolicy : opponent;
    const result = applyMove(state, state.turn, policy(viewFor(state, state.turn), random));
    if (!result.ok) throw new Error(`a play-out chose an illegal move: ${result.reason}`);
    state = result.state;
  }
  return playoutScore(state, seat);
}

/** Everything the seat has observed, as text: the seed of its samples. */
function observationKey(view: FoolView, memory: FoolMemory): string {
  return JSON.stringify([view, spelledOut(memory)]);
}
