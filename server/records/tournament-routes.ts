/**
 * Tournaments over HTTP (docs/arena.md, "Tournaments"): `POST /tournaments` keeps a report of bin/tournament's,
 * checked against the records; `GET /tournaments/:id` serves its standings and games as JSON (a browser asking for
 * a page at the same address gets the page, web/src/tournament.ts). With `TOURNAMENT_SECRET` set, a report needs
 * `Authorization: Bearer <secret>`; the secret is compared in constant time and never logged or echoed.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import express, { type Application, type NextFunction, type Request, type Response } from "express";
import { z } from "zod";
import {
  TOURNAMENT_FORMATS,
  TOURNAMENT_GAMES,
  TOURNAMENT_TABLES,
  type TournamentReport,
} from "../../rooms/kit/tournament";
import type { Records } from "./index";
import { TournamentRefusal } from "./tournaments";

/** A report of a few thousand games fits; nothing bigger is read. */
const BODY_LIMIT = "2mb";
const MAX_GAMES = 10_000;
/** How long a report waits for this process's finished games to be written before its games are looked up. */
const FLUSH_MS = 5_000;

const entrantName = z.string().min(1).max(40);
const seed = z.number().int().min(1).max(2_147_483_646);

const reportSchema = z
  .strictObject({
    name: z.string().trim().min(1).max(80),
    game: z.enum(TOURNAMENT_GAMES),
    format: z.enum(TOURNAMENT_FORMATS),
    deals: z.number().int().min(1).max(1_000),
    entrants: z.array(entrantName).min(2).max(64),
    games: z
      .array(
        z.strictObject({
          round: z.number().int().min(1).max(1_000),
          deal: z.number().int().min(1).max(1_000),
          seed,
          seats: z.array(entrantName).min(2).max(4),
          roomId: z.string().regex(/^[0-9A-Za-z_-]{1,40}$/, "not a room id"),
          forfeits: z.array(z.strictObject({ entrant: entrantName, reason: z.string().max(300) })).max(2),
        }),
      )
      .min(1)
      .max(MAX_GAMES),
  })
  .superRefine((report, context) => {
    if (new Set(report.entrants).size !== report.entrants.length)
      context.addIssue({ code: "custom", path: ["entrants"], message: "an entrant is named twice" });
    report.games.forEach((game, index) => {
      const strangers = [...game.seats, ...game.forfeits.map((forfeit) => forfeit.entrant)].filter(
        (name) => !report.entrants.includes(name),
      );
      if (strangers.length > 0)
        context.addIssue({ code: "custom", path: ["games", index], message: `${strangers[0]} is not an entrant` });
      const table = TOURNAMENT_TABLES[report.game];
      const [first, second] = game.seats;
      if (first === second)
        context.addIssue({ code: "custom", path: ["games", index, "seats"], message: "an entrant cannot play itself" });
      else if (JSON.stringify(game.seats) !== JSON.stringify(table.arrangement(first, second))) {
        context.addIssue({
          code: "custom",
          path: ["games", index, "seats"],
          message: `a ${report.game} game seats two entrants as ${table.arrangement("A", "B").join(", ")}`,
        });
      }
    });
  });

const idSchema = z.string().regex(/^[0-9A-Za-z_-]{1,40}$/);

const digest = (text: string): Buffer => createHash("sha256").update(text).digest();

/** Whether the request carries the operator's secret (always, when none is set). */
function authorised(req: Request, secret: string | null): boolean {
  if (secret === null) return true;
  const given = /^Bearer (.+)$/.exec(req.get("authorization") ?? "")?.[1];
  return given !== undefined && timingSafeEqual(digest(given), digest(secret));
}

/** The database's failure in a sentence, never a stack. */
function unavailable(res: Response, error: unknown): void {
  res.status(503).json({
    error: `the records database is not available: ${error instanceof Error ? error.message : String(error)}`,
  });
}

export function tournamentRoutes(app: Application, records: Records | null, secret: string | null): void {
  app.post("/tournaments", express.json({ limit: BODY_LIMIT }), async (req: Request, res: Response) => {
    if (!authorised(req, secret))
      return void res
        .status(401)
        .json({ error: "a tournament report needs the operator's secret (Authorization: Bearer …)" });
    if (records === null) return void res.status(503).json({ error: "this server keeps no records (RECORDS=off)" });
    const report = reportSchema.safeParse(req.body);
    if (!report.success) {
      const issue = report.error.issues[0];
      return void res
        .status(400)
        .json({ error: `bad report at ${issue?.path.join(".") || "(body)"}: ${issue?.message ?? "invalid"}` });
    }
    try {
      await records.writer.flush(FLUSH_MS);
      const id = await records.tournaments.save(report.data as TournamentReport);
      res.status(201).json({ id });
    } catch (error) {
      if (!(error instanceof TournamentRefusal)) return unavailable(res, error);
      // A game not written yet (another process of a cluster may still be writing it) may come: 409, send again.
      res.status(error.kind === "missing" ? 409 : 400).json({ error: error.message });
    }
  });

  app.get("/tournaments/:id", async (req: Request, res: Response, next: NextFunction) => {
    if (req.accepts(["json", "html"]) === "html") return next(); // a browser's visit: the page
    if (records === null) return void res.status(503).json({ error: "this server keeps no records (RECORDS=off)" });
    const id = idSchema.safeParse(req.params.id);
    try {
      const tournament = id.success ? await records.tournaments.get(id.data) : undefined;
      if (tournament === undefined) return void res.status(404).json({ error: "no such tournament" });
      res.json(tournament);
    } catch (error) {
      unavailable(res, error);
    }
  });
}
