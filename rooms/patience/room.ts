/**
 * The `patience` room: the table kit (rooms/kit/table.ts) with the Shuffling Patience match engine (match.ts). It
 * deals a deck step by step for everyone to watch: every step is the dealer's, at the room's pace. Seat 0 is the
 * owner's, who may pause, step, change the pace and deal again; everyone else spectates, and may claim the seat
 * once the owner has left. The deck and the seed stay in the engine's state: the seed is revealed when the deal
 * is over, the undealt cards never.
 */
import { ServerError, type Client } from "@colyseus/core";
import { OPTIONS_REFUSED, parseRoomOptions, Rejection } from "../kit/room-kit";
import type { MessageDefinition, PayloadOf } from "../kit/protocol";
import { type Made, type SeatRequest, TableRoom } from "../kit/table";
import {
  type dealOf,
  dealSource,
  OWNER_SEAT,
  patienceEngine,
  STEP_PACE,
  type PatienceAction,
  type PatienceEngineEvent,
  type PatienceMatch,
  type PatienceOptions,
} from "./match";
import {
  PATIENCE_DEFAULT_PACE_MS,
  PATIENCE_DEFAULT_RECONNECT_SECONDS,
  patienceEvents,
  patienceJoinOptions,
  patienceLadderOptions,
  patienceMessages,
} from "./protocol";
import type {
  PatienceControlEvent,
  PatienceDealStartedEvent,
  PatienceErrorCode,
  PatienceJoinOptions,
  PatiencePositionView,
  PatienceStateView,
  PatienceTableView,
} from "./protocol";
import { MAX_PILES } from "./engine";
import { PatienceState, stateMatchesView } from "./state";

const MAX_SPECTATORS = 200;
const DEFAULT_OWNER_NAME = "owner";

export class PatienceRoom extends TableRoom<
  PatienceState,
  PatienceJoinOptions,
  PatienceOptions,
  PatienceMatch,
  PatienceAction,
  PatienceEngineEvent,
  PatienceErrorCode,
  PatienceStateView
