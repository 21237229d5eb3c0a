/**
 * An event emitter for objects that live as long as a table or a connection and have a few listeners for their whole
 * life: each room's (Colyseus's matchmaker, presence and room talk through it: a lock, a join, a leave, the disposal)
 * and each WebSocket-port connection's (server/uws-websocket-port.ts). It does what those users call of Node's
 * EventEmitter: on, once, removeListener, removeAllListeners and emit.
 *
 * Not Node's EventEmitter, for memory alone: Node keeps an emitter's listeners in an object without a prototype,
 * which V8 holds as a hash table, and wraps each `once` listener in two objects: a room's listeners held 2.2 KB with
 * it and 1.2 KB with this one (most of that is the listeners themselves, the matchmaker's bound functions), a
 * connection's 0.7 and 0.3 KB (BENCHMARKS.md, "Issue 34: a tenth less live heap a table"). Here the
 * listeners are one array of (event, listener, once) triples, replaced whenever the listeners change (a join, a leave,
 * the disposal: rarely), so that an event goes to those listening when it began, whoever a listener adds or takes off
 * meanwhile, as with Node's emitters. The arrays are made by `concat` and `slice`, which make them as long as their
 * items: an array spread grows its new array as a push does, to half again and more (64 slots for a room's 33).
 */
type Listener = (...args: never[]) => void;

/** Each subscription's three slots in the array: its event, its listener, and whether it is a `once`. */
const SLOTS = 3;
const NONE: readonly unknown[] = [];

export class SmallEmitter<Event extends string = string> {
  private subscriptions: readonly unknown[] = NONE;

  on(event: Event, listener: Listener): this {
    this.subscriptions = this.subscriptions.concat([event, listener, false]);
    return this;
  }

  once(event: Event, listener: Listener): this {
    this.subscriptions = this.subscriptions.concat([event, listener, true]);
    return this;
  }

  /** Takes off the listener's first subscription to the event. */
  removeListener(event: Event, listener: Listener): this {
    this.takeOff(event, listener, false);
    return this;
  }

  off(event: Event, listener: Listener): this {
    return this.removeListener(event, listener);
  }

  /** Takes off every listener of the event, or of every event. */
  removeAllListeners(event?: Event): this {
    if (event === undefined) {
      this.subscriptions = NONE;
      return this;
    }
    const kept: unknown[] = [];
    const all = this.subscriptions;
    for (let at = 0; at < all.length; at += SLOTS) if (all[at] !== event) kept.push(all[at], all[at + 1], all[at + 2]);
    this.subscriptions = kept.length === 0 ? NONE : kept.slice();
    return this;
  }

  listenerCount(event: Event): number {
    let count = 0;
    for (let at = 0; at < this.subscriptions.length; at += SLOTS) if (this.subscriptions[at] === event) count++;
    return count;
  }

  /** Calls the event's listeners, in the order they were added, with `args`; whether any listened. */
  emit(event: Event, ...args: unknown[]): boolean {
    const all = this.subscriptions;
    let heard = false;
    for (let at = 0; at < all.length; at += SLOTS) {
      if (all[at] !== event) continue;
      heard = true;
      const listener = all[at + 1] as (...args: unknown[]) => void;
      if (all[at + 2] === true) this.takeOff(event, listener, true);
      listener.apply(this, args);
    }
    return heard;
  }

  /** Takes off the first subscription of `listener` to `event` (a `once` one alone when `onceOnly`), if any is left. */
  private takeOff(event: Event, listener: unknown, onceOnly: boolean): void {
    const all = this.subscriptions;
    for (let at = 0; at < all.length; at += SLOTS) {
      if (all[at] === event && all[at + 1] === listener && (!onceOnly || all[at + 2] === true)) {
        this.subscriptions = all.slice(0, at).concat(all.slice(at + SLOTS));
        return;
      }
    }
  }
}
