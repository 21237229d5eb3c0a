/**
 * What the Tractor table says and in which order it shows cards, apart from the DOM so that it is tested on its
 * own: the hand grouped by suit with the trumps first in the round's trump order (the engine's own ordering,
 * rooms/tractor/order.ts), the point cards the defenders took, the ranks and rules in words, and the page's
 * `startRanks=A,A` option read into the join option's tuple.
 */
import { cardName, parseCard, type Card } from "../../../rooms/tractor/cards";
import { cardOrdering, sortedHighFirst, TRUMP_GROUP, type MainSuit } from "../../../rooms/tractor/order";
import type { TractorJoinOptions, TractorRankOption, TractorTrick } from "../../../rooms/tractor/protocol";

const SUIT_INDEX: Record<string, number> = { H: 0, S: 1, C: 2, D: 3 };
const RED = new Set(["H", "D"]);

/** The plain suits' order after the trumps: colours alternating where they can (spades, hearts, clubs, diamonds). */
function plainSuitOrder(mainSuit: string): string[] {
  const left = ["S", "H", "C", "D"].filter((suit) => suit !== mainSuit);
  const black = left.filter((suit) => !RED.has(suit));
  const red = left.filter((suit) => RED.has(suit));
  const [more, fewer] = black.length >= red.length ? [black, red] : [red, black];
  return more.flatMap((suit, at) => (fewer[at] ? [suit, fewer[at]] : [suit]));
}

/**
 * The hand as a person sorts it: the trumps first (highest first, in the round's order), then each plain suit
 * together, highest first. While trumps are still being declared (`mainSuit` ""), only the jokers and the
 * current rank's cards are trumps. Cards the engine does not know keep their place at the end.
 */
export function handInSuits(hand: readonly string[], mainSuit: string, currentRank: number): string[] {
  const rank = currentRank >= 2 && currentRank <= 14 ? currentRank : 2;
  const ordering = cardOrdering({ mainSuit: (mainSuit === "" ? "O" : mainSuit) as MainSuit, currentRank: rank });
  const cards: Card[] = [];
  const unknown: string[] = [];
  for (const name of hand) {
    const card = parseCard(name);
    if (card === undefined) unknown.push(name);
    else cards.push(card);
  }
  const groups = [TRUMP_GROUP, ...plainSuitOrder(mainSuit).map((suit) => SUIT_INDEX[suit])];
  const sorted = sortedHighFirst(cards, ordering);
  return [
    ...groups.flatMap((group) => sorted.filter((card) => ordering.group[card] === group).map(cardName)),
    ...unknown,
  ];
}

/** Whether a card counts points (fives, tens and kings). */
export function isPointCard(card: string): boolean {
  return /^[HSCD][5TK]$/.test(card);
}

/** The point cards of the tricks the defenders won, trick by trick in order. */
export function pointCardsTaken(tricks: readonly TractorTrick[], defenders: readonly string[]): string[] {
  return tricks
    .filter((trick) => defenders.includes(trick.winner))
    .flatMap((trick) => trick.plays.flatMap((play) => play.cards.filter(isPointCard)));
}

const RANK_NAMES: Record<number, string> = { 11: "J", 12: "Q", 13: "K", 14: "A" };

/** A rank as people write it: 2 … 10, J, Q, K, A ("past A" once a team has passed Ace). */
export function rankName(rank: number): string {
  return rank > 14 ? "past A" : (RANK_NAMES[rank] ?? String(rank));
}

/** The ranks of the level track, 2 … A. */
export const LEVELS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14] as const;

/** The table's rules as the header's facts line says them. */
export function rulesWords(rules: {
  throws?: string;
  failedThrowPenalty?: number;
  startRanks?: readonly number[];
  botLevels?: Readonly<Record<string, string | undefined>>;
}): string {
  const penalty = rules.failedThrowPenalty ?? 10;
  const throws =
    rules.throws === "check-other-hands"
      ? `Checked throws, ${penalty} point${penalty === 1 ? "" : "s"} a failed throw`
      : rules.throws === "always-accept"
        ? "Every throw stands (the statement's rule)"
        : "";
  const ranks = rules.startRanks?.some((rank) => rank !== 2)
    ? `starting at ${rules.startRanks.map(rankName).join(" and ")}`
    : "";
  const levels = [...new Set(Object.values(rules.botLevels ?? {}).filter((level) => level && level !== "normal"))];
  const computers = levels.length === 0 ? "" : `${levels.join(" and ")} computer players`;
  return [throws, ranks, computers].filter(Boolean).join(" · ");
}

const RANK_LETTERS = ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"] as const;

/**
 * The page's `startRanks` option ("A,A", "10,10", "2,K") as the join option's tuple; undefined when absent.
 * Throws, in words, when it is not two ranks.
 */
export function startRanksOption(text: string | number | boolean | undefined): TractorJoinOptions["startRanks"] {
  if (text === undefined) return undefined;
  const parts = String(text)
    .split(",")
    .map((part) => part.trim().toUpperCase());
  const ranks = parts.map((part): TractorRankOption | undefined => {
    if (/^\d+$/.test(part)) return Number(part) >= 2 && Number(part) <= 14 ? Number(part) : undefined;
    return (RANK_LETTERS as readonly string[]).includes(part) ? (part as TractorRankOption) : undefined;
  });
  if (ranks.length !== 2 || ranks.some((rank) => rank === undefined))
    throw new Error(`the starting ranks "${text}" are not two ranks such as A,A or 10,10`);
  return [ranks[0]!, ranks[1]!];
}

/** A rank option (a letter or a number) as a number 2..14. */
export function rankNumber(rank: TractorRankOption): number {
  return typeof rank === "number" ? rank : RANK_LETTERS.indexOf(rank) + 2;
}

const SUIT_SYMBOL: Record<string, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** Cards short, as a line of news says them: "A♠ A♠ K♥", "red joker". */
export function cardsShort(cards: readonly string[]): string {
  return cards
    .map((card) =>
      card === "RJ"
        ? "red joker"
        : card === "BJ"
          ? "black joker"
          : `${card[1] === "T" ? "10" : card[1]}${SUIT_SYMBOL[card[0]] ?? card[0]}`,
    )
    .join(" ");
}
