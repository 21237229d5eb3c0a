/**
 * A player's page as data, GET /profiles/:name, on both databases: the rating after each rated game in the order
 * the games ended (checked against OpenSkill run over every game again), the tallies against each opponent (the
 * other team at Tractor, never a partner, never a guest), the identity under the name (an account, a bot and its
 * owner, the house's AI), names matched as registered names are, and a 404 in a sentence for a guest or an
 * unknown name. The routes run on an express app of the test's own on 127.0.0.1.
 */
import * as path from "node:path";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import type { FinishedGame, GameRecord, PlayerProfile, RecordedSeat, SeatIdentity } from "../../rooms/kit/record";
import type { FoolResult } from "../../rooms/fool/match";
import { Records } from "../../server/records";
import { recordRoutes } from "../../server/records/http";
import { effectOf, rateContest, type StoredRating } from "../../server/records/standings";
import { bothDatabases } from "./databases";
import { finishedGame, tractorRound } from "./fixtures";

const T0 = Date.UTC(2026, 10, 25, 9, 0, 0);
const ANN: SeatIdentity = { kind: "account", name: "Ann" };
const DEEP_BLUE: SeatIdentity = { kind: "bot", name: "Deep Blue", owner: "Ann" };
const seat = (index: number, name: string, identity?: SeatIdentity): RecordedSeat => ({
  seat: index,
  name,
  kind: "person",
  ...(identity ? { identity } : {}),
});
const ai = (index: number): RecordedSeat => ({ seat: index, name: "AI (ai)", kind: "ai" });

/** Fool games of Ann against her bot, the AI and a guest, and Tractor rounds with Ann and Cy against Bea and Dan. */
function games(): FinishedGame[] {
  const made: FinishedGame[] = [];
  for (let index = 0; index < 30; index++) {
    const at = T0 + index * 1000;
    const kind = index % 5;
    if (kind <= 1)
      made.push(
        finishedGame(
          "fool",
          300 + index,
          index % 2
            ? [seat(0, "Ann", ANN), seat(1, "Deep Blue", DEEP_BLUE)]
            : [seat(0, "Deep Blue", DEEP_BLUE), seat(1, "Ann", ANN)],
          at,
        ),
      );
    else if (kind === 2) made.push(finishedGame("fool", 300 + index, [seat(0, "Ann", ANN), ai(1)], at));
    else if (kind === 3)
      made.push(finishedGame("fool", 300 + index, [seat(0, "Gus", { kind: "guest" }), seat(1, "Ann", ANN)], at));
    else made.push(tractorRound(300 + index, [seat(0, "Ann", ANN), seat(1, "Bea"), seat(2, "Cy"), seat(3, "Dan")], at));
  }
  return made;
}

/** Ann's Fool results against each opponent, counted from the engine's results. */
function expectedFoolTallies(
  records: readonly GameRecord[],
): Record<string, { wins: number; draws: number; losses: number }> {
  const tallies: Record<string, { wins: number; draws: number; losses: number }> = {};
  for (const record of records.filter((one) => one.game === "fool" && one.seats.some((held) => held.name === "Ann"))) {
    const opponent = record.seats.find((held) => held.name !== "Ann")!;
    if (opponent.identity?.kind === "guest") continue;
    const { fool } = record.result as FoolResult;
    const annSeat = record.seats.find((held) => held.name === "Ann")!.seat;
    const tally = (tallies[opponent.name] ??= { wins: 0, draws: 0, losses: 0 });
    if (fool === null) tally.draws++;
    else if (fool === annSeat) tally.losses++;
    else tally.wins++;
  }
  return tallies;
}

/** Ann's Fool rating after each of her rated games: OpenSkill over every Fool game in order, from nothing. */
function expectedFoolHistory(records: readonly GameRecord[]): Array<{ id: string; ordinal: number }> {
  const ratings = new Map<string, StoredRating>();
  const history: Array<{ id: string; ordinal: number }> = [];
  for (const record of records.filter((one) => one.game === "fool")) {
    const contest = effectOf(record).contest;
    if (!contest) continue;
    for (const [name, rating] of rateContest(contest, ratings)) {
      ratings.set(name, rating);
      if (name === "Ann") history.push({ id: record.id, ordinal: rating.ordinal });
    }
  }
  return history;
}

const databases = bothDatabases("cardhall-players-");

