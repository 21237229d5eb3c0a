/**
 * What the Fool table says in words, apart from the DOM: a seat's name as people read it (the room's AI as
 * "Computer", with its level), the moves list's sentences for a game's start, each move and its effects, and the
 * end, a move as the replay's step list says it, the end in the verdict's sentence and the table's mode.
 */
import type {
  FoolEvent,
  FoolMove,
  FoolMoveEvent,
  FoolOverEvent,
  FoolStartEvent,
  FoolStateView,
} from "../../../client-sdk/index";
import type { FoolTableView } from "../../../rooms/fool/protocol";
import { cardFace, cardName, SUIT_WORDS, type SuitLetter } from "../cards";
import { holderWords } from "../seats";
import type { SeatNamer } from "../steps";

/** The room's AI seats are named after their policy ("AI (greedy)"): the page says "Computer", with a level. */
const AI_NAME = /^AI \((\w+)(?:, (\w+))?\)$/;
const AI_LEVELS: Record<string, string | undefined> = { ai: undefined, greedy: "easy", random: "random" };

/** The level the AI's seat name carries ("AI (ai, strong)": strong; "AI (greedy)": easy; "AI (ai)": the usual, none said). */
export function aiLevelOf(name: string): string | undefined {
  const match = AI_NAME.exec(name);
  return match?.[2] ?? AI_LEVELS[match?.[1] ?? ""];
}

/** A seat's name as people read it: the person's name, "Computer" for the room's AI (a person's seat the AI took keeps the name). */
export function seatName(view: FoolStateView | undefined, seat: number): string {
  const held = view?.seats[seat];
  if (held === undefined) return `Seat ${seat + 1}`;
  if (held.controller === "ai" && AI_NAME.test(held.name)) return holderWords({ kind: "computer" });
  return held.name || holderWords({ kind: "person", name: "" });
}

/** Names a seat in a sentence: "You" for one's own seat (`mine`), else its name; `you` tells the verb's form. */
export interface Namer {
  (seat: number): string;
  you(seat: number): boolean;
}

export function namer(view: () => FoolStateView | undefined, mine: number | null): Namer {
  const name = ((seat: number) => (seat === mine ? "You" : seatName(view(), seat))) as Namer;
  name.you = (seat: number) => seat === mine;
  return name;
}

/** Names for a replay or the record's words: nobody is "You". */
export function plainNamer(name: SeatNamer): Namer {
  const named = ((seat: number) => name(seat)) as Namer;
  named.you = () => false;
  return named;
}

/** A card laid as the moves list says it: "QH, queen of hearts, naming hearts", a joker "as six of diamonds". */
function laidWords({ card, as, namedSuit }: FoolStartEvent["faceUp"]): string {
  return `${cardName(card)}${card !== as ? ` as ${cardFace(as).words}` : ""}${namedSuit ? `, naming ${SUIT_WORDS[namedSuit as SuitLetter]}` : ""}`;
}

export function describeStart(event: Pick<FoolStartEvent, "faceUp" | "turn">, game: number, name: Namer): string {
  const turn = name.you(event.turn) ? "your turn" : `${name(event.turn)} to move`;
  return `Game ${game} dealt: ${laidWords(event.faceUp)} face up; ${turn}`;
}

export function describeOver(
  event: Pick<FoolOverEvent, "outcome" | "moves" | "seed" | "fool">,
  game: number,
  name: Namer,
): string {
  if (event.outcome === "capped")
    return `Game ${game} stopped after ${event.moves} moves, no Fool (seed ${event.seed})`;
  const fool = event.fool ?? -1;
  return `Game ${game} over: ${name(fool)} ${name.you(fool) ? "are" : "is"} the Fool (seed ${event.seed})`;
}

export function describeEvent(event: FoolEvent, name: Namer): string {
  const who = name(event.seat);
  const you = name.you(event.seat);
  switch (event.type) {
    case "played":
      return `${who} laid ${laidWords(event.faceUp)}`;
    case "drew":
      return `${who} drew ${event.count}`;
    case "penalised":
      // An Ace makes the next player miss a turn without drawing; a 6, 7 or the King of spades also makes them draw
      // (as many as the deck still holds, perhaps none).
      return event.drew === 0
        ? `${who} ${you ? "miss" : "misses"} a turn`
        : `${who} ${you ? "draw" : "draws"} ${event.drew} and ${you ? "miss" : "misses"} a turn`;
    case "passed":
      return `${who} passed`;
    case "won":
      return `${who} ${you ? "are" : "is"} out (place ${event.place})`;
    case "fool":
      return `${who} ${you ? "are" : "is"} the Fool`;
  }
}

export function describeMove(
  event: Pick<FoolMoveEvent, "number" | "events" | "seat"> & { by?: FoolMoveEvent["by"] },
  name: Namer,
): string {
  const by =
    event.by === "clock"
      ? name.you(event.seat)
        ? " (your time ran out: the computer moved for you)"
        : ` (time ran out: the computer moved for ${name(event.seat)})`
      : "";
  return `${event.number}. ${event.events.map((inner) => describeEvent(inner, name)).join("; ")}${by}`;
}

export function moveText(move: FoolMove): string {
  if (move.kind !== "play") return move.kind === "draw" ? "Draw" : "Pass";
  return `Play ${move.card}${move.as && move.as !== move.card ? ` as ${move.as}` : ""}${move.namedSuit ? ` naming ${SUIT_WORDS[move.namedSuit as SuitLetter]}` : ""}`;
}

/** The end in a sentence: who is the Fool, said to the person as "you". */
export function overTitle(view: FoolStateView, mine: number | null): string {
  if (view.outcome === "capped") return "Game over: no Fool (move limit)";
  if (mine !== null)
    return view.fool === mine
      ? "Game over: you are the Fool"
      : `Game over: you won, ${seatName(view, view.fool)} is the Fool`;
  return `Game over: ${seatName(view, view.fool)} is the Fool`;
}

export function modeWords(mode: FoolTableView["mode"]): string {
  return mode === "two-players"
    ? "Two people"
    : mode === "ai-vs-ai"
      ? "Computer against computer"
      : "Against the computer";
}
