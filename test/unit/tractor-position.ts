import { seededRandom } from "../../rooms/kit/random";
import { randomSetup } from "../../rooms/tractor/generate";
import { heuristicPolicy } from "../../rooms/tractor/policy";
import { applyPlay, buryCards, dealRound, type RoundState } from "../../rooms/tractor/round";
import { checkedThrows } from "../../rooms/tractor/ruleset";
import { seatView } from "../../rooms/tractor/seat-view";

/** A checked-throws round dealt from `seed`, buried and played `plays` plays by the heuristic: the seat on turn to decide. */
export function playedPosition(seed: string, plays: number): RoundState {
  const random = seededRandom(seed);
  const heuristic = heuristicPolicy(checkedThrows);
  let state: RoundState = dealRound(randomSetup(random), random, checkedThrows);
  const buried = buryCards(state, state.turn, heuristic.chooseBurial(seatView(state, state.turn)));
  if (!buried.ok) throw new Error(buried.reason);
  state = buried.state;
  for (let play = 0; play < plays; play++) {
    const update = applyPlay(state, state.turn, heuristic.choosePlay(seatView(state, state.turn)));
    if (!update.ok) throw new Error(update.reason);
    state = update.state;
  }
  return state;
}