async function serve(records: Records): Promise<{ server: Server; base: string }> {
  const app = express();
  recordRoutes(app, records);
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function profileAt(
  base: string,
  name: string,
): Promise<{ status: number; body: PlayerProfile & { error?: string } }> {
  const response = await fetch(`${base}/profiles/${encodeURIComponent(name)}`);
  return { status: response.status, body: (await response.json()) as PlayerProfile & { error?: string } };
}

test.each(["SQLite", "PostgreSQL"])(
  "%s: a player's page has the ratings in order, the tallies per opponent, the identity, and 404s for guests",
  async (database) => {
    const records = await Records.open(
      database === "SQLite" ? { file: path.join(databases.tempDir, "players.sqlite") } : { url: databases.postgresUrl },
    );
    const { server, base } = await serve(records);
    try {
      const ann = await records.identities.createAccount("Ann", "a long password");
      await records.identities.createBot(ann, "Deep Blue");
      const all = games();
      // Two batches, as the writer makes them: the history runs on across them.
      const saved = [
        ...(await records.store.saveBatch(all.slice(0, 13))),
        ...(await records.store.saveBatch(all.slice(13))),
      ];

      const { status, body: annPage } = await profileAt(base, "a-n-n");
      expect(status).toBe(200);
      expect(annPage.name).toBe("Ann");
      expect(annPage.identity).toEqual({ kind: "account" });

      // The chart: her rating after each rated Fool game, oldest first, exactly as OpenSkill makes it over all games.
      const foolHistory = annPage.ratingHistory.filter((point) => point.game === "fool");
      const expected = expectedFoolHistory(saved);
      expect(expected.length).toBe(18); // her games against her bot and the AI; a guest's game is rated for nobody
      expect(foolHistory.map((point) => point.id)).toEqual(expected.map((point) => point.id));
      foolHistory.forEach((point, index) => expect(point.ordinal).toBeCloseTo(expected[index].ordinal, 9));
      expect(annPage.standings.find((standing) => standing.game === "fool")?.rating?.ordinal).toBeCloseTo(
        expected[expected.length - 1].ordinal,
        9,
      );
      expect(annPage.ratingHistory.filter((point) => point.game === "tractor")).toHaveLength(6);

      // Against each opponent: her bot and the AI at Fool, the other team at Tractor; no guest, no partner.
      const tallies = Object.fromEntries(
        annPage.opponents.map(({ game, name, wins, draws, losses, games }) => [
          `${game}:${name}`,
          { wins, draws, losses, games },
        ]),
      );
      for (const [name, counts] of Object.entries(expectedFoolTallies(saved))) {
        expect(tallies[`fool:${name}`]).toEqual({ ...counts, games: counts.wins + counts.draws + counts.losses });
      }
      expect(Object.keys(tallies).sort()).toEqual(["fool:AI (ai)", "fool:Deep Blue", "tractor:Bea", "tractor:Dan"]);
      expect(tallies["tractor:Bea"]).toEqual(tallies["tractor:Dan"]);
      expect(tallies["tractor:Bea"].games).toBe(6);
      expect(annPage.gamesTallied).toBe(30);
      expect(annPage.recentGames.map((game) => game.id)).toEqual(
        saved
          .slice(-20)
          .reverse()
          .map((game) => game.id),
      );

      const { body: botPage } = await profileAt(base, "DEEP_B1UE");
      expect(botPage).toMatchObject({ name: "Deep Blue", identity: { kind: "bot", owner: "Ann" } });
      expect(botPage.opponents.map((tally) => tally.name)).toEqual(["Ann"]);
      expect((await profileAt(base, "AI (ai)")).body.identity).toEqual({ kind: "unregistered" });
      // A house player who has not played yet has a page all the same, with nothing on it.
      const unplayed = await profileAt(base, "Bot (easy)");
      expect(unplayed.status).toBe(200);
      expect(unplayed.body).toMatchObject({
        name: "Bot (easy)",
        identity: { kind: "unregistered" },
        standings: [],
        recentGames: [],
        opponents: [],
      });

      for (const nobody of ["Gus", "Nobody", "x' OR '1'='1"]) {
        const missing = await profileAt(base, nobody);
        expect(missing.status).toBe(404);
        expect(missing.body.error).toBe(
          `${nobody} has no player page: the name is not registered and stands in no game's standings (guests have no page)`,
        );
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await records.close();
    }
  },
  60_000,
);
