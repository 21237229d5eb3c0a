/**
 * One registry of scripted tables, one entry per game: how many players sit at a table and how they play it.
 * `bin/bots` fills tables with them and prints results; the load test seats the same bots with latency probes.
 * Built only on the SDK.
 */
import { CardhallClient } from "../index";
import { playEvenStevenBot } from "./evensteven";
import { watchPatienceDeal } from "./patience";
import type { MoveProbe } from "./probe";

export interface TableOptions {
  url: string;
  /** One probe per seat (the load test's); none for plain runs. */
  probes?: MoveProbe[];
  /** Mean think time before each move. */
  thinkMs?: number;
  /** How many games (or rounds) to play at most. */
  games?: number;
  /** Asked before each new game: false ends the table early. */
  keepPlaying?: () => boolean;
  /** Called once per seat when its player has joined. */
  joined?: () => void;
  seed?: number;
}

export interface TableResult {
  roomId: string;
  /** One line per game, for people. */
  lines: string[];
}

export interface BotTable {
  /** Scripted players (connections) per table. */
  seats: number;
  play(options: TableOptions): Promise<TableResult>;
}

const evensteven: BotTable = {
  seats: 1,
  async play(options) {
    const { roomId, results } = await playEvenStevenBot(new CardhallClient(options.url), {
      games: options.games ?? Number.MAX_SAFE_INTEGER,
      n: 7,
      seed: options.seed,
      thinkMs: options.thinkMs,
      keepPlaying: options.keepPlaying,
      probe: options.probes?.[0],
      onJoined: options.joined,
      timeoutMs: 30_000,
    });
    return { roomId, lines: results.map((r) => `game ${r.game} (seed ${r.seed}): ${r.outcome}`) };
  },
};

/** The owner deals step by step (each step a move whose broadcast the probe times), one room per deal. */
const patience: BotTable = {
  seats: 1,
  async play(options) {
    const client = new CardhallClient(options.url);
    const lines: string[] = [];
    let roomId = "";
    let joined = false;
    for (let deal = 1; deal <= (options.games ?? Number.MAX_SAFE_INTEGER); deal++) {
      if (deal > 1 && options.keepPlaying && !options.keepPlaying()) break;
      const result = await watchPatienceDeal(client, {
        seed: deal === 1 ? options.seed : undefined,
        stepByStep: true,
        thinkMs: options.thinkMs,
        probe: options.probes?.[0],
        onJoined: joined ? undefined : options.joined,
        timeoutMs: 60_000,
      });
      joined = true;
      roomId ||= result.roomId;
      lines.push(`deal ${deal} (seed ${result.seed}): ${result.line.trim()}`);
    }
    return { roomId, lines };
  },
};

export const BOT_TABLES = { evensteven, patience } satisfies Record<string, BotTable>;
export type BotGame = keyof typeof BOT_TABLES;
