/**
 * The records over HTTP: GET /games (newest first, paged), /games/:id, /games/:id/replay, /games/:id/review (a
 * Tractor seat's plays against the strong AI's, or a Fool seat's moves against the Fool AI's, made on the AI's
 * threads and stored with the record once complete), /leaderboard and /profiles/:name (a player's page:
 * server/records/players.ts). Every
 * parameter is checked before the database is asked anything (a bad one is a 400 naming it); queries are
 * parameterised by the query builder, so nothing a client writes is ever read as SQL.
 */
import type { Application, Request, Response } from "express";
import { z } from "zod";
import { log } from "../../rooms/kit/log";
import { RECORDED_GAMES } from "../../rooms/kit/record";
import type { Records } from "./index";
import { playerProfile } from "./players";
import { replayRecord, ReplayMismatch } from "./replay";
import { matchKey } from "./store";
import { TRACTOR_SEATS } from "../../rooms/tractor/protocol";
import type { GameRecord, GameSummary } from "../../rooms/kit/record";
import type { TractorReview } from "../../rooms/tractor/review";
import type { FoolReview } from "../../rooms/fool/review";

/** A review of one seat of a recorded game: Tractor's (points given up) or Fool's (win chance given up). */
export type GameReview = TractorReview | FoolReview;

/**
 * Reviews one seat of a recorded Tractor or Fool game off the event loop (server/ai/tractor-ai-pool.ts,
 * server/ai/fool-ai-pool.ts), its seat a number (Tractor: North 0, East 1, South 2, West 3).
 */
export type Reviewer = (record: GameRecord, seat: number) => Promise<GameReview>;

/** The games reviewed, and how each names a seat in the query: Tractor by its seat's name, Fool by 0 or 1. */
const reviewQueries = {
  tractor: z.strictObject({ seat: z.enum(TRACTOR_SEATS).transform((seat) => TRACTOR_SEATS.indexOf(seat)) }),
  fool: z.strictObject({ seat: z.enum(["0", "1"]).transform(Number) }),
} as const;
const isReviewed = (game: string): game is keyof typeof reviewQueries => game in reviewQueries;
/** Reviews under way or cut short by their time, newest last (a complete one is read from the database). */
const REVIEWS_KEPT = 256;

/** Record ids are base-36 time and base64url characters. */
const recordIdSchema = z.string().regex(/^[0-9A-Za-z_-]{1,40}$/, "not a record id");
const MAX_PAGE = 100;

const gamesQuery = z.strictObject({
  game: z.enum(RECORDED_GAMES).optional(),
  player: z.string().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(20),
  before: recordIdSchema.optional(),
});

/** A name as a player page's address carries it (decoded by Express). */
const profileName = z.string().trim().min(1).max(100);

const leaderboardQuery = z.strictObject({
  game: z.enum(RECORDED_GAMES),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(50),
});

function badRequest(res: Response, error: z.ZodError): void {
  const issue = error.issues[0];
  res
    .status(400)
    .json({ error: `bad parameter ${issue?.path.join(".") || "(query)"}: ${issue?.message ?? "invalid"}` });
}

