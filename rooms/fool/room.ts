/**
 * The `fool` room: the table kit (rooms/kit/table.ts) with the Fool match engine (match.ts). Two seats, a person's
 * or the room's AI; each hand is shown in its own seat's view only, the deck and the seed stay in the engine's
 * state (the seed until the game is over). The AI thinks on the server's pool (the `aiThreads` create option).
 */
import { ServerError } from "@colyseus/core";
import { freshDealSeed } from "../kit/deal-seal";
import { Rejection, RoomTimer } from "../kit/room-kit";
import type { SeatHolder } from "../kit/seats";
import type { RecordedSeat } from "../kit/record";
import type { Viewer } from "../kit/engine";
import { TableRoom, type Made, type Mover, type SeatRequest } from "../kit/table";
import type { FoolAiDecider } from "./ai";
import { FOOL_SEATS, foolEngine, type FoolEngineEvent, type FoolMatch, type FoolOptions } from "./match";
import {
  FOOL_DEFAULTS,
  foolAiName,
  foolJoinOptions,
  foolMessages,
  foolRoomSettings,
  type FoolErrorCode,
  type FoolJoinOptions,
} from "./protocol";
import type {
  FoolMover,
  FoolPositionView,
  FoolRoomSettings,
  FoolSeatController,
  FoolStateView,
  FoolTableView,
} from "./protocol";
import type { FoolMove } from "./rules";
import { FoolRoomState, type FoolSeat, stateMatchesView } from "./state";
import { FoolTablePlayers } from "./table-players";

export { foolAiName } from "./protocol";

const MAX_SPECTATORS = 64;
const CONTROLLERS: Record<SeatHolder, FoolSeatController> = { open: "open", bot: "ai", person: "player" };
/** Fool has no dealer's actions: "dealer" never makes a move. */
const MOVERS: Record<Mover, FoolMover> = { person: "player", bot: "ai", clock: "clock", dealer: "ai" };

export class FoolRoom extends TableRoom<
  FoolRoomState,
  FoolJoinOptions,
  FoolOptions,
  FoolMatch,
  FoolMove,
  FoolEngineEvent,
  FoolErrorCode,
  FoolStateView
