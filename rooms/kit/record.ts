/**
 * What is kept of a finished game: enough to show it, to rate its players, and to replay it exactly through its
 * engine (the options, the seed and the ordered actions), with the events each action caused so that a replay can
 * be checked against them. Types only: the SDK imports them too.
 */
import type { Actor } from "./engine";
import { GAME_NAMES, type GameName } from "../games";

/** The rooms whose games are recorded, by room name (the `game` of a record, `?game=` in the HTTP API): every game. */
export const RECORDED_GAMES = GAME_NAMES;
export type RecordedGame = GameName;

/** The version of the record's shape and of the rules that make its replay; a replay checks it. */
export const RECORD_FORMAT = 1;

/** Who made an action: a person (or a program through the SDK), a seat's bot, the clock for a silent seat, the table. */
export type Mover = "person" | "bot" | "clock" | "dealer";

/** Who held a seat when the game ended: a person (or program), the table's bot, a game's AI, or nobody. */
export type SeatKind = "person" | "bot" | "ai" | "open";

/**
 * Who a seat speaks for (docs/arena.md): an account (a person logged in), a bot with its owner's account (a program
 * with the bot's token), a guest (a join with neither, playing under a name nobody registered), or one of the
 * house's bots (the Fool AI at a level, a Tractor bot at a level), rated under its reserved name like any identity.
 */
export type SeatIdentity =
  | { readonly kind: "account"; readonly name: string }
  | { readonly kind: "bot"; readonly name: string; readonly owner: string }
  | { readonly kind: "guest" }
  | { readonly kind: "house"; readonly name: string };

export const GUEST: SeatIdentity = { kind: "guest" };

/**
 * A ladder game's place (docs/arena.md, "Solo ladders"): the period (its label, e.g. "2026-11-26"), the deal's
 * number in it (1 to the ladder's K), and when the period ends (ms since the epoch): until then the record is
 * withheld from everyone, since the other players of the period have the same deal still to play.
 */
export interface LadderTag {
  readonly period: string;
  readonly deal: number;
  readonly endsAt: number;
}

/** A ladder deal as the server hands it to the table: its place, and the seed the table deals (kept on the server). */
export interface LadderDeal extends LadderTag {
  readonly seed: number;
}

export interface RecordedSeat {
  readonly seat: number;
  /** The person's (or program's) name, a bot's or an AI's label; "" for a seat nobody held. */
  readonly name: string;
  readonly kind: SeatKind;
  /** For a person's seat: the identity it played under (absent in records made before identities); for a house bot's seat, the house. */
  readonly identity?: SeatIdentity;
  /** The person (`identity`) left during the game and the room's bot finished it in their seat: they forfeit it. */
  readonly left?: true;
}

export interface RecordedEvent {
  readonly name: string;
  readonly payload: unknown;
  /** The one seat the event went to (its own cards); absent for a public event. */
  readonly to?: number;
}

export interface RecordedStep {
  readonly actor: Actor;
  readonly action: unknown;
  /** When the table accepted it, in ms since the epoch. */
  readonly at: number;
  readonly by: Mover;
  readonly events: readonly RecordedEvent[];
}

/**
 * A game ("game": an Even-Steven game, a Fool game, a Patience deal), a Tractor round ("round": the match's actions
 * up to that round's end, since a round starts from the ranks the earlier rounds made) or a Tractor match ("match").
 */
export type RecordPart = "game" | "round" | "match";

export interface GameRecord {
  readonly id: string;
  readonly format: number;
  /** The room's name: evensteven, fool, patience, tractor. */
  readonly game: string;
  readonly roomId: string;
  readonly part: RecordPart;
  /** The match's number in its room (1 for the room's first). */
  readonly match: number;
  /** For a round: its number in the match. */
  readonly round?: number;
  /** The engine's options and seed: with the actions they replay the game. */
  readonly options: unknown;
  readonly seed: number;
  /**
   * The commitment to the seed of the record's deal (for a Tractor round or match, its last round's) published when
   * the deal started, and the salt revealed at its end: SHA-256 of `<seed>:<salt>` (rooms/kit/commitment.ts). Both
   * absent for a deal drawn from no seed (a Patience deck given as cards) and in records made before deals were sealed.
   */
  readonly commitment?: string;
  readonly salt?: string;
  readonly seats: readonly RecordedSeat[];
  /** The events of the match's start (the first deal). */
  readonly start: readonly RecordedEvent[];
  readonly actions: readonly RecordedStep[];
  /** The engine's result (for a round, the round's end). */
  readonly result: unknown;
  readonly startedAt: number;
  readonly endedAt: number;
  /** For a ladder game: its period and deal. */
  readonly ladder?: LadderTag;
  /**
   * Set (and `seed` 0) when the server shows a round of a match still under way: the match's seed gives every later
   * round's deal, so it shows once the match is over (docs/records.md).
   */
  readonly seedWithheld?: true;
}

/** A record as the table hands it over: the store gives it its id. */
export type FinishedGame = Omit<GameRecord, "id" | "format">;

/** Where a table sends what it finishes; the server's writer queues it (never waiting on a database, never throwing). */
export interface RecordSink {
  submit(game: FinishedGame): void;
}

