/**
 * Which of a Tractor hand's cards a person may still choose, and whether the cards chosen are a play, from the
 * room's `hint`. The hint lists the legal plays (each a multiset of cards: a pair is the same card twice); a card
 * may be chosen when some listed play holds it together with everything chosen already, so each choice narrows
 * the rest. A list cut at the hint's limit (`complete: false`) may leave legal plays out: then no card is ruled
 * out and the room judges the play. Pure (no DOM), so that it is tested on its own.
 */

/** What the hint says of the plays (TractorHint's part that matters here). */
export interface ListedPlays {
  readonly options: readonly (readonly string[])[];
  readonly complete: boolean;
}

export interface Selection {
  /** The hand's places (indices) that may be clicked now: the chosen ones (to put back) and those still possible. */
  readonly enabled: ReadonlySet<number>;
  /** The chosen cards are one of the listed plays (with an incomplete list: anything chosen, the room judges). */
  readonly playable: boolean;
  /** True when the list is incomplete and the room alone judges the play. */
  readonly roomJudges: boolean;
}

/** How many of each card a list holds. */
function countsOf(cards: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const card of cards) counts.set(card, (counts.get(card) ?? 0) + 1);
  return counts;
}

/** Whether the play holds every chosen card (each as many times as chosen). */
function holds(play: ReadonlyMap<string, number>, chosen: ReadonlyMap<string, number>): boolean {
  for (const [card, count] of chosen) if ((play.get(card) ?? 0) < count) return false;
  return true;
}

export function selectionOf(hand: readonly string[], chosenPlaces: ReadonlySet<number>, plays: ListedPlays): Selection {
  const places = hand.map((_, place) => place);
  const chosenCards = places.filter((place) => chosenPlaces.has(place)).map((place) => hand[place]);
  if (!plays.complete) return { enabled: new Set(places), playable: chosenCards.length > 0, roomJudges: true };
  const chosen = countsOf(chosenCards);
  const enabled = new Set<number>(chosenPlaces);
  let playable = false;
  for (const option of plays.options) {
    const play = countsOf(option);
    if (!holds(play, chosen)) continue;
    if (option.length === chosenCards.length) playable = chosenCards.length > 0;
    for (const place of places) {
      if (chosenPlaces.has(place)) continue;
      const card = hand[place];
      if ((play.get(card) ?? 0) > (chosen.get(card) ?? 0)) enabled.add(place);
    }
  }
  return { enabled, playable, roomJudges: false };
}
