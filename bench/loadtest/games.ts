/** The load test seats the SDK's scripted tables (client-sdk/bots/tables.ts); each seat gets a latency probe. */
export { BOT_TABLES as GAME_DRIVERS, scriptedSeats, type BotGame as GameName } from "../../client-sdk/bots/tables";