/** A game in a listing: everything but the actions. */
export interface GameSummary {
  readonly id: string;
  readonly game: string;
  readonly roomId: string;
  readonly part: RecordPart;
  readonly match: number;
  readonly round?: number;
  readonly seed: number;
  readonly seats: readonly RecordedSeat[];
  readonly result: unknown;
  readonly actionCount: number;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly ladder?: LadderTag;
  /** As GameRecord's. */
  readonly seedWithheld?: true;
}

/** A page of games, newest first; `next` is the `before` that gives the following page (absent on the last). */
export interface GamePage {
  readonly games: readonly GameSummary[];
  readonly next?: string;
}

/** One step of a replay: the action (none for the start) and the state after it, every card visible. */
export interface ReplayFrame {
  readonly index: number;
  readonly actor?: Actor;
  readonly action?: unknown;
  readonly at?: number;
  readonly by?: Mover;
  readonly events: readonly RecordedEvent[];
  /** What a spectator saw, and what each seat saw (its own hand): together, the whole table. */
  readonly table: unknown;
  readonly seats: readonly unknown[];
}

export interface Replay {
  readonly id: string;
  readonly game: string;
  readonly part: RecordPart;
  readonly frames: readonly ReplayFrame[];
  readonly result: unknown;
  /** The deal the record ends on, to check against its commitment; null for a deal drawn from no seed. */
  readonly deal: ReplayedDeal | null;
}

/**
 * The seed the replayed deal was drawn from, as the engine replayed it from the record (a Tractor round's own seed,
 * derived from the match's), with the commitment and salt the record keeps (absent in records made before deals
 * were sealed): `sha256("<seed>:<salt>")` must be the commitment (rooms/kit/commitment.ts).
 */
export interface ReplayedDeal {
  readonly seed: number;
  readonly commitment?: string;
  readonly salt?: string;
}

/** A player's standing in one game: a rating for rated games, counts for all. */
export interface Standing {
  readonly game: string;
  readonly name: string;
  readonly games: number;
  readonly wins: number;
  readonly losses: number;
  readonly draws: number;
  /** Even-Steven: games lost that could have been won. */
  readonly unnecessaryLosses: number;
  /** Patience: deals that came out (finished, not overflowed). */
  readonly completed: number;
  /**
   * OpenSkill's estimate (mu ± sigma), the conservative ordinal (mu − 3 sigma) it is ranked by, and the 95% interval
   * of the skill (mu ± 1.96 sigma: `low`, `high`); null when unrated.
   */
  readonly rating: {
    readonly mu: number;
    readonly sigma: number;
    readonly ordinal: number;
    readonly low: number;
    readonly high: number;
  } | null;
}

/** A player's rating in one game after one rated game of theirs (the player page's chart). */
export interface RatingPoint {
  readonly game: string;
  /** The record that moved it. */
  readonly id: string;
  readonly endedAt: number;
  readonly mu: number;
  readonly sigma: number;
  readonly ordinal: number;
}

/** A player's games against one opponent, in one game, from the player's side. */
export interface OpponentTally {
  readonly game: string;
  readonly name: string;
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

/**
 * Who stands under a name (docs/arena.md): an account, a bot and its owner, or a name nobody registered that is
 * in the standings all the same (the house's AI, names that played before accounts). Guests have no page.
 */
export type PlayerIdentity =
  | { readonly kind: "account" }
  | { readonly kind: "bot"; readonly owner: string }
  | { readonly kind: "unregistered" };

/** GET /profiles/:name: what a player page shows. */
export interface PlayerProfile {
  /** The name as registered (a lookup folds case and separators: "deep-blue" finds "Deep Blue"). */
  readonly name: string;
  readonly identity: PlayerIdentity;
  readonly standings: readonly Standing[];
  /** Per rated game, oldest first: the player's last rated games (at most 200 a game). */
  readonly ratingHistory: readonly RatingPoint[];
  /** The player's newest games, newest first. */
  readonly recentGames: readonly GameSummary[];
  /** Tallies against each opponent over the player's newest `gamesTallied` games. */
  readonly opponents: readonly OpponentTally[];
  readonly gamesTallied: number;
}

/** One identity's place in a ladder's period (GET /ladders/:game; docs/arena.md, "Solo ladders"). */
export interface LadderStanding {
  readonly rank: number;
  readonly name: string;
  readonly kind: "account" | "bot";
  /** A bot's owner. */
  readonly owner?: string;
  /** Deals given, and of them those whose game ended. */
  readonly played: number;
  readonly finished: number;
  readonly points: number;
  readonly tiebreak: number;
  /** When the last of its games ended (ms since the epoch), the last tie-break: who got there first ranks first. */
  readonly lastEndedAt: number | null;
}

/** A ladder's period: its K deals, what its points count, and its standings, best first. */
export interface LadderStandings {
  readonly game: string;
  readonly period: string;
  readonly startsAt: number;
  readonly endsAt: number;
  /** K: the period's deals. */
  readonly deals: number;
  readonly scoring: { readonly points: string; readonly tiebreak: string };
  readonly standings: readonly LadderStanding[];
}
