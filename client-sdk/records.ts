/**
 * The records of finished games over the server's HTTP API: listings, whole records, replays, leaderboards and
 * player pages.
 * Failures are CardhallErrors: NOT_FOUND for an unknown game, BAD_REQUEST for a parameter the server refuses,
 * UNAVAILABLE when the server keeps no records or its database is away, CONNECTION when the server cannot be reached.
 */
import type {
  GamePage,
  GameRecord,
  LadderStandings,
  PlayerProfile,
  RecordedGame,
  Replay,
  Standing,
} from "../rooms/kit/record";
import type { Tournament } from "../rooms/kit/tournament";
import { CardhallError } from "./errors";
import type { TractorReview } from "../rooms/tractor/review";
import type { FoolReview } from "../rooms/fool/review";

export type { Tournament, TournamentGameEntry, TournamentStanding } from "../rooms/kit/tournament";
export type {
  GamePage,
  GameRecord,
  GameSummary,
  LadderStanding,
  LadderStandings,
  LadderTag,
  OpponentTally,
  PlayerIdentity,
  PlayerProfile,
  RatingPoint,
  RecordedEvent,
  RecordedSeat,
  RecordedStep,
  Replay,
  ReplayedDeal,
  ReplayFrame,
  Standing,
} from "../rooms/kit/record";

/** GET /games's filters: a game's room name, a player's name, a page size (1–100) and the `next` of the last page. */
export interface GamesQuery {
  game?: RecordedGame;
  player?: string;
  limit?: number;
  before?: string;
}

export type { ReviewedMove as TractorReviewedMove, TractorReview } from "../rooms/tractor/review";
export type { FoolReview, FoolReviewedMove } from "../rooms/fool/review";

/** GET /games/:id/review's answer: a Tractor seat's plays against the strong AI's, or a Fool seat's against the AI's. */
export type GameReview = { readonly id: string } & (
  | ({ readonly game: "tractor" } & TractorReview)
  | ({ readonly game: "fool" } & FoolReview)
);

const CODES_BY_STATUS: Record<number, string> = {
  400: "BAD_REQUEST",
  403: "WITHHELD",
  404: "NOT_FOUND",
  422: "DOES_NOT_REPLAY",
  503: "UNAVAILABLE",
};

/** The server's HTTP base for its WebSocket address (ws://host:port → http://host:port). */
export function httpBase(url: string): string {
  return url.replace(/^ws(s?):\/\//, "http$1://").replace(/\/+$/, "");
}

export async function getJson<T>(
  url: string,
  path: string,
  query: Record<string, string | number | undefined> = {},
): Promise<T> {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
  const target = `${httpBase(url)}${path}${search.size > 0 ? `?${search}` : ""}`;
  let response: Response;
  try {
    response = await fetch(target);
  } catch (error) {
    throw new CardhallError(
      "CONNECTION",
      `cannot reach ${httpBase(url)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const body = (await response.json().catch(() => undefined)) as (T & { error?: string }) | undefined;
  if (!response.ok)
    throw new CardhallError(
      CODES_BY_STATUS[response.status] ?? "HTTP_ERROR",
      body?.error ?? `GET ${path} answered ${response.status}`,
    );
  if (body === undefined) throw new CardhallError("HTTP_ERROR", `GET ${path} answered with no JSON`);
  return body;
}

/** The records' part of the client: see CardhallClient.games / game / replay / leaderboard. */
export class RecordsApi {
  constructor(private readonly url: string) {}

  games(query: GamesQuery = {}): Promise<GamePage> {
    return getJson<GamePage>(this.url, "/games", { ...query });
  }

  game(id: string): Promise<GameRecord> {
    return getJson<GameRecord>(this.url, `/games/${encodeURIComponent(id)}`);
  }

  replay(id: string): Promise<Replay> {
    return getJson<Replay>(this.url, `/games/${encodeURIComponent(id)}/replay`);
  }

  /** A ladder's standings (GET /ladders/:game): the current period, or the one `period` names. */
  ladder(game: "evensteven" | "patience", period?: string): Promise<LadderStandings> {
    return getJson<LadderStandings>(this.url, `/ladders/${game}`, { period });
  }

  /** One seat's review: Tractor's seat by its name (Alice…David), Fool's by its number (0 or 1). */
  review(id: string, seat: string | number): Promise<GameReview> {
    return getJson<GameReview>(this.url, `/games/${encodeURIComponent(id)}/review`, { seat });
  }

  async leaderboard(game: NonNullable<GamesQuery["game"]>, limit?: number): Promise<Standing[]> {
    return (await getJson<{ players: Standing[] }>(this.url, "/leaderboard", { game, limit })).players;
  }

  player(name: string): Promise<PlayerProfile> {
    return getJson<PlayerProfile>(this.url, `/profiles/${encodeURIComponent(name)}`);
  }

  tournament(id: string): Promise<Tournament> {
    return getJson<Tournament>(this.url, `/tournaments/${encodeURIComponent(id)}`);
  }
}