/** Runs a handler; a database that fails answers 503 (the message says why), never a crash or a stack trace. */
function guarded(records: Records | null, handler: (records: Records, req: Request, res: Response) => Promise<void>) {
  return async (req: Request, res: Response) => {
    if (records === null) {
      res.status(503).json({ error: "this server keeps no records (RECORDS=off)" });
      return;
    }
    try {
      await handler(records, req, res);
    } catch (error) {
      res.status(503).json({
        error: `the records database is not available: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  };
}

/** Whether a table is still open (in any process of a cluster): its match may go on. */
export type TableIsOpen = (roomId: string) => Promise<boolean>;

export function recordRoutes(
  app: Application,
  records: Records | null,
  reviewer: Reviewer | null = null,
  tableIsOpen: TableIsOpen = async () => true,
): void {
  const reviews = new Map<string, Promise<GameReview>>();
  const hidingSeeds = <Game extends RoundOfMatch>(store: Records["store"], games: readonly Game[]) =>
    hidingSeedsOfMatchesUnderWay(store, tableIsOpen, games);
  /** The review from the database, else the one under way, else a new one (stored once it comes complete). */
  const reviewOf = async (store: Records["store"], record: GameRecord, seat: number): Promise<GameReview> => {
    const stored = (await store.review(record.id, seat)) as GameReview | undefined;
    if (stored !== undefined) return stored;
    if (reviewer === null) throw new NoReviewer();
    const key = `${record.id}:${seat}`;
    let review = reviews.get(key);
    if (review === undefined) {
      review = reviewer(record, seat).then(async (made) => {
        if (made.complete) {
          // A database that fails to keep it costs a second review later, not this answer.
          await store.saveReview(record.id, seat, made).then(
            () => reviews.delete(key),
            (error: unknown) =>
              log.warn(
                { event: "review_not_stored", game: record.id },
                `a review was not stored: ${error instanceof Error ? error.message : String(error)}`,
              ),
          );
        }
        return made;
      });
      reviews.set(key, review);
      review.catch(() => reviews.delete(key));
      if (reviews.size > REVIEWS_KEPT) reviews.delete(reviews.keys().next().value as string);
    }
    return review;
  };
  app.get(
    "/games/:id/review",
    guarded(records, async ({ store }, req, res) => {
      const record = await recordById(store, req, res);
      if (record === undefined) return;
      if (!isReviewed(record.game))
        return void res
          .status(400)
          .json({ error: `reviews are offered for Tractor and Fool records; this one is ${record.game}` });
      const query = reviewQueries[record.game].safeParse(req.query);
      if (!query.success) return badRequest(res, query.error);
      try {
        res.json({ id: record.id, game: record.game, ...(await reviewOf(store, record, query.data.seat)) });
      } catch (error) {
        if (error instanceof NoReviewer) return void res.status(503).json({ error: error.message });
        res.status(422).json({
          error: `the record could not be reviewed: ${error instanceof Error ? error.message : String(error)}`,
        });
      }
    }),
  );

  app.get(
    "/games",
    guarded(records, async ({ store }, req, res) => {
      const query = gamesQuery.safeParse(req.query);
      if (!query.success) return badRequest(res, query.error);
      const page = await store.list(query.data);
      const games = await hidingSeeds(store, page.games);
      res.json({ ...page, games: games.map((game) => (isWithheld(game) ? withheldSummary(game) : game)) });
    }),
  );

  app.get(
    "/games/:id",
    guarded(records, async ({ store }, req, res) => {
      const record = await recordById(store, req, res);
      if (record !== undefined) res.json((await hidingSeeds(store, [record]))[0]);
    }),
  );

  app.get(
    "/games/:id/replay",
    guarded(records, async ({ store }, req, res) => {
      const record = await recordById(store, req, res);
      if (record === undefined) return;
      try {
        res.json(replayRecord(record));
      } catch (error) {
        if (!(error instanceof ReplayMismatch)) throw error;
        res.status(422).json({ error: `the record does not replay: ${error.message}`, step: error.step });
      }
    }),
  );

  app.get(
    "/leaderboard",
    guarded(records, async ({ store }, req, res) => {
      const query = leaderboardQuery.safeParse(req.query);
      if (!query.success) return badRequest(res, query.error);
      res.json({ game: query.data.game, players: await store.leaderboard(query.data.game, query.data.limit) });
    }),
  );

  app.get(
    "/profiles/:name",
    guarded(records, async ({ store, identities }, req, res) => {
      const name = profileName.safeParse(req.params.name);
      const profile = name.success ? await playerProfile(store, identities, name.data) : null;
      if (profile === null)
        return void res.status(404).json({
          error: `${String(req.params.name).slice(0, 100)} has no player page: the name is not registered and stands in no game's standings (guests have no page)`,
        });
      res.json({ ...profile, recentGames: await hidingSeeds(store, profile.recentGames) });
    }),
  );
}

class NoReviewer extends Error {
  constructor() {
    super("this server makes no reviews");
  }
}

async function recordById(store: Records["store"], req: Request, res: Response) {
  const id = recordIdSchema.safeParse(req.params.id);
  if (!id.success) {
    res.status(404).json({ error: "no such game" });
    return undefined;
  }
  const record = await store.get(id.data);
  if (record === undefined) res.status(404).json({ error: "no such game" });
  else if (isWithheld(record)) {
    res.status(403).json({
      error: `this is deal ${record.ladder!.deal} of the ${record.game} ladder for ${record.ladder!.period}, which others may still play: its record shows once the period ends (${new Date(record.ladder!.endsAt).toISOString()})`,
    });
    return undefined;
  }
  return record;
}

type RoundOfMatch = Pick<GameSummary, "part" | "roomId" | "match" | "seed">;

/**
 * A round of a match still under way shows no seed: its record carries the match's seed (a round replays from the
 * match's start), from which every later round's deal follows. The seed shows once the match is over: its record is
 * stored, or its table has closed (a match left midway goes no further). GET /games/:id/replay replays such a round
 * all the same: a replay shows the round's own seed, never the match's.
 */
async function hidingSeedsOfMatchesUnderWay<Game extends RoundOfMatch>(
  store: Records["store"],
  tableIsOpen: TableIsOpen,
  games: readonly Game[],
): Promise<Game[]> {
  const rounds = games.filter((game) => game.part === "round");
  const ended = await store.endedMatches(rounds);
  const undecided = [
    ...new Set(rounds.filter((round) => !ended.has(matchKey(round.roomId, round.match))).map((round) => round.roomId)),
  ];
  const open = new Set(
    (await Promise.all(undecided.map(async (roomId) => ((await tableIsOpen(roomId)) ? [roomId] : [])))).flat(),
  );
  const underWay = (game: Game) =>
    game.part === "round" && !ended.has(matchKey(game.roomId, game.match)) && open.has(game.roomId);
  return games.map((game) => (underWay(game) ? { ...game, seed: 0, seedWithheld: true } : game));
}

/**
 * A ladder game of a period not yet over (docs/arena.md, "Solo ladders"): everyone in the period plays its deal, so
 * its seed, its cards and its plays are shown to nobody until the period ends.
 */
function isWithheld(game: Pick<GameSummary, "ladder">, now = Date.now()): boolean {
  return game.ladder !== undefined && game.ladder.endsAt > now;
}

/** A withheld ladder game in a listing: who played it and when, never its seed nor its result. */
function withheldSummary(game: GameSummary): GameSummary {
  return { ...game, seed: 0, result: null };
}
