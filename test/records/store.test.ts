/**
 * The records' store on both databases: the same games written to an SQLite file and to a PostgreSQL server give
 * the same answers — pages, filters, whole records, leaderboards — and a file that is not a database is a clear
 * error naming it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { FinishedGame, GamePage, GameSummary } from "../../rooms/kit/record";
import { DatabaseError } from "../../server/records/database";
import { RecordStore } from "../../server/records/store";
import { RecordWriter } from "../../server/records/writer";
import { expectConsole, waitUntil } from "../helpers";
import { takeConsole } from "../setup/console";
import { bothDatabases } from "./databases";
import { finishedGame, freePort, person, sealDealFields, tractorRound } from "./fixtures";

const T0 = Date.UTC(2026, 10, 24, 12, 0, 0);

/** 24 games of every kind by four players, each ending a second after the last. */
function someGames(): FinishedGame[] {
  const names = ["ada", "bea", "cy", "dan"];
  return Array.from({ length: 24 }, (_, index) => {
    const at = T0 + index * 1000;
    const a = names[index % 4];
    const b = names[(index + 1) % 4];
    switch (index % 5) {
      case 0:
        return finishedGame("evensteven", 100 + index, [person(0, a)], at);
      case 1:
        return finishedGame("fool", 100 + index, [person(0, a), person(1, b)], at);
      case 2:
        return finishedGame("patience", 100 + index, [person(0, a)], at);
      case 3:
        return tractorRound(
          100 + index,
          names.map((name, seat) => person(seat, name)),
          at,
        );
      default:
        return finishedGame(
          "tractor",
          100 + index,
          names.map((name, seat) => person(seat, name)),
          at,
        );
    }
  });
}

/** Everything a store answers about the games, with its random ids replaced by the games' end times. */
async function answers(store: RecordStore) {
  const byEnd = (summary: GameSummary) => ({ ...summary, id: summary.endedAt });
  const pages: GamePage[] = [];
  for (let before: string | undefined, page = 0; page < 10; page++) {
    const next: GamePage = await store.list({ limit: 7, before });
    pages.push(next);
    if (next.next === undefined) break;
    before = next.next;
  }
  const all = pages.flatMap((page) => page.games);
  const first = await store.get(all[all.length - 1].id);
  return {
    pageSizes: pages.map((page) => page.games.length),
    all: all.map(byEnd),
    fool: (await store.list({ game: "fool", limit: 100 })).games.map(byEnd),
    bea: (await store.list({ player: "bea", limit: 100 })).games.map(byEnd),
    beaTractor: (await store.list({ player: "bea", game: "tractor", limit: 100 })).games.map(byEnd),
    nobody: await store.list({ player: "x' OR '1'='1", limit: 100 }),
    first: { ...first, id: first?.endedAt },
    leaderboards: await Promise.all(
      ["evensteven", "fool", "patience", "tractor"].map((game) => store.leaderboard(game, 10)),
    ),
  };
}

const databases = bothDatabases("cardhall-store-");

test("SQLite and PostgreSQL give the same answers: pages newest first, filters, records, leaderboards", async () => {
  const games = someGames();
  const results = [];
  for (const config of [{ file: path.join(databases.tempDir, "records.sqlite") }, { url: databases.postgresUrl }]) {
    const store = await RecordStore.open(config);
    // Two batches, as the writer makes them; the second batch's games all ended later.
    await store.saveBatch(games.slice(0, 10));
    await store.saveBatch(games.slice(10));
    results.push(await answers(store));
    await store.close();
  }
  const [sqlite, pg] = results;
  expect(sqlite.pageSizes).toEqual([7, 7, 7, 3]);
  expect(sqlite.all.map((game) => game.endedAt)).toEqual(games.map((game) => game.endedAt).reverse());
  expect(sqlite.fool.every((game) => game.game === "fool")).toBe(true);
  expect(sqlite.bea.every((game) => game.seats.some((seat) => seat.name === "bea"))).toBe(true);
  expect(sqlite.beaTractor.length).toBeGreaterThan(0);
  expect(sqlite.nobody).toEqual({ games: [] });
  expect(sqlite.first).toMatchObject({ ...games[0], id: games[0].endedAt });
  expect(sqlite.leaderboards[1].length).toBeGreaterThan(0);
  expect(pg).toEqual(sqlite);
});

test("the SQLite file is reopened with its games and migrations run once", async () => {
  const file = path.join(databases.tempDir, "reopened.sqlite");
  const first = await RecordStore.open({ file });
  const [saved] = await first.saveBatch([finishedGame("evensteven", 5, [person(0, "eve")], T0)]);
  await first.close();
  const again = await RecordStore.open({ file });
  expect(await again.get(saved.id)).toEqual(saved);
  await again.close();
});

test("a file that is not a database, or cannot be written, is an error naming it", async () => {
  const junk = path.join(databases.tempDir, "junk.sqlite");
  fs.writeFileSync(junk, "this is not a database ".repeat(200));
  await expect(RecordStore.open({ file: junk })).rejects.toThrow(DatabaseError);
  await expect(RecordStore.open({ file: junk })).rejects.toThrow(junk);
  const blocked = path.join(databases.tempDir, "a-file", "records.sqlite");
  fs.writeFileSync(path.join(databases.tempDir, "a-file"), "");
  await expect(RecordStore.open({ file: blocked })).rejects.toThrow(blocked);
});

