/**
 * Rated queues (docs/arena.md): one Colyseus QueueRoom per game that has one (`fool-queue`, `tractor-queue`),
 * which identities join to be paired by rating. Colyseus's queue does the grouping, the seat reservations and the
 * hand-over; this room decides who may queue (accounts and bots, never a guest), what each one's rank is (its
 * rating in the game, read from the standings on the server: never what a client says), how far apart a group may
 * be (a window that widens the longer a player waits), how a ready group is seated (Tractor's teams balanced by
 * rating), and when the house's bots fill a group that waited too long for players (docs/arena.md, "House bots").
 * In a cluster the queue is one room, found through the shared driver like any room.
 */
import { matchMaker, QueueRoom, ServerError, type AuthContext, type Client, type QueueOptions } from "@colyseus/core";
import { GUEST, type SeatIdentity } from "../../rooms/kit/record";
import { identityOf, type JoinerIdentity } from "../../rooms/kit/reservations";
import { TRACTOR_SEATS } from "../../rooms/tractor/protocol";
import { QUEUE_ADMITS, queueRoomName, type QueueAdmits } from "../../rooms/kit/protocol";
import {
  FOOL_HOUSE_BOTS,
  TRACTOR_HOUSE_BOTS,
  type FoolHouseBot,
  type HouseBot,
  type TractorHouseBot,
} from "./house-bots";
export { queueRoomName } from "../../rooms/kit/protocol";

/** Rating points (OpenSkill ordinals) two players may be apart at once, and how much more for each second waited. */
export const WINDOW_BASE = 3;
export const WINDOW_PER_SECOND = 1;

/**
 * Colyseus's queue compares a player with a group only when the group's average rank is above 0, and an ordinal is
 * 0 for a newcomer and below it for many: ranks are ordinals lifted by this much, so every group is compared.
 */
const RANK_LIFT = 1_000;

/** How the queue keeps time (QUEUE_CYCLE_MS and HOUSE_AFTER_MS in the environment: docs/arena.md). */
export interface QueueTiming {
  /** How often the queue regroups its players (Colyseus's cycle): 1 s. */
  cycleMs: number;
  /** How long a player may wait without a full group before the house's bots fill it (10 s); 0: never. */
  houseAfterMs: number;
}

export const DEFAULT_QUEUE_TIMING: Readonly<QueueTiming> = { cycleMs: 1_000, houseAfterMs: 10_000 };

/** One place at a rated table: a queued player's, or a house bot's, with its rank. */
export type Entrant<Player> = { rank: number } & ({ player: Player } | { house: HouseBot });

/** A rated table for a group: the room's create options, and each queued player's join options. */
export interface RatedTable<Player> {
  tableOptions: Record<string, unknown>;
  seats: Array<{ player: Player; options: Record<string, unknown> }>;
}

/** What a game's rated table is: how many sit at it, its house bots, and how a group (best first) is seated. */
export interface QueuedGame {
  readonly game: string;
  readonly players: number;
  readonly house: readonly HouseBot[];
  seat<Player>(bestFirst: ReadonlyArray<Entrant<Player>>): RatedTable<Player>;
}

const isPlayer = <Player>(entrant: Entrant<Player>): entrant is { rank: number; player: Player } => "player" in entrant;

/**
 * Fool heads-up: the better-rated takes seat 0. Against the house, a table with the house's AI in the other seat
 * (the AI's policy and level; it moves without the pause a person watching would want: a rated game is a bot's pace).
 */
const fool: QueuedGame = {
  game: "fool",
  players: 2,
  house: FOOL_HOUSE_BOTS,
  seat: (bestFirst) => {
    const seats = bestFirst.flatMap((entrant, seat) =>
      isPlayer(entrant) ? [{ player: entrant.player, options: { seat } }] : [],
    );
    const house = bestFirst.find((entrant) => !isPlayer(entrant)) as { house: FoolHouseBot } | undefined;
    if (house === undefined) return { tableOptions: { mode: "two-players" }, seats };
    const { ai, aiLevel } = house.house;
    return { tableOptions: { mode: "vs-ai", ai, aiLevel, aiDelayMs: 0, seat: seats[0].options.seat }, seats };
  },
};

/**
 * Tractor: four seats in two teams (Alice with Charles, Bob with David). The best and the weakest play together
 * against the two between them, so the teams' ratings are as even as four players allow; seats the queue's players
 * leave are the house's bots at their levels.
 */
