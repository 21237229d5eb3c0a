/**
 * The cardhall client SDK: typed joins, spectating, reconnection and room listings for every cardhall room.
 * Built on @colyseus/sdk; it imports only the rooms' shared protocol definitions, never server code, and uses only
 * what browsers also have (WebSocket, fetch).
 */
import { Client, type Room } from "@colyseus/sdk";
import type { z } from "zod";
import type { RoomListing } from "../rooms/kit/protocol";
import {
  EVENSTEVEN_ROOM,
  type EvenStevenJoinOptions,
  type evenStevenLadderOptions,
} from "../rooms/evensteven/protocol";
import { CardhallError, toCardhallError } from "./errors";
import { EvenStevenPlayer, EvenStevenSpectator } from "./evensteven";
import { FOOL_ROOM, type FoolJoinOptions } from "../rooms/fool/protocol";
import { FoolPlayer, FoolSpectator } from "./fool";
import { PATIENCE_ROOM, type patienceLadderOptions } from "../rooms/patience/protocol";
import { PatienceOwner, PatienceSpectator, roomOptions, type PatienceCreateOptions } from "./patience";
import { TRACTOR_ROOM, type TractorJoinOptions, type TractorSeatName } from "../rooms/tractor/protocol";
import { TractorPlayer, TractorSpectator } from "./tractor";
import { RecordsApi, type GamesQuery } from "./records";
import { ratedSeat, type RatedQueueOptions } from "./queue";
import "./known-types";

export { CardhallError, SDK_ERROR_CODES, type SdkErrorCode } from "./errors";
export { DEFAULT_JOIN_PATIENCE_MS, joinWhenTaken, waitBeforeAskingAgain, type JoinPatience } from "./retry";
export { onStateChecks, RoomSession, type StateCheckResult } from "./session";
export type { RatedQueueOptions } from "./queue";
export type { QueueAdmits } from "../rooms/kit/protocol";
export { EvenStevenPlayer, EvenStevenSpectator, type EvenStevenEvents } from "./evensteven";
export type { RoomListing } from "../rooms/kit/protocol";
export * from "../rooms/evensteven/protocol";
export { FoolPlayer, FoolSpectator, foolViewOf, ownSeat, type FoolEvents, type FoolTurn } from "./fool";
export * from "../rooms/fool/protocol";
export {
  PatienceOwner,
  PatienceSpectator,
  type PatienceCreateOptions,
  type PatienceDealOptions,
  type PatienceDeck,
  type PatienceEvents,
} from "./patience";
export * from "../rooms/patience/protocol";
export {
  TractorPlayer,
  TractorSpectator,
  ownTractorSeat,
  tractorSeatView,
  type TractorCardLike,
  type TractorEvents,
  type TractorTurn,
} from "./tractor";
export * from "../rooms/tractor/protocol";
export type {
  GamePage,
  GameRecord,
  GameReview,
  GameSummary,
  GamesQuery,
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
  Tournament,
  TournamentGameEntry,
  TournamentStanding,
} from "./records";
export type { FoolReview, FoolReviewedMove, TractorReview, TractorReviewedMove } from "./records";
export {
  commitmentText,
  dealCommitment,
  NO_SEAL,
  revealMatches,
  sealOfRecord,
  type DealSealView,
  type SealedView,
} from "../rooms/kit/commitment";

/**
 * Joins, watches and lists cardhall's rooms. Every failure is a CardhallError with a stable code (SDK_ERROR_CODES
 * and each room's own). The reconnect methods take a seat back with a session's `reconnectionToken`, also while
 * that session's connection is still open: the newer connection then holds the seat, and the older session ends
 * with TAKEN_OVER (its waits reject with it, its `leave()` resolves at once).
 */
/** A ladder table's options besides the ladder's own deal: the player's clock (Even-Steven) or the dealer's pace (Patience). */
export type LadderTableOptions<Game extends "evensteven" | "patience"> = Omit<
  z.infer<Game extends "evensteven" ? typeof evenStevenLadderOptions : typeof patienceLadderOptions>,
  "ladder" | "name"
>;

export interface CardhallClientOptions {
  /** A bot's token (made by its owner's account: docs/arena.md); without one, a guest. */
  token?: string;
}

export class CardhallClient {
  readonly colyseus: Client;

  /**
   * `url` is the server's WebSocket address, e.g. ws://127.0.0.1:2567. With a bot's `token` (docs/arena.md), every
   * join speaks for that bot: its seat carries the bot's name and the records name the bot and its owner; without
   * one the client is a guest. The token travels only in the matchmaking requests' Authorization header (never in
   * an address, where a log could keep it).
   */
  constructor(
    readonly url: string,
    options: CardhallClientOptions = {},
  ) {
    this.colyseus = new Client(
      url,
      options.token === undefined ? undefined : { headers: { authorization: `Bearer ${options.token}` } },
    );
  }

