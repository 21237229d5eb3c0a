/**
 * The contract every game's match engine keeps. An engine is pure: no Colyseus, no I/O, no clock, and no
 * randomness but what its seed gives. A match is started from its options and a seed, and then moves only by
 * `apply`: one action of one actor at a time, each answered with the next state and the events it caused, or a
 * typed refusal that leaves nothing changed. So the seed and the ordered (actor, action) list of a match replay
 * it exactly — its every event and its final state — which is what records, replays and the bridge stand on.
 *
 * Who acts:
 * - a seat (0-based index) makes the game's moves;
 * - the DEALER is the table itself: it deals a card, makes a paced step, ends a declaration window, starts the
 *   next round, or calls a silent seat's time. The engine says when the dealer is due (`waiting`), the table
 *   decides only when (its pacing and clocks), never what.
 *
 * This module is imported by the SDK too (types and constants only); keep it free of server code.
 */

/** The table itself, acting: dealing, pacing, timing out. */
export const DEALER = "dealer";
export type Actor = number | typeof DEALER;

/** Who a view is made for: a seat, or a spectator (who sees only what is public). */
export const SPECTATOR = "spectator";
export type Viewer = number | typeof SPECTATOR;

/**
 * Something that happened, as the engine reports it: the event's name and payload, and, for an event only one
 * seat may see (its own new hand), that seat. Events without `to` are public.
 */
export interface GameEvent<Name extends string = string, Payload = unknown> {
  readonly name: Name;
  readonly payload: Payload;
  readonly to?: number;
}

/** An action the engine accepted: the state after it and what it caused, in order. */
export interface Applied<State, Event> {
  readonly ok: true;
  readonly state: State;
  readonly events: readonly Event[];
}

/** An action the engine refused: a stable code for programs and a sentence for people. Nothing changed. */
export interface Refusal<Code extends string = string> {
  readonly ok: false;
  readonly code: Code;
  readonly reason: string;
}

export type Outcome<State, Event, Code extends string = string> = Applied<State, Event> | Refusal<Code>;

export function refuse<Code extends string>(code: Code, reason: string): Refusal<Code> {
  return { ok: false, code, reason };
}

/** A seat's legal actions: all of them (`complete`), or the first ones up to a limit (then `complete` is false). */
export interface LegalActions<Action> {
  readonly actions: readonly Action[];
  readonly complete: boolean;
}

/**
 * What the match waits for now:
 * - `seat`: that seat must act (its clock runs; a bot seat's bot answers);
 * - `dealer`: the table makes `action` itself once the pause named `pace` has passed (the table maps pace names
 *   to its timings, e.g. "deal" → 150 ms), or at once without a pace; seats may still act meanwhile where the game
 *   allows (declarations);
 * - `nobody`: the match is over.
 */
export type Waiting<Action> =
  | { readonly for: "seat"; readonly seat: number }
  | { readonly for: "dealer"; readonly action: Action; readonly pace?: string }
  | { readonly for: "nobody" };

/** What the table does when a seat's clock runs out: an action by that seat (the bot's move) or by the dealer. */
export interface TimedOut<Action> {
  readonly actor: Actor;
  readonly action: Action;
}

export interface MatchEngine<
  Options,
  State,
  Action,
  Event extends GameEvent,
  View,
  Result,
  Code extends string = string,
> {
  /** How many seats a match with these options has. */
  seatCount(options: Options): number;
  /** A new match: its first state and the events of its start (hands dealt, the first card turned up...). */
  start(options: Options, seed: number): Applied<State, Event>;
  /** One action of one actor. A refusal's code is one of the game's error codes. */
  apply(state: State, actor: Actor, action: Action): Outcome<State, Event, Code>;
  /** What `viewer` may see: its own hidden cards for a seat, only public things for a spectator. */
  view(state: State, viewer: Viewer): View;
  /** The seat's legal actions now (empty when it may not act); `limit` bounds long listings. */
  legalActions(state: State, seat: number, limit?: number): LegalActions<Action>;
  waiting(state: State): Waiting<Action>;
  /**
   * The seat bot's action when the seat must act, decided from what the seat may see; undefined when it has
   * none (not its turn).
   */
  botAction(state: State, seat: number): Action | undefined;
  /** A bot's optional action when it may act out of turn (a declaration during the deal); undefined: none. */
  volunteer?(state: State, seat: number): Action | undefined;
  /** What the clock does for a seat that did not act in time. */
  timedOut(state: State, seat: number): TimedOut<Action>;
  /** The match's result once it is over, else undefined. */
  result(state: State): Result | undefined;
  /**
   * For a match of rounds: the round an event ends and its result (a record is kept of each round as well as of the
   * match); undefined for any other event. Games of one round leave it out.
   */
  roundEnd?(event: Event): { round: number; result: unknown } | undefined;
  /**
   * The deal in play (or the last one dealt): its number in the match and the seed it is drawn from, for a game
   * whose deals are not the match's seed itself (Tractor: each round is dealt from a seed derived from the match's);
   * undefined for a deal not drawn from a seed (a Patience deck given as cards). Games left without it deal once,
   * from the match's seed (see `dealInPlay`). The table publishes a commitment to this seed when the deal starts
   * and reveals it when the deal is over (commitment.ts).
   */
  currentDeal?(state: State): Deal | undefined;
}

