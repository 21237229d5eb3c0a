/**
 * What a scripted player reports when someone measures it (the load test): each move it sends, the broadcast
 * that shows the move's effect, and any disagreement between its own view and the server's. Optional everywhere.
 */
export interface MoveProbe {
  /** A move identified by `key` was sent now. */
  sent(key: string): void;
  /** The room's broadcast of the move `key` arrived now. */
  seen(key: string): void;
  /** The client's view disagreed with the server's; `detail` says how. */
  desync(detail: string): void;
}

export const NO_PROBE: MoveProbe = { sent: () => undefined, seen: () => undefined, desync: () => undefined };

/** Waits a random think time around `meanMs` (uniform between half and one and a half times it). */
export function think(meanMs: number, random: () => number = Math.random): Promise<void> {
  if (meanMs <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, meanMs * (0.5 + random())));
}

/** Thrown by a bot told to stop in the middle of a game (`stopNow`): the table ends there, and that is no error. */
export class StoppedEarly extends Error {
  override name = "StoppedEarly";
  constructor() {
    super("stopped in the middle of a game, as asked");
  }
}
