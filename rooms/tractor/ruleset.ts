/**
 * The options a table can change, gathered in one ruleset: validated once (`tractorRulesOption` in rules-option.ts,
 * kept apart so that the judges do not load zod), then read by the
 * round engine, the match engine, the bots and bin/tractor-sim. The `classic` preset is the statement's rules
 * exactly (the original problem's text); the live-table rules the statement leaves out (follow obligations) are
 * always enforced by the round engine.
 *
 * Each option names a place where tables, the statement and the accepted judges may read the rules differently;
 * the first value listed is always the statement's (the default).
 */
/**
 * "always-accept": every throw stands, as the statement simplifies. "check-other-hands": a throw fails when
 * another player holds a higher component of the same shape in that suit; the thrower then plays only the
 * smallest such component and pays the penalty.
 */
export const THROW_POLICIES = ["always-accept", "check-other-hands"] as const;
export type ThrowPolicy = (typeof THROW_POLICIES)[number];

/**
 * The hidden cards' multiplier when the defenders win the last trick: "longest-component" (the statement's 2^w, w
 * the length of the last lead's longest component), "lead-cards" (2^n, n the number of cards in the last lead, as
 * some tables count a throw) or "double" (always 2, the simplest club rule).
 */
export const HIDDEN_MULTIPLIERS = ["longest-component", "lead-cards", "double"] as const;
export type HiddenMultiplier = (typeof HIDDEN_MULTIPLIERS)[number];

/**
 * A record that plays some card more often than the two decks hold (the statement's own sample plays S3 three
 * times): "leave-none-hidden" (what the accepted judges do: no copy of that card is hidden) or "reject" (the
 * record is malformed).
 */
export const OVERPLAYED_CARDS = ["leave-none-hidden", "reject"] as const;
export type OverplayedCards = (typeof OVERPLAYED_CARDS)[number];

export interface TractorRuleset {
  readonly throwPolicy: ThrowPolicy;
  /**
   * Points a failed throw costs its side: added to the defenders' points when a declarer threw, taken from
   * them (never below zero at the end of the round) when a defender threw.
   */
  readonly failedThrowPenalty: number;
  readonly hiddenMultiplier: HiddenMultiplier;
  /** Whether a seat may strengthen its own standing single into the pair of the same card (it may never override itself otherwise). */
  readonly strengthenOwnDeclaration: boolean;
  /** Whether a pair of black or red jokers declares (no main suit); when false only current-rank cards declare. */
  readonly jokerPairsDeclare: boolean;
  readonly overplayedCards: OverplayedCards;
}

/** The statement's rules: throws are always accepted. */
export const classic: TractorRuleset = {
  throwPolicy: "always-accept",
  failedThrowPenalty: 10,
  hiddenMultiplier: "longest-component",
  strengthenOwnDeclaration: true,
  jokerPairsDeclare: true,
  overplayedCards: "leave-none-hidden",
};

/** The usual club rules: throws are checked against the other hands, 10 points per failed throw. */
export const checkedThrows: TractorRuleset = { ...classic, throwPolicy: "check-other-hands" };

/** A whole ruleset: `base` with the given options over it (options already validated by `tractorRulesOption`). */
export function tractorRuleset(options: Partial<TractorRuleset> = {}, base: TractorRuleset = classic): TractorRuleset {
  const defined = Object.entries(options).filter(([, value]) => value !== undefined);
  return { ...base, ...(Object.fromEntries(defined) as Partial<TractorRuleset>) };
}

/** The exponent of the hidden cards' multiplier (2^exponent), from the last lead's component lengths (longest first). */
export function hiddenMultiplierExponent(
  ruleset: Pick<TractorRuleset, "hiddenMultiplier">,
  lastLeadLengths: readonly number[],
): number {
  if (ruleset.hiddenMultiplier === "double") return 1;
  if (ruleset.hiddenMultiplier === "lead-cards") return lastLeadLengths.reduce((sum, length) => sum + length, 0);
  return lastLeadLengths[0];
}
