/**
 * Leaving a seat safely. While a person holds a seat in a game under way, closing or reloading the tab asks the
 * browser's question, and going elsewhere in the page (a link, Back) asks first. A page left this way drops its
 * connection without giving the seat up (the room holds it for its reconnection window) and keeps the seat's
 * token, so Forward, or the table's address, takes the same seat back.
 */
type Question = () => string | null;

let question: Question | null = null;

/** Guards the page while `ask()` says what would be lost (null: nothing, leave freely). Returns the unguard. */
export function guardSeat(ask: Question): () => void {
  question = ask;
  return () => {
    if (question === ask) question = null;
  };
}

/** Asks the person when leaving would lose something; true when the page may go. */
export function mayLeave(): boolean {
  const asking = question?.();
  return !asking || window.confirm(asking);
}

window.addEventListener("beforeunload", (event) => {
  if (!question?.()) return;
  event.preventDefault();
  event.returnValue = ""; // older browsers need a value to ask
});
