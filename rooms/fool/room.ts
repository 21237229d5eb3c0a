/**
 * The `fool` room: the table kit (rooms/kit/table.ts) with the Fool match engine (match.ts). Two seats, each a
 * person's or the room's AI; the room mirrors each game into the schema state: each hand goes to its own seat's
 * view only; the deck order and the seed stay in the engine's state until the game is over (then the seed is
 * revealed). The AI thinks on the server's worker pool (given in the create options), or in-process without one.
 */
import { ServerError } from "@colyseus/core";
import { freshSeed, seededRandom, type Random } from "../kit/random";
import { Rejection, RoomTimer } from "../kit/room-kit";
import { syncList } from "../kit/schema-lists";
import type { SeatHolder } from "../kit/seats";
import { TableRoom, type Made, type Mover, type SeatRequest } from "../kit/table";
import { aiPolicy } from "./ai";
import { remember, startMemory, type FoolMemory } from "./ai-memory";
import { greedyPolicy, randomPolicy, type Policy } from "./bots";
import { FOOL_SEATS, foolEngine, type FoolEngineEvent, type FoolMatch, type FoolOptions } from "./match";
import { FOOL_DEFAULTS, foolJoinOptions, foolMessages, type FoolErrorCode, type FoolJoinOptions, type FoolMover, type FoolRoomSettings, type FoolSeatController } from "./protocol";
import { viewFor, type FoolMove, type FoolView } from "./rules";
import { FoolRoomState, FoolSeat } from "./state";

const MAX_SPECTATORS = 64;
const BASELINES: Record<"greedy" | "random", Policy> = { greedy: greedyPolicy, random: randomPolicy };
const CONTROLLERS: Record<SeatHolder, FoolSeatController> = { open: "open", bot: "ai", person: "player" };
/** Fool has no dealer's actions: "dealer" never makes a move. */
const MOVERS: Record<Mover, FoolMover> = { person: "player", bot: "ai", clock: "clock", dealer: "ai" };

/** Where the AI thinks: the server's worker pool (server/fool-ai-pool.ts), given as the `aiThreads` create option. */
export interface FoolAiDecider {
  decide(view: FoolView, memory: FoolMemory): Promise<FoolMove>;
}

/** The AI's Random is never drawn from (its moves depend only on the view and the memory). */
const unused: Random = () => {
  throw new Error("the AI draws no random numbers of its own");
};

export class FoolRoom extends TableRoom<FoolRoomState, FoolJoinOptions, FoolOptions, FoolMatch, FoolMove, FoolEngineEvent, FoolErrorCode> {
  override state = new FoolRoomState();
  protected override readonly engine = foolEngine;
  protected override readonly joinOptions = foolJoinOptions;

  private settings: FoolRoomSettings = { ...FOOL_DEFAULTS };
  private aiThreads: FoolAiDecider | null = null;
  private firstSeed: number | undefined;
  /** Drives the greedy and random baselines; seeded from the deal, so that their games replay from the seed. */
  private policyRandom: Random = Math.random;
  /** Each seat's memory of the game's public events, fed from the engine's move events. */
  private memories: FoolMemory[] = [];
  /** The AI's decision under way: asked again for the same position, the room waits for it rather than ask twice. */
  private thinking: { state: FoolMatch; seat: number; move: Promise<FoolMove> } | null = null;
  private winsCounted = 0;
  private readonly dealTimer = new RoomTimer(this);

