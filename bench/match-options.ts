/** Each recorded game's options for matches the engines' own bots play in the benchmarks (whole matches, quickly). */
import type { RecordedGame } from "../rooms/kit/record";
import { classic } from "../rooms/tractor/ruleset";

export const BOT_MATCH_OPTIONS: Record<RecordedGame, unknown> = {
  evensteven: { n: 7 },
  fool: { dealer: 0, maxMoves: 2000 },
  patience: {},
  tractor: { trump: "fixed", mainSuit: "S", dealer: 0, startRanks: [12, 12], ruleset: classic },
};
