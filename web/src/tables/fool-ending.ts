/**
 * A Fool game's end in the end dialog: the result, what a Fool is, both hands as they ended and the games won at
 * the table, with a way to play again in the same seats.
 */
import type { FoolStateView } from "../../../client-sdk/index";
import { cardRow } from "../cards";
import { h } from "../dom";
import { showEnding } from "../ending";
import { seatName } from "./fool-words";

/** The ending: the result, what a Fool is, both hands as they ended and the games won at this table. */
export function foolEnding(
  view: FoolStateView,
  mine: number,
  roomId: string,
  playAgain: (() => Promise<unknown>) | undefined,
): void {
  const name = (seat: number) => (seat === mine ? "You" : seatName(view, seat));
  const hands = view.seats.map((seat, index) => {
    const cards = seat.revealed ?? [];
    const whose = index === mine ? "Your hand" : `${seatName(view, index)}'s hand`;
    return h(
      "div",
      { class: "ending-hand" },
      h("h3", { text: whose }),
      cards.length > 0 ? cardRow(cards, whose, "small") : h("p", { text: "No cards left: out first." }),
    );
  });
  const title = view.outcome === "capped" ? "No Fool this time" : view.fool === mine ? "You are the Fool" : "You won";
  const meaning =
    view.outcome === "capped"
      ? `The game stopped after ${view.moveCount} moves, the table's limit, with cards in both hands: nobody is the Fool.`
      : view.fool === mine
        ? `${name(1 - mine)} laid out every card first, so you were left holding cards: the last player with cards is the Fool.`
        : `You laid out every card first, so ${name(view.fool)} was left holding cards: the last player with cards is the Fool.`;
  const wins = view.seats.map((seat, index) => `${name(index)} ${seat.wins}`).join(" · ");
  showEnding({
    key: `fool:${roomId}:${view.game}`,
    title,
    body: [h("p", { text: meaning }), ...hands, h("p", { text: `Games won at this table: ${wins}.` })],
    playAgain,
  });
}
