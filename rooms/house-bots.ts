/**
 * The house's bots (docs/arena.md, "House bots"): the players the server itself fields, each an identity of kind
 * `house` with a reserved name and a rating of its own. Fool's are the room's AI at its levels and its simpler
 * policies; Tractor's the table's bot at each level. Their names are the ones the rooms record their seats under
 * (foolAiName, tractorBotName), so a house bot's rating is one whether it played from the queue or at a table
 * someone opened against it. Pure: the rated queues (server/arena) field them, the page names them (web/src).
 */
import { FOOL_AI_LEVELS, foolAiName, type FoolAiLevel, type FoolAiPolicy } from "./fool/protocol";
import { TRACTOR_BOT_LEVELS, tractorBotName, type TractorBotLevel } from "./tractor/protocol";

export interface FoolHouseBot {
  readonly game: "fool";
  readonly name: string;
  readonly ai: FoolAiPolicy;
  readonly aiLevel: FoolAiLevel;
}

export interface TractorHouseBot {
  readonly game: "tractor";
  readonly name: string;
  readonly level: TractorBotLevel;
}

export type HouseBot = FoolHouseBot | TractorHouseBot;

function foolHouseBot(ai: FoolAiPolicy, aiLevel: FoolAiLevel): FoolHouseBot {
  return { game: "fool", name: foolAiName({ ai, aiLevel }), ai, aiLevel };
}

/**
 * Fool: a random legal player and the greedy bot (the weakest, for a newcomer), and the AI at its levels above the
 * greedy bot ("easy" is the greedy bot itself, so it is not a second identity).
 */
export const FOOL_HOUSE_BOTS: readonly FoolHouseBot[] = [
  foolHouseBot("random", "normal"),
  foolHouseBot("greedy", "normal"),
  ...FOOL_AI_LEVELS.filter((level) => level !== "easy").map((level) => foolHouseBot("ai", level)),
];

/** Tractor: the table's bot at each level; three, so a lone player's three missing seats are three different bots. */
export const TRACTOR_HOUSE_BOTS: readonly TractorHouseBot[] = TRACTOR_BOT_LEVELS.map((level) => ({
  game: "tractor",
  name: tractorBotName(level),
  level,
}));

export const HOUSE_BOTS: readonly HouseBot[] = [...FOOL_HOUSE_BOTS, ...TRACTOR_HOUSE_BOTS];

/** A house bot's level in words for people: "easy", "strong", or "random moves" for Fool's random player. */
export function houseBotLevelWords(bot: HouseBot): string {
  if (bot.game === "tractor") return bot.level;
  if (bot.ai === "random") return "random moves";
  // Fool's easy level is the greedy bot itself.
  return bot.ai === "greedy" ? "easy" : bot.aiLevel;
}
