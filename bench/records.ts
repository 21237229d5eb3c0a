/**
 * How fast finished games are written: records per second into an SQLite file and into a PostgreSQL server (started
 * here, in a temporary directory, with fsync on), through the writer's queue as the server uses it (batches of
 * 50 for SQLite, 200 for PostgreSQL, one transaction each, standings included). The games are real (the engines' bots play them from seeds);
 * 48 distinct games are repeated with fresh end times. Also: the longest batch, which for SQLite is time the event
 * loop is held (node:sqlite is synchronous). Prints figures; never passes or fails.
 *
 *   node dist/bench/records.js [COUNT]      (default 5000)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { FinishedGame } from "../rooms/kit/record";
import type { DatabaseConfig } from "../server/records/database";
import { writerOptionsFor } from "../server/records";
import { RecordStore } from "../server/records/store";
import { RecordWriter } from "../server/records/writer";
import { PostgresProcess } from "../test/e2e/postgres-process";
import { finishedGame, freePort, person, tractorRound } from "../test/records/fixtures";

const COUNT = Number(process.argv[2] ?? 5000);
const NAMES = ["ada", "bea", "cy", "dan", "eve", "fay"];

function sampleGames(): FinishedGame[] {
  return Array.from({ length: 48 }, (_, index) => {
    const seat = (offset: number) => NAMES[(index + offset) % NAMES.length];
    switch (index % 4) {
      case 0:
        return finishedGame("evensteven", 1000 + index, [person(0, seat(0))], 0);
      case 1:
        return finishedGame("fool", 1000 + index, [person(0, seat(0)), person(1, seat(1))], 0);
      case 2:
        return finishedGame("patience", 1000 + index, [person(0, seat(0))], 0);
      default:
        return tractorRound(
          1000 + index,
          [0, 1, 2, 3].map((offset) => person(offset, seat(offset))),
          0,
        );
    }
  });
}

async function measure(label: string, config: DatabaseConfig, games: readonly FinishedGame[]): Promise<void> {
  const store = await RecordStore.open(config);
  const writer = new RecordWriter(store, { ...writerOptionsFor(config), capacity: games.length });
  const batchTimes: number[] = [];
  const saveBatch = store.saveBatch.bind(store);
  store.saveBatch = async (batch) => {
    const started = performance.now();
    const saved = await saveBatch(batch);
    batchTimes.push(performance.now() - started);
    return saved;
  };
  const started = performance.now();
  const base = Date.now();
  games.forEach((game, index) => writer.submit({ ...game, endedAt: base + index }));
  await writer.flush(600_000);
  const seconds = (performance.now() - started) / 1000;
  const { written, failedWrites } = writer.metrics();
  console.log(
    `${label}: ${written} records in ${seconds.toFixed(2)} s = ${Math.round(written / seconds)} records/s; ` +
      `batches of ${writerOptionsFor(config).batchSize}: mean ${(batchTimes.reduce((a, b) => a + b, 0) / batchTimes.length).toFixed(1)} ms, longest ${Math.max(...batchTimes).toFixed(1)} ms; failed writes ${failedWrites}`,
  );
  await store.close();
}

async function main(): Promise<void> {
  const samples = sampleGames();
  const games = Array.from({ length: COUNT }, (_, index) => samples[index % samples.length]);
  const bytes = samples.reduce((sum, game) => sum + JSON.stringify(game).length, 0) / samples.length;
  console.log(
    `${COUNT} finished games (48 distinct: Even-Steven, Fool, Patience, Tractor rounds), ${Math.round(bytes)} bytes of JSON each on average`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cardhall-bench-records-"));
  const postgres = new PostgresProcess(await freePort(), true);
  try {
    await measure("SQLite file (WAL)", { file: path.join(dir, "records.sqlite") }, games);
    postgres.init();
    postgres.start();
    await measure("PostgreSQL (fsync on)", { url: postgres.url }, games);
  } finally {
    postgres.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
