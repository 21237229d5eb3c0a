import type { Room } from "@colyseus/sdk";
import {
  patienceMessages,
  type PatienceDealOverEvent,
  type PatienceEvents,
  type PatienceJoinOptions,
  type PatienceStateView,
} from "../rooms/patience/protocol";
import { RoomSession } from "./session";

export type { PatienceEvents };

/** A deal given as cards: bin/patience's text ("TS QC 8S …") or one card per item. */
export type PatienceDeck = string | readonly string[];

export interface PatienceDealOptions {
  seed?: number;
  deck?: PatienceDeck;
  /** Start paused: nothing is dealt until `resume` or `step`. */
  paused?: boolean;
}

/** Room options for `createPatience`: the deal, the owner's name, the pace and the reconnection window. */
export type PatienceCreateOptions = PatienceDealOptions &
  Pick<PatienceJoinOptions, "name" | "paceMs" | "reconnectSeconds">;

/** The options as the room reads them: the deck as text, and no field that is not set. */
export function roomOptions(options: PatienceCreateOptions): Omit<PatienceJoinOptions, "spectate"> {
  const deck = typeof options.deck === "object" ? options.deck.join(" ") : options.deck;
  const all = { ...options, deck };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined));
}

/**
 * Watching a Shuffling Patience room: the public state, the events, and the end of each deal. Any client may
 * `claim` a room whose owner has left.
 */
export class PatienceSpectator extends RoomSession<PatienceStateView, PatienceEvents> {
  private readonly endings = new Map<number, PatienceDealOverEvent>();
  private readonly waiters = new Set<() => void>();

  constructor(room: Room) {
    super(room);
    this.on("dealOver", (event) => {
      this.endings.set(event.deal, event);
      for (const waiter of [...this.waiters]) waiter();
    });
  }

  /** Whether this session owns the room now (false until the first state arrives). */
  isOwner(): boolean {
    return this.view()?.owner === this.sessionId;
  }

  /**
   * Resolves with the end of deal `deal` (by default the deal under way when the state first shows one): from its
   * `dealOver` event, or from the state for a deal that ended before this session listened. Rejects with a
   * CardhallError TIMEOUT after `timeoutMs`, or ABORTED when `signal` aborts.
   */
  dealOver(deal?: number, timeoutMs = 60_000, signal?: AbortSignal): Promise<PatienceDealOverEvent> {
    let target = deal;
    return this.waitFor(
      deal === undefined ? "the end of the deal under way" : `the end of deal ${deal}`,
      timeoutMs,
      signal,
      (found) => {
        const check = () => {
          const view = this.view();
          target ??= view?.deal;
          if (target === undefined) return;
          const ending = this.endings.get(target) ?? (view?.deal === target ? endingShownBy(view) : undefined);
          if (ending !== undefined) found(ending);
        };
        this.waiters.add(check);
        check();
        // The state is decoded only while someone waits: doing it on every patch would cost every spectator.
        const stopViewing = this.onView(check);
        return () => {
          stopViewing();
          this.waiters.delete(check);
        };
      },
    );
  }

  /** Takes over a room whose owner has left (HAS_OWNER if it still has one); the owner's actions are then yours. */
  async claim(name?: string): Promise<PatienceOwner> {
    await this.request(patienceMessages.claim, name === undefined ? {} : { name });
    return new PatienceOwner(this.room);
  }
}

/** The owner of a Shuffling Patience room. Every action throws a CardhallError if the room refuses it. */
export class PatienceOwner extends PatienceSpectator {
  /** Stops dealing (ALREADY_PAUSED, DEAL_OVER). */
  pause(): Promise<void> {
    return this.request(patienceMessages.pause, {});
  }

  /** Deals on at the room's pace (NOT_PAUSED, DEAL_OVER). */
  resume(): Promise<void> {
    return this.request(patienceMessages.resume, {});
  }

  /** Makes one step while paused; its `move` event is sent before this resolves (NOT_PAUSED, DEAL_OVER). */
  step(): Promise<void> {
    return this.request(patienceMessages.step, {});
  }

  /** Milliseconds between steps, 0 to 10000, from now on (BAD_PAYLOAD outside that range). */
  setPace(paceMs: number): Promise<void> {
    return this.request(patienceMessages.setPace, { paceMs });
  }

  /** Deals again once the deal is over (DEAL_IN_PROGRESS, BAD_DECK); without seed or deck the room picks a seed. */
  restart(options: PatienceDealOptions = {}): Promise<void> {
    const { seed, deck, paused } = options; // only the deal: the room refuses any other field
    return this.request(patienceMessages.restart, roomOptions({ seed, deck, paused }));
  }
}

/** A deal's end as the state shows it, when it has ended. */
function endingShownBy(view: PatienceStateView): PatienceDealOverEvent | undefined {
  const { outcome } = view;
  if (view.phase !== "over" || outcome.kind === "") return undefined;
  return {
    deal: view.deal,
    outcome:
      outcome.kind === "finished"
        ? { kind: "finished", pileSizes: outcome.pileSizes }
        : { kind: "overflowed", cardNumber: outcome.overflowCard },
    line: outcome.line,
    seed: view.revealedSeed,
    steps: view.steps,
  };
}
