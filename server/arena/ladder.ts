/**
 * Solo ladders (docs/arena.md, "Solo ladders"): Even-Steven and Shuffling Patience played on shared deals. A period
 * (a UTC day by default) has K deals per game, the same for everyone: each deal's seed is HMAC-SHA256 of the server's
 * secret and "game:period:deal", so every process of a cluster derives the same seeds with no coordination, and
 * nobody can work a seed out before its game ends. This module is pure: periods, seeds, each game's scoring of a
 * deal, and the standings' order. The claims and results live in the records (ladder-store.ts).
 */
import { createHmac } from "node:crypto";
import type { z } from "zod";
import type { LadderStanding, SeatIdentity } from "../../rooms/kit/record";
import { MAX_SEED as EVENSTEVEN_MAX_SEED, MIN_SEED as EVENSTEVEN_MIN_SEED } from "../../rooms/evensteven/engine";
import type { EvenStevenResult } from "../../rooms/evensteven/match";
import { evenStevenLadderOptions } from "../../rooms/evensteven/protocol";
import type { PatienceResult } from "../../rooms/patience/match";
import { PATIENCE_MAX_SEED, PATIENCE_MIN_SEED, patienceLadderOptions } from "../../rooms/patience/protocol";

/** What one deal earned: points first, then the tie-break; higher is better for both. */
export interface DealScore {
  readonly points: number;
  readonly tiebreak: number;
}

export interface LadderDefinition {
  readonly game: LadderGame;
  /** Deals in a period. */
  readonly deals: number;
  /** What a ladder table may be created with (the room checks the same). */
  readonly options: z.ZodType<unknown>;
  readonly seeds: { readonly min: number; readonly max: number };
  /** What the points and the tie-break count, in words, for the standings' readers. */
  readonly scoring: { readonly points: string; readonly tiebreak: string };
  /** A deal's score from its engine's result; null for a deal given and never finished (it scores nothing). */
  score(result: unknown): DealScore;
}

const NOTHING: DealScore = { points: 0, tiebreak: 0 };

/**
 * Even-Steven: ten deals of seven cards. A game takes a few seconds, and ten deals make the wins (each worth one)
 * tell a careful player from a lucky one; a necessary loss is the deal's (everyone loses it), so the tie-break is
 * the clean deals: won, or lost when no play could win. A loss that could have been a win, a time-out, or a deal
 * left unfinished is not clean.
 */
const evenSteven: LadderDefinition = {
  game: "evensteven",
  deals: 10,
  options: evenStevenLadderOptions,
  seeds: { min: EVENSTEVEN_MIN_SEED, max: EVENSTEVEN_MAX_SEED },
  scoring: { points: "deals won", tiebreak: "clean deals: won, or lost when no play could have won" },
  score(result) {
    const outcome = (result as EvenStevenResult | null)?.outcome;
    if (outcome === undefined) return NOTHING;
    return { points: outcome === "WIN" ? 1 : 0, tiebreak: outcome === "WIN" || outcome === "LOSE NECESSARILY" ? 1 : 0 };
  },
};

const PATIENCE_DECK = 52;

/**
 * Shuffling Patience: five deals. A deal is dealt by the table at its pace (a minute or two to watch), and it has no
 * decision in it: everyone who plays a deal gets its result, so the standings tell who has played the period's
 * deals (the deals completed, then the cards dealt before an overflow, a completed deal counting all 52).
 */
const patience: LadderDefinition = {
  game: "patience",
  deals: 5,
  options: patienceLadderOptions,
  seeds: { min: PATIENCE_MIN_SEED, max: PATIENCE_MAX_SEED },
  scoring: { points: "deals completed", tiebreak: "cards dealt before an overflow (52 for a completed deal)" },
  score(result) {
    const outcome = (result as PatienceResult | null)?.outcome;
    if (outcome === undefined) return NOTHING;
    if (outcome.kind === "finished") return { points: 1, tiebreak: PATIENCE_DECK };
    return { points: 0, tiebreak: outcome.cardNumber - 1 };
  },
};

export const LADDERS = { evensteven: evenSteven, patience } as const;
export type LadderGame = keyof typeof LADDERS;
export const LADDER_GAMES = Object.keys(LADDERS) as LadderGame[];

export function isLadderGame(game: string): game is LadderGame {
  return Object.hasOwn(LADDERS, game);
}

