/**
 * The ladders' rows in the records' database (table ladder_plays, server/records/schema.ts): a deal given to an
 * identity is a row made before its table is (so it is given once, whatever happens next), and the game's result
 * is written into it in the same transaction as the game's record.
 */
import { randomUUID } from "node:crypto";
import type { Transaction } from "kysely";
import type { GameRecord, SeatIdentity } from "../../rooms/kit/record";
import type { RecordsDb } from "../records/database";
import type { RecordTables } from "../records/schema";
import type { LadderPlay } from "./ladder";

export type LadderIdentity = Exclude<SeatIdentity, { kind: "guest" }>;

export class LadderStore {
  constructor(private readonly db: RecordsDb) {}

  /**
   * Gives the identity its next deal of the period (1 for its first), or null when it has been given all `deals`.
   * Two claims at once (two processes, two connections) cannot both have one deal: the row's key is the deal, and
   * whoever finds its own claim id in the row has it; the other tries the next deal.
   */
  async claimNextDeal(
    game: string,
    period: string,
    identity: LadderIdentity,
    deals: number,
    now: number,
  ): Promise<number | null> {
    for (let attempt = 0; attempt < deals; attempt++) {
      const given = await this.db
        .selectFrom("ladder_plays")
        .select(({ fn }) => fn.countAll<number>().as("given"))
        .where("game", "=", game)
        .where("period", "=", period)
        .where("name", "=", identity.name)
        .executeTakeFirstOrThrow();
      const deal = Number(given.given) + 1;
      if (deal > deals) return null;
      const claimId = randomUUID();
      const owner = identity.kind === "bot" ? identity.owner : null;
      await this.db
        .insertInto("ladder_plays")
        .values({
          game,
          period,
          deal,
          name: identity.name,
          kind: identity.kind,
          owner,
          claim_id: claimId,
          claimed_at: now,
          result: null,
          game_id: null,
          ended_at: null,
        })
        .onConflict((conflict) => conflict.columns(["game", "period", "name", "deal"]).doNothing())
        .execute();
      const row = await this.db
        .selectFrom("ladder_plays")
        .select("claim_id")
        .where("game", "=", game)
        .where("period", "=", period)
        .where("name", "=", identity.name)
        .where("deal", "=", deal)
        .executeTakeFirst();
      if (row?.claim_id === claimId) return deal;
    }
    return null;
  }

  /** Every deal given in the period, with its result where its game has ended. */
  async plays(game: string, period: string): Promise<LadderPlay[]> {
    const rows = await this.db
      .selectFrom("ladder_plays")
      .selectAll()
      .where("game", "=", game)
      .where("period", "=", period)
      .orderBy("name")
      .orderBy("deal")
      .execute();
    return rows.map((row) => ({
      deal: row.deal,
      identity:
        row.kind === "bot"
          ? { kind: "bot", name: row.name, owner: row.owner ?? "" }
          : { kind: "account", name: row.name },
      result: row.result === null ? null : (JSON.parse(row.result) as unknown),
      endedAt: row.ended_at,
    }));
  }
}

/**
 * Writes the results of a batch's ladder games into their deals' rows (inside the batch's transaction). A ladder
 * table's one seat is its identity's; a result already there (never, unless a record were stored twice) is kept.
 */
export async function recordLadderResults(
  trx: Transaction<RecordTables>,
  records: readonly GameRecord[],
): Promise<void> {
  for (const record of records) {
    const identity = record.seats[0]?.identity;
    if (record.ladder === undefined || identity === undefined || identity.kind === "guest") continue;
    await trx
      .updateTable("ladder_plays")
      .set({ result: JSON.stringify(record.result), game_id: record.id, ended_at: record.endedAt })
      .where("game", "=", record.game)
      .where("period", "=", record.ladder.period)
      .where("name", "=", identity.name)
      .where("deal", "=", record.ladder.deal)
      .where("result", "is", null)
      .execute();
  }
}
