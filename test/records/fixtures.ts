/**
 * Finished games made by the engines themselves (their bots playing from a seed), shaped as a table hands them to
 * the records: realistic records whose replays are exact, without a server.
 */
import { playOut } from "../../rooms/kit/engine";
import type { FinishedGame, RecordedGame, RecordedSeat, RecordedStep } from "../../rooms/kit/record";
import type { TractorMatchOptions } from "../../rooms/tractor/match";
import { RECORD_ENGINES } from "../../server/records/replay";
import { classic } from "../../rooms/tractor/ruleset";
import { sealDeal } from "../../rooms/kit/deal-seal";

/** Each game's match options for the fixtures. */
const OPTIONS: Record<RecordedGame, unknown> = {
  evensteven: { n: 7 },
  fool: { dealer: 0, maxMoves: 2000 },
  patience: {},
  tractor: {
    trump: "fixed",
    mainSuit: "S",
    dealer: 0,
    startRanks: [14, 14],
    ruleset: classic,
  } satisfies TractorMatchOptions,
};

/** A whole game of `game` from `seed`, played by the engine's bots, ended at `endedAt`. */
export function finishedGame(game: RecordedGame, seed: number, seats: RecordedSeat[], endedAt: number): FinishedGame {
  const engine = RECORD_ENGINES[game];
  const options = OPTIONS[game];
  const played = playOut(engine, options, seed);
  const actions: RecordedStep[] = played.actions.map((step, index) => ({
    ...step,
    at: endedAt - played.actions.length + index,
    by: step.actor === "dealer" ? "dealer" : "bot",
    events: played.events[index + 1],
  }));
  const part = game === "tractor" ? "match" : "game";
  return {
    game,
    roomId: `room-${game}`,
    part,
    match: 1,
    options,
    seed,
    seats,
    start: played.events[0],
    actions,
    result: engine.result(played.state),
    startedAt: endedAt - 1000,
    endedAt,
  };
}

/** A Tractor match's first round as its record: the actions up to the round's end, and the round's result. */
export function tractorRound(seed: number, seats: RecordedSeat[], endedAt: number): FinishedGame {
  const match = finishedGame("tractor", seed, seats, endedAt);
  const ends = match.actions.findIndex((step) => step.events.some((event) => event.name === "roundEnd"));
  const roundEnd = match.actions[ends].events.find((event) => event.name === "roundEnd")!.payload as { round: number };
  const { round, ...result } = roundEnd;
  return { ...match, part: "round", round, actions: match.actions.slice(0, ends + 1), result };
}

export const person = (seat: number, name: string): RecordedSeat => ({ seat, name, kind: "person" });

/** The commitment and salt a table records with a deal from `seed` (a fresh salt each time). */
export function sealDealFields(seed: number): { commitment: string; salt: string } {
  const { commitment, salt } = sealDeal(seed);
  return { commitment, salt };
}

export { freePort } from "../e2e/ports";
