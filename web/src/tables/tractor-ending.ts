/**
 * A Tractor round's and match's end in the end dialog: opened once a round, closed when the room deals the next
 * one (the room deals it itself after its pause), with the buried cards, the defenders' total and the rank changes.
 */
import type { TractorResult, TractorStateView } from "../../../client-sdk/index";
import { cardRow } from "../cards";
import { h } from "../dom";
import { closeEnding, showEnding } from "../ending";
import { TAKE_OVER } from "./tractor-rules";
import { capital, declaringTeam, nameFor, ownSeatName, teamWords } from "./tractor-seat-words";
import { rankName } from "./tractor-words";

/** Opens the round's (or the match's) ending once, and closes it when the next round starts. Returns the round shown. */
export function showRoundEnding(
  view: TractorStateView,
  shown: number,
  playAgain: ((last: TractorStateView) => () => Promise<void>) | undefined,
): number {
  const result = view.result;
  if ((view.phase === "roundOver" || view.phase === "matchOver") && result) {
    const over = view.phase === "matchOver";
    const winners = view.winner === 0 ? "" : teamWords(view, view.winner);
    showEnding({
      key: over ? `match:${view.round}` : `round:${view.round}`,
      title: over ? `${capital(winners)} win the match` : roundTitle(view, result),
      body: [
        ...roundSummary(view, result),
        over
          ? h("p", {
              text: `The match is over after ${view.round} round${view.round === 1 ? "" : "s"}: ${winners} passed Ace.`,
            })
          : h("p", { class: "next-round", text: "The next round is dealt in a moment; this closes when it starts." }),
      ],
      playAgain: over && playAgain ? playAgain(view) : undefined,
    });
    return view.round;
  }
  if (shown !== 0 && view.round > shown) {
    closeEnding();
    return 0;
  }
  return shown;
}

function roundTitle(view: TractorStateView, result: TractorResult): string {
  const team = teamWords(view, result.team);
  if (!result.make)
    return `Round ${view.round}: ${team} take over${result.levels > 0 ? ` and go up ${levelsWords(result.levels)}` : ""}`;
  return `Round ${view.round}: ${team} go up ${levelsWords(result.levels)}`;
}

/** A rank reached, in words: "to 5", "past Ace". */
function reached(rank: number): string {
  return rank > 14 ? "past Ace" : `to ${rankName(rank)}`;
}

export function levelsWords(levels: number): string {
  return `${levels} rank${levels === 1 ? "" : "s"}`;
}

/** A round's end in words: the defenders' total, the buried cards and their bonus, the rank changes. */
function roundSummary(view: TractorStateView, result: TractorResult): Node[] {
  const declarers = declaringTeam(view);
  const defenders = declarers === 1 ? 2 : 1;
  const fromTricks = result.defenderPoints - result.hiddenBonus;
  const team = teamWords(view, result.team);
  const before = (result.teamRanks[result.team - 1] ?? 0) - result.levels;
  const change = result.make
    ? `${capital(teamWords(view, declarers))} held the defenders under ${TAKE_OVER}: they go up ${levelsWords(result.levels)}, from ${rankName(before)} ${reached(result.teamRanks[result.team - 1])}.`
    : `${capital(teamWords(view, defenders))} reached ${TAKE_OVER} and declare next${result.levels > 0 ? `: ${team} go up ${levelsWords(result.levels)}, from ${rankName(before)} ${reached(result.teamRanks[result.team - 1])}` : "; no rank moves"}.`;
  return [
    h("p", {
      text: `The defenders (${teamWords(view, defenders)}) scored ${result.defenderPoints}: ${fromTricks} from tricks${view.penaltyPoints ? " and failed throws" : ""}, ${result.hiddenBonus > 0 ? `and ${result.hiddenBonus} from the buried cards (they won the last trick)` : "and nothing from the buried cards"}.`,
    }),
    h(
      "div",
      { class: "ending-buried" },
      h("span", { text: `${capital(nameFor(view, view.dealer, ownSeatName(view)) || "the dealer")} buried: ` }),
      cardRow(result.hiddenCards, `Cards ${view.dealer || "the dealer"} buried`, "small"),
    ),
    h("p", { text: change }),
    h("p", {
      text: `Ranks now: ${teamWords(view, 1)} at ${rankName(result.teamRanks[0])}, ${teamWords(view, 2)} at ${rankName(result.teamRanks[1])}.${result.matchWinner ? "" : ` ${result.nextDealer} deals next.`}`,
    }),
  ];
}
