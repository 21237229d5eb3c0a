/**
 * The table kit: the Colyseus room every game's room is built from, composed of parts with one job each
 * (rooms/kit/table/): where joins go (seating) and who comes and goes (arrivals), the match and its clocks
 * (match-loop), the bots (bot-turns), the deals' seals (deal-seals), the records (table-records), one truth per
 * viewer (view-sync) and the listing. A game's room brings its pure match engine (rooms/kit/engine.ts) and the
 * hooks below (table/hooks.ts says what each is for); every message is validated and rate-limited and every
 * handler and timer isolated, so nothing a client sends can take the process down.
 */
import { Room, ServerError, type AuthContext, type Client } from "@colyseus/core";
import type { Schema, StateView } from "@colyseus/schema";
import type { z } from "zod";
import type { SealedView } from "./commitment";
import {
  clearViewFramesWithoutAllocating,
  keepListChangesInPlace,
  setStateBufferSize,
  sizeStateValues,
  stateViewClearedWhenChanged,
  whenDisposalBegins,
} from "./colyseus-internals";
import { freshDealSeed } from "./deal-seal";
import {
  SPECTATOR,
  type Actor,
  type Applied,
  type GameEvent,
  type MatchEngine,
  type Viewer,
  type Waiting,
} from "./engine";
import { screenFrames, type FrameScreen } from "./frames";
import { log, roomLog } from "./log";
import { tableMetrics } from "./metrics";
import { SERVER_SHUTDOWN_CLOSE_CODE, type MessageDefinition, type PayloadOf } from "./protocol";
import {
  GUEST,
  type LadderDeal,
  type Mover,
  type RecordedSeat,
  type RecordPart,
  type RecordSink,
  type SeatIdentity,
} from "./record";
import { addressOf, guardSeatReservations, ladderDealOf, type JoinerIdentity } from "./reservations";
import {
  clearRoomTimers,
  handleMessage,
  lifecycleStep,
  limitMessages,
  parseRoomOptions,
  Rejection,
  reportFailure,
  RoomTimer,
  screenOfMessages,
  shareStateBuffers,
  shareStateHandshake,
  SWEEP_PATCH_MS,
} from "./room-kit";
import { SEAT_BOT_NAME, SeatRoster } from "./seats";
import type { StateMatchesView } from "./state-check";
import { Arrivals } from "./table/arrivals";
import { BotTurns } from "./table/bot-turns";
import { DealSeals } from "./table/deal-seals";
import { Listing } from "./table/listing";
import { MatchLoop } from "./table/match-loop";
import { Seating } from "./table/seating";
import { seatAsRecorded, TableRecords } from "./table/table-records";
import type { Made, MatchInPlay, SeatRequest, TableSetUp, TableTimings } from "./table/types";
import { ViewSync } from "./table/view-sync";
import type { Plain } from "./views";

export type { Mover } from "./record";
export type { Made, MatchInPlay, SeatRequest, TableAction, TableSetUp, TableTimings } from "./table/types";
export { checkStatesOfOneClientIn } from "./table/view-sync";

/**
 * Every room's state serializer makes two buffers of `Encoder.BUFFER_SIZE` bytes (a patch's and a full state's),
 * 16 KB each by default. The kit hands each room the process's shared pair at once (shareStateBuffers), so a
 * room's own are dropped as soon as made; the size still sets how much free room the encoder wants past the shared
 * part of a patch before it writes a seat's view there. The largest full state of any game is about 1 KB (a Tractor
 * round late in play), so 4 KB leaves room to spare.
 */
setStateBufferSize(4 * 1024);

/** A table of any game, as the machinery its class shares sees it. */
type AnyTableRoom = TableRoom<Schema & { spectators: number }, unknown, unknown, unknown, unknown, GameEvent, string>;

/** Each table class's frame screen (rooms/kit/frames.ts): every room of a class understands its game's messages. */
const screensOfClass = new WeakMap<object, FrameScreen>();
/** The screen of a room that has not opened its table (none is ever sent a frame): it understands nothing. */
const NO_MESSAGES = screenOfMessages([]);

