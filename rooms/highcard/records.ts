/**
 * High Card's records (server/records/games.ts): its engine replays them. The example game is no room of the
 * server's (the kit's tests define it) and has no standings: it is listed among the record engines only.
 */
import { defineRecordedGame } from "../kit/recorded-game";
import { highCardGame } from "./game";
import { highCardEngine } from "./match";

export const highCardRecords = defineRecordedGame({ game: highCardGame, engine: highCardEngine });
