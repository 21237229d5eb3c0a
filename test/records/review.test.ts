/**
 * The review of a recorded game (rooms/tractor/review.ts) and its route, GET /games/:id/review?seat=S: a records
 * store in memory (SQLite), the routes on an express app of the test's own on 127.0.0.1.
 */
import type { AddressInfo } from "net";
import type { Server } from "http";
import express from "express";
import type { GameRecord } from "../../rooms/kit/record";
import { REVIEW_BUDGET, reviewTractor } from "../../rooms/tractor/review";
import type { Seat } from "../../rooms/tractor/scoring";
import { Records } from "../../server/records";
import { recordRoutes, type Reviewer } from "../../server/records/http";
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

describe("GET /games/:id/review", () => {
  let records: Records;
  let server: Server;
  let base: string;
  let tractor: GameRecord;
  let fool: GameRecord;
  const asked: string[] = [];
  const reviewer: Reviewer = async (record, seat) => {
    asked.push(`${record.id}:${seat}`);
    return reviewTractor(record, seat, SMALL);
  };

  beforeAll(async () => {
    records = await Records.open({ file: ":memory:" });
    [tractor, fool] = await records.store.saveBatch([tractorRound(12, SEATS, 2_000_000), finishedGame("fool", 5, [person(0, "ann"), person(1, "bob")], 2_000_001)]);
    const app = express();
    recordRoutes(app, records, reviewer);
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await records.close();
  });

  test("reviews a seat once and keeps the review: the second request is answered from it", async () => {
    const first = await fetch(`${base}/games/${tractor.id}/review?seat=Charles`);
    expect(first.status).toBe(200);
    const body = (await first.json()) as { id: string; seat: string; summary: { moves: number }; complete: boolean };
    expect(body).toMatchObject({ id: tractor.id, seat: "Charles", complete: true });
    expect(body.summary.moves).toBeGreaterThan(0);
    const second = await fetch(`${base}/games/${tractor.id}/review?seat=Charles`);
    expect(await second.json()).toEqual(body);
    expect(asked.filter((key) => key === `${tractor.id}:2`)).toHaveLength(1);
  });

  test("404 for an unknown or malformed id, 400 for a bad seat or a game without reviews", async () => {
    expect((await fetch(`${base}/games/0000000000000000/review?seat=Alice`)).status).toBe(404);
    expect((await fetch(`${base}/games/${encodeURIComponent("bad id!")}/review?seat=Alice`)).status).toBe(404);
    expect((await fetch(`${base}/games/${tractor.id}/review?seat=Zed`)).status).toBe(400);
    expect((await fetch(`${base}/games/${tractor.id}/review`)).status).toBe(400);
    expect((await fetch(`${base}/games/${tractor.id}/review?seat=Alice&extra=1`)).status).toBe(400);
    expect((await fetch(`${base}/games/${fool.id}/review?seat=Alice`)).status).toBe(400);
  });
});
