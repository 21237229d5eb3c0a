/**
 * The server's rooms, one line per game (rooms/games.ts): the game's definition, its room class and the server's
 * services the room takes besides the records' writer. app.ts registers each under the game's name.
 */
import type { Room } from "@colyseus/core";
import type { GameDefinition } from "../rooms/kit/game";
import type { GameName } from "../rooms/games";
import { evenStevenGame } from "../rooms/evensteven/game";
import { EvenStevenRoom } from "../rooms/evensteven/room";
import { foolGame } from "../rooms/fool/game";
import { FoolRoom } from "../rooms/fool/room";
import { patienceGame } from "../rooms/patience/game";
import { PatienceRoom } from "../rooms/patience/room";
import { tractorGame } from "../rooms/tractor/game";
import { TractorRoom } from "../rooms/tractor/room";

/** What the server hands a room besides the records' writer, by name. */
export type ServerService = "aiThreads" | "tractorAi";

export interface ServerRoom<Game extends GameDefinition = GameDefinition> {
  readonly game: Game;
  readonly room: new () => Room;
  readonly services: readonly ServerService[];
}

const served = <Game extends GameDefinition>(
  game: Game,
  room: new () => Room,
  services: readonly ServerService[] = [],
): ServerRoom<Game> => ({ game, room, services });

export const SERVER_ROOMS = [
  served(evenStevenGame, EvenStevenRoom),
  served(foolGame, FoolRoom, ["aiThreads"]),
  served(patienceGame, PatienceRoom),
  served(tractorGame, TractorRoom, ["tractorAi"]),
] as const;

/** Every game served once: a game missing here does not compile. */
type Listed = (typeof SERVER_ROOMS)[number]["game"]["name"];
export const everyGameServed: [GameName] extends [Listed] ? true : never = true;
