/**
 * A record played again through its game's engine: the timeline of what the table showed after each action (every
 * seat's view and the spectators', so every card is visible: the game is over), checked against the record at
 * every step. A record the engine does not reproduce (edited by hand, or made under other rules) is refused with
 * the first action that disagrees.
 */
import { dealInPlay, SPECTATOR, type GameEvent } from "../../rooms/kit/engine";
import {
  RECORD_FORMAT,
  type GameRecord,
  type RecordedEvent,
  type Replay,
  type ReplayedDeal,
  type ReplayFrame,
} from "../../rooms/kit/record";
import { commitmentOf } from "../../rooms/kit/deal-seal";
import { RECORD_ENGINES, type AnyEngine } from "./games";

export { RECORD_ENGINES, type AnyEngine };

/** The record and the engine disagree: `step` is the action (1 for the first; 0 for the start or the record itself). */
export class ReplayMismatch extends Error {
  constructor(
    readonly step: number,
    message: string,
  ) {
    super(step === 0 ? message : `action ${step}: ${message}`);
  }
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Replays a record through its engine and returns its timeline; throws ReplayMismatch where they disagree. */
export function replayRecord(record: GameRecord): Replay {
  if (record.format !== RECORD_FORMAT)
    throw new ReplayMismatch(0, `the record's format is ${record.format}; this build replays format ${RECORD_FORMAT}`);
  const engine = RECORD_ENGINES[record.game];
  if (engine === undefined) throw new ReplayMismatch(0, `no engine for the game "${record.game}"`);
  const started = engine.start(record.options, record.seed);
  if (!same(started.events, record.start))
    throw new ReplayMismatch(0, "the start's events differ from the record's (options or seed changed?)");
  let state = started.state;
  const frames: ReplayFrame[] = [frameOf(engine, record, state, 0, started.events)];
  record.actions.forEach((step, index) => {
    const outcome = engine.apply(state, step.actor, step.action);
    if (!outcome.ok)
      throw new ReplayMismatch(
        index + 1,
        `the engine refuses ${describeActor(step.actor)}'s ${JSON.stringify(step.action)}: ${outcome.code} ${outcome.reason}`,
      );
    if (!same(outcome.events, step.events))
      throw new ReplayMismatch(
        index + 1,
        `the events differ: recorded ${JSON.stringify(step.events)}, replayed ${JSON.stringify(outcome.events)}`,
      );
    state = outcome.state;
    frames.push({
      ...frameOf(engine, record, state, index + 1, outcome.events),
      actor: step.actor,
      action: step.action,
      at: step.at,
      by: step.by,
    });
  });
  checkEnding(engine, record, state);
  return {
    id: record.id,
    game: record.game,
    part: record.part,
    frames,
    result: record.result,
    deal: replayedDeal(engine, record, state),
  };
}

/** The deal the replay ended on (the seed the engine drew it from) with the record's commitment and salt. */
function replayedDeal(engine: AnyEngine, record: GameRecord, finalState: unknown): ReplayedDeal | null {
  const deal = dealInPlay(engine, finalState, record.seed);
  if (deal === undefined) return null;
  const { commitment, salt } = record;
  return {
    seed: deal.seed,
    ...(commitment === undefined ? {} : { commitment }),
    ...(salt === undefined ? {} : { salt }),
  };
}

/**
 * Whether a replayed deal's seed is the one committed to when it started: "verified" (the seed and salt hash to the
 * commitment), "none" (a record made before deals were sealed, or a deal drawn from no seed: nothing to check), or
 * a sentence saying what does not match.
 */
export function checkDealSeal(
  deal: ReplayedDeal | null,
):
  | { verdict: "verified"; seed: number; commitment: string }
  | { verdict: "none" }
  | { verdict: "mismatch"; reason: string } {
  if (deal === null || deal.commitment === undefined) return { verdict: "none" };
  if (deal.salt === undefined)
    return { verdict: "mismatch", reason: "the record has a commitment but no salt to check it with" };
  const computed = commitmentOf(deal.seed, deal.salt);
  if (computed !== deal.commitment.toLowerCase()) {
    return {
      verdict: "mismatch",
      reason: `the deal does not match its commitment: sha256("${deal.seed}:${deal.salt}") is ${computed}, but the commitment published before the deal was ${deal.commitment}`,
    };
  }
  return { verdict: "verified", seed: deal.seed, commitment: computed };
}

/** A game or match must be over with the recorded result; a round must end with its last action. */
function checkEnding(engine: AnyEngine, record: GameRecord, state: unknown): void {
  const last = record.actions.length;
  if (record.part === "round") {
    const ended = record.actions[last - 1]?.events
      .map((event) => engine.roundEnd?.(event as GameEvent))
      .find((round) => round !== undefined);
    if (ended === undefined || ended.round !== record.round || !same(ended.result, record.result))
      throw new ReplayMismatch(last, "the round does not end here with the recorded result");
    return;
  }
  const result = engine.result(state);
  if (result === undefined) throw new ReplayMismatch(last, "the game is not over after the last recorded action");
  if (!same(result, record.result))
    throw new ReplayMismatch(
      last,
      `the result differs: recorded ${JSON.stringify(record.result)}, replayed ${JSON.stringify(result)}`,
    );
}

function frameOf(
  engine: AnyEngine,
  record: GameRecord,
  state: unknown,
  index: number,
  events: readonly RecordedEvent[],
): ReplayFrame {
  const seats = Array.from({ length: engine.seatCount(record.options) }, (_, seat) => engine.view(state, seat));
  return { index, events, table: engine.view(state, SPECTATOR), seats };
}

export function describeActor(actor: number | string): string {
  return typeof actor === "number" ? `seat ${actor}` : "the dealer";
}
