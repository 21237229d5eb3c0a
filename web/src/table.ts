/** What each game's table module gives the router: a page to watch a room, a page to play, and a replay's steps. */
import type { CardhallClient, GameRecord, ReplayFrame } from "../../client-sdk/index";

/** Closes what a page opened (its room session, its timers) when the person leaves the page. */
export type Teardown = () => void;

/**
 * How a page shows a table: `play` for the person holding a seat (their cards are buttons), `watch` for a
 * spectator of a live room, `replay` for a finished game (every hand shown, nothing to act on, no clock).
 */
export type TableMode = "play" | "watch" | "replay";

/** One step of a finished game, as the replay page shows it. */
export interface ReplayStep {
  /** The game's table after the step, drawn by the same code as the live table. */
  table: Node[];
  /** The step's action and the events it caused, in words (empty for the start). */
  words: string[];
}

export interface TableModule {
  watch(client: CardhallClient, roomId: string, root: HTMLElement): Promise<Teardown>;
  play(client: CardhallClient, roomId: string | undefined, root: HTMLElement): Promise<Teardown>;
  /** Draws one frame of a finished game's replay (`record` gives the seats' names and the options). */
  replayStep(frame: ReplayFrame, record: GameRecord): ReplayStep;
}
