/**
 * A seat from a rated queue (docs/arena.md): join the game's queue room, wait for the seat it gives, take it, and
 * tell the queue (which then lets the client go). A table whose other players never come is left, and the queue
 * joined again: nobody is rated for a game never played.
 */
import type { Client, Room } from "@colyseus/sdk";
import { queueRoomName, type QueueAdmits } from "../rooms/kit/protocol";
import { CardhallError, toCardhallError } from "./errors";
import { boundedWait } from "./session";

export interface RatedQueueOptions {
  /** Which of the game's queues to wait in: the one for `everyone` (the default), for `people` or for `bots` only. */
  admits?: QueueAdmits;
  /** How long to wait in the queue for a table (120 s by default): past it, TIMEOUT. */
  waitMs?: number;
  /** How long a table the queue gave may wait for its other players before it is left for the queue again (20 s). */
  startMs?: number;
  /** Ends the wait with ABORTED. */
  signal?: AbortSignal;
  /** Called with the number of players in this player's group each time the queue says it changed. */
  onWaiting?: (players: number) => void;
}

type SeatReservation = Parameters<Client["consumeSeatReservation"]>[0];

/**
 * The seat's session, once the queue has given one. The room is wrapped as soon as it is joined (its first events
 * may come in the same read as the join), and the queue, told, closes its side itself.
 */
export async function seatFromQueue<S>(
  client: Client,
  game: string,
  options: RatedQueueOptions,
  wrap: (room: Room) => S,
): Promise<S> {
  let queue: Room;
  try {
    queue = await client.joinOrCreate(queueRoomName(game, options.admits));
  } catch (error) {
    throw toCardhallError(error);
  }
  try {
    const reservation = await boundedWait<SeatReservation>(
      `a ${game} table from the queue`,
      options.waitMs ?? 120_000,
      options.signal,
      (found) => {
        const counting = queue.onMessage("clients", (players: number) => options.onWaiting?.(players));
        const seated = queue.onMessage("seat", (reservation: SeatReservation) => found(reservation));
        return () => (counting(), seated());
      },
    );
    const session = wrap(
      await client
        .consumeSeatReservation(reservation)
        .catch((error: unknown) => Promise.reject(toCardhallError(error))),
    );
    queue.send("confirm");
    return session;
  } catch (error) {
    if (queue.connection.isOpen) void queue.leave().catch(() => undefined);
    throw error;
  }
}

/**
 * Seats the player from the queue and waits for its table to start (`started`); a table that does not start
 * within `startMs` is left and the queue joined again, a few times at most.
 */
export async function ratedSeat<S extends { leave(): Promise<void> }>(
  client: Client,
  game: string,
  options: RatedQueueOptions,
  wrap: (room: Room) => S,
  started: (session: S, timeoutMs: number) => Promise<unknown>,
): Promise<S> {
  const ATTEMPTS = 5;
  for (let attempt = 1; ; attempt++) {
    const session = await seatFromQueue(client, game, options, wrap);
    try {
      await started(session, options.startMs ?? 20_000);
      return session;
    } catch (error) {
      await session.leave().catch(() => undefined);
      if (attempt >= ATTEMPTS || !(error instanceof CardhallError) || error.code !== "TIMEOUT") throw error;
    }
  }
}
