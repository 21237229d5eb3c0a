/**
 * The page's part of every game, one line each in PAGE_GAMES (in the lobby's order): the game's definition
 * (rooms/<game>/game.ts: its name and title), its table module, the lobby's buttons that start one, and how the
 * lobby reads a live table's listing (GET /rooms metadata, each room's own words).
 */
import type { GameDefinition } from "../../rooms/kit/game";
import type { GameName as AnyGameName } from "../../rooms/games";
import { evenStevenGame } from "../../rooms/evensteven/game";
import { foolGame } from "../../rooms/fool/game";
import { patienceGame } from "../../rooms/patience/game";
import { tractorGame } from "../../rooms/tractor/game";
import { holderWords } from "./results";
import type { TableModule } from "./table";
import { evenStevenTable } from "./tables/evensteven";
import { foolTable } from "./tables/fool";
import { patienceTable } from "./tables/patience";
import { tractorTable } from "./tables/tractor";

type Metadata = Record<string, unknown>;

export interface PageGame<Game extends GameDefinition = GameDefinition> {
  readonly game: Game;
  readonly table: TableModule;
  /** The lobby's buttons that open a new table of the game. */
  readonly starts: ReadonlyArray<{ text: string; path: string }>;
  /** The lobby's button for the game's rated queue, shown to a person logged in (a guest cannot queue). */
  readonly rated?: { text: string; path: string };
  /** A live table's open seats, from its listing. */
  openSeats?(meta: Metadata): number;
  /** Whether a person may take a seat of the live table from the lobby (`open`: its open seats). */
  takesFriend?(meta: Metadata, open: number): boolean;
  /** Where the table's game stands, when its listing has no `score`. */
  progress?(meta: Metadata): string;
  /** Who sits at the table. */
  players?(meta: Metadata): string;
}

const page = <Game extends GameDefinition>(entry: PageGame<Game>): PageGame<Game> => entry;

const evenSteven = page({
  game: evenStevenGame,
  table: evenStevenTable,
  starts: [{ text: "Play Even-Steven", path: "/play/evensteven" }],
  players: (meta) => String(meta.player ?? ""),
});

const fool = page({
  game: foolGame,
  table: foolTable,
  starts: [
    { text: "Play Fool against the AI", path: "/play/fool" },
    { text: "Play Fool with a friend", path: "/play/fool?mode=two-players" },
  ],
  rated: { text: "Play Fool rated", path: "/play/fool?rated=true" },
  openSeats: (meta) =>
    ((meta.players as Array<{ controller: string }> | undefined) ?? []).filter((seat) => seat.controller === "open")
      .length,
  takesFriend: (_meta, open) => open > 0,
  players: (meta) =>
    ((meta.players as Array<{ name: string; controller: string }> | undefined) ?? [])
      .map((seat) => holderWords(seat.controller === "player" ? "person" : seat.controller, seat.name))
      .join(" against "),
});

const tractor = page({
  game: tractorGame,
  table: tractorTable,
  starts: [
    { text: "Play Tractor beside three bots", path: "/play/tractor" },
    { text: "Watch four bots play Tractor", path: "/play/tractor?watch=bots" },
  ],
  openSeats: (meta) => Number(meta.openSeats ?? 0),
  takesFriend: (meta) =>
    Object.values((meta.seats ?? {}) as Record<string, string>).some((holder) => holder === "open" || holder === "bot"),
  progress: (meta) => (meta.round ? `round ${String(meta.round)}` : ""),
  players: (meta) =>
    Object.values((meta.seats ?? {}) as Record<string, string>)
      .map((holder) => holderWords(holder === "bot" || holder === "open" ? holder : "person", holder))
      .join(", "),
});

const patience = page({
  game: patienceGame,
  table: patienceTable,
  starts: [{ text: "Deal a Patience", path: "/play/patience" }],
  progress: (meta) => (meta.deal ? `deal ${String(meta.deal)}` : ""),
  players: (meta) => (meta.owner ? `dealt for ${String(meta.owner)}` : ""),
});

export const PAGE_GAMES = [evenSteven, fool, tractor, patience] as const;

export type GameName = (typeof PAGE_GAMES)[number]["game"]["name"];
/** Every game has its page: a game missing here does not compile. */
export const everyGameShown: [AnyGameName] extends [GameName] ? true : never = true;

export const GAMES = PAGE_GAMES.map((entry) => entry.game.name);

const BY_NAME = new Map<string, PageGame>(PAGE_GAMES.map((entry) => [entry.game.name, entry]));

export function isGame(name: string): name is GameName {
  return BY_NAME.has(name);
}

/** The page's part of a game. */
export function pageGame(name: GameName): PageGame {
  return BY_NAME.get(name)!;
}

export const GAME_TITLES = Object.fromEntries(PAGE_GAMES.map((entry) => [entry.game.name, entry.game.title])) as Record<
  GameName,
  string
>;

export const TABLES = Object.fromEntries(PAGE_GAMES.map((entry) => [entry.game.name, entry.table])) as Record<
  GameName,
  TableModule
>;
