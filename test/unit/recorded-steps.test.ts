/**
 * A match's steps kept for its record (rooms/kit/recorded-steps.ts): without their events while the game is played,
 * given them by a replay when a record is made, each step replayed once however many records are made of the match
 * (a Tractor match's rounds).
 */
import { RecordedSteps, type StepReplay } from "../../rooms/kit/recorded-steps";
import type { RecordedStep } from "../../rooms/kit/record";

const step = (action: number): Omit<RecordedStep, "events"> => ({
  actor: action % 2,
  action: { card: action },
  at: 1_000 + action,
  by: "person",
});

/** A replay that counts: a step's events name its action, and the state is the last action replayed. */
function countingReplay() {
  const calls: { from: number | undefined; actions: unknown[] }[] = [];
  const replay: StepReplay<RecordedStep, number> = (from, steps) => {
    calls.push({ from, actions: steps.map((each) => each.action) });
    const events = steps.map((each) => [{ name: "played", payload: each.action }]);
    return { events, state: (steps.at(-1)!.action as { card: number }).card };
  };
  return { calls, replay };
}

test("a record's steps get their events from a replay of the steps since the last record, from where it ended", () => {
  const steps = new RecordedSteps<RecordedStep, number>();
  const { calls, replay } = countingReplay();
  for (const action of [1, 2, 3]) steps.push(step(action));
  expect(steps.length).toBe(3);
  const first = steps.read(replay);
  expect(first).toEqual(
    [1, 2, 3].map((action) => ({ ...step(action), events: [{ name: "played", payload: { card: action } }] })),
  );
  for (const action of [4, 5]) steps.push(step(action));
  const second = steps.read(replay);
  expect(second.map((each) => each.action)).toEqual([1, 2, 3, 4, 5].map((card) => ({ card })));
  expect(second[4]!.events).toEqual([{ name: "played", payload: { card: 5 } }]);
  // Each step replayed once: the second record's replay began where the first ended.
  expect(calls).toEqual([
    { from: undefined, actions: [1, 2, 3].map((card) => ({ card })) },
    { from: 3, actions: [4, 5].map((card) => ({ card })) },
  ]);
  expect(steps.read(replay)).toEqual(second);
  expect(calls).toHaveLength(2);
  expect(steps.length).toBe(5);
});

test("a read gives new objects each time: what a record keeps is its own", () => {
  const steps = new RecordedSteps<RecordedStep, number>();
  steps.push(step(1));
  const { replay } = countingReplay();
  const [a] = steps.read(replay);
  const [b] = steps.read(replay);
  expect(a).toEqual(b);
  expect(a).not.toBe(b);
  expect(a!.events).not.toBe(b!.events);
});

test("the match's last record takes the replayed steps as the replay made them, and nothing is read after it", () => {
  const steps = new RecordedSteps<RecordedStep, number>();
  const { calls, replay } = countingReplay();
  for (const action of [1, 2, 3]) steps.push(step(action));
  const round = steps.read(replay);
  for (const action of [4, 5]) steps.push(step(action));
  let replayedEvents: readonly (readonly unknown[])[] = [];
  const last = steps.read((from, played) => {
    const replayed = replay(from, played);
    replayedEvents = replayed.events;
    return replayed;
  }, true);
  // The same record a read that is not the last gives...
  expect(last).toEqual([
    ...round,
    ...[4, 5].map((action) => ({ ...step(action), events: [{ name: "played", payload: { card: action } }] })),
  ]);
  // ...made of the replay's own events: not written as text and read back.
  expect(last[3]!.events).toBe(replayedEvents[0]);
  expect(last[4]!.events).toBe(replayedEvents[1]);
  expect(calls.map((call) => call.from)).toEqual([undefined, 3]);
  expect(steps.length).toBe(5);
  expect(() => steps.read(replay)).toThrow("read again after its last record");
});

test("a game's only record is its last: every step replayed once, from the match's start", () => {
  const steps = new RecordedSteps<RecordedStep, number>();
  const { calls, replay } = countingReplay();
  for (const action of [1, 2]) steps.push(step(action));
  expect(steps.read(replay, true)).toEqual(
    [1, 2].map((action) => ({ ...step(action), events: [{ name: "played", payload: { card: action } }] })),
  );
  expect(calls).toEqual([{ from: undefined, actions: [{ card: 1 }, { card: 2 }] }]);
});

test("a last record with nothing played since the one before gives the steps already settled", () => {
  const steps = new RecordedSteps<RecordedStep, number>();
  const { replay } = countingReplay();
  steps.push(step(1));
  const round = steps.read(replay);
  expect(steps.read(replay, true)).toEqual(round);
  expect(() => steps.read(replay, true)).toThrow("read again after its last record");
});
