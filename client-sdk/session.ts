import type { Room } from "@colyseus/sdk";
import {
  ERROR_MESSAGE,
  STATE_CHECK_MESSAGE,
  type ErrorReply,
  type MessageDefinition,
  type PayloadOf,
  type StateCheck,
} from "../rooms/kit/protocol";
import { viewDigest } from "../rooms/kit/views";
import { CLIENT_RATE_BUDGET, RateLimiter } from "../rooms/kit/rate-limit";
import { CardhallError, sessionEnd, toCardhallError } from "./errors";

/** WebSocket's normal closure (RFC 6455). */
const NORMAL_CLOSURE = 1000;

type Listener<T> = (value: T) => void;

/**
 * A wait that ends with what `watch` finds, with a CardhallError TIMEOUT after `timeoutMs` (saying `what` did not
 * come), or as soon as `signal` aborts: with the abort's reason when that is a CardhallError (a session's end),
 * else with ABORTED. `watch` starts watching, calls `found` when it finds, and
 * returns how to stop; it is stopped once the wait ends, after the current listener returns (stopping a
 * listener from inside the room's own dispatch would upset it).
 */
export function boundedWait<T>(
  what: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  watch: (found: (value: T) => void) => () => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    let done = false;
    let stopWatching: (() => void) | undefined;
    const finish = (settle: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (stopWatching) queueMicrotask(stopWatching);
      settle();
    };
    const onAbort = () =>
      finish(() =>
        reject(
          signal?.reason instanceof CardhallError
            ? signal.reason
            : new CardhallError("ABORTED", `stopped waiting: ${what}, as asked`),
        ),
      );
    const timer = setTimeout(
      () => finish(() => reject(new CardhallError("TIMEOUT", `${what} did not come within ${timeoutMs} ms`))),
      timeoutMs,
    );
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    const stop = watch((value) => finish(() => resolve(value)));
    if (done) queueMicrotask(stop);
    else stopWatching = stop;
  });
}

/**
 * Keeps a session's messages within the rooms' per-client budget (docs/protocol.md, "Rate limits"): a program that
 * acts faster than the budget allows waits its turn here, in order, instead of being refused RATE_LIMITED.
 */
export class SendPacer {
  private readonly limiter = new RateLimiter(CLIENT_RATE_BUDGET);
  private queue: Promise<void> = Promise.resolve();
  /** How many messages waited for the budget, and for how long in all (ms). */
  readonly waited = { messages: 0, ms: 0 };

  /** Resolves when the next message may go. */
  turn(): Promise<void> {
    const turn = this.queue.then(async () => {
      const start = performance.now();
      let waits = false;
      for (let wait = this.limiter.msUntilAllowed(""); wait > 0; wait = this.limiter.msUntilAllowed("")) {
        waits = true;
        await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
      }
      if (waits) {
        this.waited.messages++;
        this.waited.ms += performance.now() - start;
      }
      this.limiter.allow("");
    });
    this.queue = turn;
    return turn;
  }
}

/**
 * A joined room, typed by its public state view and its events. Shared by every game's player and spectator
 * sessions; the game-specific classes add the moves.
 */
/** A state check the room sent (rooms/kit/protocol.ts, STATE_CHECK_MESSAGE) and what this client found. */
export interface StateCheckResult {
  roomId: string;
  sessionId: string;
  /** Whether the state this client decoded is the view the table meant it to hold. */
  matched: boolean;
}

const stateCheckListeners = new Set<(result: StateCheckResult) => void>();

/**
 * Hears every state check any session of this process receives (a load test counts them; a mismatch is a desync).
 * A server sends them only when started with STATE_CHECK_EVERY. Returns how to stop listening.
 */
export function onStateChecks(listener: (result: StateCheckResult) => void): () => void {
  stateCheckListeners.add(listener);
  return () => stateCheckListeners.delete(listener);
}

export class RoomSession<View, Events extends object> {
  private readonly errorListeners: Listener<CardhallError>[] = [];
  private readonly pacer = new SendPacer();
  /** Aborted, with a CardhallError as its reason, once the session is over: left, lost, or taken over. */
  private readonly over = new AbortController();

  /**
   * The messages this session held back to stay within the room's rate budget (docs/protocol.md, "Rate limits"),
   * and the time they waited in all: past its first burst, a session sends about one message every 55 ms.
   */
  get budgetWaits(): { readonly messages: number; readonly ms: number } {
    return this.pacer.waited;
  }

  constructor(readonly room: Room) {
    room.onLeave((code) => this.over.abort(sessionEnd(code)));
    // Events nobody listens to are fine; without this the SDK warns about each one.
    room.onMessage("*", () => undefined);
    room.onMessage(ERROR_MESSAGE, (reply: ErrorReply) => {
      const error = CardhallError.fromReply(reply);
      for (const listener of this.errorListeners) listener(error);
    });
    room.onMessage(STATE_CHECK_MESSAGE, ({ digest }: StateCheck) => {
      // The check follows the patch it is about on the same socket: the state decoded now is the one to compare.
      const matched = viewDigest((room.state as { toJSON(): unknown }).toJSON()) === digest;
      for (const listener of stateCheckListeners) listener({ roomId: room.roomId, sessionId: room.sessionId, matched });
    });
  }

