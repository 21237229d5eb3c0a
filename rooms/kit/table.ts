/**
 * The table kit: one Colyseus room that every game's room is built from. A game brings its pure match engine
 * (rooms/kit/engine.ts) and says how its state looks (its schema) and what its wire events carry; the kit does
 * everything a card table does whatever the game:
 * - seats (open, bot, person) and spectators, joins by seat, bot take-over and hand-back, reconnection by token;
 * - the match: its start from options and a seed, every action checked by the engine and recorded, the engine's
 *   events sent to whoever may see them, the result, and a record of each finished game (or round) for the server;
 * - sealed deals: the commitment to each deal's seed shown from its start, its seed and salt from its end;
 * - time: the turn clock (what the engine says happens when it runs out), the bots' pauses, the dealer's pace,
 *   pausing and stepping;
 * - messages: validation against their one definition, per-client rate limits, typed errors; every handler and
 *   timer isolated, so nothing a client sends can take the process down.
 * The game's room is left with what is its own: its messages, the table's own fields beside the engine's view (the
 * kit writes both into the schema: see "One truth per viewer" in docs/architecture.md), and
 * its listing.
 */
import { ClientState, Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import type { Schema } from "@colyseus/schema";
import { isDeepStrictEqual } from "util";
import type { z } from "zod";
import { dealInPlay, DEALER, replayActions, SPECTATOR, type Actor, type Applied, type GameEvent, type MatchEngine, type RecordedAction, type Viewer } from "./engine";
import { NO_SEAL, type DealSealView, type SealedView } from "./commitment";
import { freshDealSeed, sealDeal, type DealSeal } from "./deal-seal";
import { SEAT_TAKEN_OVER_CLOSE_CODE, SERVER_SHUTDOWN_CLOSE_CODE, STATE_CHECK_MESSAGE, type MessageDefinition, type PayloadOf, type StateCheck } from "./protocol";
import { GUEST, type FinishedGame, type LadderDeal, type LadderTag, type Mover, type RecordedEvent, type RecordedSeat, type RecordPart, type RecordSink, type SeatIdentity } from "./record";
import { clearRoomTimers, forgetClient, handleMessage, lifecycleStep, limitMessages, parseRoomOptions, Rejection, reportFailure, RoomTimer, screenOfMessages, shareStateBuffers, shareStateHandshake, SWEEP_PATCH_MS } from "./room-kit";
import { RecordedSteps, type StepReplay } from "./recorded-steps";
import { SEAT_BOT_NAME, SeatRoster } from "./seats";
import { screenFrames, type FrameScreen } from "./frames";
import { writeView } from "./state-writer";
import { mergeViews, viewDigest, type Plain } from "./views";
import type { StateMatchesView } from "./state-check";
import { log, roomLog } from "./log";
import { tableMetrics } from "./metrics";
import { clearViewFramesWithoutAllocating, keepListChangesInPlace, setStateBufferSize, sizeStateValues, stateViewClearedWhenChanged, whenDisposalBegins } from "./colyseus-internals";
import { addressOf, guardSeatReservations, identityOf, ladderDealOf, PENDING_SPECTATORS_PER_ROOM, pendingJoins, PromisedPlaces, type JoinerIdentity, type Place } from "./reservations";

export type { Mover } from "./record";

export interface Made {
  readonly actor: Actor;
  readonly by: Mover;
}

/** An action the table accepted, with when (ms since the epoch), who made it and what it caused. */
export interface TableAction<Action> extends RecordedAction<Action> {
  readonly at: number;
  readonly by: Mover;
  readonly events: readonly RecordedEvent[];
}

/** The match being played, or the last one played. Its seed stays on the server until the engine reveals it. */
export interface MatchInPlay<Options, State, Action> {
  /** 1 for the room's first match. */
  readonly number: number;
  readonly options: Options;
  readonly seed: number;
  state: State;
  /** Every action, for the match's record: kept only when there are records (RecordSink). */
  readonly actions: RecordedSteps<TableAction<Action>, State>;
  /** How many actions were taken, kept or not. */
  actionCount: number;
  /** The events of the match's start. */
  readonly start: readonly RecordedEvent[];
  readonly startedAt: number;
}

export interface TableTimings {
  /** A person's time to act; when it runs out the engine's `timedOut` decides what happens. */
  turnTimeMs: number;
  /** A bot's pause before each of its actions (0: at once). */
  botDelayMs: number;
  /** How long a dropped person's seat is kept for them. */
  reconnectSeconds: number;
  /** The dealer's pauses, by the names the engine gives them (`Waiting.pace`). */
  paces: Record<string, number>;
}

export interface TableSetUp<Message extends MessageDefinition> {
  seats: number;
  maxSpectators: number;
  timings: TableTimings;
  /** Every message the room understands (the kit answers the rest with UNKNOWN_MESSAGE). */
  messages: readonly Message[];
}

/** Where a joining client goes: a seat (a given one, or the first open), or the spectators. */
export type SeatRequest = { watch: true } | { watch: false; seat?: number };

/**
 * Every room's state serializer makes two buffers of `Encoder.BUFFER_SIZE` bytes (a patch's and a full state's),
 * 16 KB each by default. The kit hands each room the process's shared pair at once (shareStateBuffers,
 * rooms/kit/room-kit.ts), so a room's own are dropped as soon as made; the size still sets how much free room the
 * encoder wants past the shared part of a patch before it writes a seat's view there, and the step a buffer grows
 * by. The largest full state of any game is about 1 KB (a Tractor round late in play; the four hands' views add a
 * few hundred bytes), so 4 KB leaves room to spare.
 */
const STATE_BUFFER_BYTES = 4 * 1024;

// On each copy of @colyseus/schema the process has (see setStateBufferSize).
setStateBufferSize(STATE_BUFFER_BYTES);

/** One client in this many gets state checks (rooms/kit/protocol.ts, STATE_CHECK_MESSAGE); 0: none. */
let stateCheckEvery = 0;

/** Sets how many clients get state checks: one in `every` (the server's STATE_CHECK_EVERY; 0 turns them off). */
export function checkStatesOfOneClientIn(every: number): void {
  stateCheckEvery = every;
}

/** Whether a session is one of the sampled: a stable choice by its id, so that a client keeps it across reconnections. */
function sampledForStateChecks(sessionId: string): boolean {
  if (stateCheckEvery <= 0) return false;
  let sum = 0;
  for (let index = 0; index < sessionId.length; index++) sum = (sum * 31 + sessionId.charCodeAt(index)) >>> 0;
  return sum % stateCheckEvery === 0;
}

/** A table of any game, as the machinery its class shares sees it. */
type AnyTableRoom = TableRoom<Schema & { spectators: number }, unknown, unknown, unknown, unknown, GameEvent, string>;

/**
 * Each table class's frame screen (rooms/kit/frames.ts): every room of a class understands the same messages (its
 * game's protocol), so the first room opened makes it for all.
 */
const screensOfClass = new WeakMap<object, FrameScreen>();
/** The screen of a room that has not opened its table (none is ever sent a frame): it understands nothing. */
const NO_MESSAGES = screenOfMessages([]);

/** Bot actions made at once (no pause) before the table lets other rooms run. */
const ACTIONS_PER_BURST = 200;

export abstract class TableRoom<
  S extends Schema & { spectators: number },
  JoinOptions,
  Options,
  State,
  Action,
  Event extends GameEvent,
  Code extends string,
  View extends Plain & SealedView = Plain & SealedView,
> extends Room<{ state: S }> {
  protected abstract readonly engine: MatchEngine<Options, State, Action, Event, Plain, unknown, Code>;
  /**
   * `true`, which compiles only when the schema state decodes to exactly the protocol's state view (state-check.ts):
   * a field added to one and not the other is a compile error in the game's room.
   */
  protected abstract readonly stateMatchesView: StateMatchesView<S, View>;
  /** The schema of the options a client gives to create or join the room. */
  protected abstract readonly joinOptions: z.ZodType<JoinOptions>;

  protected roster!: SeatRoster;
  protected timings!: TableTimings;
  protected match: MatchInPlay<Options, State, Action> | null = null;
  /** True when a full table refuses a joining player; false when it makes them a spectator. */
  protected refuseWhenFull = true;

  /** The one timer of the match: a turn clock, a bot's pause, or the dealer's pace. */
  private readonly matchTimer = new RoomTimer(this);
  /** The dealer's run of paced actions: when the next is due (a late timer catches up instead of drifting). */
  private dealerRun: { pace: string; dueAt: number } | null = null;
  private paused = false;
  private deadline = 0;
  /** The seat whose turn clock runs, and the number of its match (read when the clock runs out). */
  private clockSeat = -1;
  private clockMatchNumber = 0;
  /**
   * A bot's decision being made elsewhere (its answer is a promise), and the position it is for: the table waits for
   * it and asks nothing more. A change of seats cancels it (the answer is then dropped).
   */
  private thinking: { state: State } | null = null;
  /**
   * Bots' volunteered actions being decided elsewhere (their answers are promises), by seat, each with the state it
   * was asked in. A seat is not asked again until its answer has come. Made at the first (most games have none).
   */
  private volunteering: Map<number, State> | undefined;
  /**
   * Set once the room is closing (every connection, or its disposal has begun): the clients going away are told
   * nothing more, and nobody plays on.
   */
  private closing = false;
  /** For a ladder table: the period and deal its game is (docs/arena.md, "Solo ladders"), which its record names. */
  protected ladder: LadderTag | null = null;
  /** Where finished games go (the server's record writer), if the server keeps records. */
  private recordSink: RecordSink | null = null;
  /** The places promised to seat reservations whose clients have not connected yet. */
  private readonly promised = new PromisedPlaces();
  /** Set when the server shuts down: the table closes as soon as no game is under way. */
  private draining = false;
  /** The digest each sampled connection was last sent (see checkStateOf). */
  private checkedDigests: WeakMap<Client, string> | undefined; // made at the first check: state checks are off unless asked for
  /** Whether the views changed since they were last written into the schema (see showChanges). */
  private viewChanged = true;
  /** A listing update is queued (updateListing). */
  private listingDue = false;
  /**
   * The seal of the deal in play (or the last one dealt): its seed, its secret salt and the commitment every client
   * sees from the deal's start (commitment.ts). Null before the first deal and for a deal drawn from no seed.
   */
  private seal: { readonly deal: number; readonly match: number; readonly sealed: DealSeal } | null = null;
  /** The last finished deal's seal, revealed to every client (seed and salt) once its deal was over. */
  private revealedSeal: DealSeal | null = null;

  constructor() {
    super();
    // Before the game's room makes its state (its own fields come after this constructor).
    sizeStateValues();
  }

  // ----------------------------------------------------------------------------------------------------------
  // What a game defines

  /**
   * What the table itself shows, in the game's words, the same for every viewer: who holds each seat and whether
   * they are connected, the turn's deadline, the spectators, and what the room keeps across its matches.
   */
  protected abstract tableView(): Plain;
  /** The game's position as a viewer sees it before the table's first match. */
  protected abstract viewBeforeMatch(viewer: Viewer): Plain;
  /** Where a joining client goes. */
  protected abstract seatRequest(options: JoinOptions): SeatRequest;
  /** The name a person gets in a seat. */
  protected abstract personName(options: JoinOptions, seat: number): string;
  /** What GET /rooms shows of the table (nothing hidden). */
  protected abstract listing(): Record<string, unknown>;

  /** The schema object whose @view fields a seat's person alone sees (their hand), if any. */
  protected seatView(_seat: number): Schema | undefined {
    return undefined;
  }

  /** An engine event as it goes on the wire; the table adds what only it knows (who moved, the clock). */
  protected wire(event: Event, _made: Made): unknown {
    return event.payload;
  }

  /** The action a bot seat plays (and the clock plays for a silent person): the engine's bot unless the game has its own. */
  protected decide(state: State, seat: number): Action | undefined | Promise<Action | undefined> {
    return this.engine.botAction(state, seat);
  }

  /**
   * A bot's volunteered action (one a seat may make out of turn, as a declaration while the cards are dealt): the
   * engine's own unless the game decides it elsewhere (a promise, whose answer is made when it comes if it is still
   * legal and `volunteerStillFits`).
   */
  protected volunteer(state: State, seat: number): Action | undefined | Promise<Action | undefined> {
    return this.engine.volunteer?.call(this.engine, state, seat);
  }

  /** Whether a volunteer's answer asked for in `asked` may still be made `now` (it must be legal too): by default, only in the same state. */
  protected volunteerStillFits(asked: State, now: State, _seat: number): boolean {
    return asked === now;
  }

  /**
   * A ladder table's deal, for its player's join: the one the matchmaking route gave (server/arena/ladder.ts); the
   * table's record names it from now on. A ladder table reached any other way has none, and the join is refused.
   */
  protected takeLadderDeal(auth: unknown): LadderDeal {
    const deal = ladderDealOf(auth);
    if (deal === undefined) throw new ServerError(4403, "a ladder table is the server's: create it with { ladder: true } as an account or a bot");
    this.ladder = { period: deal.period, deal: deal.deal, endsAt: deal.endsAt };
    return deal;
  }

  /** Nobody watches a ladder table: the others of the period have its deal still to play. */
  protected refuseLadderSpectator(): never {
    throw new ServerError(4403, "a ladder table has no spectators: everyone in the period plays the same deals");
  }

  /** Called once a match is over (its result is the engine's). */
  protected onMatchOver(): void {}

  /** Called once a round of a match in rounds is over and its record kept. */
  protected onRoundOver(): void {}

  /** A person left for good: during a match their seat's bot plays on, before it the seat opens again. */
  protected onPersonLeft(seat: number): void {
    if (this.match === null) this.roster.open(seat);
    else this.roster.seatBot(seat, SEAT_BOT_NAME);
  }

  /** Called after each join, with where the client went, its options and what the matchmaking route found (JoinerIdentity). */
  protected onJoined(_place: number | "watch", _options: JoinOptions, _auth: unknown): void {}

  /** Called when every seat is taken (after each join); a game that starts then starts its match here. */
  protected onTableFull(): void {}

  // ----------------------------------------------------------------------------------------------------------
  // Setting up

  /**
   * The creator's options, checked (bad ones refuse the create with a sentence naming the field). The server's own
   * create options (`records`: where finished games go) are taken out first; a client cannot give them, since
   * functions do not cross the wire.
   */
  protected createOptions(rawOptions: unknown): JoinOptions {
    const { records, ...clientOptions } = (rawOptions ?? {}) as { records?: Partial<RecordSink> };
    this.recordSink = typeof records?.submit === "function" ? (records as RecordSink) : null;
    return parseRoomOptions(this.joinOptions, clientOptions, "create");
  }

  /** Call first in createTable. */
  protected openTable<Message extends MessageDefinition>(setUp: TableSetUp<Message>): void {
    this.roster = new SeatRoster(setUp.seats, setUp.maxSpectators);
    this.timings = setUp.timings;
    // Colyseus counts reservations against this; the kit's promises keep seats and spectators' places apart.
    this.maxClients = setUp.seats + setUp.maxSpectators;
    limitMessages(this);
    // Every change is sent as it is made (lifecycleStep, handleMessage, RoomTimer): the sweep is a backstop.
    this.patchRate = SWEEP_PATCH_MS;
    if (!screensOfClass.has(this.constructor)) screensOfClass.set(this.constructor, screenOfMessages(setUp.messages, (room, client) => (room as AnyTableRoom).checkStateOf(client)));
    shareStateHandshake(this);
    shareStateBuffers(this);
    clearViewFramesWithoutAllocating(this);
    keepListChangesInPlace();
    whenDisposalBegins(this, () => this.stopPlaying());
    tableMetrics().tableOpened(this);
    this.logLife("room_created", "room created", { seats: setUp.seats });
  }

  /** Registers a message that any client may send (validated and rate-limited by the kit). */
  protected onTableMessage<M extends MessageDefinition>(definition: M, handler: (client: Client, payload: PayloadOf<M>) => unknown): void {
    handleMessage(this, definition, handler);
  }

  /** Registers a seat's message: spectators are refused (NOT_A_PLAYER) before the handler runs. */
  protected onSeatMessage<M extends MessageDefinition>(definition: M, handler: (seat: number, payload: PayloadOf<M>) => unknown): void {
    handleMessage(this, definition, (client, payload) => handler(this.seatOfClient(client), payload));
  }

  /** Registers a message that is one engine action of the sender's seat; a refusal is answered with its code. */
  protected onActionMessage<M extends MessageDefinition>(definition: M, toAction: (payload: PayloadOf<M>, seat: number) => Action): void {
    this.onSeatMessage(definition, (seat, payload) => {
      const match = this.requireMatch(definition.name);
      this.act(match, seat, toAction(payload, seat), "person");
      this.advance();
    });
  }

  /** The refusal for an action when no match is under way; games word it their own way. */
  protected noMatch(_action: string): Rejection {
    return new Rejection("NO_GAME", "no game is under way");
  }

  protected requireMatch(action: string): MatchInPlay<Options, State, Action> {
    if (this.match === null) throw this.noMatch(action);
    return this.match;
  }

  protected seatOfClient(client: Client): number {
    const seat = this.roster.seatOf(client.sessionId);
    if (seat === undefined) throw new Rejection("NOT_A_PLAYER", "spectators cannot act; join with a seat to play");
    return seat;
  }

  // ----------------------------------------------------------------------------------------------------------
  // Joins, drops, returns and leaves

  /**
   * Runs in the HTTP matchmaking request, before the seat reservation: hands the reservation who asked (the
   * server's matchmaking route puts the peer's address in the context), which the kit's bounds count by.
   */
  static override async onAuth(_token: string, _options: unknown, context: AuthContext | undefined): Promise<JoinerIdentity> {
    const given = context as { identity?: SeatIdentity; ladderDeal?: LadderDeal } | undefined;
    return { address: context?.ip ?? null, identity: given?.identity ?? GUEST, ...(given?.ladderDeal === undefined ? {} : { ladderDeal: given.ladderDeal }) };
  }

  /**
   * Why a join with these options, from this address, would be refused now (a ServerError with a 4xxx code and a
   * sentence), or null. The server's matchmaking route asks before reserving, to tell the client why.
   */
  refusalFor(rawOptions: unknown, address: string | null): ServerError | null {
    const decided = this.decidePlace(rawOptions, address);
    return decided instanceof ServerError ? decided : null;
  }

  /** The place a join with these options, from this address, would get now, or the refusal saying why not. */
  private decidePlace(rawOptions: unknown, address: string | null): Place | ServerError {
    try {
      if (pendingJoins.isFull(address)) throw new ServerError(4429, "too many joins from your address are waiting for their connections");
      return this.placeFor(parseRoomOptions(this.joinOptions, rawOptions, "join"));
    } catch (error) {
      if (error instanceof ServerError) return error;
      throw error;
    }
  }

  /**
   * A reservation's place, decided and held now (see reservations.ts): the seat or spectator's place it promises
   * is nobody else's until the client connects or the reservation expires. Returns how to take the promise back,
   * or null to refuse the reservation.
   */
  private promisePlace(sessionId: string, rawOptions: unknown, address: string | null): (() => void) | null {
    const place = this.decidePlace(rawOptions, address);
    if (place instanceof ServerError) return null;
    // A little longer than Colyseus's own hold, so the client that connects at the last moment finds its place.
    const holdMs = this.seatReservationTimeout * 1000 + 1000;
    this.promised.promise(sessionId, place, address, holdMs, () => this.updateListing());
    if (place !== "watch") this.updateListing();
    return () => {
      this.promised.release(sessionId);
      this.updateListing();
    };
  }

  // Colyseus's lifecycle steps, each run through lifecycleStep: what it changed is sent when it returns, and what
  // it throws is reported. Here, in the class, once for every room: Colyseus's own catching (onUncaughtException)
  // would wrap each room's methods anew (rooms/kit/room-kit.ts, reportFailure).

  override onJoin(client: Client, rawOptions: unknown): void {
    lifecycleStep(this, "onJoin", () => this.join(client, rawOptions));
  }

  override onDrop(client: Client): Promise<void> {
    return lifecycleStep(this, "onDrop", () => this.drop(client));
  }

  override onReconnect(client: Client): void {
    lifecycleStep(this, "onReconnect", () => this.reconnected(client));
  }

  override onLeave(client: Client): void {
    lifecycleStep(this, "onLeave", () => this.left(client));
  }

  /** After the room's disposal: nothing of it may go on (a failure here is reported, and the disposal goes on). */
  override onDispose(): void {
    try {
      this.disposed();
    } catch (error) {
      reportFailure(this, "onDispose", error);
    }
  }

  /** The room is created with these options (the client's, and the server's own: createOptions). */
  override onCreate(rawOptions: unknown): void {
    try {
      this.createTable(rawOptions);
    } catch (error) {
      reportFailure(this, "onCreate", error);
      throw error;
    }
  }

  /** Sets the room up (its onCreate): checks the options (createOptions), then opens the table (openTable). */
  protected abstract createTable(rawOptions: unknown): void;

  private join(client: Client, rawOptions: unknown): void {
    const options = parseRoomOptions(this.joinOptions, rawOptions, "join");
    // The place promised at the reservation; a join reserved some other way (none promised) is placed now.
    const place = this.promised.take(client.sessionId) ?? this.placeFor(options);
    if (place === "watch") this.roster.addSpectator(client.sessionId);
    else this.seatPerson(client, place, this.personName(options, place));
    this.seatsChanged();
    this.onJoined(place, options, client.auth);
    if (this.roster.everySeatTaken()) this.onTableFull();
  }

  private async drop(client: Client): Promise<void> {
    const seat = this.roster.seatOf(client.sessionId);
    if (seat === undefined) return;
    // The turn clock keeps running while they are away.
    this.roster.setConnected(seat, false);
    this.seatsChanged();
    // A reconnection while this connection is still open (another program took the seat over with the token)
    // comes here too; the connection that lost the seat is told so once the newer one holds it.
    const connection = client.ref;
    // The window ends with the player back, or rejects when it runs out (or the room closes); onLeave follows.
    const returned = await this.allowReconnection(client, this.timings.reconnectSeconds).catch(() => undefined);
    if (returned && returned.ref !== connection) closeIfOpen(connection, SEAT_TAKEN_OVER_CLOSE_CODE, "another connection took this seat over");
    // A window that runs out is the normal end of a seat whose player went away: worth a line, not an error.
    if (returned === undefined && !this.closing) {
      roomLog(this).info({ event: "seat_given_up", seat }, `the seat's player did not come back within ${this.timings.reconnectSeconds} s; the seat is given up`);
    }
  }

  private reconnected(client: Client): void {
    const seat = this.roster.seatOf(client.sessionId);
    if (seat === undefined) return;
    this.roster.setConnected(seat, true);
    this.seatsChanged();
  }

  private left(client: Client): void {
    forgetClient(this, client);
    // A patch sent while every connection closes reaches clients already tearing their state down.
    if (this.closing) return;
    if (this.roster.removeSpectator(client.sessionId)) return this.seatsChanged();
    const seat = this.roster.seatOf(client.sessionId);
    if (seat === undefined) return;
    this.onPersonLeft(seat);
    if (this.forfeitToKeep(seat)) this.keepOpenWhenEmpty(true);
    this.thinking = null; // a decision made for the person's clock is not the bot's to play now
    this.seatsChanged();
    this.advance();
  }

  /**
   * The room's disposal has begun: Colyseus removes its listing (a round trip to Redis in a cluster) before it calls
   * onDispose, and the bots' decisions and timers under way would play on meanwhile, for nobody.
   */
  private stopPlaying(): void {
    this.closing = true;
    clearRoomTimers(this); // the kit's turn clock and a game's own timers (Tractor's start, Fool's deal)
    this.thinking = null;
    this.volunteering?.clear();
  }

  /**
   * Whether the seat's stand-in must finish what its person left even with nobody left in the room, for its record
   * (their forfeit): the room would otherwise close with its last client, and leaving would escape the loss. A
   * guest's forfeit rates nobody, and without records nothing is kept: such a room closes as before.
   */
  private forfeitToKeep(seat: number): boolean {
    const held = this.roster.seats[seat];
    const rated = held?.left === true && held.identity !== undefined && held.identity.kind !== "guest";
    const inPlay = this.match !== null && this.engine.waiting(this.match.state).for !== "nobody";
    return rated && inPlay && this.recordSink !== null;
  }

  override disconnect(closeCode?: number): Promise<unknown> {
    this.closing = true;
    return super.disconnect(closeCode);
  }

  /**
   * The server is shutting down (Colyseus has locked the room): a table without a game under way closes now, one
   * with a game closes as soon as it is over and recorded. The server closes what is still playing after its drain
   * timeout (server/app.ts).
   */
  override onBeforeShutdown(): void {
    this.draining = true;
    if (!this.gameUnderWay()) this.closeForShutdown();
  }

  protected gameUnderWay(): boolean {
    return this.match !== null && this.engine.waiting(this.match.state).for !== "nobody";
  }

  private closeForShutdown(): void {
    if (this.closing) return;
    roomLog(this).info({ event: "table_closed_for_shutdown" }, "the server is shutting down and no game is under way: the table closes");
    this.disconnect(SERVER_SHUTDOWN_CLOSE_CODE).catch(() => undefined);
  }

  private disposed(): void {
    this.promised.clear();
    this.stopPlaying(); // again, should anything have set a timer since the disposal began
    this.deadline = 0;
    this.match = null; // a bot's decision still being thought out is dropped
    tableMetrics().tableClosed(this);
    this.logLife("room_disposed", "room disposed");
  }

  /**
   * A step in the room's life (created, a game finished, disposed): a debug line, since a busy server opens
   * hundreds of rooms a second; LOG_LEVEL=debug shows them. Nothing is built when the level is off.
   */
  private logLife(event: string, message: string, fields: Record<string, number> = {}): void {
    if (log.isLevelEnabled("debug")) roomLog(this).debug({ event, ...fields }, message);
  }

  /** A person takes a seat (an open one or a bot's), and their view shows them the seat's hidden fields. */
  /**
   * Seats a person. One who joined as an account or a bot (docs/arena.md) sits under that identity's name,
   * whatever name the join asked for; a guest sits under the name given (the matchmaking route has refused a
   * guest's join under a registered name).
   */
  protected seatPerson(client: Client, seat: number, name: string): void {
    const identity = identityOf(client.auth);
    this.roster.seatPerson(seat, client.sessionId, identity.kind === "guest" ? name : identity.name, identity);
    // A table joined before its first patch has not written its schema yet: the seat's object is made now.
    if (this.seatView(seat) === undefined) this.writeViews();
    const seatState = this.seatView(seat);
    if (seatState !== undefined) {
      const view = stateViewClearedWhenChanged();
      view.add(seatState);
      client.view = view;
    }
    // A bot's pending move (or decision under way) is dropped: the person now has the turn clock.
    this.thinking = null;
    this.advance();
  }

  /** What `viewer` sees of the game's position now: the engine's view of the match, or the view before one. */
  private positionView(viewer: Viewer): Plain {
    return this.match === null ? this.viewBeforeMatch(viewer) : this.engine.view(this.match.state, viewer);
  }

  /**
   * The state view `viewer` must hold (docs/protocol.md): the engine's view of the position with the table's own
   * fields laid over it, the game's and the kit's (the deals' `seal`, the same for everyone). Every client's decoded
   * state equals this for its viewer (the differential test proves it).
   */
  stateView(viewer: Viewer): View {
    // One merge, the kit's `seal` beside the table's fields: laying it over the merged view would copy that again.
    return mergeViews(this.positionView(viewer), { ...this.tableView(), seal: this.sealView() }) as unknown as View;
  }

  /** The viewer a client is: its seat, or a spectator. */
  viewerOf(sessionId: string): Viewer {
    return this.roster.seatOf(sessionId) ?? SPECTATOR;
  }

  /**
   * The view changed (an action, a seat, the clock): the schema shows it with the next patch. The views are written
   * once a patch, just before it is encoded, never once an action: a list changed twice between two patches is
   * not always decoded right by @colyseus/schema 5.0.34 (docs/architecture.md, "One truth per viewer"), and a burst
   * of bot actions costs one write instead of one per action.
   */
  protected showChanges(): void {
    this.viewChanged = true;
  }

  /** Colyseus's hook before every patch (after each message, timer and join, and the slow sweep). */
  override onBeforePatch(): void {
    this.writeViews();
  }

  /** Every patch, then the state checks of the sampled clients (off unless the server turns them on). */
  override broadcastPatch(): boolean {
    const sent = super.broadcastPatch();
    if (stateCheckEvery > 0) for (const client of this.clients) this.checkStateOf(client);
    return sent;
  }

  /**
   * A sampled client whose view changed since its last check (or that has just joined, its full state sent) is sent
   * the digest of the view it must hold now. A client still joining is not: the state it will be sent is not made yet.
   */
  private checkStateOf(client: Client): void {
    if (stateCheckEvery === 0 || client.state !== ClientState.JOINED || !sampledForStateChecks(client.sessionId)) return;
    const digest = viewDigest(this.stateView(this.viewerOf(client.sessionId)));
    const checked = (this.checkedDigests ??= new WeakMap());
    if (checked.get(client) === digest) return;
    checked.set(client, digest);
    client.send(STATE_CHECK_MESSAGE, { digest } satisfies StateCheck);
  }

  /**
   * Writes the state views into the schema: the public fields from the spectator's view, then the hidden fields of
   * each seat a person holds (the only seats with a StateView) from that seat's own view.
   */
  private writeViews(): void {
    if (!this.viewChanged) return;
    this.viewChanged = false;
    writeView(this.state, this.stateView(SPECTATOR), "public");
    this.roster.seats.forEach((held, seat) => {
      if (held.holder === "person" && this.seatView(seat) !== undefined) writeView(this.state, this.positionView(seat), "hidden");
    });
  }

  /** What a spectator sees now: what a room reads of its own table (its listing, its checks), never the schema. */
  protected shownView(): View {
    return this.stateView(SPECTATOR);
  }

  /** After any change of seats (or of spectators): the state and the listing show it. */
  protected seatsChanged(): void {
    this.showChanges();
    this.updateListing();
  }

  /**
   * The listing follows the table: once for all the changes of one callback (a join changes it two or three times:
   * its reservation, its seat, the game it starts), made when the callback's own code is done, before any other
   * request is served. Each listing reads the whole table (a game's listing reads its spectator's view).
   */
  protected updateListing(): void {
    if (this.listingDue) return;
    this.listingDue = true;
    queueMicrotask(() => this.publishListing());
  }

  private publishListing(): void {
    this.listingDue = false;
    try {
      // The listing is informational: a failed persist (e.g. while the room is disposing) must not surface.
      void Promise.resolve(this.setMetadata({ ...this.listing(), openSeats: this.openSeats(), spectators: this.roster.spectators })).catch(() => undefined);
    } catch (error) {
      reportFailure(this, "updateListing", error);
    }
  }

  /** Seats a joining player could take now: open, and not promised to a reservation. */
  protected openSeats(): number {
    return this.roster.seats.filter((held, seat) => held.holder === "open" && !this.promised.isSeatPromised(seat)).length;
  }

  private placeFor(options: JoinOptions): Place {
    const request = this.seatRequest(options);
    if (!request.watch) {
      const seat = this.seatFor(request.seat);
      if (seat !== undefined) return seat;
      if (this.refuseWhenFull) throw new ServerError(4403, this.noSeatReason(request.seat));
    }
    const promised = this.promised.spectators;
    if (!this.roster.hasRoomForSpectator(promised)) throw new ServerError(4403, "no room for more spectators");
    if (promised >= PENDING_SPECTATORS_PER_ROOM) throw new ServerError(4429, "too many spectators are joining this table at once; try again in a moment");
    return "watch";
  }

  /** The seat asked for if a person may take it (open, or a bot's) and it is not promised, else the first such open seat. */
  private seatFor(asked: number | undefined): number | undefined {
    const promised = (seat: number) => this.promised.isSeatPromised(seat);
    if (asked === undefined) return this.roster.firstOpen(promised);
    return this.roster.seats[asked]?.holder === "person" || promised(asked) ? undefined : asked;
  }

  protected noSeatReason(asked: number | undefined): string {
    return `${asked === undefined ? "every seat is taken" : `seat ${asked} is taken`}; join with { spectate: true } to watch`;
  }

  // ----------------------------------------------------------------------------------------------------------
  // The match

  /** Starts a match (a fresh seed unless one is given): the state shows it and its start's events go out. */
  protected startMatch(options: Options, seed: number = freshDealSeed()): void {
    const started = this.engine.start(options, seed);
    this.match = { number: (this.match?.number ?? 0) + 1, options, seed, state: started.state, actions: new RecordedSteps(), actionCount: 0, start: started.events, startedAt: Date.now() };
    this.dealerRun = null;
    this.sealNewDeal(this.match);
    this.commit(started, { actor: DEALER, by: "dealer" });
    this.advance();
  }

  /** The match's current deadline (ms since the epoch) for a person's turn, or 0. */
  protected get turnDeadline(): number {
    return this.deadline;
  }

  /**
   * Applies one action; a refusal throws a Rejection with the engine's code (nothing changed). The caller then
   * calls advance() to let the bots and the clocks go on.
   */
  protected act(match: MatchInPlay<Options, State, Action>, actor: Actor, action: Action, by: Mover): void {
    const outcome = this.engine.apply(match.state, actor, action);
    if (!outcome.ok) throw new Rejection(outcome.code, outcome.reason);
    match.actionCount++;
    // Without records a match's actions would be kept for nothing: 2.6 KB a table by a game's end.
    if (this.recordSink !== null) match.actions.push({ actor, action, at: Date.now(), by });
    tableMetrics().actionTaken(this.roomName, by);
    this.commit(outcome, { actor, by });
  }

  /**
   * Takes an accepted step: a person who must act next gets a new deadline, the state shows it all, then the
   * step's events go out (after the state change, so an event never names a state its receiver cannot see yet).
   */
  private commit(applied: Applied<State, Event>, made: Made): void {
    const match = this.match!;
    match.state = applied.state;
    this.sealNewDeal(match);
    const waiting = this.engine.waiting(applied.state);
    this.deadline = waiting.for === "seat" && !this.roster.isBot(waiting.seat) ? Date.now() + this.timings.turnTimeMs : 0;
    this.showChanges();
    for (const event of applied.events) {
      this.sendEvent(event, made);
      const round = this.engine.roundEnd?.(event);
      if (round === undefined) continue;
      this.revealSeal();
      this.keepRecord(match, "round", round.result, round.round);
      this.logLife("round_finished", "round finished", { match: match.number, round: round.round });
      this.onRoundOver();
    }
    if (waiting.for === "nobody") {
      this.matchTimer.clear();
      this.updateListing();
      this.revealSeal();
      this.keepRecord(match, this.engine.roundEnd === undefined ? "game" : "match", this.engine.result(match.state));
      this.logLife("game_finished", "game finished", { match: match.number, actions: match.actionCount });
      this.onMatchOver();
      // No next game on a server going away. The close waits for this callback to end, so that the reply to the
      // last move and the final state go out first.
      if (this.draining) setImmediate(() => this.closeForShutdown());
    }
  }

  /**
   * A deal has started (the match's first, or a new round's): it gets a fresh secret salt, and every client sees
   * the commitment to its seed from now on. Its seed and salt stay here until the deal is over.
   */
  private sealNewDeal(match: MatchInPlay<Options, State, Action>): void {
    const deal = dealInPlay(this.engine, match.state, match.seed);
    if (deal === undefined) {
      this.seal = null;
      return;
    }
    if (this.seal !== null && this.seal.match === match.number && this.seal.deal === deal.number) return;
    this.seal = { deal: deal.number, match: match.number, sealed: sealDeal(deal.seed) };
  }

  /** The deal in play is over: its seed and salt go to every client with the next patch. */
  private revealSeal(): void {
    if (this.seal !== null) this.revealedSeal = this.seal.sealed;
  }

  /** What every client sees of the deals: the commitment of the deal in play and the last finished deal's reveal. */
  private sealView(): DealSealView {
    const shown = this.revealedSeal;
    const revealed = shown === null ? NO_SEAL : { revealedCommitment: shown.commitment, revealedSeed: shown.seed, revealedSalt: shown.salt };
    return { ...NO_SEAL, ...revealed, commitment: this.seal?.sealed.commitment ?? "" };
  }

  /** Hands a finished game (or round) to the server's records; nothing of a game in progress is ever kept. */
  private keepRecord(match: MatchInPlay<Options, State, Action>, part: RecordPart, result: unknown, round?: number): void {
    if (this.recordSink === null) return;
    const seats = this.roster.seats.map((_, seat) => this.recordedSeat(seat));
    const { number, options, seed, start, startedAt } = match;
    // The deal just over: its seal has been revealed (the record keeps what every client was shown).
    const sealed = this.seal === null ? {} : { commitment: this.seal.sealed.commitment, salt: this.seal.sealed.salt };
    const ladder = this.ladder === null ? {} : { ladder: this.ladder };
    const finished: FinishedGame = { game: this.roomName, roomId: this.roomId, part, match: number, round, options, seed, ...sealed, seats, start, actions: match.actions.read(this.stepReplay(match), part !== "round"), result, startedAt, endedAt: Date.now(), ...ladder };
    this.recordSink.submit(finished);
    // The game (or round) a person left was the one in play: it is recorded, and an empty room may close now.
    this.keepOpenWhenEmpty(false);
  }

  /**
   * How a record gets its steps' events (rooms/kit/recorded-steps.ts): the steps played again from where the last
   * record left off. The engine is pure, so the replay ends where the table is; if it does not (an engine that is not
   * pure, a bug), the record still goes to the records with the events the replay gave, and the log says so: the
   * record replays as it is, and the next round's replay starts from where the table is.
   */
  private stepReplay(match: MatchInPlay<Options, State, Action>): StepReplay<TableAction<Action>, State> {
    return (from, steps) => {
      const start = from ?? this.engine.start(match.options, match.seed).state;
      try {
        const replayed = replayActions(this.engine, start, steps);
        if (!isDeepStrictEqual(replayed.state, match.state)) this.logReplayDiverged(match, "its replay ends elsewhere");
        return { events: replayed.events, state: match.state };
      } catch {
        // The engine's reason is not logged: it may name a card of a hand still hidden (a Tractor round's record).
        this.logReplayDiverged(match, "the engine refused one of its own recorded actions");
        return { events: [], state: match.state };
      }
    };
  }

  private logReplayDiverged(match: MatchInPlay<Options, State, Action>, why: string): void {
    roomLog(this).error({ event: "record_replay_diverged", match: match.number, why }, "a record's steps replayed differently from the table's game: its events are the replay's");
  }

  /** While a stand-in plays on for a person who left (forfeitToKeep), the room stays open with nobody in it. */
  private keepOpenWhenEmpty(kept: boolean): void {
    this.autoDispose = !kept; // Colyseus closes an empty room a second after this is set back
  }

  /** How a record names who held a seat at the end: its person, its bot, or nobody. */
  protected recordedSeat(seat: number): RecordedSeat {
    const { holder, name, identity, left } = this.roster.seats[seat];
    if (holder === "person") return { seat, name, kind: "person", identity: identity ?? GUEST };
    if (left) return { seat, name, kind: "bot", identity: identity ?? GUEST, left };
    return { seat, name, kind: holder === "bot" ? "bot" : "open" };
  }

  private sendEvent(event: Event, made: Made): void {
    const payload = this.wire(event, made);
    if (event.to === undefined) return this.broadcast(event.name, payload);
    const sessionId = this.roster.seats[event.to]?.sessionId;
    if (sessionId) this.clients.getById(sessionId)?.send(event.name, payload);
  }

  // ----------------------------------------------------------------------------------------------------------
  // Time: the turn clock, the bots, the dealer's pace

  /** Stops the dealer (a person controls the pace); seats' clocks still run. */
  protected pauseDealer(paused: boolean): void {
    this.paused = paused;
    this.dealerRun = null;
    this.advance();
  }

  protected get dealerPaused(): boolean {
    return this.paused;
  }

  /** Makes the dealer's due action now (a step while paused); false when the match does not wait for the dealer. */
  protected dealerStep(): boolean {
    const match = this.match;
    const waiting = match && this.engine.waiting(match.state);
    if (!match || waiting?.for !== "dealer") return false;
    this.actForDealer(match, waiting.action);
    this.advance();
    return true;
  }

  /** Changes a pace; the next paced action comes that long from now. */
  protected setPace(pace: string, ms: number): void {
    this.timings.paces[pace] = ms;
    this.dealerRun = null;
    this.advance();
  }

  /**
   * After every change: bots volunteer what they may, bots whose turn it is move (at once, or after their pause),
   * and whoever acts next gets the clock: a person's turn clock, or the dealer's pace.
   */
  protected advance(): void {
    this.matchTimer.clear();
    const match = this.match;
    if (match === null || this.closing) return;
    for (let actions = 0; actions < ACTIONS_PER_BURST; actions++) {
      if (this.match !== match || this.thinking?.state === match.state) return;
      this.letBotsVolunteer(match);
      const waiting = this.engine.waiting(match.state);
      if (waiting.for === "nobody") return;
      if (waiting.for === "dealer") {
        if (this.paused || !this.dealerActedWhenDue(match, waiting.action, waiting.pace)) return;
        continue;
      }
      const seat = waiting.seat;
      if (!this.roster.isBot(seat)) return this.startTurnClock(match, seat);
      if (this.deadline !== 0) {
        this.deadline = 0; // a person's seat has just gone to its bot
        this.showChanges();
      }
      if (this.timings.botDelayMs > 0) return this.after(this.timings.botDelayMs, () => this.playForSeat(match, seat, "bot"));
      if (!this.playForSeat(match, seat, "bot")) return; // the bot thinks elsewhere; its answer comes later
    }
    this.after(0, () => undefined);
  }

  /** Runs `action` after `delayMs` on the match's timer, then lets the match go on. */
  private after(delayMs: number, action: () => void): void {
    this.matchTimer.start(delayMs, () => {
      action();
      this.advance();
    });
  }

  private letBotsVolunteer(match: MatchInPlay<Options, State, Action>): void {
    if (this.engine.volunteer === undefined) return;
    // The engines' volunteers stop by themselves (a declaration must be stronger than the last); the bound is a guard.
    for (let acted = true, rounds = 0; acted && rounds < ACTIONS_PER_BURST; rounds++) {
      acted = false;
      this.roster.seats.forEach((held, seat) => {
        if (held.holder !== "bot" || this.match !== match || this.volunteering?.has(seat)) return;
        const action = this.safely(() => this.volunteer(match.state, seat));
        if (action instanceof Promise) return this.awaitVolunteer(match, seat, action);
        if (action === undefined || !this.engine.apply(match.state, seat, action).ok) return;
        this.act(match, seat, action, "bot");
        acted = true;
      });
    }
  }

  /**
   * A volunteer decided elsewhere: its answer is made when it comes if the match is the same, the seat still a bot's,
   * the game says it still fits and the engine accepts it; else it is dropped (a closed room has no match). The
   * bots are asked again either way: the seat's options may have changed while it thought.
   */
  private awaitVolunteer(match: MatchInPlay<Options, State, Action>, seat: number, decided: Promise<Action | undefined>): void {
    const asked = match.state;
    (this.volunteering ??= new Map()).set(seat, asked);
    decided
      .catch(() => undefined)
      .then((action) => {
        if (this.volunteering?.get(seat) !== asked) return;
        this.volunteering.delete(seat);
        if (this.match !== match) return;
        const now = match.state;
        const fits = action !== undefined && this.roster.seats[seat]?.holder === "bot" && this.volunteerStillFits(asked, now, seat) && this.engine.apply(now, seat, action).ok;
        if (fits) this.act(match, seat, action, "bot");
        this.letBotsVolunteer(match);
        if (match.state === now) return;
        this.advance();
        this.broadcastPatch();
      })
      .catch((error: unknown) => reportFailure(this, "setTimeout", error));
  }

  /**
   * The dealer's paced action: made now if due (true), else its timer is set (false). A run of actions at one
   * pace is due at fixed intervals from the first, so a timer that fires late catches up instead of drifting.
   */
  private dealerActedWhenDue(match: MatchInPlay<Options, State, Action>, action: Action, pace: string | undefined): boolean {
    if (pace === undefined) {
      this.dealerRun = null;
      this.actForDealer(match, action);
      return true;
    }
    const paceMs = this.timings.paces[pace] ?? 0;
    const now = performance.now();
    if (this.dealerRun?.pace !== pace) this.dealerRun = { pace, dueAt: now + paceMs };
    const run = this.dealerRun;
    if (run.dueAt > now) {
      this.after(run.dueAt - now, () => undefined);
      return false;
    }
    run.dueAt += paceMs;
    this.actForDealer(match, action);
    const next = this.engine.waiting(match.state);
    if (next.for !== "dealer" || next.pace !== pace) this.dealerRun = null;
    return true;
  }

  private actForDealer(match: MatchInPlay<Options, State, Action>, due: Action): void {
    this.act(match, DEALER, this.dealerActionFor(due), "dealer");
  }

  /**
   * The action the dealer makes when the engine says `due` is due: `due` itself, unless the game adds what only the
   * table may decide (Tractor: a fresh seed for the next round). The record keeps the action as made.
   */
  protected dealerActionFor(due: Action): Action {
    return due;
  }

  private startTurnClock(match: MatchInPlay<Options, State, Action>, seat: number): void {
    const now = Date.now();
    if (this.deadline <= now) {
      this.deadline = now + this.timings.turnTimeMs;
      this.showChanges();
    }
    // The clock's seat and match are kept in fields, not in a closure made at every turn: the timeout lives as
    // long as the turn, long enough to be promoted to the old generation (BENCHMARKS.md, "a list's change records").
    this.clockSeat = seat;
    this.clockMatchNumber = match.number;
    this.matchTimer.start(this.deadline - now, this.turnClockRanOut, this);
  }

  /** A person's turn clock ran out: the engine says who acts (the seat's bot, or the dealer), then the match goes on. */
  private turnClockRanOut(): void {
    const match = this.match;
    const seat = this.clockSeat;
    if (match === null || match.number !== this.clockMatchNumber) return;
    this.deadline = 0;
    this.showChanges();
    const timedOut = this.engine.timedOut(match.state, seat);
    if (timedOut.actor === seat) this.playForSeat(match, seat, "clock");
    else this.act(match, timedOut.actor, timedOut.action, "dealer");
    this.advance();
  }

  /**
   * The seat's bot acts (its own seat's, or for a person whose clock ran out). A bot that thinks elsewhere answers
   * later: the answer is dropped if the match has moved on meanwhile. Returns true when the action was made now.
   */
  private playForSeat(match: MatchInPlay<Options, State, Action>, seat: number, by: Mover): boolean {
    const state = match.state;
    const decided = this.safely(() => this.decide(state, seat));
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
        if (this.match !== match || match.state !== state) return;
        this.actForSeat(match, state, seat, action, by);
        this.advance();
        this.broadcastPatch();
      })
      .catch((error: unknown) => reportFailure(this, "setTimeout", error));
    return false;
  }

  /** The bot's action, or, should a bot ever choose what the engine refuses, the engine's own first legal action. */
  private actForSeat(match: MatchInPlay<Options, State, Action>, state: State, seat: number, action: Action | undefined, by: Mover): void {
    if (this.match !== match || match.state !== state) return;
    if (action !== undefined && this.engine.apply(state, seat, action).ok) return this.act(match, seat, action, by);
    const fallback = this.engine.legalActions(state, seat, 1).actions[0];
    if (fallback !== undefined) this.act(match, seat, fallback, by);
  }

  /** A bot that throws must not stop the table (nor reach a log: its message may name hidden cards). */
  private safely<T>(decide: () => T): T | undefined {
    try {
      return decide();
    } catch {
      return undefined;
    }
  }

  // The rooms' frame screen and seat guard: put in place once, on the class, not as closures on each room.
  static {
    screenFrames(this.prototype, (room) => screensOfClass.get(room.constructor) ?? NO_MESSAGES);
    guardSeatReservations(this.prototype, (room, sessionId, options, authData) => (room as AnyTableRoom).promisePlace(sessionId, options, addressOf(authData)));
  }
}

/** Closes a client's socket (the transport's WebSocket) with `code` unless it has closed already. */
function closeIfOpen(connection: unknown, code: number, reason: string): void {
  const socket = connection as { readyState?: number; close?: (code: number, reason: string) => void };
  const OPEN = 1;
  if (socket.readyState === OPEN) socket.close?.(code, reason);
}
