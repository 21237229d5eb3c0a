/**
 * The ladders' rows on both databases (server/arena/ladder-store.ts, table ladder_plays): each identity is given
 * the period's deals in order, each once, also when it asks several times at once; nothing past K; a stored
 * ladder game's result lands in its deal's row, and the standings read them back, the same in SQLite and PostgreSQL.
 */
import * as path from "node:path";
import { RecordStore } from "../../server/records/store";
import { LADDERS, rankStandings } from "../../server/arena/ladder";
import type { LadderIdentity } from "../../server/arena/ladder-store";
import type { RecordedSeat } from "../../rooms/kit/record";
import { bothDatabases } from "./databases";
import { finishedGame } from "./fixtures";

const databases = bothDatabases("cardhall-ladders-");

const PERIOD = "2026-11-26";
const DEALS = LADDERS.evensteven.deals;
const ann: LadderIdentity = { kind: "bot", name: "Ann Bot", owner: "Ann" };
const bea: LadderIdentity = { kind: "account", name: "Bea" };
const seatOf = (identity: LadderIdentity): RecordedSeat => ({ seat: 0, name: identity.name, kind: "person", identity });

async function run(store: RecordStore) {
  const ladders = store.ladders();
  const claim = (identity: LadderIdentity) => ladders.claimNextDeal("evensteven", PERIOD, identity, DEALS, 1_000);
  // Ann asks for three deals at once (two processes, say): three different deals, none twice.
  const atOnce = (await Promise.all([claim(ann), claim(ann), claim(ann)])).sort();
  const rest = [];
  for (let more = 0; more < DEALS - 3; more++) rest.push(await claim(ann));
  const pastTheLast = await claim(ann);
  const beaFirst = await claim(bea);
  // Another game's and another period's deals are counted apart.
  const patienceFirst = await ladders.claimNextDeal("patience", PERIOD, ann, LADDERS.patience.deals, 1_000);
  const nextDay = await ladders.claimNextDeal("evensteven", "2026-11-27", ann, DEALS, 1_000);
  // Ann's deal 1 and Bea's deal 1 are played and stored; Ann's deal 2 was given and never finished.
  const game = (identity: LadderIdentity, seed: number, endedAt: number) => ({
    ...finishedGame("evensteven", seed, [seatOf(identity)], endedAt),
    ladder: { period: PERIOD, deal: 1, endsAt: 2_000_000 },
  });
  const [annGame] = await store.saveBatch([game(ann, 11, 5_000), game(bea, 11, 6_000)]);
  const plays = await ladders.plays("evensteven", PERIOD);
  const standings = rankStandings(LADDERS.evensteven, plays).map(({ name, kind, played, finished }) => ({
    name,
    kind,
    played,
    finished,
  }));
  const annDeal1 = plays.find((play) => play.identity.name === "Ann Bot" && play.deal === 1);
  const listed = (await store.list({ game: "evensteven", limit: 10 })).games.map((summary) => summary.ladder);
  return {
    atOnce,
    rest,
    pastTheLast,
    beaFirst,
    patienceFirst,
    nextDay,
    standings,
    annDeal1Result: annDeal1?.result,
    annDeal1Ended: annDeal1?.endedAt,
    annRecordResult: annGame.result,
    listed,
  };
}

test("deals are given in order and once; results land in their rows; both databases answer alike", async () => {
  const results = [];
  for (const config of [{ file: path.join(databases.tempDir, "ladders.sqlite") }, { url: databases.postgresUrl }]) {
    const store = await RecordStore.open(config);
    results.push(await run(store));
    await store.close();
  }
  const [sqlite, postgres] = results;
  expect(sqlite.atOnce).toEqual([1, 2, 3]);
  expect(sqlite.rest).toEqual([4, 5, 6, 7, 8, 9, 10]);
  expect(sqlite.pastTheLast).toBeNull();
  expect([sqlite.beaFirst, sqlite.patienceFirst, sqlite.nextDay]).toEqual([1, 1, 1]);
  expect(sqlite.standings).toEqual([
    // The same deal, the same play: the same score; Ann's game ended first.
    { name: "Ann Bot", kind: "bot", played: 10, finished: 1 },
    { name: "Bea", kind: "account", played: 1, finished: 1 },
  ]);
  expect(sqlite.annDeal1Result).toEqual(sqlite.annRecordResult);
  expect(sqlite.annDeal1Ended).toBe(5_000);
  expect(sqlite.listed).toEqual([
    { period: PERIOD, deal: 1, endsAt: 2_000_000 },
    { period: PERIOD, deal: 1, endsAt: 2_000_000 },
  ]);
  expect(postgres).toEqual(sqlite);
}, 60_000);
