/**
 * What the records know of every game (rooms/<game>/records.ts), one line each, in the order of rooms/games.ts:
 * the engine that replays a record and what a record does to the standings. Pure: no room is loaded.
 */
import type { GameEvent, MatchEngine } from "../../rooms/kit/engine";
import type { GameEffect, RecordOutcome } from "../../rooms/kit/recorded-game";
import type { GameName } from "../../rooms/games";
import { evenStevenRecords } from "../../rooms/evensteven/records";
import { foolRecords } from "../../rooms/fool/records";
import { highCardRecords } from "../../rooms/highcard/records";
import { patienceRecords } from "../../rooms/patience/records";
import { tractorRecords } from "../../rooms/tractor/records";

export const RECORDED_GAME_ENTRIES = [evenStevenRecords, foolRecords, patienceRecords, tractorRecords] as const;

/** The example game: its engine replays its records (the kit's tests make them), and it has no standings. */
const EXAMPLE_GAME_ENTRIES = [highCardRecords] as const;

/** Every game listed once: a game missing here does not compile. */
type Listed = (typeof RECORDED_GAME_ENTRIES)[number]["game"]["name"];
export const everyGameRecorded: [GameName] extends [Listed] ? true : never = true;

/** An engine of any game, for code that handles every game's records alike (replays). */
export type AnyEngine = MatchEngine<unknown, unknown, unknown, GameEvent, unknown, unknown>;

/** The engine of each game that keeps records, and of the example game, by room name. */
export const RECORD_ENGINES: Record<string, AnyEngine> = Object.fromEntries(
  [...RECORDED_GAME_ENTRIES, ...EXAMPLE_GAME_ENTRIES].map(({ game, engine }) => [
    game.name,
    engine as unknown as AnyEngine,
  ]),
);

const STANDINGS = new Map<string, ((record: RecordOutcome) => GameEffect) | undefined>(
  RECORDED_GAME_ENTRIES.map((entry) => [entry.game.name, entry.standing]),
);

/** What a record does to its game's standings; nothing for a game without standings. */
export function standingOf(record: RecordOutcome): GameEffect {
  return STANDINGS.get(record.game)?.(record) ?? { counts: [] };
}
