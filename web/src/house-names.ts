/**
 * The house's players in words for people. Records, ratings and player pages' addresses keep the names the rooms
 * seat them under ("AI (ai, strong)", "Bot (normal)": server/arena/house-bots.ts); the page shows "Computer" with its
 * level, as at the tables (seats.ts).
 */
import { FOOL_AI_LEVELS, foolAiName } from "../../rooms/fool/protocol";
import { TRACTOR_BOT_LEVELS, tractorBotName } from "../../rooms/tractor/protocol";

const HOUSE_WORDS = new Map<string, string>([
  [foolAiName({ ai: "random", aiLevel: "normal" }), "Computer (random moves)"],
  // Fool's easy level is the greedy bot itself.
  [foolAiName({ ai: "greedy", aiLevel: "normal" }), "Computer (easy)"],
  ...FOOL_AI_LEVELS.filter((level) => level !== "easy").map((level): [string, string] => [foolAiName({ ai: "ai", aiLevel: level }), `Computer (${level})`]),
  ...TRACTOR_BOT_LEVELS.map((level): [string, string] => [tractorBotName(level), `Computer (${level})`]),
]);

/** A player's name as the page shows it: a house player's in words, anyone else's as it is. */
export function playerWords(name: string): string {
  return HOUSE_WORDS.get(name) ?? name;
}

/** Whether a name is one of the house's players. */
export function isHousePlayer(name: string): boolean {
  return HOUSE_WORDS.has(name);
}
