/**
 * The search's play-outs: a round played to its end in a sampled deal, every seat with one policy. Most of a
 * search's time is spent here, hence the views that share the state's arrays (playOut).
 */
import type { Card } from "./cards";
import type { TractorPolicy } from "./policy";
import { applyPlay, HAND_CARDS, type RoundState } from "./round";
import { PLAYERS, type RoundResult, type Seat } from "./scoring";
import type { SeatView } from "./seat-view";

/** The seat's view of a round on its turn, sharing the state's arrays (a play-out's policies only read it). */
export function sharedView(
  state: RoundState,
  seat: Seat,
  start: SeatView,
  playedBy: readonly (readonly Card[])[],
): SeatView {
  return {
    seat,
    phase: "playing",
    mainSuit: start.mainSuit,
    currentRank: start.currentRank,
    teamRanks: start.teamRanks,
    dealer: start.dealer,
    turn: seat,
    hand: state.hands[seat],
    handCounts: state.hands.map((hand) => hand.length),
    ...(state.trick ? { trick: state.trick } : {}),
    tricks: state.tricks,
    defenderTrickPoints: state.trickPoints,
    penaltyPoints: state.penaltyPoints,
    playedBy,
    ...(seat === start.dealer ? { buried: state.hidden } : {}),
  };
}

/**
 * Plays a sampled round to its end, every seat with `policy`, and returns its result. The same as playRound
 * (policy.ts), built for speed: each seat's view shares the state's arrays instead of copying them (the policies
 * never change what they are shown) and the cards each seat has played are kept as the play-out goes.
 */
export function playOut(state: RoundState, policy: TractorPolicy, start: SeatView): RoundResult {
  const playedBy = start.playedBy.map((cards) => cards.slice());
  const last = state.trick ?? state.tricks[state.tricks.length - 1];
  // The play just made (the candidate) is the last of the trick under way, or of the trick it completed.
  const mover = ((last.leader + last.plays.length - 1) % PLAYERS) as Seat;
  playedBy[mover].push(...last.plays[last.plays.length - 1]);
  return playOutFrom(state, policy, start, playedBy);
}

/** Plays the round to its end from `state`, every seat with `policy`; `playedBy` (each seat's cards so far) grows. */
export function playOutFrom(
  state: RoundState,
  policy: TractorPolicy,
  start: SeatView,
  playedBy: Card[][],
): RoundResult {
  for (let action = 0; action < PLAYERS * HAND_CARDS && state.phase === "playing"; action++) {
    const seat = state.turn;
    const update = applyPlay(state, seat, policy.choosePlay(sharedView(state, seat, start, playedBy)));
    if (!update.ok) throw new Error(`the engine refused a play-out's play: ${update.reason}`);
    const trick = update.state.trick ?? update.state.tricks[update.state.tricks.length - 1];
    playedBy[seat].push(...trick.plays[trick.plays.length - 1]);
    state = update.state;
  }
  if (state.phase !== "finished") throw new Error("a play-out did not finish");
  return state.result;
}
