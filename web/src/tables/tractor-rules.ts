/**
 * The rules a Tractor table plays by as the page knows them: the game's fixed numbers, the options a table was
 * started with (kept per room in the tab, so that Play again after a reload starts the same table), and what the
 * room's listing says (its throw rule, the bots' levels, the seat a friend's link takes).
 */
import type { CardhallClient, TractorJoinOptions, TractorSeatName } from "../../../client-sdk/index";

export const BURY_COUNT = 8;
/** The points the defenders need to take over. */
export const TAKE_OVER = 80;

/** The rules a table plays by, as far as the page knows them (its own options, or the room's listing). */
export interface TableRules {
  throws?: string;
  failedThrowPenalty?: number;
  startRanks?: number[];
  /** Each bot seat's level, when the table has levels (from its listing). */
  botLevels?: Partial<Record<TractorSeatName, string>>;
}

/** The room options a table was started with (kept per room in the tab, for Play again after a reload). */
export type StartOptions = Omit<TractorJoinOptions, "name" | "seat" | "bots" | "spectate">;
const OPTIONS_KEY = (roomId: string) => `cardhall.tractor.options.${roomId}`;

export function keepOptions(roomId: string, options: StartOptions): void {
  try {
    sessionStorage.setItem(OPTIONS_KEY(roomId), JSON.stringify(options));
  } catch {
    // storage refused: Play again uses the rules the room lists
  }
}

export function keptOptions(roomId: string): StartOptions | undefined {
  try {
    const kept = sessionStorage.getItem(OPTIONS_KEY(roomId));
    return kept ? (JSON.parse(kept) as StartOptions) : undefined;
  } catch {
    return undefined;
  }
}

/** The seat a friend's link takes: the first open one, else the first a bot holds (a person takes it over). */
export async function seatForFriend(client: CardhallClient, roomId: string): Promise<TractorSeatName | undefined> {
  const listing = (await client.listRooms("tractor")).find((room) => room.roomId === roomId);
  const seats = Object.entries((listing?.metadata?.seats ?? {}) as Record<string, string>);
  const seat = seats.find(([, holder]) => holder === "open") ?? seats.find(([, holder]) => holder === "bot");
  return seat?.[0] as TractorSeatName | undefined;
}

/** The table's rules as its listing states them (the room lists its throw rule). */
export async function listedRules(client: CardhallClient, roomId: string, known: TableRules = {}): Promise<TableRules> {
  const listing = (await client.listRooms("tractor").catch(() => [])).find((room) => room.roomId === roomId);
  const metadata = (listing?.metadata ?? {}) as {
    throws?: string;
    failedThrowPenalty?: number;
    botLevels?: TableRules["botLevels"];
  };
  return {
    ...known,
    throws: metadata.throws ?? known.throws,
    failedThrowPenalty: metadata.failedThrowPenalty ?? known.failedThrowPenalty,
    botLevels: metadata.botLevels ?? known.botLevels,
  };
}