  get roomId(): string {
    return this.room.roomId;
  }

  get sessionId(): string {
    return this.room.sessionId;
  }

  /** Hand this to `CardhallClient.reconnect` to take the seat back after a dropped connection. */
  get reconnectionToken(): string {
    return this.room.reconnectionToken;
  }

  /** The public state as plain data (the player's own hidden cards included for a player), or undefined before the first patch. */
  view(): View | undefined {
    const state = this.room.state as { toJSON?: () => object } | undefined;
    const view = state?.toJSON?.();
    // Until the first state patch arrives the decoded state is an empty shell.
    return view && Object.keys(view).length > 0 ? (view as View) : undefined;
  }

  /**
   * The live decoded state, for cheap reads of top-level scalar fields (phase, turn, step...) on every patch:
   * building the plain `view()` copies the whole state, which thousands of scripted clients cannot afford each patch.
   */
  protected live(): Partial<View> | undefined {
    const state = this.room.state as Partial<View> | undefined;
    return state && Object.keys(state as object).length > 0 ? state : undefined;
  }

  /**
   * Calls `listener` with the state now (if it has arrived) and after every change; `worthALook`, given the live
   * state, skips the changes the listener would not care about without copying the state. Returns an unsubscribe function.
   */
  onView(listener: Listener<View>, worthALook?: (live: Partial<View>) => boolean): () => void {
    const onChange = () => {
      const live = this.live();
      if (live === undefined || (worthALook && !worthALook(live))) return;
      const view = this.view();
      if (view !== undefined) listener(view);
    };
    onChange();
    this.room.onStateChange(onChange);
    return () => this.room.onStateChange.remove(onChange); // (the register's return value would clear every listener)
  }

  /**
   * Resolves with the first view that satisfies `predicate` (rejects with a CardhallError TIMEOUT after `timeoutMs`,
   * or ABORTED as soon as `signal` aborts). `worthALook`, given the live state, skips building views that cannot
   * satisfy the predicate.
   */
  waitForView(
    predicate: (view: View) => boolean,
    timeoutMs = 10_000,
    worthALook?: (live: Partial<View>) => boolean,
    signal?: AbortSignal,
  ): Promise<View> {
    return this.waitFor("the awaited state of the room", timeoutMs, signal, (found) =>
      this.onView((view) => {
        if (predicate(view)) found(view);
      }, worthALook),
    );
  }

  /**
   * How the session ended (a CardhallError: LEFT after `leave()`, TAKEN_OVER when another connection took the seat
   * with its reconnection token, CONNECTION when the connection was lost for good), or undefined while it lasts.
   */
  get ended(): CardhallError | undefined {
    return this.over.signal.aborted ? (this.over.signal.reason as CardhallError) : undefined;
  }

  /** A bounded wait (see boundedWait) that also ends, with the session's end as its error, when the session does. */
  protected waitFor<T>(
    what: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
    watch: (found: (value: T) => void) => () => void,
  ): Promise<T> {
    const ending = signal ? AbortSignal.any([signal, this.over.signal]) : this.over.signal;
    return boundedWait(what, timeoutMs, ending, watch);
  }

  /** Listens to one of the room's typed events. */
  on<Name extends keyof Events & string>(event: Name, listener: Listener<Events[Name]>): void {
    this.room.onMessage(event, listener);
  }

  /** Errors the room sent back for messages sent without waiting (requests reject instead). */
  onError(listener: Listener<CardhallError>): void {
    this.errorListeners.push(listener);
  }

  /** Called once when the session ends, with the WebSocket close code (`ended` tells what it means). */
  onLeave(listener: Listener<number>): void {
    this.room.onLeave(listener);
  }

  /**
   * Leaves the room; resolves at once when the session has already ended (e.g. taken over). With `keepSeat`, the
   * connection is dropped without giving the seat up: the room holds the seat for its reconnection window, and
   * a reconnection with the session's token takes it back (the page does this when a person navigates away).
   */
  async leave(options: { keepSeat?: boolean } = {}): Promise<void> {
    if (this.ended) return;
    if (!options.keepSeat) {
      await this.room.leave(true);
      return;
    }
    // A normal closure: the room takes it for a drop (only Colyseus's own code 4000 gives a seat up), and the
    // Colyseus client does not try to reconnect on its own (it does after 1005/1006/1001), so the seat waits.
    const left = new Promise<void>((resolve) => this.room.onLeave(() => resolve()));
    this.room.connection.close(NORMAL_CLOSURE, "stepped away");
    await left;
  }

  /** Sends a defined message and waits for the room's answer; a refusal throws a CardhallError. */
  protected async request<M extends MessageDefinition>(definition: M, payload: PayloadOf<M>): Promise<void> {
    await this.answer(definition, payload);
  }

  /** Sends a defined message within the session's budget and returns the room's answer; a refusal throws a CardhallError. */
  protected async answer<M extends MessageDefinition>(definition: M, payload: PayloadOf<M>): Promise<unknown> {
    await this.pacer.turn();
    if (this.ended) throw this.ended;
    try {
      return await this.room.request(definition.name, payload);
    } catch (error) {
      throw toCardhallError(error);
    }
  }
}
