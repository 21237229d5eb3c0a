/**
 * Rated queues (docs/arena.md): one Colyseus QueueRoom per game that has one (`fool-queue`, `tractor-queue`),
 * which identities join to be paired by rating. Colyseus's queue does the grouping, the seat reservations and the
 * hand-over; this room decides who may queue (accounts and bots, never a guest), what each one's rank is (its
 * rating in the game, read from the standings on the server: never what a client says), how far apart a group may
 * be (a window that widens the longer a player waits), and how a ready group is seated (Tractor's teams balanced
 * by rating). In a cluster the queue is one room, found through the shared driver like any room.
 */
import { matchMaker, QueueRoom, ServerError, type AuthContext, type Client, type QueueOptions } from "@colyseus/core";
import { GUEST, type SeatIdentity } from "../../rooms/kit/record";
import { identityOf, type JoinerIdentity } from "../../rooms/kit/reservations";
import { TRACTOR_SEATS } from "../../rooms/tractor/protocol";
export { queueRoomName } from "../../rooms/kit/protocol";

/** Rating points (OpenSkill ordinals) two players may be apart at once, and how much more for each second waited. */
export const WINDOW_BASE = 3;
export const WINDOW_PER_SECOND = 1;
/** How often the queue regroups its players (Colyseus's cycle). */
export const QUEUE_CYCLE_MS = 1_000;

/** What a game's rated table is: how many sit at it, the table's options, and each seat's join options in order of rank. */
export interface QueuedGame {
  readonly game: string;
  readonly players: number;
  readonly tableOptions: Readonly<Record<string, unknown>>;
  /** The join options of the players, given in order of their ranks (best first). */
  seatsInRankOrder(players: number): Array<Record<string, unknown>>;
}

/** Fool heads-up: two people's table; the better-rated player takes seat 0. */
const fool: QueuedGame = {
  game: "fool",
  players: 2,
  tableOptions: { mode: "two-players" },
  seatsInRankOrder: () => [{ seat: 0 }, { seat: 1 }],
};

/**
 * Tractor: four seats in two teams (Alice with Charles, Bob with David), no bots. The best and the weakest play
 * together against the two between them, so the teams' ratings are as even as four players allow.
 */
const tractor: QueuedGame = {
  game: "tractor",
  players: 4,
  tableOptions: { bots: [] },
  seatsInRankOrder: () => [TRACTOR_SEATS[0], TRACTOR_SEATS[1], TRACTOR_SEATS[3], TRACTOR_SEATS[2]].map((seat) => ({ seat })),
};

export const QUEUED_GAMES: readonly QueuedGame[] = [fool, tractor];

/** How the queue reads a player's rating (the records' store); null for a player not yet rated. */
export type RatingSource = (game: string, name: string) => Promise<number | null>;

export interface RatedQueueOptions {
  queued: QueuedGame;
  ratingOf: RatingSource;
}

/** The room options a queue is defined with (Colyseus passes them to onCreate as its QueueOptions). */
export function ratedQueueOptions(queued: QueuedGame, ratingOf: RatingSource): QueueOptions {
  return { matchRoomName: queued.game, queued, ratingOf } as QueueOptions & RatedQueueOptions;
}

type QueueData = { rank: number; currentCycle?: number; options?: Record<string, unknown> };

/** The window a player waiting `cycles` cycles accepts: WINDOW_BASE, widened by WINDOW_PER_SECOND a second. */
export function windowAfter(cycles: number): number {
  return WINDOW_BASE + (WINDOW_PER_SECOND * cycles * QUEUE_CYCLE_MS) / 1000;
}

export class RatedQueueRoom extends QueueRoom {
  private queued!: QueuedGame;
  private ratingOf!: RatingSource;

  /** Only identities queue: a guest is refused at matchmaking, before any seat is reserved. */
  static override async onAuth(_token: string, _options: unknown, context: AuthContext | undefined): Promise<JoinerIdentity> {
    const identity = (context as { identity?: SeatIdentity } | undefined)?.identity ?? GUEST;
    if (identity.kind === "guest") throw new ServerError(4401, "a rated queue takes accounts and bots only: log in, or join with your bot's token");
    return { address: context?.ip ?? null, identity };
  }

  override onCreate(given: QueueOptions): void {
    const options = given as unknown as RatedQueueOptions; // what roomDefinitions hands every queue (server/app.ts)
    this.queued = options.queued;
    this.ratingOf = options.ratingOf;
    this.cycleTickInterval = QUEUE_CYCLE_MS;
    super.onCreate({
      matchRoomName: this.queued.game,
      maxPlayers: this.queued.players,
      // Nobody waits for ever: past these cycles a player joins the nearest group whatever its rating.
      maxWaitingCyclesForPriority: 60,
      compare: (client, group) => Math.abs(client.rank - group.averageRank) <= windowAfter(client.currentCycle ?? 0),
      onGroupReady: (group) => this.seatGroup(group.clients as unknown as Array<Client & { userData: QueueData }>),
    });
  }

  override async onJoin(client: Client, _options: unknown): Promise<void> {
    const identity = identityOf(client.auth);
    const name = identity.kind === "guest" ? "" : identity.name;
    // A newcomer ranks as OpenSkill's starting ordinal (0): mu 25 less three sigmas of 25/3.
    const rank = (await this.ratingOf(this.queued.game, name).catch(() => null)) ?? 0;
    // Not Colyseus's addToQueue: it sends a count before the client can have its handlers; the cycle sends counts.
    client.userData = { rank, currentCycle: 0, options: {} } satisfies QueueData;
  }

  /** Creates the rated table and gives each player of the group its seat, best-rated first. */
  private async seatGroup(clients: Array<Client & { userData: QueueData }>): ReturnType<typeof matchMaker.createRoom> {
    const seats = this.queued.seatsInRankOrder(clients.length);
    [...clients].sort((a, b) => b.userData.rank - a.userData.rank).forEach((client, index) => (client.userData.options = seats[index]));
    return matchMaker.createRoom(this.queued.game, { ...this.queued.tableOptions });
  }
}