> {
  override state = new FoolRoomState();
  override readonly engine = foolEngine;
  override readonly joinOptions = foolJoinOptions;
  protected override readonly stateMatchesView = stateMatchesView;

  private settings: FoolRoomSettings = { ...FOOL_DEFAULTS };
  private players!: FoolTablePlayers;
  private firstSeed: number | undefined;
  /** Each seat's games won at this table before the current game. */
  private readonly winsBefore: number[] = Array.from({ length: FOOL_SEATS }, () => 0);
  private readonly dealTimer = new RoomTimer(this);

  protected override createTable(rawOptions: unknown): void {
    const { aiThreads, ...clientOptions } = (rawOptions ?? {}) as { aiThreads?: Partial<FoolAiDecider> };
    // Only the server can put a pool there: a client's JSON carries no function.
    const threads = typeof aiThreads?.decide === "function" ? (aiThreads as FoolAiDecider) : null;
    const options = this.createOptions(clientOptions);
    const settings = (this.settings = foolRoomSettings(options));
    this.players = new FoolTablePlayers(settings.ai, threads, settings.aiLevel);
    if (settings.mode !== "two-players") threads?.warm?.();
    this.firstSeed = options.seed;
    this.openTable({
      seats: FOOL_SEATS,
      maxSpectators: MAX_SPECTATORS,
      timings: {
        turnTimeMs: settings.turnTimeMs,
        botDelayMs: settings.aiDelayMs,
        reconnectSeconds: settings.reconnectSeconds,
        paces: {},
      },
      messages: Object.values(foolMessages),
    });
    for (let seat = 0; seat < FOOL_SEATS; seat++) {
      if (settings.mode === "ai-vs-ai" || (settings.mode === "vs-ai" && seat !== (options.seat ?? 0)))
        this.roster.seatBot(seat, foolAiName(settings));
    }
    this.showChanges();
    this.metadata = { game: "fool", mode: settings.mode, players: [], phase: "waiting" };
    this.onActionMessage(foolMessages.move, (move) => move as FoolMove);
    this.onSeatMessage(foolMessages.newGame, (_seat, { seed }) => {
      if (this.requireMatch("newGame").state.outcome === null)
        throw new Rejection("GAME_IN_PROGRESS", "finish this game before starting another");
      this.startGame(seed);
    });
  }

  override seatRequest(options: FoolJoinOptions): SeatRequest {
    if (options.spectate === true || this.settings.mode === "ai-vs-ai") return { watch: true };
    // Only an open seat (the kit would let a person take over the AI's).
    if (options.seat !== undefined && this.roster.seats[options.seat].holder !== "open")
      throw new ServerError(4403, this.noSeatReason(options.seat));
    return { watch: false, seat: options.seat };
  }

  override personName(options: FoolJoinOptions, seat: number): string {
    return options.name ?? `player ${seat + 1}`;
  }

  override noMatch(): Rejection {
    return new Rejection("NO_GAME", "the game starts when both seats are taken");
  }

  /** Deals the first game from a timer, so that the client whose join completed the table receives the start event. */
  override onTableFull(): void {
    if (this.match !== null || this.dealTimer.isPending) return;
    this.dealTimer.start(
      0,
      () => this.match === null && this.roster.everySeatTaken() && this.startGame(this.firstSeed),
    );
  }

  /**
   * Gone for good: before the first game the seat opens again; during a game the AI plays it on, under the person's
   * name and identity, and the game is theirs, forfeited (rooms/fool/records.ts); between games the seat is the AI's.
   */
  override onPersonLeft(seat: number): void {
    if (this.match === null) return this.roster.open(seat);
    if (this.match.state.outcome === null) return this.roster.seatStandIn(seat);
    // Between games there is nothing to forfeit: the seat is the house AI's for the next.
    this.roster.seatBot(seat, foolAiName(this.settings));
    this.onMatchOver();
  }

  /**
   * A record names the Fool's bots as its AI; the table's own AI seat is the house's bot at its level (docs/arena.md,
   * "House bots"). A person's seat the AI plays on after the person left keeps that person's name and identity.
   */
  override recordedSeat(seat: number): RecordedSeat {
    const recorded = super.recordedSeat(seat);
    if (recorded.kind !== "bot") return recorded;
    const houseName = foolAiName(this.settings);
    return recorded.name === houseName
      ? { ...recorded, kind: "ai", identity: { kind: "house", name: houseName } }
      : { ...recorded, kind: "ai" };
  }

  /** With nobody seated to ask for it, the room deals the next game itself after a pause. */
  override onMatchOver(): void {
    const delay = this.settings.nextGameDelayMs;
    if (!this.roster.personSeated() && delay > 0) this.dealTimer.start(delay, () => this.startGame(undefined));
  }

  /** The first game is dealt by the last seat (seat 0 moves first); after that by the last game's Fool. */
  private startGame(seed: number | undefined): void {
    this.dealTimer.clear();
    this.handOverLeftSeats();
    this.winsBefore.forEach((_, seat) => (this.winsBefore[seat] += this.wonThisGame(seat) ? 1 : 0));
    const last = this.match?.state.game;
    const dealer = last === undefined ? FOOL_SEATS - 1 : (last.fool ?? (last.dealer + 1) % FOOL_SEATS);
    this.startMatch({ dealer, maxMoves: this.settings.maxMoves }, seed ?? freshDealSeed());
    this.updateListing();
  }

  /** A seat whose person left plays the next games as the house's AI: only the game they left is theirs. */
  private handOverLeftSeats(): void {
    this.roster.seats.forEach((held, seat) => held.left && this.roster.seatBot(seat, foolAiName(this.settings)));
  }

  /** An AI seat's move, or a silent person's: the room's AI or baseline. */
  override decide(state: FoolMatch, seat: number): FoolMove | Promise<FoolMove> {
    return this.players.decide(state.game, seat);
  }

  override seatView(seat: number): FoolSeat {
    return this.state.seats[seat];
  }

  /** The wire event; every Fool event is public and goes out once, so the seats' players learn from it here too. */
  override wire(event: FoolEngineEvent, made: Made): unknown {
    const [game, deadline] = [this.match!.number, this.turnDeadline];
    if (event.name === "start") {
      const { dealer, ...position } = event.payload;
      this.players.dealt(this.match!.state.game, this.match!.seed);
      const seats = this.tableView().seats.map((held) => ({ name: held.name, controller: held.controller }));
      return { game, dealer, seats, ...position, deadline };
    }
    if (event.name === "move") {
      this.players.saw(event.payload.events);
      const { number, seat, ...rest } = event.payload;
      return { game, number, seat, by: MOVERS[made.by], ...rest, deadline };
    }
    return { game, ...event.payload, wins: this.tableView().seats.map((held) => held.wins) };
  }

  override tableView(): FoolTableView {
    const match = this.match;
    const over = match !== null && match.state.outcome !== null;
    return {
      mode: this.settings.mode,
      game: match?.number ?? 0,
      seats: this.roster.seats.map(({ name, holder, connected }, seat) => ({
        name,
        controller: CONTROLLERS[holder],
        connected,
        wins: this.winsBefore[seat]! + (over && this.wonThisGame(seat) ? 1 : 0),
      })),
      deadline: this.turnDeadline,
      spectators: this.roster.spectators,
    };
  }

  /** Whether the seat emptied its hand in the game just over, with a Fool found (a capped game has no winner). */
  private wonThisGame(seat: number): boolean {
    const game = this.match?.state;
    return game?.outcome === "fool" && game.game.finished.includes(seat);
  }

  override viewBeforeMatch(viewer: Viewer): FoolPositionView {
    const seats = Array.from({ length: FOOL_SEATS }, (_, seat) =>
      seat === viewer
        ? { handCount: 0, revealed: [], hand: [], canDraw: false, canPass: false }
        : { handCount: 0, revealed: [] },
    );
    const faceUp = { card: "", as: "", namedSuit: "", text: "" };
    return {
      phase: "waiting",
      dealer: 0,
      seats,
      faceUp,
      deckCount: 0,
      turn: -1,
      turnPhase: "",
      moveCount: 0,
      winners: [],
      fool: -1,
      outcome: "",
      revealedSeed: 0,
    };
  }

  override listing(): Record<string, unknown> {
    const { seats, phase } = this.shownView();
    const players = seats.map((held) => ({ name: held.name, controller: held.controller }));
    const score = seats.map((held) => held.wins).join("–");
    return { game: "fool", mode: this.settings.mode, players, phase, score: `games won ${score}` };
  }
}
