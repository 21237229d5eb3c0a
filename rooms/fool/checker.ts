/**
 * An independent judge for the winning-sequence problem, written apart from the search and the rules module
 * (it works on the printed text alone) so that the two can check each other. It accepts a sequence when it
 * lays out exactly the hand, every card covers the one before it (after a Queen only its named suit counts),
 * every card but the last makes the opponent skip, and Queens and jokers are written in full.
 */

const LAID = /^(\*?)([2-9TJQKA])([SCDH])([SCDH]?)$/;

interface Written {
  physical: string;
  value: string;
  suit: string;
  named: string;
}

function read(token: string): Written | null {
  const match = LAID.exec(token);
  if (match === null) return null;
  const [, star, value, suit, named] = match;
  return { physical: star ? "*" : value + suit, value, suit, named };
}

function makesOpponentSkip(card: Written): boolean {
  return card.value === "6" || card.value === "7" || card.value === "A" || (card.value === "K" && card.suit === "S");
}

function coversTop(top: Written, card: Written): boolean {
  if (top.value === "Q") return card.suit === top.named;
  return card.suit === top.suit || card.value === top.value;
}

/** null when `sequenceLine` is a winning sequence for the position; otherwise what is wrong with it. */
export function checkWinningLine(handLine: string, faceUpLine: string, sequenceLine: string): string | null {
  const unlaid = new Map<string, number>();
  for (const card of handLine.trim().toUpperCase().split(/\s+/)) unlaid.set(card, (unlaid.get(card) ?? 0) + 1);
  let top = read(faceUpLine.trim().toUpperCase());
  if (top === null) return `cannot read the face-up card "${faceUpLine.trim()}"`;
  const tokens = sequenceLine
    .trim()
    .split(/\s+/)
    .filter((token) => token.length > 0);
  for (let i = 0; i < tokens.length; i++) {
    const card = read(tokens[i]);
    if (card === null) return `"${tokens[i]}" is not a laid card`;
    if ((card.value === "Q") !== (card.named !== "")) return `${tokens[i]}: a Queen, and only a Queen, names a suit`;
    const held = unlaid.get(card.physical) ?? 0;
    if (held === 0) return `${tokens[i]} is not (or no longer) in the hand`;
    unlaid.set(card.physical, held - 1);
    if (!coversTop(top, card)) return `${tokens[i]} does not cover the card before it`;
    if (i < tokens.length - 1 && !makesOpponentSkip(card)) return `after ${tokens[i]} the opponent would move`;
    top = card;
  }
  const left = [...unlaid].filter(([, count]) => count > 0).map(([card]) => card);
  return left.length === 0 ? null : `the sequence leaves ${left.join(" ")} in the hand`;
}
