/**
 * The bots of a table: a bot seat's move when it must act (or a silent person's, when their clock runs out), and
 * what bots volunteer out of turn (declarations while the cards are dealt). A bot decides at once or elsewhere (a
 * promise: the Fool AI's and Tractor search's threads); an answer that comes after the match moved on is dropped.
 */
import type { Actor, GameEvent, MatchEngine } from "../engine";
import type { Mover } from "../record";
import type { SeatRoster } from "../seats";
import type { MatchInPlay } from "./types";

/** Bot actions made at once (no pause) before the table lets other rooms run. */
export const ACTIONS_PER_BURST = 200;

type Decision<Action> = Action | undefined | Promise<Action | undefined>;

/** The table as its bots see it: the match, how to act in it, and the game's say on what a bot does. */
export interface BotsTable<Options, State, Action> {
  readonly engine: MatchEngine<Options, State, Action, GameEvent, unknown, unknown>;
  readonly roster: SeatRoster;
  readonly match: MatchInPlay<Options, State, Action> | null;
  act(match: MatchInPlay<Options, State, Action>, actor: Actor, action: Action, by: Mover): void;
  /** After an answer that came later: the match goes on and the patch goes out. */
  goOn(): void;
  /** A failure where nothing can answer for it (a promise's callback): reported, the table goes on. */
  failed(error: unknown): void;
  decide(state: State, seat: number): Decision<Action>;
  volunteer(state: State, seat: number): Decision<Action>;
  volunteerStillFits(asked: State, now: State, seat: number): boolean;
}

export class BotTurns<Options, State, Action> {
  /**
   * A bot's decision being made elsewhere, and the position it is for: the table waits for it and asks nothing
   * more. A change of seats cancels it (the answer is then dropped).
   */
  private thinking: { state: State } | null = null;
  /** Volunteers being decided elsewhere, by seat, each with the state it was asked in. Made at the first (most games have none). */
  private volunteering: Map<number, State> | undefined;

  constructor(private readonly table: BotsTable<Options, State, Action>) {}

  /** Whether a bot is thinking about this position (the table waits for its answer). */
  isThinkingAbout(state: State): boolean {
    return this.thinking?.state === state;
  }

  /** The seat changed hands: a decision under way is not the new holder's to play. */
  cancel(): void {
    this.thinking = null;
  }

  /** The table closes: every answer still to come is dropped. */
  stop(): void {
    this.thinking = null;
    this.volunteering?.clear();
  }

  /** Bot seats make what they may volunteer now, until none does. */
  letVolunteer(match: MatchInPlay<Options, State, Action>): void {
    const { engine, roster } = this.table;
    if (engine.volunteer === undefined) return;
    // The engines' volunteers stop by themselves (a declaration must be stronger than the last); the bound is a guard.
    for (let acted = true, rounds = 0; acted && rounds < ACTIONS_PER_BURST; rounds++) {
      acted = false;
      roster.seats.forEach((held, seat) => {
        if (held.holder !== "bot" || this.table.match !== match || this.volunteering?.has(seat)) return;
        const action = safely(() => this.table.volunteer(match.state, seat));
        if (action instanceof Promise) return this.awaitVolunteer(match, seat, action);
        if (action === undefined || !engine.apply(match.state, seat, action).ok) return;
        this.table.act(match, seat, action, "bot");
        acted = true;
      });
    }
  }

  /**
   * The seat's bot acts (its own seat's, or for a person whose clock ran out). A bot that thinks elsewhere answers
   * later: the answer is dropped if the match has moved on meanwhile. Returns true when the action was made now.
   */
  play(match: MatchInPlay<Options, State, Action>, seat: number, by: Mover): boolean {
    const state = match.state;
    const decided = safely(() => this.table.decide(state, seat));
    if (!(decided instanceof Promise)) {
      this.actForSeat(match, state, seat, decided, by);
      return true;
    }
    const thinking = (this.thinking = { state });
    decided
      .catch(() => undefined)
      .then((action) => {
        if (this.thinking !== thinking) return; // cancelled: the seat changed hands
        this.thinking = null;
        if (this.table.match !== match || match.state !== state) return;
        this.actForSeat(match, state, seat, action, by);
        this.table.goOn();
      })
      .catch((error: unknown) => this.table.failed(error));
    return false;
  }

  /**
   * A volunteer decided elsewhere: its answer is made when it comes if the match is the same, the seat still a bot's,
   * the game says it still fits and the engine accepts it; else it is dropped (a closed room has no match). The
   * bots are asked again either way: the seat's options may have changed while it thought.
   */
  private awaitVolunteer(
    match: MatchInPlay<Options, State, Action>,
    seat: number,
    decided: Promise<Action | undefined>,
  ): void {
    const asked = match.state;
    (this.volunteering ??= new Map()).set(seat, asked);
    decided
      .catch(() => undefined)
      .then((action) => {
        if (this.volunteering?.get(seat) !== asked) return;
        this.volunteering.delete(seat);
        if (this.table.match !== match) return;
        const now = match.state;
        const fits =
          action !== undefined &&
          this.table.roster.seats[seat]?.holder === "bot" &&
          this.table.volunteerStillFits(asked, now, seat) &&
          this.table.engine.apply(now, seat, action).ok;
        if (fits) this.table.act(match, seat, action, "bot");
        this.letVolunteer(match);
        if (match.state === now) return;
        this.table.goOn();
      })
      .catch((error: unknown) => this.table.failed(error));
  }

  /** The bot's action, or, should a bot ever choose what the engine refuses, the engine's own first legal action. */
  private actForSeat(
    match: MatchInPlay<Options, State, Action>,
    state: State,
    seat: number,
    action: Action | undefined,
    by: Mover,
  ): void {
    if (this.table.match !== match || match.state !== state) return;
    const { engine } = this.table;
    if (action !== undefined && engine.apply(state, seat, action).ok) return this.table.act(match, seat, action, by);
    const fallback = engine.legalActions(state, seat, 1).actions[0];
    if (fallback !== undefined) this.table.act(match, seat, fallback, by);
  }
}

/** A bot that throws must not stop the table (nor reach a log: its message may name hidden cards). */
function safely<T>(decide: () => T): T | undefined {
  try {
    return decide();
  } catch {
    return undefined;
  }
}
