/**
 * The ladders as the server runs them (docs/arena.md, "Solo ladders"): the next deal for an identity that asks
 * (given once, before its table is made), and a period's standings. The secret that makes the seeds is
 * `LADDER_SECRET`; a server alone makes a random one when it is unset, a cluster's processes must share one.
 */
import { randomBytes } from "node:crypto";
import type { Application } from "express";
import { z } from "zod";
import type { LadderDeal, LadderStandings, SeatIdentity } from "../../rooms/kit/record";
import type { LadderStore } from "./ladder-store";
import {
  isLadderGame,
  LADDERS,
  ladderSeed,
  parseLadderPeriod,
  periodAt,
  periodNamed,
  rankStandings,
  type LadderGame,
} from "./ladder";

/** A ladder's refusal: its HTTP status and a sentence for the client. */
export class LadderRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface LadderConfig {
  /** The seeds' secret; null when the ladders are off (a cluster without LADDER_SECRET). */
  readonly secret: Buffer | null;
  readonly periodMs: number;
}

/** The ladders' configuration from the environment, and a warning for the log when they are off. */
export function ladderConfig(env: NodeJS.ProcessEnv, clustered: boolean): LadderConfig & { warning?: string } {
  const periodMs = parseLadderPeriod(env.LADDER_PERIOD);
  if (env.LADDER_SECRET) return { secret: Buffer.from(env.LADDER_SECRET, "utf8"), periodMs };
  if (clustered)
    return {
      secret: null,
      periodMs,
      warning:
        "LADDER_SECRET is not set: the ladders are off (every process of a cluster must deal the same seeds, so they must share it)",
    };
  // Alone, a fresh secret: the seeds are the same for everyone until the process restarts.
  return { secret: randomBytes(32), periodMs };
}

export class Ladders {
  constructor(
    private readonly store: LadderStore,
    private readonly config: LadderConfig,
  ) {}

  /**
   * The identity's next deal of the current period of `game`'s ladder, given to it now (once and for all: a deal
   * given counts as played, finished or not). Refused for a guest and once every deal of the period is given.
   */
  async dealFor(game: LadderGame, identity: SeatIdentity, now = Date.now()): Promise<LadderDeal> {
    if (identity.kind === "guest")
      throw new LadderRefusal(403, "a ladder takes accounts and bots only: log in, or join with your bot's token");
    if (this.config.secret === null)
      throw new LadderRefusal(404, "this server has no ladders: its cluster has no LADDER_SECRET");
    const definition = LADDERS[game];
    const period = periodAt(this.config.periodMs, now);
    const deal = await this.store.claimNextDeal(game, period.label, identity, definition.deals, now);
    if (deal === null) {
      throw new LadderRefusal(
        409,
        `${identity.name} has played all ${definition.deals} deals of the ${game} ladder for ${period.label}; the next period starts at ${new Date(period.endsAt).toISOString()}`,
      );
    }
    return {
      period: period.label,
      deal,
      endsAt: period.endsAt,
      seed: ladderSeed(this.config.secret, definition, period.label, deal),
    };
  }

  /** A period's standings (the current one unless `label` names another). */
  async standings(game: LadderGame, label?: string, now = Date.now()): Promise<LadderStandings> {
    const period = label === undefined ? periodAt(this.config.periodMs, now) : periodNamed(this.config.periodMs, label);
    if (period === null)
      throw new LadderRefusal(
        400,
        `bad parameter period: "${label}" is not a period of this ladder (a UTC date like 2026-11-26, or for periods shorter than a day, a start like 2026-11-26T06:00Z)`,
      );
    const definition = LADDERS[game];
    const plays = await this.store.plays(game, period.label);
    return {
      game,
      period: period.label,
      startsAt: period.startsAt,
      endsAt: period.endsAt,
      deals: definition.deals,
      scoring: definition.scoring,
      standings: rankStandings(definition, plays),
    };
  }
}

const standingsQuery = z.strictObject({ period: z.string().max(20).optional() });

/** GET /ladders/:game (`?period=` for another period than the current one). */
export function ladderRoutes(app: Application, ladders: Ladders | null): void {
  app.get("/ladders/:game", async (req, res) => {
    const game = req.params.game;
    if (!isLadderGame(game))
      return void res
        .status(404)
        .json({ error: `there is no ladder for "${game}": the ladders are ${Object.keys(LADDERS).join(" and ")}` });
    if (ladders === null)
      return void res.status(503).json({ error: "this server keeps no records (RECORDS=off), so it has no ladders" });
    const query = standingsQuery.safeParse(req.query);
    if (!query.success) return void res.status(400).json({ error: "bad parameter: the only parameter is period" });
    try {
      res.json(await ladders.standings(game, query.data.period));
    } catch (error) {
      if (error instanceof LadderRefusal) return void res.status(error.status).json({ error: error.message });
      res.status(503).json({ error: "the records database is not available; try again" });
    }
  });
}
