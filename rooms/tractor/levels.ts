/**
 * The bot levels a Tractor table offers (TRACTOR_BOT_LEVELS in protocol.ts), each a policy over the seat's view:
 * easy, normal (the heuristic, today's bot) and strong (the search). Pure; the easy bot's slips come from the
 * generator it is given, the strong bot's clock from its budget.
 */
import type { Random } from "../kit/random";
import { heuristicPolicy, type TractorPolicy } from "./policy";
import { randomPolicy } from "./policy-random";
import type { TractorBotLevel } from "./protocol";
import { classic, type TractorRuleset } from "./ruleset";
import { DEFAULT_SEARCH_BUDGET, searchBurial, searchPlay, searchPolicy, type SearchBudget } from "./search";
import type { SearchContext } from "./search-worlds";
import type { SeatView } from "./seat-view";
import type { Card } from "./cards";

/** How often the easy bot plays a random legal play instead of the heuristic's. */
export const EASY_SLIP_CHANCE = 1 / 3;

/** The easy bot: the heuristic, slipping into a random legal play now and then (it buries as the heuristic). */
export function easyPolicy(ruleset: TractorRuleset, random: Random): TractorPolicy {
  const heuristic = heuristicPolicy(ruleset);
  const slip = randomPolicy(random);
  return {
    choosePlay: (view) => (random() < EASY_SLIP_CHANCE ? slip.choosePlay(view) : heuristic.choosePlay(view)),
    chooseBurial: heuristic.chooseBurial,
  };
}

export function levelPolicy(
  level: TractorBotLevel,
  ruleset: TractorRuleset = classic,
  random: Random = Math.random,
  budget: SearchBudget = DEFAULT_SEARCH_BUDGET,
): TractorPolicy {
  if (level === "easy") return easyPolicy(ruleset, random);
  if (level === "strong") return searchPolicy(ruleset, budget);
  return heuristicPolicy(ruleset);
}

/** One strong decision as it crosses to a thread: plain data only. */
export interface TractorAiTask {
  readonly view: SeatView;
  readonly rules: TractorRuleset;
  readonly context: SearchContext;
  /** The time the search may take (shrunk under load). */
  readonly timeMs: number;
  /** When the answer is due (Date.now()'s clock; server/ai/ai-admission.ts): a late start searches only what is left. */
  readonly answerBy?: number;
}

/** Who makes the strong decisions: the server's threads (server/ai/tractor-ai-pool.ts), or in-process. */
export interface TractorAiDecider {
  decide(task: Omit<TractorAiTask, "timeMs">): Promise<Card[]>;
  /** Starts a thread ahead of the first decision, if none runs (a start takes up to seconds on a busy machine). */
  warm?(): void;
}

/** The strong decision (a play, or the dealer's burial) on the calling thread, within the default time. */
export function decideInProcess(
  task: Omit<TractorAiTask, "timeMs">,
  timeMs = DEFAULT_SEARCH_BUDGET.timeMs ?? 100,
): Card[] {
  const search = task.view.phase === "burying" ? searchBurial : searchPlay;
  return search(task.view, task.rules, { ...DEFAULT_SEARCH_BUDGET, timeMs, now: () => performance.now() }, task.context)
    .cards;
}

/** The heuristic's decision for a strong task that cannot wait for a search (overload, or a thread over its limit). */
export function decideAtOnce(task: Omit<TractorAiTask, "timeMs">): Card[] {
  const heuristic = heuristicPolicy(task.rules);
  return task.view.phase === "burying" ? heuristic.chooseBurial(task.view) : heuristic.choosePlay(task.view);
}
