/**
 * Who wins a trick, by the statement's rules.
 *
 * A follow can win only if it is all of one group, of the lead's group or trumps, and can be arranged
 * into the lead's structure. Then, for a single, pair or tractor, the highest card wins; for a throw, the
 * highest honor card (the highest card among the longest components, arranged as favourably as possible).
 * Ties go to the earlier player. The statement adds, for throws: a not-trump throw is beaten only by a
 * same-structure all-trump throw, and a trump throw cannot be beaten at all.
 */
import { type Card, pointsOf } from "./cards";
import { type CardOrdering, sharedGroup, TRUMP_GROUP } from "./order";
import { bestHonor, type LeadStructure, leadStructure } from "./structure";

export interface TrickJudgement {
  readonly structure: LeadStructure;
  /** Index into the plays (0 = the leader) of the winner. */
  readonly winner: number;
  /** Points of all the cards played in the trick. */
  readonly points: number;
  /** Each play's honor card order when it could win, undefined when it could not. */
  readonly honors: readonly (number | undefined)[];
}

/** The order of the card a follow competes with, or undefined when it cannot win the trick. */
export function followHonor(
  follow: readonly Card[],
  structure: LeadStructure,
  ordering: CardOrdering,
): number | undefined {
  const group = sharedGroup(follow, ordering);
  if (group === undefined) return undefined;
  if (group !== structure.group && group !== TRUMP_GROUP) return undefined;
  if (structure.isThrow && (structure.group === TRUMP_GROUP || group !== TRUMP_GROUP)) return undefined;
  return bestHonor(follow, structure.lengths, ordering);
}

/**
 * Judges a complete trick: `plays[0]` is the lead, the rest follow in playing order. Throws an Error if the
 * lead mixes groups (callers validate leads first; the statement guarantees valid ones).
 */
export function judgeTrick(plays: readonly (readonly Card[])[], ordering: CardOrdering): TrickJudgement {
  const structure = leadStructure(plays[0], ordering);
  if (structure === undefined) throw new Error("a lead must be all trumps or all of one suit");
  const honors: (number | undefined)[] = [structure.components[0].top];
  let winner = 0;
  for (let index = 1; index < plays.length; index++) {
    const honor = followHonor(plays[index], structure, ordering);
    honors.push(honor);
    if (honor !== undefined && honor > (honors[winner] as number)) winner = index;
  }
  const points = plays.reduce((sum, play) => sum + pointsOf(play), 0);
  return { structure, winner, points, honors };
}
