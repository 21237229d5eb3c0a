/**
 * A finished Tractor game's replay: a frame of the record as the live table's view (so that one drawing serves
 * both), and the record's actions and engine events in words for the replay's step list.
 */
import { TRACTOR_SEATS, type GameRecord, type ReplayFrame, type TractorStateView } from "../../../client-sdk/index";
import type { TractorAction, TractorEngineEvent } from "../../../rooms/tractor/match";
import type { TractorPositionView, TractorTableView } from "../../../rooms/tractor/protocol";
import { mergeViews, wholeTableView } from "../../../rooms/kit/views";
import { sealOfRecord } from "../../../rooms/kit/commitment";
import { cardName, SUIT_WORDS, type SuitLetter } from "../cards";
import { BURY_COUNT } from "./tractor-rules";
import { rankName } from "./tractor-words";

/** A replay frame as the live table's view: the whole table (every hand, the buried cards) with the record's seats. */
export function viewOfFrame(frame: ReplayFrame, record: GameRecord): TractorStateView {
  const position = wholeTableView(frame.table as TractorPositionView, frame.seats as TractorPositionView[]);
  const seats = TRACTOR_SEATS.map((_, index) => ({
    occupant: record.seats[index]?.kind === "person" ? ("person" as const) : ("bot" as const),
    player: record.seats[index]?.name || "bot",
    connected: true,
  }));
  return mergeViews(position, {
    ...({ deadline: 0, seats, spectators: 0 } satisfies TractorTableView),
    seal: sealOfRecord(record),
  }) as TractorStateView;
}

const cardsInWords = (cards: readonly string[]) => cards.map(cardName).join("; ");

function mainSuitWords(letter: string): string {
  return letter in SUIT_WORDS ? SUIT_WORDS[letter as SuitLetter] : letter === "O" ? "no trump suit" : "to be declared";
}

export function actionWords(action: TractorAction): string {
  switch (action.type) {
    case "declare":
      return `declared ${cardsInWords(action.cards)}`;
    case "bury":
      return `buried ${action.cards.length} cards`;
    case "play":
      return `played ${cardsInWords(action.cards)}`;
    case "deal":
      return "dealt a card to each seat in turn";
    case "closeDeclarations":
      return "closed the declarations";
    case "nextRound":
      return "began the next round";
  }
}

export function eventWords(event: TractorEngineEvent): string {
  switch (event.name) {
    case "roundStart":
      return `Round ${event.payload.round}: ${event.payload.dealer} deals; trumps ${mainSuitWords(event.payload.mainSuit)}, rank ${rankName(event.payload.currentRank)}`;
    case "declared":
      return `${event.payload.seat} declared ${cardsInWords(event.payload.cards)}`;
    case "trump":
      return `Trumps: ${mainSuitWords(event.payload.mainSuit)}${event.payload.declaredBy ? `, declared by ${event.payload.declaredBy}` : ", nobody declared"}`;
    case "buried":
      return `${event.payload.dealer} buried ${BURY_COUNT} cards`;
    case "played": {
      const failed = event.payload.failedThrow;
      return `${event.payload.seat} played ${cardsInWords(event.payload.cards)}${failed ? ` (the throw of ${cardsInWords(failed.attempted)} failed: penalty ${failed.penalty})` : ""}`;
    }
    case "trick":
      return `Trick ${event.payload.trick}: ${event.payload.winner} won ${event.payload.points} points; defenders' points ${event.payload.defenderPoints}`;
    case "roundEnd":
      return `Round ${event.payload.round} over: defenders scored ${event.payload.defenderPoints} (bonus ${event.payload.hiddenBonus}); team ${event.payload.team} goes up ${event.payload.levels}`;
    case "matchEnd":
      return `Team ${event.payload.winner} won the match after ${event.payload.rounds} rounds`;
  }
}
