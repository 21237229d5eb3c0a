/**
 * The options a table can change. The `classic` preset is the seed's rules exactly; the live-table rules
 * the seed leaves out (follow obligations) are always enforced by the round engine.
 */

/**
 * "always-accept": every throw stands, as the seed simplifies. "check-other-hands": a throw fails when
 * another player holds a higher component of the same shape in that suit; the thrower then plays only the
 * smallest such component and pays the penalty.
 */
export type ThrowPolicy = "always-accept" | "check-other-hands";

export interface TractorRuleset {
  readonly throwPolicy: ThrowPolicy;
  /**
   * Points a failed throw costs its side: added to the defenders' points when a declarer threw, taken from
   * them (never below zero at the end of the round) when a defender threw.
   */
  readonly failedThrowPenalty: number;
}

/** The seed's rules: throws are always accepted. */
export const classic: TractorRuleset = { throwPolicy: "always-accept", failedThrowPenalty: 10 };

/** The usual club rules: throws are checked against the other hands, 10 points per failed throw. */
export const checkedThrows: TractorRuleset = { throwPolicy: "check-other-hands", failedThrowPenalty: 10 };