const TRACTOR_SEATS_IN_RANK_ORDER = [TRACTOR_SEATS[0], TRACTOR_SEATS[1], TRACTOR_SEATS[3], TRACTOR_SEATS[2]];
const tractor: QueuedGame = {
  game: "tractor",
  players: 4,
  house: TRACTOR_HOUSE_BOTS,
  seat: (bestFirst) => {
    const seated = bestFirst.map((entrant, index) => ({ entrant, seat: TRACTOR_SEATS_IN_RANK_ORDER[index] }));
    const seats = seated.flatMap(({ entrant, seat }) =>
      isPlayer(entrant) ? [{ player: entrant.player, options: { seat } }] : [],
    );
    const bots = seated.flatMap(({ entrant, seat }) =>
      isPlayer(entrant) ? [] : [{ seat, level: (entrant.house as TractorHouseBot).level }],
    );
    return {
      tableOptions: {
        bots: bots.map(({ seat }) => seat),
        botLevels: Object.fromEntries(bots.map(({ seat, level }) => [seat, level])),
      },
      seats,
    };
  },
};

export const QUEUED_GAMES: readonly QueuedGame[] = [fool, tractor];

/** How the queue reads a player's rating (the records' store); null for a player not yet rated. */
export type RatingSource = (game: string, name: string) => Promise<number | null>;

export interface RatedQueueOptions {
  queued: QueuedGame;
  admits: QueueAdmits;
  ratingOf: RatingSource;
  timing: QueueTiming;
}

/** The room options a queue is defined with (Colyseus passes them to onCreate as its QueueOptions). */
export function ratedQueueOptions(
  queued: QueuedGame,
  ratingOf: RatingSource,
  timing: QueueTiming = DEFAULT_QUEUE_TIMING,
  admits: QueueAdmits = "everyone",
): QueueOptions {
  return { matchRoomName: queued.game, queued, admits, ratingOf, timing } as QueueOptions & RatedQueueOptions;
}

/** Every rated queue under its room name: each queued game's, once for each kind of player it may admit. */
export function ratedQueueRooms(
  ratingOf: RatingSource,
  timing: QueueTiming = DEFAULT_QUEUE_TIMING,
): Array<{ name: string; room: typeof RatedQueueRoom; options: QueueOptions }> {
  return QUEUED_GAMES.flatMap((queued) =>
    QUEUE_ADMITS.map((admits) => ({
      name: queueRoomName(queued.game, admits),
      room: QUEUE_ROOMS[admits],
      options: ratedQueueOptions(queued, ratingOf, timing, admits),
    })),
  );
}

/** Why `identity` may not join a queue admitting `admits`, in a sentence; null when it may. */
export function refusalToQueue(admits: QueueAdmits, identity: SeatIdentity): string | null {
  if (identity.kind === "guest")
    return "a rated queue takes accounts and bots only: log in, or join with your bot's token";
  if (admits === "people" && identity.kind !== "account")
    return "this rated queue takes people only: a bot joins the queue for everyone or the one for bots";
  if (admits === "bots" && identity.kind === "account")
    return "this rated queue takes bots only: a person joins the queue for everyone or the one for people";
  return null;
}

type QueueData = { rank: number; currentCycle?: number; options?: Record<string, unknown> };
type QueuedClient = Client & { userData: QueueData };

/** The window a player who has waited `waitedMs` accepts: WINDOW_BASE, widened by WINDOW_PER_SECOND a second. */
export function windowAfter(waitedMs: number): number {
  return WINDOW_BASE + (WINDOW_PER_SECOND * waitedMs) / 1000;
}

/** The house bots nearest to a group's average rank, `count` of them, each a different one. */
export function nearestHouseBots<Bot>(
  house: ReadonlyArray<{ bot: Bot; rank: number }>,
  averageRank: number,
  count: number,
): Array<{ bot: Bot; rank: number }> {
  return [...house].sort((a, b) => Math.abs(a.rank - averageRank) - Math.abs(b.rank - averageRank)).slice(0, count);
}

export class RatedQueueRoom extends QueueRoom {
  private queued!: QueuedGame;
  private ratingOf!: RatingSource;

  /** Only identities queue, and only the kinds the queue admits: the others are refused at matchmaking, before any seat is reserved. */
  static override async onAuth(
    _token: string,
    _options: unknown,
    context: AuthContext | undefined,
  ): Promise<JoinerIdentity> {
    return admitTo("everyone", context);
  }

