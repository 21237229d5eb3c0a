/**
 * The strong Tractor AI takes a forced win. Positions from whole rounds, two tricks from the end, the dealer on turn
 * (so that it knows the hidden cards and only the others' six cards are unseen): every way the six could lie that
 * fits what the dealer has seen (the voids the others showed) and every legal answer of the others is played out
 * by the engine. Where one play wins the round in all of them and every other play wins it in none, the search must
 * choose a winning play.
 */
import { seededRandom } from "../../rooms/kit/random";
import type { Card } from "../../rooms/tractor/cards";
import { randomSetup } from "../../rooms/tractor/generate";
import { heuristicPolicy } from "../../rooms/tractor/policy";
import { applyPlay, buryCards, dealRound, legalPlaysFor, orderingOf, type RoundState } from "../../rooms/tractor/round";
import { checkedThrows } from "../../rooms/tractor/ruleset";
import { SEATS, teamOf, type Seat } from "../../rooms/tractor/scoring";
import { searchPlay } from "../../rooms/tractor/search";
import { knownVoids, seatView } from "../../rooms/tractor/seat-view";

/** A round played by the heuristic until the dealer is on turn with two cards left, or null if it never is. */
function dealerWithTwoCards(seed: number): RoundState | null {
  const random = seededRandom(`forced-win:${seed}`);
  const heuristic = heuristicPolicy(checkedThrows);
  const dealt = dealRound(randomSetup(random), random, checkedThrows);
  const buried = buryCards(dealt, dealt.turn, heuristic.chooseBurial(seatView(dealt, dealt.turn)));
  if (!buried.ok) throw new Error(buried.reason);
  let state: RoundState = buried.state;
  const dealer = state.setup.dealer;
  while (state.phase === "playing") {
    if (state.turn === dealer && state.hands[dealer].length === 2) return state;
    if (state.hands[dealer].length < 2) return null;
    const update = applyPlay(state, state.turn, heuristic.choosePlay(seatView(state, state.turn)));
    if (!update.ok) throw new Error(update.reason);
    state = update.state;
  }
  return null;
}

/** Every way to deal `cards` into hands of the given sizes (duplicates give repeated deals, which changes nothing). */
function* dealsOf(cards: readonly Card[], sizes: readonly number[]): Generator<Card[][]> {
  if (sizes.length === 0) return yield [];
  const [size, ...rest] = sizes;
  const pick = (from: number, chosen: number[]): number[][] =>
    chosen.length === size
      ? [chosen]
      : Array.from({ length: cards.length - from }, (_, offset) =>
          pick(from + offset + 1, [...chosen, from + offset]),
        ).flat();
  for (const indices of pick(0, [])) {
    const left = cards.filter((_, index) => !indices.includes(index));
    for (const others of dealsOf(left, rest)) yield [indices.map((index) => cards[index]), ...others];
  }
}

/** Adds to `seen` whether the round ends won for `team`, after each legal continuation of every seat. */
function outcomes(state: RoundState, team: number, seen: Set<boolean>): void {
  if (state.phase === "finished")
    return void seen.add(state.result.change.levels > 0 && state.result.change.team === team);
  for (const play of legalPlaysFor(state, state.turn).plays) {
    const next = applyPlay(state, state.turn, play);
    if (next.ok) outcomes(next.state, team, seen);
  }
}

/** For each of the dealer's legal plays: whether it wins in every deal that fits its view, in none, or in some. */
function verdicts(state: RoundState): Array<{ play: Card[]; wins: "always" | "never" | "sometimes" }> {
  const dealer = state.turn;
  const view = seatView(state, dealer);
  const ordering = orderingOf(state);
  const voids = knownVoids(view, ordering);
  const others = SEATS.filter((seat) => seat !== dealer);
  const unseen = others.flatMap((seat) => state.hands[seat]);
  const fitting = [
    ...dealsOf(
      unseen,
      others.map((seat) => state.hands[seat].length),
    ),
  ].filter((hands) => hands.every((hand, index) => hand.every((card) => !voids[others[index]][ordering.group[card]])));
  return legalPlaysFor(state, dealer).plays.map((play) => {
    const seen = new Set<boolean>();
    for (const hands of fitting) {
      const dealtSo = SEATS.map((seat) => (seat === dealer ? state.hands[seat] : hands[others.indexOf(seat as Seat)]));
      const next = applyPlay({ ...state, hands: dealtSo }, dealer, play);
      if (next.ok) outcomes(next.state, teamOf(dealer), seen);
    }
    return { play, wins: seen.size === 2 ? "sometimes" : seen.has(true) ? "always" : "never" };
  });
}

test("the strong AI takes a forced win: one play wins whatever the others hold and answer, every other loses", () => {
  let forced = 0;
  for (let seed = 1; seed <= 1500; seed++) {
    const state = dealerWithTwoCards(seed);
    if (state === null) continue;
    const judged = verdicts(state);
    const winning = judged.filter(({ wins }) => wins === "always");
    if (winning.length === 0 || winning.length === judged.length || judged.some(({ wins }) => wins === "sometimes"))
      continue;
    forced++;
    const chosen = searchPlay(seatView(state, state.turn), checkedThrows).cards;
    expect(winning.map(({ play }) => [...play].sort())).toContainEqual([...chosen].sort());
  }
  expect(forced).toBeGreaterThanOrEqual(5); // 8 of the first 1,500 rounds have such a position
}, 120_000);