/** A deal: its number in the match (1 for a game of one deal; a Tractor round's number) and its seed. */
export interface Deal {
  readonly number: number;
  readonly seed: number;
}

/** The deal a match's state is at: the engine's `currentDeal`, or the match's one deal from its seed. */
export function dealInPlay<State>(
  engine: { currentDeal?(state: State): Deal | undefined },
  state: State,
  matchSeed: number,
): Deal | undefined {
  return engine.currentDeal === undefined ? { number: 1, seed: matchSeed } : engine.currentDeal(state);
}

/** One accepted action of a match, as a record keeps it. */
export interface RecordedAction<Action> {
  readonly actor: Actor;
  readonly action: Action;
}

/**
 * Plays a recorded match again from its seed: every action must be accepted. Returns each action's events (the
 * start's first) and the final state — equal to the original's when the engine is pure.
 */
export function replayMatch<Options, State, Action, Event extends GameEvent>(
  engine: MatchEngine<Options, State, Action, Event, unknown, unknown>,
  options: Options,
  seed: number,
  actions: readonly RecordedAction<Action>[],
): { events: (readonly Event[])[]; state: State } {
  const started = engine.start(options, seed);
  const replayed = replayActions(engine, started.state, actions);
  return { events: [started.events, ...replayed.events], state: replayed.state };
}

/**
 * Plays recorded actions again from a state of their match: each action's events, and the state they end on. Every
 * action must be accepted (a refused one is named by its place among `actions`).
 */
export function replayActions<State, Action, Event extends GameEvent>(
  engine: Pick<MatchEngine<unknown, State, Action, Event, unknown, unknown>, "apply">,
  from: State,
  actions: readonly RecordedAction<Action>[],
): { events: (readonly Event[])[]; state: State } {
  const events: (readonly Event[])[] = [];
  let state = from;
  actions.forEach(({ actor, action }, index) => {
    const outcome = engine.apply(state, actor, action);
    if (!outcome.ok)
      throw new Error(`recorded action ${index + 1} was refused on replay: ${outcome.code} ${outcome.reason}`);
    state = outcome.state;
    events.push(outcome.events);
  });
  return { events, state };
}

/** Who acts for a seat whose turn it is in a play-out: by default its bot; tests pass random legal players, time-outs... */
export type SeatChooser<State, Action> = (state: State, seat: number) => RecordedAction<Action>;

/**
 * Plays a whole match with the engine's own bots and dealer (no clocks: every pause is skipped), recording each
 * action and its events. What the table would do with bots in every seat; used by tests and benchmarks.
 * `choose` decides for a seat whose turn it is (default: its bot). Stops after `maxActions` (a bound, in case an
 * engine never ends).
 */
export function playOut<Options, State, Action, Event extends GameEvent>(
  engine: MatchEngine<Options, State, Action, Event, unknown, unknown>,
  options: Options,
  seed: number,
  choose?: SeatChooser<State, Action>,
  maxActions = 100_000,
): { actions: RecordedAction<Action>[]; events: (readonly Event[])[]; state: State } {
  const started = engine.start(options, seed);
  const actions: RecordedAction<Action>[] = [];
  const events: (readonly Event[])[] = [started.events];
  let state = started.state;
  const act = (actor: Actor, action: Action) => {
    const outcome = engine.apply(state, actor, action);
    if (!outcome.ok)
      throw new Error(
        `the engine refused its own ${actor === DEALER ? "dealer's" : "bot's"} action: ${outcome.code} ${outcome.reason}`,
      );
    state = outcome.state;
    actions.push({ actor, action });
    events.push(outcome.events);
  };
  const seats = engine.seatCount(options);
  while (actions.length < maxActions) {
    for (let volunteered = true; volunteered && engine.volunteer; ) {
      volunteered = false;
      for (let seat = 0; seat < seats; seat++) {
        const action = engine.volunteer(state, seat);
        if (action === undefined) continue;
        act(seat, action);
        volunteered = true;
      }
    }
    const waiting = engine.waiting(state);
    if (waiting.for === "nobody") break;
    if (waiting.for === "dealer") act(DEALER, waiting.action);
    else if (choose) {
      const chosen = choose(state, waiting.seat);
      act(chosen.actor, chosen.action);
    } else {
      const action = engine.botAction(state, waiting.seat);
      if (action === undefined) throw new Error(`seat ${waiting.seat} must act but its bot has no action`);
      act(waiting.seat, action);
    }
  }
  return { actions, events, state };
}