test("a PostgreSQL server that does not answer is an error naming it, with the password hidden", async () => {
  const url = `postgres://postgres:secret@127.0.0.1:${await freePort()}/postgres`;
  const failure = RecordStore.open({ url });
  await expect(failure).rejects.toThrow(DatabaseError);
  await expect(failure).rejects.toThrow(/postgres:\/\/postgres:\*\*\*@127\.0\.0\.1/);
  await expect(failure).rejects.not.toThrow(/secret/);
});

test("an SQLite file locked by another writer: the queue's writes fail at once, wait, and all land once it is free", async () => {
  const file = path.join(databases.tempDir, "locked.sqlite");
  const store = await RecordStore.open({ file });
  const writer = new RecordWriter(store, { retryMs: 5, maxRetryMs: 20, lingerMs: 0 });
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite") as typeof import("node:sqlite");
  const other = new DatabaseSync(file);
  try {
    other.exec("BEGIN IMMEDIATE"); // another process's write transaction, held
    writer.submit(finishedGame("evensteven", 9, [person(0, "lee")], T0));
    await waitUntil(() => writer.metrics().failedWrites >= 2, 10_000, "failed writes while locked");
    expect(writer.metrics()).toMatchObject({ queued: 1, written: 0, dropped: 0 });
    expect(writer.metrics().lastError).toMatch(/locked|busy/i);
    other.exec("ROLLBACK");
    expect(await writer.flush()).toBe(true);
    expect((await store.list({ limit: 10 })).games.map((game) => game.seats[0].name)).toEqual(["lee"]);
    expect(takeConsole(/"records_write_failed","kind":"Error","code":"ERR_SQLITE_ERROR"/).length).toBe(
      writer.metrics().failedWrites,
    );
    await expectConsole(/records_write_recovered/);
  } finally {
    other.close();
    await writer.close();
    await store.close();
  }
});

test("a deal's commitment and salt are kept, in columns of their own, on both databases; a record made without them has none", async () => {
  const sealed = { ...finishedGame("fool", 31, [person(0, "ada"), person(1, "bea")], T0), ...sealDealFields(31) };
  const unsealed = finishedGame("evensteven", 32, [person(0, "cy")], T0 + 1000);
  for (const config of [{ file: path.join(databases.tempDir, "sealed.sqlite") }, { url: databases.postgresUrl }]) {
    const store = await RecordStore.open(config);
    const [savedSealed, savedUnsealed] = await store.saveBatch([sealed, unsealed]);
    expect(await store.get(savedSealed.id)).toEqual(savedSealed);
    expect(await store.get(savedSealed.id)).toMatchObject({ commitment: sealed.commitment, salt: sealed.salt });
    const plain = await store.get(savedUnsealed.id);
    expect(plain).toEqual(savedUnsealed);
    expect(plain).not.toHaveProperty("commitment");
    expect(plain).not.toHaveProperty("salt");
    await store.close();
  }
  // The SQLite file holds them in the games' columns, not twice.
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite") as typeof import("node:sqlite");
  const file = new DatabaseSync(path.join(databases.tempDir, "sealed.sqlite"));
  try {
    const rows = file.prepare("SELECT commitment, salt, record FROM games ORDER BY ended_at").all() as Array<{
      commitment: string | null;
      salt: string | null;
      record: string;
    }>;
    expect(rows.map(({ commitment, salt }) => ({ commitment, salt }))).toEqual([
      { commitment: sealed.commitment, salt: sealed.salt },
      { commitment: null, salt: null },
    ]);
    expect(rows[0].record).not.toContain(sealed.salt);
  } finally {
    file.close();
  }
});

test("a database made before deals were sealed gets the columns, and its games read as before (no commitment recorded)", async () => {
  const fileName = path.join(databases.tempDir, "before-seals.sqlite");
  const first = await RecordStore.open({ file: fileName });
  const [old] = await first.saveBatch([finishedGame("patience", 41, [person(0, "dan")], T0)]);
  await first.close();
  // Back to the schema before 0004-deal-commitments (and the migrations after it), as a database kept by an earlier build is.
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite") as typeof import("node:sqlite");
  const file = new DatabaseSync(fileName);
  file.exec(
    "DROP TABLE reviews; DROP INDEX games_by_room; DROP TABLE tournament_games; DROP TABLE tournaments; DROP TABLE ladder_plays; ALTER TABLE games DROP COLUMN salt; ALTER TABLE games DROP COLUMN commitment; DELETE FROM kysely_migration WHERE name >= '0004'",
  );
  file.close();
  const reopened = await RecordStore.open({ file: fileName });
  try {
    expect(await reopened.get(old.id)).toEqual(old);
    const [fresh] = await reopened.saveBatch([
      { ...finishedGame("patience", 42, [person(0, "dan")], T0 + 1000), ...sealDealFields(42) },
    ]);
    expect(await reopened.get(fresh.id)).toMatchObject({ commitment: fresh.commitment, salt: fresh.salt });
  } finally {
    await reopened.close();
  }
});