// Periods ------------------------------------------------------------------------------------------------------

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** A period: its label (the UTC date, or date and time for periods shorter than a day), start and end. */
export interface Period {
  readonly label: string;
  readonly startsAt: number;
  readonly endsAt: number;
}

/**
 * The length of a period from `LADDER_PERIOD`: `day` (the default), or a number of hours (`6h`) or minutes (`30m`)
 * that divides a day, so that periods start at the same times every day (at 00:00 UTC, then every length).
 */
export function parseLadderPeriod(text: string | undefined): number {
  if (text === undefined || text === "" || text === "day") return DAY_MS;
  const match = /^(\d{1,4})([hm])$/.exec(text);
  const length = match === null ? NaN : Number(match[1]) * (match[2] === "h" ? 60 : 1) * MINUTE_MS;
  if (!(length > 0 && length <= DAY_MS && DAY_MS % length === 0))
    throw new Error(`LADDER_PERIOD must be "day", or hours ("6h") or minutes ("30m") that divide a day, got "${text}"`);
  return length;
}

function labelOf(startsAt: number, lengthMs: number): string {
  const iso = new Date(startsAt).toISOString();
  return lengthMs === DAY_MS ? iso.slice(0, 10) : `${iso.slice(0, 16)}Z`;
}

/** The period `at` falls in. */
export function periodAt(lengthMs: number, at: number): Period {
  const startsAt = Math.floor(at / lengthMs) * lengthMs;
  return { label: labelOf(startsAt, lengthMs), startsAt, endsAt: startsAt + lengthMs };
}

/** The period a label names (as `periodAt` writes it for this length), or null when it names none. */
export function periodNamed(lengthMs: number, label: string): Period | null {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}Z)?$/.test(label)) return null;
  const startsAt = Date.parse(label.length === 10 ? `${label}T00:00Z` : label);
  if (!Number.isFinite(startsAt)) return null;
  const period = periodAt(lengthMs, startsAt);
  return period.label === label ? period : null;
}

// Seeds --------------------------------------------------------------------------------------------------------

/**
 * The seed of a period's deal: HMAC-SHA256(secret, "game:period:deal"), its first six bytes read as a number and
 * brought into the engine's range. The same everywhere the secret is the same; unguessable without it.
 */
export function ladderSeed(secret: Buffer, definition: LadderDefinition, period: string, deal: number): number {
  const digest = createHmac("sha256", secret).update(`${definition.game}:${period}:${deal}`).digest();
  const { min, max } = definition.seeds;
  return min + (digest.readUIntBE(0, 6) % (max - min + 1));
}

// Standings ----------------------------------------------------------------------------------------------------

/** One deal given to an identity in a period, and its result once its game ended (null before, or if it never did). */
export interface LadderPlay {
  readonly deal: number;
  readonly identity: Extract<SeatIdentity, { kind: "account" | "bot" }>;
  readonly result: unknown;
  readonly endedAt: number | null;
}

/**
 * The period's standings: every identity given a deal, by its points over the period's deals (a deal not played
 * scores nothing, so a full set is needed to top the ladder), then the tie-break, then who finished first, then name.
 */
export function rankStandings(definition: LadderDefinition, plays: readonly LadderPlay[]): LadderStanding[] {
  const byName = new Map<string, LadderPlay[]>();
  for (const play of plays) byName.set(play.identity.name, [...(byName.get(play.identity.name) ?? []), play]);
  const standings = [...byName.values()].map((own) => standingOf(definition, own));
  standings.sort(
    (a, b) =>
      b.points - a.points ||
      b.tiebreak - a.tiebreak ||
      (a.lastEndedAt ?? Infinity) - (b.lastEndedAt ?? Infinity) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return standings.map((standing, index) => ({ ...standing, rank: index + 1 }));
}

function standingOf(definition: LadderDefinition, plays: readonly LadderPlay[]): LadderStanding {
  const { identity } = plays[0];
  const scores = plays.map((play) => definition.score(play.result));
  const ended = plays.flatMap((play) => (play.endedAt === null ? [] : [play.endedAt]));
  return {
    rank: 0,
    name: identity.name,
    kind: identity.kind,
    ...(identity.kind === "bot" ? { owner: identity.owner } : {}),
    played: plays.length,
    finished: ended.length,
    points: scores.reduce((sum, score) => sum + score.points, 0),
    tiebreak: scores.reduce((sum, score) => sum + score.tiebreak, 0),
    lastEndedAt: ended.length === 0 ? null : Math.max(...ended),
  };
}
