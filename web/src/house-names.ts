/**
 * The house's players in words for people. Records, ratings and player pages' addresses keep the names the rooms
 * seat them under ("AI (ai, strong)", "Bot (normal)": rooms/house-bots.ts); the page shows "Computer" with its
 * level, as at the tables (seats.ts).
 */
import { HOUSE_BOTS, houseBotLevelWords } from "../../rooms/house-bots";

const HOUSE_WORDS = new Map(HOUSE_BOTS.map((bot) => [bot.name, `Computer (${houseBotLevelWords(bot)})`]));

/** A player's name as the page shows it: a house player's in words, anyone else's as it is. */
export function playerWords(name: string): string {
  return HOUSE_WORDS.get(name) ?? name;
}

/** Whether a name is one of the house's players. */
export function isHousePlayer(name: string): boolean {
  return HOUSE_WORDS.has(name);
}