  /** The live rooms (GET /rooms), for spectators to pick one. */
  async listRooms(name?: string): Promise<RoomListing[]> {
    const httpUrl = this.url.replace(/^ws/, "http").replace(/\/$/, "");
    let rooms: RoomListing[];
    try {
      const response = await fetch(`${httpUrl}/rooms`);
      if (!response.ok) throw new Error(`GET /rooms answered ${response.status}`);
      rooms = (await response.json()) as RoomListing[];
    } catch (error) {
      throw new CardhallError(
        "CONNECTION",
        `the server's room list could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return name ? rooms.filter((room) => room.name === name) : rooms;
  }

  /** Creates an Even-Steven room and takes its player's seat; the first game starts at once. */
  async playEvenSteven(options: Omit<EvenStevenJoinOptions, "spectate"> = {}): Promise<EvenStevenPlayer> {
    return new EvenStevenPlayer(await this.joining(this.colyseus.create(EVENSTEVEN_ROOM, options)));
  }

  /** Watches any live Even-Steven room by id. */
  async spectateEvenSteven(roomId: string): Promise<EvenStevenSpectator> {
    return new EvenStevenSpectator(await this.joining(this.colyseus.joinById(roomId, { spectate: true })));
  }

  /** Takes an Even-Steven seat back after a dropped connection, with the session's `reconnectionToken`. */
  async reconnectEvenSteven(token: string): Promise<EvenStevenPlayer> {
    return new EvenStevenPlayer(await this.joining(this.colyseus.reconnect(token)));
  }

  /**
   * Creates a Shuffling Patience room and owns it; the first deal starts at once (or paused, with `paused`).
   * Without a seed or a deck the room picks a seed and reveals it when the deal is over.
   */
  async createPatience(options: PatienceCreateOptions = {}): Promise<PatienceOwner> {
    return new PatienceOwner(await this.joining(this.colyseus.create(PATIENCE_ROOM, roomOptions(options))));
  }

  /** Watches any live Shuffling Patience room by id (`claim` takes it over once its owner has left). */
  async spectatePatience(roomId: string, options: { name?: string } = {}): Promise<PatienceSpectator> {
    return new PatienceSpectator(await this.joining(this.colyseus.joinById(roomId, { ...options, spectate: true })));
  }

  /** Takes a Shuffling Patience room's ownership back after a dropped connection, with the session's `reconnectionToken`. */
  async reconnectPatience(token: string): Promise<PatienceOwner> {
    return new PatienceOwner(await this.joining(this.colyseus.reconnect(token)));
  }

  /**
   * Creates a Fool room and takes a seat: against the room's AI (the default), or the first of two players
   * (`mode: "two-players"`: the game starts when the second joins with joinFool).
   */
  async playFool(
    options: Omit<FoolJoinOptions, "spectate" | "mode"> & { mode?: "vs-ai" | "two-players" } = {},
  ): Promise<FoolPlayer> {
    return new FoolPlayer(await this.joining(this.colyseus.create(FOOL_ROOM, options)));
  }

  /** Takes the free seat of a two-player Fool room by id. */
  async joinFool(roomId: string, options: Pick<FoolJoinOptions, "name" | "seat"> = {}): Promise<FoolPlayer> {
    return new FoolPlayer(await this.joining(this.colyseus.joinById(roomId, options)));
  }

  /** Creates a Fool room where the AI plays both seats, and watches it. */
  async watchFoolAiGame(
    options: Omit<FoolJoinOptions, "name" | "spectate" | "seat" | "mode"> = {},
  ): Promise<FoolSpectator> {
    return new FoolSpectator(await this.joining(this.colyseus.create(FOOL_ROOM, { ...options, mode: "ai-vs-ai" })));
  }

  /** Watches any live Fool room by id: the public state and the events, never a hand. */
  async spectateFool(roomId: string): Promise<FoolSpectator> {
    return new FoolSpectator(await this.joining(this.colyseus.joinById(roomId, { spectate: true })));
  }

  /** Takes a Fool seat back after a dropped connection, with the session's `reconnectionToken`. */
  async reconnectFool(token: string): Promise<FoolPlayer> {
    return new FoolPlayer(await this.joining(this.colyseus.reconnect(token)));
  }

  /**
   * Creates a Tractor room and takes a seat (`seat`, else Alice's); the match starts once every seat is held by a
   * person or a bot (`bots` names the seats bots hold from the start).
   */
  async playTractor(options: Omit<TractorJoinOptions, "spectate"> = {}): Promise<TractorPlayer> {
    return new TractorPlayer(await this.joining(this.colyseus.create(TRACTOR_ROOM, options)));
  }

  /** Takes a seat at a live Tractor table by id: the one named (open, or a bot's to take over) or the first open one. */
  async joinTractor(roomId: string, options: { seat?: TractorSeatName; name?: string } = {}): Promise<TractorPlayer> {
    return new TractorPlayer(await this.joining(this.colyseus.joinById(roomId, options)));
  }

  /** Creates a Tractor room without taking a seat and watches it (for a table of four bots: `bots` with every seat). */
  async watchTractor(options: Omit<TractorJoinOptions, "spectate" | "seat" | "name"> = {}): Promise<TractorSpectator> {
    return new TractorSpectator(await this.joining(this.colyseus.create(TRACTOR_ROOM, { ...options, spectate: true })));
  }

  /** Watches any live Tractor room by id: the public table and the events, never a hand. */
  async spectateTractor(roomId: string): Promise<TractorSpectator> {
    return new TractorSpectator(await this.joining(this.colyseus.joinById(roomId, { spectate: true })));
  }

  /**
   * Queues for a rated Fool game (docs/arena.md) as this client's identity (a client made with a bot's token; a
   * guest is refused JOIN_REFUSED), and resolves with the seat once the game starts: the queue pairs players by
   * rating, with a window that widens as they wait.
   */
  async playRatedFool(options: RatedQueueOptions = {}): Promise<FoolPlayer> {
    return ratedSeat(
      this.colyseus,
      FOOL_ROOM,
      options,
      (room) => new FoolPlayer(room),
      (session, timeoutMs) => session.waitForView((view) => view.phase !== "waiting", timeoutMs),
    );
  }

  /** Queues for a rated Tractor match (four identities, two teams balanced by rating), like playRatedFool. */
  async playRatedTractor(options: RatedQueueOptions = {}): Promise<TractorPlayer> {
    return ratedSeat(
      this.colyseus,
      TRACTOR_ROOM,
      options,
      (room) => new TractorPlayer(room),
      (session, timeoutMs) => session.waitForView((view) => view.phase !== "waiting", timeoutMs),
    );
  }

  /**
   * Plays this identity's next deal of the game's solo ladder (docs/arena.md, "Solo ladders"): a table of its own,
   * dealt the period's next deal it has not been given (the same deal as everyone's), with nobody watching. Needs
   * an identity (a client made with a bot's token); a guest, or an identity that has been given every deal of the
   * period, is refused JOIN_REFUSED with the reason. A deal given counts as played, finished or not.
   */
  async playLadder(game: "evensteven", options?: LadderTableOptions<"evensteven">): Promise<EvenStevenPlayer>;
  async playLadder(game: "patience", options?: LadderTableOptions<"patience">): Promise<PatienceOwner>;
  async playLadder(
    game: "evensteven" | "patience",
    options: Record<string, unknown> = {},
  ): Promise<EvenStevenPlayer | PatienceOwner> {
    const room = await this.joining(
      this.colyseus.create(game === "evensteven" ? EVENSTEVEN_ROOM : PATIENCE_ROOM, { ...options, ladder: true }),
    );
    return game === "evensteven" ? new EvenStevenPlayer(room) : new PatienceOwner(room);
  }

  /** A ladder's standings: the current period's, or the one `period` names (a UTC date such as 2026-11-26). */
  ladder(game: "evensteven" | "patience", period?: string) {
    return new RecordsApi(this.url).ladder(game, period);
  }

  /** Takes a Tractor seat back after a dropped connection, with the session's `reconnectionToken`. */
  async reconnectTractor(token: string): Promise<TractorPlayer> {
    return new TractorPlayer(await this.joining(this.colyseus.reconnect(token)));
  }

  private async joining(join: Promise<Room>): Promise<Room> {
    try {
      return await join;
    } catch (error) {
      const failure = toCardhallError(error);
      // The network's own words ("fetch failed") name no address: the program's user needs to know which.
      if (failure.code === "CONNECTION" && !failure.message.includes(this.url))
        throw new CardhallError("CONNECTION", `cannot reach ${this.url}: ${failure.message}`);
      throw failure;
    }
  }

  // The records of finished games (the server's HTTP API) ----------------------------------------------------

  /** Finished games, newest first (GET /games): filter by game and player; page with the last page's `next`. */
  games(query: GamesQuery = {}) {
    return new RecordsApi(this.url).games(query);
  }

  /** One finished game's whole record: seats, every action with its time and events, the result. */
  game(id: string) {
    return new RecordsApi(this.url).game(id);
  }

  /** A finished game played again by its engine: each action and the table after it, every card visible. */
  replay(id: string) {
    return new RecordsApi(this.url).replay(id);
  }

  /**
   * One seat's review of a finished Tractor or Fool game: each of its moves against the AI's choice from that seat's
   * view, what it gave up (Tractor: points and levels; Fool: win chance) and a summary. Made once, then kept.
   */
  review(id: string, seat: string | number) {
    return new RecordsApi(this.url).review(id, seat);
  }

  /** A game's players, best first: rated games by their OpenSkill ordinal, the others by their counts. */
  leaderboard(game: NonNullable<GamesQuery["game"]>, limit?: number) {
    return new RecordsApi(this.url).leaderboard(game, limit);
  }

  /**
   * A player's page: who stands under the name (an account, a bot and its owner), their standings, their rating
   * after each rated game, their newest games and their results against each opponent. NOT_FOUND for a name
   * nobody stands under (guests have no page). The name is matched as registered names are ("deep-blue" finds
   * "Deep Blue").
   */
  player(name: string) {
    return new RecordsApi(this.url).player(name);
  }

  /** A tournament on duplicate deals (GET /tournaments/:id): its standings with their 95% intervals, and its games. */
  tournament(id: string) {
    return new RecordsApi(this.url).tournament(id);
  }
}