> {
  override state = new PatienceState();
  override readonly engine = patienceEngine;
  override readonly joinOptions = patienceJoinOptions;
  protected override readonly stateMatchesView = stateMatchesView;
  private paceMs = PATIENCE_DEFAULT_PACE_MS;
  /** The owner's seat taken, a joiner watches. */
  override refuseWhenFull = false;

  /** A ladder table (docs/arena.md, "Solo ladders"): its owner's one deal of the period, dealt once the owner is in. */
  private ladderTable = false;
  /** Whether the ladder's deal starts paused, as its creator asked. */
  private ladderDealPaused = false;

  protected override createTable(rawOptions: unknown): void {
    const options = this.createOptions(rawOptions);
    this.ladderTable = options.ladder === true;
    if (this.ladderTable) {
      parseRoomOptions(patienceLadderOptions, options, "create");
      this.refuseWhenFull = true; // a second join is refused, never made a spectator
      this.ladderDealPaused = options.paused ?? false;
    }
    const first = dealSource(options, (problem) => new ServerError(OPTIONS_REFUSED.create, `bad deck: ${problem}`));
    const paceMs = options.paceMs ?? PATIENCE_DEFAULT_PACE_MS;
    this.openTable({
      seats: 1,
      maxSpectators: this.ladderTable ? 0 : MAX_SPECTATORS,
      timings: {
        turnTimeMs: 0,
        botDelayMs: 0,
        reconnectSeconds: options.reconnectSeconds ?? PATIENCE_DEFAULT_RECONNECT_SECONDS,
        paces: { [STEP_PACE]: kitPace(paceMs) },
      },
      messages: Object.values(patienceMessages),
    });
    this.paceMs = paceMs;
    this.metadata = this.listing();
    const owned = <M extends MessageDefinition>(definition: M, handler: (payload: PayloadOf<M>) => void) =>
      this.onTableMessage(definition, (client, payload) => {
        if (this.roster.seatOf(client.sessionId) !== OWNER_SEAT)
          throw reject("NOT_OWNER", "only the room's owner may do this");
        handler(payload);
      });
    owned(patienceMessages.pause, () => {
      this.requireDealGoingOn();
      if (this.dealerPaused) throw reject("ALREADY_PAUSED", "the deal is already paused");
      this.pauseDealer(true);
      this.announce("pause");
    });
    owned(patienceMessages.resume, () => {
      this.requirePaused();
      this.pauseDealer(false);
      this.announce("resume");
    });
    owned(patienceMessages.step, () => {
      this.requirePaused();
      this.dealerStep();
    });
    owned(patienceMessages.setPace, ({ paceMs }) => {
      this.paceMs = paceMs;
      this.setPace(STEP_PACE, kitPace(paceMs)); // the next step comes at the new pace, counted from now
      this.announce("setPace");
    });
    owned(patienceMessages.restart, (payload) => {
      if (this.ladderTable)
        throw reject("LADDER_TABLE", "a ladder table deals its one deal: ask the ladder again for your next deal");
      if (!this.dealOver())
        throw reject("DEAL_IN_PROGRESS", "the deal is not over yet; restart deals again once it is");
      this.deal(
        dealSource(payload, (problem) => reject("BAD_DECK", problem)),
        payload.paused ?? false,
      );
    });
    this.onTableMessage(patienceMessages.claim, (client, { name }) => this.claim(client, name));
    if (!this.ladderTable) this.deal(first, options.paused ?? false);
  }

  /** A ladder table deals when its owner is in: the deal is the one the ladder gave the owner's identity. */
  override onJoined(place: number | "watch", _options: PatienceJoinOptions, auth: unknown): void {
    if (place === "watch" || !this.ladderTable || this.match !== null) return;
    this.deal({ options: {}, seed: this.takeLadderDeal(auth).seed }, this.ladderDealPaused);
  }

  override seatRequest(options: PatienceJoinOptions): SeatRequest {
    if (options.spectate === true && this.ladderTable) this.refuseLadderSpectator();
    return { watch: options.spectate === true };
  }

  override personName(options: PatienceJoinOptions): string {
    return options.name ?? DEFAULT_OWNER_NAME;
  }

  /** The owner has left for good: the seat opens and the deal goes on as it was (dealing or paused). */
  override onPersonLeft(seat: number): void {
    this.roster.open(seat);
    this.announce("ownerLeft");
  }

  override wire(event: PatienceEngineEvent, _made: Made): unknown {
    const deal = this.match!.number;
    if (event.name === "dealOver") return { deal, ...event.payload };
    const { step, dealt, description, ...data } = event.payload;
    return { ...data, deal, step, dealt, description };
  }

  override tableView(): PatienceTableView {
    const owner = this.roster.seats[OWNER_SEAT];
    const held = this.dealerPaused && this.match !== null && this.match.state.deal.outcome === null;
    return {
      ...(held ? { phase: "paused" as const } : {}),
      deal: this.match?.number ?? 0,
      paceMs: this.paceMs,
      owner: owner.sessionId ?? "",
      ownerName: owner.name,
      ownerConnected: owner.connected,
      spectators: this.roster.spectators,
    };
  }

  /** A room always has a deal (dealt as it is made); this is only what the state holds before that. */
  override viewBeforeMatch(): PatiencePositionView {
    const tops = Array.from({ length: MAX_PILES }, () => "");
    const counts = Array.from({ length: MAX_PILES }, () => 0);
    const cover = { group: "" as const, piles: [], covered: [], covering: [] };
    return {
      phase: "paused",
      steps: 0,
      dealt: 0,
      deckSize: 0,
      tops,
      counts,
      cover,
      outcome: { kind: "", pileSizes: [], overflowCard: 0, line: "" },
      revealedSeed: 0,
    };
  }

  override listing(): Record<string, unknown> {
    if (this.roster === undefined) return { game: "patience", deal: 0, phase: "paused", owner: "" };
    const { deal, phase, ownerName } = this.shownView();
    const ladder = this.ladderTable ? { ladder: true } : {}; // the lobby offers no Watch on a ladder table
    return { game: "patience", deal, phase, owner: ownerName, ...ladder };
  }

  /** Starts a deal (paused or dealing at the pace) and announces it before its first step. */
  private deal(source: ReturnType<typeof dealOf>, paused: boolean): void {
    this.pauseDealer(paused);
    this.startMatch(source.options, source.seed); // no seed: a fresh one
    this.updateListing();
    const { deal, paceMs, phase } = this.shownView();
    this.broadcast(patienceEvents.dealStarted, { deal, paceMs, phase } satisfies PatienceDealStartedEvent);
  }

  private claim(client: Client, name: string | undefined): void {
    if (this.roster.seatOf(client.sessionId) === OWNER_SEAT) throw reject("HAS_OWNER", "you already own this room");
    if (this.roster.seats[OWNER_SEAT].holder !== "open")
      throw reject("HAS_OWNER", "this room has its owner; claim it once the owner has left");
    this.roster.removeSpectator(client.sessionId);
    this.seatPerson(client, OWNER_SEAT, name ?? DEFAULT_OWNER_NAME);
    this.announce("claim");
  }

  private announce(action: PatienceControlEvent["action"]): void {
    this.seatsChanged(); // the state (and the listing) show the change before the event names it
    const { deal, phase, paceMs, ownerName } = this.shownView();
    this.broadcast(patienceEvents.control, { deal, action, phase, paceMs, ownerName } satisfies PatienceControlEvent);
  }

  /**
   * Whether the deal is over (its view's phase "over"): the engine waits for nobody. The owner's step messages ask
   * it every time, and building the whole view to read one field cost half as much as the step itself.
   */
  private dealOver(): boolean {
    return this.match !== null && !this.gameUnderWay();
  }

  private requireDealGoingOn(): void {
    if (this.dealOver()) throw reject("DEAL_OVER", "the deal is over; send restart to deal again");
  }

  private requirePaused(): void {
    this.requireDealGoingOn();
    if (!this.dealerPaused) throw reject("NOT_PAUSED", "the deal is going on; pause it first");
  }
}

/**
 * The kit's pace for the room's `paceMs`. The kit makes a 0 ms pace's steps all at once (the whole deal in one
 * burst); the room's 0 means one step per tick of the clock, so it asks the kit for 1 ms.
 */
function kitPace(paceMs: number): number {
  return Math.max(paceMs, 1);
}

function reject(code: PatienceErrorCode, message: string): Rejection<PatienceErrorCode> {
  return new Rejection(code, message);
}
