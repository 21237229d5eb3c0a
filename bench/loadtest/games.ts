/**
 * How the load test seats scripted players at each game's tables. Every player is a bot from client-sdk/bots,
 * built only on the SDK, with its own connection; the probe times each move until the room's broadcast of it.
 */
import { CardhallClient } from "../../client-sdk";
import { playEvenStevenBot } from "../../client-sdk/bots/evensteven";
import type { MoveProbe } from "../../client-sdk/bots/probe";

export interface TableContext {
  url: string;
  /** One probe per seat. */
  probes: MoveProbe[];
  thinkMs: number;
  keepPlaying: () => boolean;
  /** Called once per seat when its player has joined. */
  joined: () => void;
}

export interface GameDriver {
  /** Players per table (the default when the mix does not say). */
  seats: number;
  runTable(context: TableContext): Promise<void>;
}

const evensteven: GameDriver = {
  seats: 1,
  async runTable({ url, probes, thinkMs, keepPlaying, joined }) {
    await playEvenStevenBot(new CardhallClient(url), {
      games: Number.MAX_SAFE_INTEGER,
      n: 7,
      thinkMs,
      keepPlaying,
      probe: probes[0],
      onJoined: joined,
      timeoutMs: 30_000,
    });
  },
};

export const GAME_DRIVERS = { evensteven } satisfies Record<string, GameDriver>;
export type GameName = keyof typeof GAME_DRIVERS;
