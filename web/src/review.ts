/**
 * The replay page's review (GET /games/:id/review): the reader picks a seat of a finished Tractor or Fool game and
 * asks for its review; beside the steps the page then says, at each of that seat's moves, what the AI would have
 * played from the seat's view and what the move gave up (Tractor: points and levels; Fool: chance of winning), and
 * above them a summary: how many moves matched the AI's, and the total given up. The moves that differ are listed
 * as buttons that step the replay to them. Plain words throughout: cards by their names, no protocol codes.
 */
import type { CardhallClient, GameRecord, GameReview } from "../../client-sdk/index";
import { TRACTOR_SEATS } from "../../rooms/tractor/protocol";
import { cardFace } from "./cards";
import { inWords } from "./connection";
import { button, draw, h } from "./dom";
import { holderWords } from "./results";

/** The games the server reviews. */
export const REVIEWED_GAMES: readonly string[] = ["tractor", "fool"];

export interface ReviewPanel {
  readonly element: HTMLElement;
  /** Says what the review found at the replay's step `index` (the record's action `index`). */
  showStep(index: number): void;
}

/** One reviewed move, in the same terms for both games. */
interface MoveSaid {
  readonly step: number;
  readonly played: string;
  readonly aiChoice: string;
  readonly matches: boolean;
  /** What it gave up, in words ("about 12 points (0.3 levels)", "18% of a win"); "" when it matches. */
  readonly lost: string;
}

const cardsWords = (codes: readonly string[]) => codes.map((code) => cardFace(code).words).join(", ");

/** A Fool move as the review writes it ("play 7H", "play *QSH", "draw", "pass") in words. */
export function foolMoveWords(move: string): string {
  const play = /^play (\*)?(10|[2-9TJQKA][SHDC])([SHDC])?$/.exec(move);
  if (play === null) return move === "draw" ? "draw a card" : move === "pass" ? "pass" : move;
  const [, joker, card, named] = play;
  const naming = named ? `, naming ${cardFace(`A${named}`).words.replace("ace of ", "")}` : "";
  return joker ? `the joker as the ${cardFace(card).words}${naming}` : `the ${cardFace(card).words}${naming}`;
}

const signed = (value: number, unit: string) => `${value < 0 ? "gained " : ""}about ${Math.abs(value)} ${unit}`;

function movesSaid(review: GameReview): MoveSaid[] {
  if (review.game === "fool") {
    return review.moves.map((move) => ({
      ...move,
      played: foolMoveWords(move.played),
      aiChoice: foolMoveWords(move.aiChoice),
      lost: move.matches ? "" : `${signed(Math.round(move.winChanceLost * 100), "percent")} of a win`,
    }));
  }
  return review.moves.map((move) => ({
    ...move,
    played: cardsWords(move.played),
    aiChoice: cardsWords(move.aiChoice),
    lost: move.matches ? "" : `${signed(move.pointsLost, "points")} (${move.valueLost} levels)`,
  }));
}

function summaryWords(review: GameReview, who: string): string {
  const { moves, matching } = review.summary;
  const agreed = `The AI agrees with ${matching} of ${who}'s ${moves} moves.`;
  const lost =
    review.game === "fool"
      ? ` Given up in all: ${Math.round(review.summary.winChanceLost * 100)} percent of a win.`
      : ` Given up in all: about ${Math.round(review.summary.pointsLost)} points (${review.summary.valueLost.toFixed(2)} levels).`;
  const cut = review.complete ? "" : " The review ran out of time before the last moves; they are not reviewed.";
  return agreed + lost + cut;
}

/** The seats a reader may pick: Tractor's by their names, Fool's by number; each with who sat there. */
function seatChoices(record: GameRecord): { value: string; words: string }[] {
  return record.seats.map((seat) => {
    const value = record.game === "tractor" ? TRACTOR_SEATS[seat.seat] : String(seat.seat);
    const place = record.game === "tractor" ? TRACTOR_SEATS[seat.seat] : `Seat ${seat.seat + 1}`;
    return { value, words: seat.name ? `${place} (${holderWords(seat.kind, seat.name)})` : place };
  });
}

export function reviewPanel(client: CardhallClient, record: GameRecord, goTo: (step: number) => void): ReviewPanel {
  const element = h("section", { class: "review", label: "Review" });
  const seats = seatChoices(record);
  const picker = h("select", { label: "Seat to review", attrs: { id: "review-seat" } });
  for (const seat of seats) picker.append(h("option", { value: seat.value, text: seat.words }));
  const status = h("p", { class: "review-status", role: "status" });
  const here = h("p", { class: "review-here", attrs: { "aria-live": "polite" } });
  const differing = h("ul", { class: "review-differing", label: "Moves where the AI differs" });
  let said: MoveSaid[] | undefined;
  let who = "";
  let current = 0;

  const ask = async () => {
    const chosen = seats.find((seat) => seat.value === picker.value) ?? seats[0];
    who = chosen.words;
    said = undefined;
    draw(differing);
    status.textContent = `Reviewing ${who}'s moves against the AI's: this can take some seconds…`;
    try {
      const review = await client.review(record.id, chosen.value);
      said = movesSaid(review);
      status.textContent = summaryWords(review, who);
      draw(
        differing,
        ...said
          .filter((move) => !move.matches)
          .map((move) =>
            h(
              "li",
              {},
              button(`Step ${move.step}: ${move.lost}`, () => goTo(move.step)),
            ),
          ),
      );
    } catch (error) {
      status.textContent = `No review: ${inWords(error)}`;
    }
    showStep(current);
  };

  function showStep(index: number): void {
    current = index;
    if (said === undefined) return void (here.textContent = "");
    const move = said.find((reviewed) => reviewed.step === index);
    if (move === undefined)
      return void (here.textContent = `Step to one of ${who}'s moves to see the AI's choice there.`);
    here.textContent = move.matches
      ? `Here ${who} played ${move.played}: the AI would play the same.`
      : `Here ${who} played ${move.played}; the AI would play ${move.aiChoice}. Given up: ${move.lost}.`;
  }

  element.append(
    h("h2", { text: "Review against the AI" }),
    h(
      "div",
      { class: "review-ask" },
      h("label", { text: "Seat ", attrs: { for: "review-seat" } }),
      picker,
      button("Review", () => void ask()),
    ),
    status,
    here,
    differing,
  );
  return { element, showStep };
}
