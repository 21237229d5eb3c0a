/** The records' queue: bounded, never in play's way, and nothing lost while the database is away. */
import type { FinishedGame, GameRecord } from "../../rooms/kit/record";
import type { RecordStore } from "../../server/records/store";
import { RecordWriter } from "../../server/records/writer";
import { expectConsole, waitUntil } from "../helpers";
import { takeConsole } from "../setup/console";

/** A store that keeps batches in memory and fails while `down` is set. */
class FakeStore {
  down = false;
  saved: FinishedGame[] = [];
  batches: number[] = [];
  async saveBatch(games: readonly FinishedGame[]): Promise<GameRecord[]> {
    if (this.down) throw new Error("connection refused");
    this.saved.push(...games);
    this.batches.push(games.length);
    return [];
  }
}

const game = (index: number) => ({ game: "evensteven", endedAt: index }) as unknown as FinishedGame;

function writerFor(store: FakeStore, options = {}) {
  return new RecordWriter(store as unknown as RecordStore, { retryMs: 5, maxRetryMs: 20, ...options });
}

test("submit never waits: games are written after the caller has gone on, in batches", async () => {
  const store = new FakeStore();
  const writer = writerFor(store, { batchSize: 4 });
  for (let index = 0; index < 10; index++) writer.submit(game(index));
  expect(store.saved).toHaveLength(0); // nothing written during the submitting turn
  expect(await writer.flush()).toBe(true);
  expect(store.saved.map((saved) => saved.endedAt)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  expect(store.batches).toEqual([4, 4, 2]);
  expect(writer.metrics()).toMatchObject({ queued: 0, written: 10, dropped: 0, failedWrites: 0 });
});

test("while the database is down the games wait, and are all written in order once it returns", async () => {
  const store = new FakeStore();
  store.down = true;
  const writer = writerFor(store);
  for (let index = 0; index < 5; index++) writer.submit(game(index));
  await waitUntil(() => writer.metrics().failedWrites >= 3, 5000, "failed attempts");
  expect(writer.metrics()).toMatchObject({ queued: 5, written: 0, lastError: "connection refused" });
  for (let index = 5; index < 8; index++) writer.submit(game(index));
  store.down = false;
  expect(await writer.flush()).toBe(true);
  expect(store.saved.map((saved) => saved.endedAt)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  // The outage is logged attempt by attempt, by the error's kind (never its message), and its end once.
  const failures = takeConsole(/records_write_failed/);
  expect(failures.length).toBe(writer.metrics().failedWrites);
  expect(failures[0]).toContain('"kind":"Error","attempt":1');
  expect(failures.join("\n")).not.toContain("connection refused");
  await expectConsole(/records_write_recovered/);
});

test("the queue is bounded: past its capacity the newest games are dropped and counted", async () => {
  const store = new FakeStore();
  store.down = true;
  const writer = writerFor(store, { capacity: 3 });
  for (let index = 0; index < 7; index++) writer.submit(game(index));
  expect(writer.metrics()).toMatchObject({ queued: 3, dropped: 4 });
  await expectConsole(/"records_dropped","closed":false/); // once for the run of drops, not four times
  store.down = false;
  await writer.flush();
  expect(store.saved.map((saved) => saved.endedAt)).toEqual([0, 1, 2]);
  takeConsole(/records_write_failed|records_write_recovered/);
});

test("close writes what is queued, then refuses more (counted as dropped)", async () => {
  const store = new FakeStore();
  const writer = writerFor(store);
  writer.submit(game(1));
  expect(await writer.close()).toBe(true);
  expect(store.saved).toHaveLength(1);
  writer.submit(game(2));
  expect(writer.metrics()).toMatchObject({ queued: 0, dropped: 1 });
  await expectConsole(/"records_dropped","closed":true/);
});
