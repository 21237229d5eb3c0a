/**
 * The reviews of recorded games (rooms/tractor/review.ts, rooms/fool/review.ts) and their route,
 * GET /games/:id/review?seat=S, on both databases (a SQLite file and a PostgreSQL server of the test's own), the
 * routes on an express app of the test's own on 127.0.0.1.
 */
import * as path from "node:path";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import express from "express";
import { REVIEW_BUDGET, reviewTractor } from "../../rooms/tractor/review";
import type { Seat } from "../../rooms/tractor/scoring";
import { Records } from "../../server/records";
import { recordRoutes, type GameReview, type Reviewer } from "../../server/records/http";
import { reviewFool, type FoolReview } from "../../rooms/fool/review";
import type { DatabaseConfig } from "../../server/records/database";
import { bothDatabases } from "./databases";
import { finishedGame, person, tractorRound } from "./fixtures";

const SMALL = { ...REVIEW_BUDGET, worlds: 2, minWorlds: 2, candidates: 2 };
const SEATS = [person(0, "ann"), person(1, "bob"), person(2, "cy"), person(3, "di")];

describe("a Tractor game's review", () => {
  const round = tractorRound(11, SEATS, 1_000_000);

  test("scores every play of the seat against the AI's choice from that seat's view, with a summary", () => {
    const review = reviewTractor(round, 1 as Seat, SMALL);
    const plays = round.actions.filter((step) => step.actor === 1 && (step.action as { type: string }).type === "play");
    expect(review.seat).toBe("Bob");
    expect(review.complete).toBe(true);
    expect(review.moves.map((move) => move.step)).toEqual(plays.map((step) => round.actions.indexOf(step) + 1));
    for (const move of review.moves) {
      expect(move.aiChoice.length).toBe(move.played.length);
      if (move.matches) expect([move.pointsLost, move.valueLost]).toEqual([0, 0]);
    }
    expect(review.summary.moves).toBe(review.moves.length);
    expect(review.summary.matching).toBe(review.moves.filter((move) => move.matches).length);
    // The record's bots are the heuristic, whose choice the AI keeps unless another is clearly better.
    expect(review.summary.matching).toBeGreaterThan(review.moves.length / 2);
    expect(reviewTractor(round, 1 as Seat, SMALL)).toEqual(review);
  });

  test("stops where its time runs out, and says so", () => {
    let clock = 0;
    const review = reviewTractor(round, 0 as Seat, SMALL, () => clock++, 3);
    expect(review.complete).toBe(false);
    expect(review.moves.length).toBeLessThan(reviewTractor(round, 0 as Seat, SMALL).moves.length);
  });
});

describe("a Fool game's review", () => {
  const game = finishedGame("fool", 5, [person(0, "ann"), person(1, "bob")], 1_500_000);

  test("scores every move of the seat against the Fool AI's choice from that seat's view, with a summary", () => {
    const review = reviewFool(game, 0, 4);
    const own = game.actions.filter((step) => step.actor === 0);
    expect(review).toMatchObject({ seat: 0, complete: true });
    expect(review.moves.map((move) => move.step)).toEqual(own.map((step) => game.actions.indexOf(step) + 1));
    for (const move of review.moves) {
      expect(move.played).toMatch(/^(play \*?[2-9TJQKA][CDHS]{1,2}|draw|pass)$/);
      if (move.matches) expect(move.winChanceLost).toBe(0);
      expect(Math.abs(move.winChanceLost)).toBeLessThanOrEqual(1);
    }
    expect(review.summary.matching).toBe(review.moves.filter((move) => move.matches).length);
    expect(reviewFool(game, 0, 4)).toEqual(review);
  });

  test("stops where its time runs out, and says so", () => {
    let clock = 0;
    const review = reviewFool(game, 1, 4, () => clock++, 3);
    expect(review.complete).toBe(false);
    expect(review.moves.length).toBeLessThan(reviewFool(game, 1, 4).moves.length);
  });
});

const databases = bothDatabases("cardhall-reviews-");

