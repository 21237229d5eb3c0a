/**
 * Every game of cardhall, one line each: the list the server, the records, the SDK, the bridge and the web page
 * build their own lists from (docs/architecture.md, "Adding a game"). Pure: anything may import it.
 */
import { evenStevenGame } from "./evensteven/game";
import { foolGame } from "./fool/game";
import { patienceGame } from "./patience/game";
import { tractorGame } from "./tractor/game";
import { namesOf } from "./kit/game";

export const GAMES = [evenStevenGame, foolGame, patienceGame, tractorGame] as const;

/** The games' room names, in the list's order. */
export const GAME_NAMES = namesOf(GAMES);
export type GameName = (typeof GAME_NAMES)[number];
/** The definition of each game, by name. */
export type GameNamed<Name extends GameName> = Extract<(typeof GAMES)[number], { readonly name: Name }>;

export function isGameName(name: string): name is GameName {
  return (GAME_NAMES as readonly string[]).includes(name);
}
