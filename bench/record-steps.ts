/**
 * npm run bench:record-steps
 *
 * What a table's record-to-be costs while its game is played, and what making the record costs at its end
 * (rooms/kit/recorded-steps.ts): for each game, whole matches played by the engines' own bots, then
 * - a step's JSON text with its events and without them (what a table keeps a step, in bytes, before and since
 *   steps are kept without their events), and what writing each costs;
 * - what replaying a step costs: the engine's `apply` again, which gives a record its steps' events when it is made.
 * Medians of several rounds, each round over every match.
 */
import { performance } from "node:perf_hooks";
import { playOut, replayMatch, type RecordedAction } from "../rooms/kit/engine";
import { RECORD_ENGINES } from "../server/records/replay";
import type { RecordedGame } from "../rooms/kit/record";
import { BOT_MATCH_OPTIONS } from "./match-options";

const MATCHES = 30;
const ROUNDS = 7;
/** A step as a table keeps it: when it was taken and who made it, besides the action. */
const AT = 1_795_805_627_203;

interface Played {
  readonly seed: number;
  readonly actions: readonly RecordedAction<unknown>[];
  readonly events: readonly (readonly unknown[])[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** µs a step of `run` over every match, the median of ROUNDS rounds. */
function perStep(matches: readonly Played[], run: (match: Played) => void): number {
  const steps = matches.reduce((sum, match) => sum + match.actions.length, 0);
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    for (const match of matches) run(match);
    rounds.push(((performance.now() - started) * 1000) / steps);
  }
  return median(rounds);
}

function measure(game: RecordedGame): string {
  const engine = RECORD_ENGINES[game];
  const options = BOT_MATCH_OPTIONS[game];
  const matches: Played[] = Array.from({ length: MATCHES }, (_, index) => ({
    seed: index + 1,
    ...playOut(engine, options, index + 1),
  }));
  const stepOf = (match: Played, index: number) => ({ ...match.actions[index]!, at: AT, by: "bot" });
  let withEvents = 0;
  let without = 0;
  let steps = 0;
  for (const match of matches) {
    match.actions.forEach((_, index) => {
      withEvents += JSON.stringify({ ...stepOf(match, index), events: match.events[index + 1] }).length;
      without += JSON.stringify(stepOf(match, index)).length;
      steps++;
    });
  }
  const writeWith = perStep(matches, (match) =>
    match.actions.forEach((_, index) => JSON.stringify({ ...stepOf(match, index), events: match.events[index + 1] })),
  );
  const writeWithout = perStep(matches, (match) =>
    match.actions.forEach((_, index) => JSON.stringify(stepOf(match, index))),
  );
  const replay = perStep(matches, (match) => replayMatch(engine, options, match.seed, match.actions));
  return [
    `${game.padEnd(10)} ${(steps / MATCHES).toFixed(0).padStart(5)} steps a match`,
    `a step ${(withEvents / steps).toFixed(0)} bytes with its events, ${(without / steps).toFixed(0)} without`,
    `written in ${writeWith.toFixed(2)} / ${writeWithout.toFixed(2)} µs`,
    `replayed in ${replay.toFixed(2)} µs (medians of ${ROUNDS} rounds over ${MATCHES} matches)`,
  ].join("; ");
}

for (const game of Object.keys(BOT_MATCH_OPTIONS) as RecordedGame[]) console.log(measure(game));
