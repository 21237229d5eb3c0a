/**
 * The house's bots (docs/arena.md, "House bots"): the players the server itself fields, each an identity of kind
 * `house` with a reserved name and a rating of its own, so that a lone player in a rated queue always gets a game.
 * Fool's are the room's AI at its levels and its simpler policies; Tractor's the table's bot at each level. Their
 * names are the ones the rooms record their seats under (foolAiName, tractorBotName), so a house bot's rating is
 * one whether it played from the queue or at a table someone opened against it.
 */
import { FOOL_AI_LEVELS, foolAiName, type FoolAiLevel, type FoolAiPolicy } from "../../rooms/fool/protocol";
import { TRACTOR_BOT_LEVELS, tractorBotName, type TractorBotLevel } from "../../rooms/tractor/protocol";
import { nameKey } from "../identity/names";

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
export const TRACTOR_HOUSE_BOTS: readonly TractorHouseBot[] = TRACTOR_BOT_LEVELS.map((level) => ({ game: "tractor", name: tractorBotName(level), level }));

export const HOUSE_BOTS: readonly HouseBot[] = [...FOOL_HOUSE_BOTS, ...TRACTOR_HOUSE_BOTS];

/**
 * The keys of the house's names with their brackets and commas dropped: "AI (ai, strong)" cannot be registered
 * (brackets are not in the names rule), and neither can "AI ai strong", which reads as it.
 */
const HOUSE_KEYS = new Set(HOUSE_BOTS.map(({ name }) => nameKey(name.replace(/[^A-Za-z0-9 ]/g, ""))));

/** Whether a name is the house's (or the same name under the rule of server/identity/names.ts). */
export function isHouseName(name: string): boolean {
  return HOUSE_KEYS.has(nameKey(name.replace(/[^A-Za-z0-9 ]/g, "")));
}
