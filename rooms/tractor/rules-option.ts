/**
 * The rule options as a room's `rules` option and `tractor-sim --rules` take them, validated: any of the ruleset's
 * fields (rooms/tractor/ruleset.ts). Apart from the ruleset so that only the programs that validate options load zod.
 */
import { z } from "zod";
import { HIDDEN_MULTIPLIERS, OVERPLAYED_CARDS, THROW_POLICIES } from "./ruleset";

/** Any of the ruleset's fields; unknown fields are refused. */
export const tractorRulesOption = z.strictObject({
  throwPolicy: z.enum(THROW_POLICIES).optional(),
  failedThrowPenalty: z.number().int().min(0).max(200).optional(),
  hiddenMultiplier: z.enum(HIDDEN_MULTIPLIERS).optional(),
  strengthenOwnDeclaration: z.boolean().optional(),
  jokerPairsDeclare: z.boolean().optional(),
  overplayedCards: z.enum(OVERPLAYED_CARDS).optional(),
});
export type TractorRulesOption = z.infer<typeof tractorRulesOption>;
