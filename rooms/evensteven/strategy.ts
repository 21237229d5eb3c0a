import { cardValue, covers, type Card } from "./cards";

/**
 * The optimal answer to a dealt card: the lowest card that covers it, or the lowest card when none does.
 * Covering with the lowest sufficient card keeps every higher card for later, so whenever some order of play
 * wins against the cards still to come, this one does too: it never loses unnecessarily.
 */
export function optimalPlay(hand: readonly Card[], dealt: Card): Card {
  if (hand.length === 0) throw new Error("optimalPlay needs a card in the hand");
  const byValue = hand.slice().sort((a, b) => cardValue(a) - cardValue(b));
  return byValue.find((card) => covers(card, dealt)) ?? byValue[0];
}