  override onCreate(rawOptions: unknown): void {
    const { aiThreads, ...clientOptions } = (rawOptions ?? {}) as { aiThreads?: Partial<FoolAiDecider> };
    // Only the server can put a pool there: a client's JSON carries no function.
    this.aiThreads = typeof aiThreads?.decide === "function" ? (aiThreads as FoolAiDecider) : null;
    const options = this.createOptions(clientOptions);
    const settings = (this.settings = settingsFrom(options));
    this.firstSeed = options.seed;
    this.openTable({
      seats: FOOL_SEATS,
      maxSpectators: MAX_SPECTATORS,
      timings: { turnTimeMs: settings.turnTimeMs, botDelayMs: settings.aiDelayMs, reconnectSeconds: settings.reconnectSeconds, paces: {} },
      messages: Object.values(foolMessages),
    });
    this.state.mode = settings.mode;
    for (let seat = 0; seat < FOOL_SEATS; seat++) {
      this.state.seats.push(new FoolSeat());
      if (settings.mode === "ai-vs-ai" || (settings.mode === "vs-ai" && seat !== (options.seat ?? 0))) this.roster.seatBot(seat, `AI (${settings.ai})`);
    }
    this.mirror();
    this.metadata = { game: "fool", mode: settings.mode, players: [], phase: "waiting" };
    this.onActionMessage(foolMessages.move, (move) => move as FoolMove);
    this.onSeatMessage(foolMessages.newGame, (_seat, { seed }) => {
      if (this.state.phase === "playing") throw new Rejection("GAME_IN_PROGRESS", "finish this game before starting another");
      this.requireMatch(foolMessages.newGame.name);
      this.startGame(seed);
    });
  }

  override onDispose(): void {
    this.dealTimer.clear();
    super.onDispose();
  }

  protected override seatRequest(options: FoolJoinOptions): SeatRequest {
    if (options.spectate === true || this.settings.mode === "ai-vs-ai") return { watch: true };
    // A person takes an open seat only (the kit would let them take over the AI's).
    if (options.seat !== undefined && this.roster.seats[options.seat].holder !== "open") throw new ServerError(4403, this.noSeatReason(options.seat));
    return { watch: false, seat: options.seat };
  }

  protected override personName(options: FoolJoinOptions, seat: number): string {
    return options.name ?? `player ${seat + 1}`;
  }

  protected override noMatch(): Rejection {
    return new Rejection("NO_GAME", "the game starts when both seats are taken");
  }

  /** Deals the first game from a timer, so that the client whose join completed the table receives the start event. */
  protected override onTableFull(): void {
    if (this.match !== null || this.dealTimer.isPending) return;
    this.dealTimer.start(0, () => {
      if (this.match === null && this.roster.everySeatTaken()) this.startGame(this.firstSeed);
    });
  }

  /** Gone for good: before the first game the seat opens again; after it the AI plays it, under the person's name. */
  protected override onPersonLeft(seat: number): void {
    if (this.match === null) return this.roster.open(seat);
    this.roster.seatBot(seat, this.roster.seats[seat].name);
    if (this.match.state.outcome !== null) this.onMatchOver();
  }

  /** With nobody seated to ask for it, the room deals the next game itself after a pause. */
  protected override onMatchOver(): void {
    const delay = this.settings.nextGameDelayMs;
    if (!this.roster.personSeated() && delay > 0) this.dealTimer.start(delay, () => this.startGame(undefined));
  }

  /** The first game is dealt by the last seat (seat 0 moves first); after that by the last game's Fool. */
  private startGame(seed: number | undefined): void {
    this.dealTimer.clear();
    const last = this.match?.state;
    const dealer = last === undefined ? FOOL_SEATS - 1 : (last.game.fool ?? (last.game.dealer + 1) % FOOL_SEATS);
    const gameSeed = seed ?? freshSeed();
    this.policyRandom = seededRandom(`${gameSeed}:policies`);
    this.startMatch({ dealer, maxMoves: this.settings.maxMoves }, gameSeed);
    this.updateListing();
  }

