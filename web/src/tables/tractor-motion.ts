/**
 * The live Tractor table's movement, apart from its drawing: a replay draws the same table without it, and the
 * timer that ends a finished trick's stay in the middle is stopped with the page.
 */
import type { TractorStateView } from "../../../client-sdk/index";

/** How long a finished trick stays in the middle (longer than the bots' default pace of 800 ms). */
const TRICK_LINGER_MS = 1_500;
/** How long a card takes to move from its seat to the middle. */
const ARRIVAL_MS = 350;

/**
 * What moves on the live table: each card played is drawn moving in from its seat for a moment after it first
 * appears, and a trick just finished stays in the middle for TRICK_LINGER_MS (a redraw is due when it goes).
 */
export class Motion {
  private readonly seen = new Map<string, number>();
  private round = -1;
  private tricksDone = -1;
  private lingerUntil = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly redraw: () => void) {}

  follow(view: TractorStateView): void {
    const now = performance.now();
    const done = view.tricks.length;
    if (view.round === this.round && done === this.tricksDone + 1) {
      this.lingerUntil = now + TRICK_LINGER_MS;
      clearTimeout(this.timer);
      this.timer = setTimeout(this.redraw, TRICK_LINGER_MS + 20);
    } else if (view.round !== this.round) {
      this.lingerUntil = 0;
      this.seen.clear();
    }
    // The first view of a table (a reload, a spectator arriving) shows what is there without moving it.
    const first = this.round === -1;
    this.round = view.round;
    this.tricksDone = done;
    const last = view.tricks[done - 1];
    const plays: [string, number][] = [
      ...(last ? last.plays.map((_, index): [string, number] => [`${view.round}:${done}:${index}`, index]) : []),
      ...view.trick.plays.map((_, index): [string, number] => [`${view.round}:${done + 1}:${index}`, index]),
    ];
    for (const [key] of plays) if (!this.seen.has(key)) this.seen.set(key, first ? -Infinity : now);
  }

  /** How long ago the play was first seen, while it is still moving in (else undefined). */
  arriving(round: number, trick: number, index: number): number | undefined {
    const since = performance.now() - (this.seen.get(`${round}:${trick}:${index}`) ?? -Infinity);
    return since < ARRIVAL_MS ? since : undefined;
  }

  /** Whether the trick just finished still stays in the middle. */
  lingering(): boolean {
    return performance.now() < this.lingerUntil;
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