type Decision<Action> = Action | undefined | Promise<Action | undefined>;

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
  // What a game's room defines (table/hooks.ts says what each is for).
  abstract readonly engine: MatchEngine<Options, State, Action, Event, Plain, unknown, Code>;
  /** `true`, which compiles only when the schema state decodes to exactly the protocol's state view (state-check.ts). */
  protected abstract readonly stateMatchesView: StateMatchesView<S, View>;
  abstract readonly joinOptions: z.ZodType<JoinOptions>;
  abstract tableView(): Plain;
  abstract viewBeforeMatch(viewer: Viewer): Plain;
  abstract seatRequest(options: JoinOptions): SeatRequest;
  abstract personName(options: JoinOptions, seat: number): string;
  abstract listing(): Record<string, unknown>;
  protected abstract createTable(rawOptions: unknown): void;
  seatView(_seat: number): Schema | undefined {
    return undefined;
  }
  wire(event: Event, _made: Made): unknown {
    return event.payload;
  }
  decide(state: State, seat: number): Decision<Action> {
    return this.engine.botAction(state, seat);
  }
  volunteer(state: State, seat: number): Decision<Action> {
    return this.engine.volunteer?.call(this.engine, state, seat);
  }
  volunteerStillFits(asked: State, now: State, _seat: number): boolean {
    return asked === now;
  }
  dealerActionFor(due: Action): Action {
    return due;
  }
  recordedSeat(seat: number): RecordedSeat {
    return seatAsRecorded(this.roster, seat);
  }
  noSeatReason(asked: number | undefined): string {
    return `${asked === undefined ? "every seat is taken" : `seat ${asked} is taken`}; join with { spectate: true } to watch`;
  }
  noMatch(_action: string): Rejection {
    return new Rejection("NO_GAME", "no game is under way");
  }
  onMatchOver(): void {}
  onRoundOver(): void {}
  onPersonLeft(seat: number): void {
    if (this.match === null) this.roster.open(seat);
    else this.roster.seatBot(seat, SEAT_BOT_NAME);
  }
  onJoined(_place: number | "watch", _options: JoinOptions, _auth: unknown): void {}
  onTableFull(): void {}

  // ----------------------------------------------------------------------------------------------------------
  // The parts

  roster!: SeatRoster;
  timings!: TableTimings;
  /** True when a full table refuses a joining player; false when it makes them a spectator. */
  refuseWhenFull = true;
  /** Set once the room is closing (every connection, or its disposal has begun): nobody is told or plays anything more. */
  closing = false;
  /** Set when the server shuts down: the table closes as soon as no game is under way. */
  private draining = false;
  private readonly seals = new DealSeals<State>(() => this.engine);
  private readonly records = new TableRecords<Options, State, Action>(this, this.seals);
  private readonly views = new ViewSync<View>(this);
  private readonly seating = new Seating<JoinOptions>(this);
  private readonly listingPart = new Listing(this, () => this.seating.openSeats());
  private readonly bots = new BotTurns<Options, State, Action>(this);
  private readonly loop = new MatchLoop<Options, State, Action, Event>(
    this,
    new RoomTimer(this),
    this.bots,
    this.records,
  );
  private readonly arrivals = new Arrivals<JoinOptions>(this, this.seating, this.bots, this.records);

  constructor() {
    super();
    // Before the game's room makes its state (its own fields come after this constructor).
    sizeStateValues();
  }

  // ----------------------------------------------------------------------------------------------------------
  // Setting up

  /**
   * The creator's options, checked (bad ones refuse the create with a sentence naming the field). The server's own
   * create options (`records`: where finished games go) are taken out first; functions do not cross the wire.
   */
  protected createOptions(rawOptions: unknown): JoinOptions {
    const { records, ...clientOptions } = (rawOptions ?? {}) as { records?: Partial<RecordSink> };
    this.records.sink = typeof records?.submit === "function" ? (records as RecordSink) : null;
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
    if (!screensOfClass.has(this.constructor))
      screensOfClass.set(
        this.constructor,
        screenOfMessages(setUp.messages, (room, client) => (room as AnyTableRoom).checkStateOf(client)),
      );
    shareStateHandshake(this);
    shareStateBuffers(this);
    clearViewFramesWithoutAllocating(this);
    keepListChangesInPlace();
    whenDisposalBegins(this, () => this.stopPlaying());
    tableMetrics().tableOpened(this);
    this.logLife("room_created", "room created", { seats: setUp.seats });
  }

  /** Registers a message that any client may send (validated and rate-limited by the kit). */
  protected onTableMessage<M extends MessageDefinition>(
    definition: M,
    handler: (client: Client, payload: PayloadOf<M>) => unknown,
  ): void {
    handleMessage(this, definition, handler);
  }

  /** Registers a seat's message: spectators are refused (NOT_A_PLAYER) before the handler runs. */
  protected onSeatMessage<M extends MessageDefinition>(
    definition: M,
    handler: (seat: number, payload: PayloadOf<M>) => unknown,
  ): void {
    handleMessage(this, definition, (client, payload) => {
      const seat = this.roster.seatOf(client.sessionId);
      if (seat === undefined) throw new Rejection("NOT_A_PLAYER", "spectators cannot act; join with a seat to play");
      return handler(seat, payload);
    });
  }

  /** Registers a message that is one engine action of the sender's seat; a refusal is answered with its code. */
  protected onActionMessage<M extends MessageDefinition>(
    definition: M,
    toAction: (payload: PayloadOf<M>, seat: number) => Action,
  ): void {
    this.onSeatMessage(definition, (seat, payload) => {
      this.act(this.requireMatch(definition.name), seat, toAction(payload, seat), "person");
      this.advance();
    });
  }

  protected requireMatch(action: string): MatchInPlay<Options, State, Action> {
    if (this.match === null) throw this.noMatch(action);
    return this.match;
  }

  /** A ladder table's deal, for its player's join: the one the matchmaking route gave; a ladder table reached any other way refuses. */
  protected takeLadderDeal(auth: unknown): LadderDeal {
    const deal = ladderDealOf(auth);
    if (deal === undefined)
      throw new ServerError(
        4403,
        "a ladder table is the server's: create it with { ladder: true } as an account or a bot",
      );
    this.records.ladder = { period: deal.period, deal: deal.deal, endsAt: deal.endsAt };
    return deal;
  }

  /** Nobody watches a ladder table: the others of the period have its deal still to play. */
  protected refuseLadderSpectator(): never {
    throw new ServerError(4403, "a ladder table has no spectators: everyone in the period plays the same deals");
  }

  // ----------------------------------------------------------------------------------------------------------
  // Colyseus's lifecycle: each step run through lifecycleStep (what it changed is sent when it returns, and what it
  // throws is reported), here in the class, once for every room.

  /** Runs in the HTTP matchmaking request, before the seat reservation: who asked, which the kit's bounds count by. */
  static override async onAuth(
    _token: string,
    _options: unknown,
    context: AuthContext | undefined,
  ): Promise<JoinerIdentity> {
    const given = context as { identity?: SeatIdentity; ladderDeal?: LadderDeal } | undefined;
    return {
      address: context?.ip ?? null,
      identity: given?.identity ?? GUEST,
      ...(given?.ladderDeal === undefined ? {} : { ladderDeal: given.ladderDeal }),
    };
  }

  /** Why a join with these options, from this address, would be refused now, or null (the matchmaking route asks first). */
  refusalFor(rawOptions: unknown, address: string | null): ServerError | null {
    const decided = this.seating.decide(rawOptions, address);
    return decided instanceof ServerError ? decided : null;
  }

  override onCreate(rawOptions: unknown): void {
    try {
      this.createTable(rawOptions);
    } catch (error) {
      reportFailure(this, "onCreate", error);
      throw error;
    }
  }

  override onJoin(client: Client, rawOptions: unknown): void {
    lifecycleStep(this, "onJoin", () => this.arrivals.join(client, rawOptions));
  }

  override onDrop(client: Client): Promise<void> {
    return lifecycleStep(this, "onDrop", () => this.arrivals.drop(client));
  }

  override onReconnect(client: Client): void {
    lifecycleStep(this, "onReconnect", () => this.arrivals.reconnected(client));
  }

  override onLeave(client: Client): void {
    lifecycleStep(this, "onLeave", () => this.arrivals.left(client));
  }

  /** Seats a person (an open seat or a bot's) under their identity's name, or the name given to a guest. */
  protected seatPerson(client: Client, seat: number, name: string): void {
    this.arrivals.seatPerson(client, seat, name);
  }

  /** How long a reservation's place is held: a little longer than Colyseus's own hold, for a client that connects at its last moment. */
  holdMs(): number {
    return this.seatReservationTimeout * 1000 + 1000;
  }

  /** While a stand-in plays on for a person who left, the room stays open with nobody in it. */
  keepOpenWhenEmpty(kept: boolean): void {
    this.autoDispose = !kept; // Colyseus closes an empty room a second after this is set back
  }

  override disconnect(closeCode?: number): Promise<unknown> {
    this.closing = true;
    return super.disconnect(closeCode);
  }

  /**
   * The server is shutting down (Colyseus has locked the room): a table without a game under way closes now, one
   * with a game as soon as it is over and recorded; the server closes what still plays after its drain timeout.
   */
  override onBeforeShutdown(): void {
    this.draining = true;
    if (!this.gameUnderWay()) this.closeForShutdown();
  }

  private closeForShutdown(): void {
    if (this.closing) return;
    roomLog(this).info(
      { event: "table_closed_for_shutdown" },
      "the server is shutting down and no game is under way: the table closes",
    );
    this.disconnect(SERVER_SHUTDOWN_CLOSE_CODE).catch(() => undefined);
  }

  /** The disposal has begun (Colyseus removes the listing first): the bots and timers under way would play for nobody. */
  private stopPlaying(): void {
    this.closing = true;
    clearRoomTimers(this); // the kit's turn clock and a game's own timers (Tractor's start, Fool's deal)
    this.bots.stop();
  }

  /** After the room's disposal: nothing of it may go on (a failure here is reported, and the disposal goes on). */
  override onDispose(): void {
    try {
      this.seating.clear();
      this.stopPlaying(); // again, should anything have set a timer since the disposal began
      this.loop.end();
      tableMetrics().tableClosed(this);
      this.logLife("room_disposed", "room disposed");
    } catch (error) {
      reportFailure(this, "onDispose", error);
    }
  }

  /** A step in the room's life: a debug line (a busy server opens hundreds of rooms a second), built only when shown. */
  private logLife(event: string, message: string, fields: Record<string, number> = {}): void {
    if (log.isLevelEnabled("debug")) roomLog(this).debug({ event, ...fields }, message);
  }

  // ----------------------------------------------------------------------------------------------------------
  // The match (table/match-loop.ts)

  /** The match being played, or the last one played. */
  get match(): MatchInPlay<Options, State, Action> | null {
    return this.loop.match;
  }

  /** Starts a match (a fresh seed unless one is given): the state shows it and its start's events go out. */
  protected startMatch(options: Options, seed: number = freshDealSeed()): void {
    this.loop.start(options, seed);
  }

  /** Applies one action; a refusal throws a Rejection with the engine's code. Call advance() after. */
  act(match: MatchInPlay<Options, State, Action>, actor: Actor, action: Action, by: Mover): void {
    this.loop.act(match, actor, action, by);
  }

  /** After every change: the bots and the clocks go on. */
  advance(): void {
    this.loop.advance();
  }

  gameUnderWay(): boolean {
    return this.match !== null && this.engine.waiting(this.match.state).for !== "nobody";
  }

  /** The current deadline (ms since the epoch) of a person's turn, or 0. */
  protected get turnDeadline(): number {
    return this.loop.deadline;
  }

  protected get dealerPaused(): boolean {
    return this.loop.paused;
  }

  protected pauseDealer(paused: boolean): void {
    this.loop.pause(paused);
  }

  protected dealerStep(): boolean {
    return this.loop.step();
  }

  protected setPace(pace: string, ms: number): void {
    this.loop.setPace(pace, ms);
  }

  /** A bot's answer came later: the match goes on, and the patch goes out now. */
  goOn(): void {
    this.advance();
    this.broadcastPatch();
  }

  failed(error: unknown): void {
    reportFailure(this, "setTimeout", error);
  }

  /**
   * A step was taken and the state shows it: its events go out (after the state change, so an event never names a
   * state its receiver cannot see yet), and a deal, round or match it finished is revealed and recorded.
   */
  committed(
    match: MatchInPlay<Options, State, Action>,
    applied: Applied<State, Event>,
    made: Made,
    waiting: Waiting<Action>,
  ): void {
    this.seals.follow(match.number, match.seed, match.state);
    for (const event of applied.events) {
      this.sendEvent(event, made);
      const round = this.engine.roundEnd?.(event);
      if (round === undefined) continue;
      this.finish(match, "round", round.result, round.round);
      this.onRoundOver();
    }
    if (waiting.for !== "nobody") return;
    this.updateListing();
    this.finish(match, this.engine.roundEnd === undefined ? "game" : "match", this.engine.result(match.state));
    this.onMatchOver();
    // No next game on a server going away. The close waits for this callback to end, so that the reply to the
    // last move and the final state go out first.
    if (this.draining) setImmediate(() => this.closeForShutdown());
  }

  /** A deal, round or match is over: its seal is revealed, its record kept, and an empty room a person left may close. */
  private finish(match: MatchInPlay<Options, State, Action>, part: RecordPart, result: unknown, round?: number): void {
    this.seals.reveal();
    if (this.records.kept) {
      this.records.keep(match, part, result, round);
      this.keepOpenWhenEmpty(false);
    }
    if (part === "round") this.logLife("round_finished", "round finished", { match: match.number, round: round ?? 0 });
    else this.logLife("game_finished", "game finished", { match: match.number, actions: match.actionCount });
  }

  private sendEvent(event: Event, made: Made): void {
    const payload = this.wire(event, made);
    if (event.to === undefined) return this.broadcast(event.name, payload);
    const sessionId = this.roster.seats[event.to]?.sessionId;
    if (sessionId) this.clients.getById(sessionId)?.send(event.name, payload);
  }

  // ----------------------------------------------------------------------------------------------------------
  // Views (table/view-sync.ts) and the listing (table/listing.ts)

  /** What `viewer` sees of the game's position now: the engine's view of the match, or the view before one. */
  positionView(viewer: Viewer): Plain {
    return this.match === null ? this.viewBeforeMatch(viewer) : this.engine.view(this.match.state, viewer);
  }

  /** What the table shows beside the position, the same for every viewer: the game's table fields and the deals' seal. */
  tableFields(): Plain {
    return { ...this.tableView(), seal: this.seals.view() };
  }

  /** The state view `viewer` must hold (docs/protocol.md); every client's decoded state equals it (the differential test). */
  stateView(viewer: Viewer): View {
    return this.views.stateView(viewer);
  }

  /** The viewer a client is: its seat, or a spectator. */
  viewerOf(sessionId: string): Viewer {
    return this.roster.seatOf(sessionId) ?? SPECTATOR;
  }

  /** What a spectator sees now: what a room reads of its own table (its listing, its checks), never the schema. */
  protected shownView(): View {
    return this.stateView(SPECTATOR);
  }

  /** The view changed (an action, a seat, the clock): the schema shows it with the next patch. */
  showChanges(): void {
    this.views.showChanges();
  }

  /** A StateView showing the seat's hidden fields, the seat's schema object made first if no patch has made it yet. */
  viewOfSeat(seat: number): StateView | undefined {
    if (this.seatView(seat) === undefined) this.views.write();
    const seatState = this.seatView(seat);
    if (seatState === undefined) return undefined;
    const view = stateViewClearedWhenChanged();
    view.add(seatState);
    return view;
  }

  /** Colyseus's hook before every patch (after each message, timer and join, and the slow sweep). */
  override onBeforePatch(): void {
    this.views.write();
  }

  /** Every patch, then the state checks of the sampled clients (off unless the server turns them on). */
  override broadcastPatch(): boolean {
    const sent = super.broadcastPatch();
    this.views.checkAfterPatch(this.clients, (sessionId) => this.viewerOf(sessionId));
    return sent;
  }

  private checkStateOf(client: Client): void {
    this.views.checkStateOf(client, (sessionId) => this.viewerOf(sessionId));
  }

  /** After any change of seats (or of spectators): the state and the listing show it. */
  seatsChanged(): void {
    this.showChanges();
    this.updateListing();
  }

  updateListing(): void {
    this.listingPart.update();
  }

  // The rooms' frame screen and seat guard: put in place once, on the class, not as closures on each room.
  static {
    screenFrames(TableRoom.prototype, (room) => screensOfClass.get(room.constructor) ?? NO_MESSAGES);
    guardSeatReservations(TableRoom.prototype, (room, sessionId, options, authData) =>
      (room as AnyTableRoom).seating.promise(sessionId, options, addressOf(authData)),
    );
  }
}