  /** An AI seat's move, or a silent person's: the AI on the pool (or in-process), or a baseline with the room's dice. */
  protected override decide(state: FoolMatch, seat: number): FoolMove | Promise<FoolMove> {
    const view = viewFor(state.game, seat);
    const ai = this.settings.ai;
    if (ai !== "ai") return BASELINES[ai](view, this.policyRandom);
    const memory = this.memories[seat];
    if (this.aiThreads === null) return aiPolicy(view, unused, memory);
    if (this.thinking?.state !== state || this.thinking.seat !== seat) this.thinking = { state, seat, move: this.aiThreads.decide(view, memory) };
    return this.thinking.move;
  }

  protected override seatView(seat: number): FoolSeat {
    return this.state.seats[seat];
  }

  protected override wire(event: FoolEngineEvent, made: Made): unknown {
    const game = this.match!.number;
    const deadline = this.turnDeadline;
    if (event.name === "start") {
      const { dealer, ...position } = event.payload;
      this.memories = this.state.seats.map((_, seat) => startMemory(viewFor(this.match!.state.game, seat)));
      const seats = this.state.seats.map((held) => ({ name: held.name, controller: held.controller }));
      return { game, dealer, seats, ...position, deadline };
    }
    if (event.name === "move") {
      this.memories = this.memories.map((memory) => remember(memory, event.payload.events));
      const { number, seat, ...rest } = event.payload;
      return { game, number, seat, by: MOVERS[made.by], ...rest, deadline };
    }
    return { game, ...event.payload, wins: this.state.seats.map((held) => held.wins) };
  }

  protected override mirror(): void {
    const state = this.state;
    state.spectators = this.roster.spectators;
    this.roster.seats.forEach((held, seat) => {
      const shown = state.seats[seat];
      shown.name = held.name;
      shown.controller = CONTROLLERS[held.holder];
      shown.connected = held.connected;
    });
    const match = this.match;
    if (match === null) return;
    const view = foolEngine.view(match.state, 0);
    state.phase = view.over ? "over" : "playing";
    state.game = match.number;
    state.dealer = view.dealer;
    Object.assign(state.faceUp, { card: view.faceUp.card, as: view.faceUp.as, namedSuit: view.faceUp.namedSuit ?? "", text: view.faceUpText });
    state.deckCount = view.deckCount;
    state.turn = view.turn;
    state.turnPhase = view.turnPhase;
    state.deadline = view.over ? 0 : this.turnDeadline;
    state.moveCount = view.moveCount;
    syncList(state.winners, view.winners);
    state.fool = view.fool;
    state.outcome = view.outcome;
    state.revealedSeed = view.revealedSeed;
    if (view.over && this.winsCounted < match.number) {
      this.winsCounted = match.number;
      if (view.outcome === "fool") for (const seat of view.winners) state.seats[seat].wins++;
    }
    state.seats.forEach((shown, seat) => {
      const seen = seat === 0 ? view : foolEngine.view(match.state, seat);
      shown.handCount = seen.handCounts[seat];
      syncList(shown.hand, seen.hand ?? []);
      shown.canDraw = seen.canDraw;
      shown.canPass = seen.canPass;
    });
  }

  protected override listing(): Record<string, unknown> {
    const players = this.state.seats.map((held) => ({ name: held.name, controller: held.controller }));
    return { game: "fool", mode: this.settings.mode, players, phase: this.state.phase };
  }
}

function settingsFrom(options: FoolJoinOptions): FoolRoomSettings {
  return {
    mode: options.mode ?? FOOL_DEFAULTS.mode,
    ai: options.ai ?? FOOL_DEFAULTS.ai,
    aiDelayMs: options.aiDelayMs ?? FOOL_DEFAULTS.aiDelayMs,
    turnTimeMs: options.turnTimeMs ?? FOOL_DEFAULTS.turnTimeMs,
    reconnectSeconds: options.reconnectSeconds ?? FOOL_DEFAULTS.reconnectSeconds,
    nextGameDelayMs: options.nextGameDelayMs ?? FOOL_DEFAULTS.nextGameDelayMs,
    maxMoves: options.maxMoves ?? FOOL_DEFAULTS.maxMoves,
  };
}