  override onCreate(given: QueueOptions): void {
    const options = given as unknown as RatedQueueOptions; // what roomDefinitions hands every queue (server/app.ts)
    this.queued = options.queued;
    this.ratingOf = options.ratingOf;
    const { cycleMs } = options.timing;
    // A queue for people only is never filled with the house's bots: they are programs.
    const houseAfterMs = options.admits === "people" ? 0 : options.timing.houseAfterMs;
    this.cycleTickInterval = cycleMs;
    const cyclesFor = (ms: number) => Math.max(1, Math.ceil(ms / cycleMs));
    super.onCreate({
      matchRoomName: this.queued.game,
      maxPlayers: this.queued.players,
      // Nobody waits for ever: past a minute a player joins the nearest group whatever its rating...
      maxWaitingCyclesForPriority: cyclesFor(60_000),
      // ...and past houseAfterMs a group still short of players is filled with the house's bots (seatGroup).
      allowIncompleteGroups: houseAfterMs > 0,
      maxWaitingCycles: houseAfterMs > 0 ? cyclesFor(houseAfterMs) : Number.MAX_SAFE_INTEGER,
      compare: (client, group) =>
        Math.abs(client.rank - group.averageRank) <= windowAfter((client.currentCycle ?? 0) * cycleMs),
      onGroupReady: (group) => this.seatGroup(group.clients as unknown as QueuedClient[]),
    });
  }

  override async onJoin(client: Client, _options: unknown): Promise<void> {
    const identity = identityOf(client.auth);
    const name = identity.kind === "guest" ? "" : identity.name;
    const rank = await this.rankOf(name);
    // Not Colyseus's addToQueue: it sends a count before the client can have its handlers; the cycle sends counts.
    client.userData = { rank, currentCycle: 0, options: {} } satisfies QueueData;
  }

  /** A player's rank: its rating in the game, a newcomer's being OpenSkill's starting ordinal (0: mu 25 less three sigmas of 25/3). */
  private async rankOf(name: string): Promise<number> {
    return RANK_LIFT + ((await this.ratingOf(this.queued.game, name).catch(() => null)) ?? 0);
  }

  /**
   * Creates the rated table and gives each player of the group its seat, best-rated first; the seats nobody in the
   * queue took (a player who waited past houseAfterMs) go to the house bots rated nearest to the group.
   */
  private async seatGroup(clients: QueuedClient[]): ReturnType<typeof matchMaker.createRoom> {
    const players: Array<Entrant<QueuedClient>> = clients.map((client) => ({
      rank: client.userData.rank,
      player: client,
    }));
    const missing = this.queued.players - clients.length;
    const house = missing > 0 ? await this.houseFor(players, missing) : [];
    const bestFirst = [...players, ...house].sort((a, b) => b.rank - a.rank);
    const table = this.queued.seat(bestFirst);
    for (const { player, options } of table.seats) player.userData.options = options;
    return matchMaker.createRoom(this.queued.game, table.tableOptions);
  }

  private async houseFor(
    players: ReadonlyArray<{ rank: number }>,
    count: number,
  ): Promise<Array<Entrant<QueuedClient>>> {
    const rated = await Promise.all(this.queued.house.map(async (bot) => ({ bot, rank: await this.rankOf(bot.name) })));
    const average = players.reduce((sum, { rank }) => sum + rank, 0) / players.length;
    return nearestHouseBots(rated, average, count).map(({ bot, rank }) => ({ rank, house: bot }));
  }
}

function admitTo(admits: QueueAdmits, context: AuthContext | undefined): JoinerIdentity {
  const identity = (context as { identity?: SeatIdentity } | undefined)?.identity ?? GUEST;
  const refusal = refusalToQueue(admits, identity);
  if (refusal !== null) throw new ServerError(4401, refusal);
  return { address: context?.ip ?? null, identity };
}

/** The queue for people only: Colyseus calls onAuth on the class, without `this`, so each kind has its own. */
class PeopleQueueRoom extends RatedQueueRoom {
  static override async onAuth(
    _token: string,
    _options: unknown,
    context: AuthContext | undefined,
  ): Promise<JoinerIdentity> {
    return admitTo("people", context);
  }
}

/** The queue for bots only. */
class BotQueueRoom extends RatedQueueRoom {
  static override async onAuth(
    _token: string,
    _options: unknown,
    context: AuthContext | undefined,
  ): Promise<JoinerIdentity> {
    return admitTo("bots", context);
  }
}

const QUEUE_ROOMS: Record<QueueAdmits, typeof RatedQueueRoom> = {
  everyone: RatedQueueRoom,
  people: PeopleQueueRoom,
  bots: BotQueueRoom,
};