/** The route on a records database of `config`, each review asked of the reviewer once (`asked` lists them). */
async function reviewServer(config: DatabaseConfig, cutShort = false) {
  const records = await Records.open(config);
  const [tractor, fool, evensteven] = await records.store.saveBatch([
    tractorRound(12, SEATS, 2_000_000),
    finishedGame("fool", 5, [person(0, "ann"), person(1, "bob")], 2_000_001),
    finishedGame("evensteven", 3, [person(0, "ann")], 2_000_002),
  ]);
  const asked: string[] = [];
  const reviewer: Reviewer = async (record, seat): Promise<GameReview> => {
    asked.push(`${record.id}:${seat}`);
    if (record.game === "fool") return reviewFool(record, seat, 2);
    return reviewTractor(record, seat as Seat, SMALL, cutShort ? () => 0 : undefined, cutShort ? 0 : undefined);
  };
  const app = express();
  recordRoutes(app, records, reviewer);
  const server: Server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    await new Promise((resolve) => server.close(resolve));
    await records.close();
  };
  return { records, base, tractor, fool, evensteven, asked, close };
}

describe("GET /games/:id/review", () => {
  const configs = (): [string, DatabaseConfig][] => [
    ["SQLite", { file: path.join(databases.tempDir, "reviews.sqlite") }],
    ["PostgreSQL", { url: databases.postgresUrl }],
  ];

  test("reviews a seat once and stores the review with the record in the database; asked again, it is not made again", async () => {
    for (const [, config] of configs()) {
      const first = await reviewServer(config);
      const answer = await fetch(`${first.base}/games/${first.tractor.id}/review?seat=Charles`);
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as {
        id: string;
        game: string;
        seat: string;
        summary: { moves: number };
        complete: boolean;
      };
      expect(body).toMatchObject({ id: first.tractor.id, game: "tractor", seat: "Charles", complete: true });
      expect(body.summary.moves).toBeGreaterThan(0);
      expect(await (await fetch(`${first.base}/games/${first.tractor.id}/review?seat=Charles`)).json()).toEqual(body);
      expect(first.asked).toEqual([`${first.tractor.id}:2`]);
      const foolAnswer = await fetch(`${first.base}/games/${first.fool.id}/review?seat=1`);
      expect(foolAnswer.status).toBe(200);
      const foolBody = (await foolAnswer.json()) as FoolReview & { game: string };
      expect(foolBody).toMatchObject({ game: "fool", seat: 1, complete: true });
      expect(foolBody.summary.moves).toBe(first.fool.actions.filter((step) => step.actor === 1).length);
      expect(await first.records.store.review(first.fool.id, 1)).toEqual(reviewFool(first.fool, 1, 2));
      await first.close();
    }
  });

  test("a review cut short by its time is not stored in the database (a later server makes it again), only kept in memory", async () => {
    const server = await reviewServer({ file: path.join(databases.tempDir, "cut-short.sqlite") }, true);
    const body = (await (await fetch(`${server.base}/games/${server.tractor.id}/review?seat=Alice`)).json()) as {
      complete: boolean;
    };
    expect(body.complete).toBe(false);
    expect(await server.records.store.review(server.tractor.id, 0)).toBeUndefined();
    await fetch(`${server.base}/games/${server.tractor.id}/review?seat=Alice`);
    expect(server.asked).toEqual([`${server.tractor.id}:0`]);
    await server.close();
  });

  test("404 for an unknown or malformed id, 400 for a bad seat or a game without reviews", async () => {
    const server = await reviewServer({ file: path.join(databases.tempDir, "bad-input.sqlite") });
    const { base, tractor, fool, evensteven } = server;
    expect((await fetch(`${base}/games/0000000000000000/review?seat=Alice`)).status).toBe(404);
    expect((await fetch(`${base}/games/${encodeURIComponent("bad id!")}/review?seat=Alice`)).status).toBe(404);
    expect((await fetch(`${base}/games/${tractor.id}/review?seat=Zed`)).status).toBe(400);
    expect((await fetch(`${base}/games/${tractor.id}/review`)).status).toBe(400);
    expect((await fetch(`${base}/games/${tractor.id}/review?seat=Alice&extra=1`)).status).toBe(400);
    expect((await fetch(`${base}/games/${fool.id}/review?seat=Alice`)).status).toBe(400);
    expect((await fetch(`${base}/games/${fool.id}/review?seat=2`)).status).toBe(400);
    const notReviewed = await fetch(`${base}/games/${evensteven.id}/review?seat=0`);
    expect(notReviewed.status).toBe(400);
    expect(((await notReviewed.json()) as { error: string }).error).toMatch(/Tractor and Fool/);
    expect(server.asked).toEqual([]);
    await server.close();
  });
});
