/**
 * The `fool` room: two seats, each held by a person or by the room's AI. The room turns validated messages into
 * engine calls, mirrors the result into the public state and decides who sees what: each hand goes to its own
 * player's view only; the deck order, the AI's hand and the seed stay in `this.game` / `this.seed` until the
 * game is over (then the seed is revealed). AI moves and the turn clock run on RoomTimers.
 */
import { Room, ServerError, type Client, type RoomException, type RoomMethodName } from "@colyseus/core";
import { StateView } from "@colyseus/schema";
import { freshSeed, seededRandom, type Random } from "../kit/random";
import { handleMessage, parseRoomOptions, patchOnChange, Rejection, rejectUnknownMessages, reportTimerFailure, reportUncaught, RoomTimer } from "../kit/room-kit";
import { syncList } from "../kit/schema-lists";
import { aiPolicy } from "./ai";
import { remember, startMemory, type FoolMemory } from "./ai-memory";
import { greedyPolicy, randomPolicy, type Policy } from "./bots";
import { isJoker } from "./cards";
import {
  FOOL_DEFAULTS,
  foolEvents,
  foolJoinOptions,
  foolMessages,
  type FoolAiPolicy,
  type FoolJoinOptions,
  type FoolMoveEvent,
  type FoolMover,
  type FoolOutcome,
  type FoolOverEvent,
  type FoolRoomSettings,
  type FoolStartEvent,
} from "./protocol";
import { applyMove, formatLaid, legalMoves, newGame, viewFor, type FoolEvent, type FoolMove, type FoolState, type FoolView } from "./rules";
import { FoolRoomState, FoolSeat } from "./state";

const SEATS = 2;
const MAX_SPECTATORS = 64;

/** The baselines a room may seat instead of the AI: cheap, and played with the room's seeded dice. */
const BASELINES: Record<Exclude<FoolAiPolicy, "ai">, Policy> = { greedy: greedyPolicy, random: randomPolicy };

type AppliedMove = { state: FoolState; events: readonly FoolEvent[] };

/**
 * Where the AI thinks: the server's pool of worker threads (server/fool-ai-pool.ts), handed to the rooms in their
 * create options (`aiThreads`). A room made without one decides in-process.
 */
export interface FoolAiDecider {
  decide(view: FoolView, memory: FoolMemory): Promise<FoolMove>;
}

/** The pool among the create options, if the server put one there (a client's JSON cannot carry a function). */
export function aiDeciderIn(rawOptions: unknown): FoolAiDecider | null {
  const candidate = (rawOptions as { aiThreads?: Partial<FoolAiDecider> } | null | undefined)?.aiThreads;
  return typeof candidate?.decide === "function" ? (candidate as FoolAiDecider) : null;
}

/** The AI's Random is not used (its moves depend only on the view and the memory). */
function unused(): number {
  throw new Error("the AI draws no random numbers of its own");
}

export class FoolRoom extends Room<{ state: FoolRoomState }> {
  override maxClients = SEATS + MAX_SPECTATORS;
  override state = new FoolRoomState();

  private settings: FoolRoomSettings = { ...FOOL_DEFAULTS };
  private game: FoolState | null = null;
  private seed = 0;
  /** The first game's seed, from the creator's options. */
  private firstSeed: number | undefined;
  /** Drives the greedy and random policies; seeded from the deal, so that an AI game replays from its seed. */
  private policyRandom: Random = Math.random;
  /** Each seat's memory of the game's public events (what the AI plays from when it moves for that seat). */
  private memories: FoolMemory[] = [];
  /** The session of the person holding each seat (kept while they reconnect), or null. */
  private readonly holders: (string | null)[] = Array.from({ length: SEATS }, () => null);
  private readonly turnTimer = new RoomTimer(this);
  private readonly nextGameTimer = new RoomTimer(this);
  private aiThreads: FoolAiDecider | null = null;

  override onCreate(rawOptions: unknown): void {
    const { aiThreads: _pool, ...clientOptions } = (rawOptions ?? {}) as Record<string, unknown>;
    this.aiThreads = aiDeciderIn(rawOptions);
    const options = parseRoomOptions(foolJoinOptions, clientOptions, "create");
    this.settings = settingsFrom(options);
    patchOnChange(this);
    this.firstSeed = options.seed;
    this.state.mode = this.settings.mode;
    const personSeat = options.seat ?? 0;
    for (let seat = 0; seat < SEATS; seat++) {
      const held = new FoolSeat();
      const byAi = this.settings.mode === "ai-vs-ai" || (this.settings.mode === "vs-ai" && seat !== personSeat);
      if (byAi) {
        held.controller = "ai";
        held.name = `AI (${this.settings.ai})`;
      }
      this.state.seats.push(held);
    }
    this.metadata = { game: "fool", mode: this.settings.mode, players: [], phase: "waiting" };
    handleMessage(this, foolMessages.move, (client, move) => this.onMove(client, move as FoolMove));
    handleMessage(this, foolMessages.newGame, (client, { seed }) => this.onNewGame(client, seed));
    rejectUnknownMessages(this, Object.values(foolMessages));
  }

  override onAuth(_client: Client, rawOptions: unknown): boolean {
    const options = parseRoomOptions(foolJoinOptions, rawOptions, "join");
    if (this.watches(options)) {
      if (this.state.spectators >= MAX_SPECTATORS) throw new ServerError(4403, "no room for more spectators");
      return true;
    }
    if (this.freeSeat(options.seat) === null) throw new ServerError(4403, this.noSeatReason(options.seat));
    return true;
  }

  override onJoin(client: Client, rawOptions: unknown): void {
    const options = parseRoomOptions(foolJoinOptions, rawOptions, "join");
    if (this.watches(options)) {
      this.state.spectators++;
      this.dealFirstGameWhenReady();
      return;
    }
    // onAuth checked the seat, but two joins may have raced for it.
    const seat = this.freeSeat(options.seat);
    if (seat === null) throw new ServerError(4403, this.noSeatReason(options.seat));
    this.holders[seat] = client.sessionId;
    const held = this.state.seats[seat];
    held.controller = "player";
    held.connected = true;
    held.name = options.name ?? `player ${seat + 1}`;
    const view = new StateView();
    view.add(held);
    client.view = view;
    this.publishMetadata();
    this.dealFirstGameWhenReady();
  }

  override async onDrop(client: Client): Promise<void> {
    const seat = this.seatOf(client);
    if (seat === null) return;
    // The turn clock keeps running while they are away: when it runs out, the AI moves for them.
    this.state.seats[seat].connected = false;
    // An expired window rejects; onLeave follows either way and hands the seat to the AI.
    await this.allowReconnection(client, this.settings.reconnectSeconds).catch(() => undefined);
  }

  override onReconnect(client: Client): void {
    const seat = this.seatOf(client);
    if (seat !== null) this.state.seats[seat].connected = true;
  }

  override onLeave(client: Client): void {
    const seat = this.seatOf(client);
    if (seat === null) {
      this.state.spectators = Math.max(0, this.state.spectators - 1);
      return;
    }
    this.holders[seat] = null;
    const held = this.state.seats[seat];
    held.connected = false;
    if (this.state.phase === "waiting") {
      // No game has started: the seat is open again.
      held.controller = "open";
      held.name = "";
    } else {
      // The person is gone for good: the AI plays their seat from now on, so the game can end for spectators.
      held.controller = "ai";
      if (this.state.phase === "playing" && this.game?.turn === seat) this.scheduleTurn();
      if (this.state.phase === "over") this.scheduleNextGame();
    }
    this.publishMetadata();
  }

  override onUncaughtException(error: RoomException, methodName: RoomMethodName): void {
    reportUncaught(this, error, methodName);
  }

  override onDispose(): void {
    this.turnTimer.clear();
    this.nextGameTimer.clear();
    this.game = null; // an AI move still being thought out is dropped
  }

  // ------------------------------------------------------------------ messages

  private onMove(client: Client, move: FoolMove): void {
    const seat = this.requireSeat(client);
    const game = this.game;
    if (game === null || this.state.phase !== "playing") throw new Rejection("NO_GAME", this.noGameReason());
    const result = applyMove(game, seat, move);
    if (!result.ok) throw new Rejection(seat === game.turn ? "ILLEGAL_MOVE" : "NOT_YOUR_TURN", result.reason);
    this.commit(seat, result, "player");
  }

  private onNewGame(client: Client, seed: number | undefined): void {
    this.requireSeat(client);
    if (this.state.phase === "playing") throw new Rejection("GAME_IN_PROGRESS", "finish this game before starting another");
    if (this.state.phase === "waiting") throw new Rejection("NO_GAME", this.noGameReason());
    this.startGame(seed);
  }

  // ------------------------------------------------------------------ games

  /**
   * Deals the first game once every seat is taken (an AI room: once someone watches). It is dealt from a timer
   * rather than inside onJoin, so the client whose join completed the table receives the start event.
   */
  private dealFirstGameWhenReady(): void {
    const everySeatTaken = this.state.seats.every((held) => held.controller !== "open");
    if (this.state.phase !== "waiting" || !everySeatTaken || this.nextGameTimer.isPending) return;
    this.nextGameTimer.start(0, () => {
      const stillReady = this.state.seats.every((held) => held.controller !== "open");
      if (this.state.phase === "waiting" && stillReady) this.startGame(this.firstSeed);
    });
  }

  private startGame(seed: number | undefined): void {
    this.nextGameTimer.clear();
    this.seed = seed ?? freshSeed();
    const dealer = this.nextDealer();
    const game = newGame(seededRandom(this.seed), SEATS, dealer);
    this.game = game;
    this.policyRandom = seededRandom(`${this.seed}:policies`);
    this.memories = game.hands.map((_, seat) => startMemory(viewFor(game, seat)));
    const state = this.state;
    state.phase = "playing";
    state.game++;
    state.dealer = dealer;
    state.outcome = "";
    state.fool = -1;
    state.revealedSeed = 0;
    this.mirror(game);
    this.scheduleTurn();
    const event: FoolStartEvent = {
      game: state.game,
      dealer,
      seats: state.seats.map((held) => ({ name: held.name, controller: held.controller })),
      faceUp: game.faceUp,
      faceUpText: formatLaid(game.faceUp),
      handCounts: game.hands.map((hand) => hand.length),
      deckCount: game.deck.length,
      turn: game.turn,
      deadline: state.deadline,
    };
    this.broadcast(foolEvents.start, event);
    this.publishMetadata();
  }

  /** The first game is dealt by the last seat (seat 0 moves first); after that the last game's Fool deals. */
  private nextDealer(): number {
    if (this.state.game === 0) return SEATS - 1;
    return this.state.fool >= 0 ? this.state.fool : (this.state.dealer + 1) % SEATS;
  }

  /** Takes an accepted move: mirrors it, tells everyone, then ends the game or hands the turn on. */
  private commit(seat: number, applied: AppliedMove, by: FoolMover): void {
    const game = applied.state;
    this.game = game;
    this.memories = this.memories.map((memory) => remember(memory, applied.events));
    this.mirror(game);
    const capped = game.phase !== "over" && game.moveCount >= this.settings.maxMoves;
    if (game.phase === "over" || capped) this.stopClock();
    else this.scheduleTurn();
    const event: FoolMoveEvent = {
      game: this.state.game,
      number: game.moveCount,
      seat,
      by,
      move: moveMade(applied.events),
      events: [...applied.events],
      faceUpText: formatLaid(game.faceUp),
      handCounts: game.hands.map((hand) => hand.length),
      deckCount: game.deck.length,
      turn: game.turn,
      deadline: this.state.deadline,
    };
    this.broadcast(foolEvents.move, event);
    if (game.phase === "over") this.finishGame("fool");
    else if (capped) this.finishGame("capped");
  }

  private finishGame(outcome: FoolOutcome): void {
    const game = this.game!;
    const state = this.state;
    state.phase = "over";
    state.turnPhase = "over";
    state.outcome = outcome;
    state.fool = outcome === "fool" && game.fool !== null ? game.fool : -1;
    state.revealedSeed = this.seed;
    if (outcome === "fool") for (const seat of game.finished) state.seats[seat].wins++;
    const event: FoolOverEvent = {
      game: state.game,
      outcome,
      fool: state.fool >= 0 ? state.fool : null,
      winners: [...game.finished],
      seed: this.seed,
      dealer: state.dealer,
      moves: game.moveCount,
      wins: state.seats.map((held) => held.wins),
    };
    this.broadcast(foolEvents.over, event);
    this.publishMetadata();
    this.scheduleNextGame();
  }

  /** Writes the engine's state into the schema: public counts for all, each hand into its seat's hidden fields. */
  private mirror(game: FoolState): void {
    const state = this.state;
    state.faceUp.card = game.faceUp.card;
    state.faceUp.as = game.faceUp.as;
    state.faceUp.namedSuit = game.faceUp.namedSuit ?? "";
    state.faceUp.text = formatLaid(game.faceUp);
    state.deckCount = game.deck.length;
    state.turn = game.turn;
    state.turnPhase = game.phase;
    state.moveCount = game.moveCount;
    syncList(state.winners, game.finished);
    state.seats.forEach((held, seat) => {
      const view = viewFor(game, seat);
      held.handCount = view.hand.length;
      syncList(held.hand, view.hand);
      held.canDraw = view.canDraw;
      held.canPass = view.canPass;
    });
  }

  // ------------------------------------------------------------------ the clock

  /** Arms the timer for the seat to move: the AI's pause on an AI seat, the turn clock on a person's. */
  private scheduleTurn(): void {
    const seat = this.game!.turn;
    const byPerson = this.state.seats[seat].controller === "player";
    const delay = byPerson ? this.settings.turnTimeMs : this.settings.aiDelayMs;
    this.state.deadline = byPerson ? Date.now() + delay : 0;
    this.turnTimer.start(delay, () => this.playFor(seat, byPerson ? "clock" : "ai"));
  }

  private stopClock(): void {
    this.turnTimer.clear();
    this.state.deadline = 0;
  }

  /** The room's policy moves for `seat`: an AI seat's move, or a person's whose time ran out. */
  private playFor(seat: number, by: FoolMover): void {
    const game = this.game;
    if (game === null || game.phase === "over" || this.state.phase !== "playing" || game.turn !== seat) return;
    const ai = this.settings.ai;
    if (ai !== "ai") return this.playPolicyMove(game, seat, by, this.baselineMove(BASELINES[ai], game, seat));
    // The AI thinks on another thread; meanwhile the position may move on (the person moves after all, the room
    // closes), and then its answer is dropped.
    const view = viewFor(game, seat);
    const memory = this.memories[seat];
    const decision = this.aiThreads?.decide(view, memory) ?? Promise.resolve().then(() => aiPolicy(view, unused, memory));
    decision
      .catch(() => legalMoves(game, seat)[0])
      .then((move) => {
        if (this.game !== game) return;
        this.playPolicyMove(game, seat, by, move);
        this.broadcastPatch();
      })
      .catch((error: unknown) => reportTimerFailure(this, error));
  }

  private playPolicyMove(game: FoolState, seat: number, by: FoolMover, move: FoolMove): void {
    let result = applyMove(game, seat, move);
    // A policy that errs must not stall the table: fall back to the first legal move.
    if (!result.ok) result = applyMove(game, seat, legalMoves(game, seat)[0]);
    if (result.ok) this.commit(seat, result, by);
  }

  /** A baseline's move (the seeded dice make a game between baselines replay from its seed). */
  private baselineMove(policy: Policy, game: FoolState, seat: number): FoolMove {
    try {
      return policy(viewFor(game, seat), this.policyRandom);
    } catch {
      return legalMoves(game, seat)[0];
    }
  }

  /** With nobody seated to ask for it, the room deals the next game itself after a pause. */
  private scheduleNextGame(): void {
    const personSeated = this.state.seats.some((held) => held.controller === "player");
    if (personSeated || this.state.phase !== "over" || this.settings.nextGameDelayMs === 0) return;
    this.nextGameTimer.start(this.settings.nextGameDelayMs, () => this.startGame(undefined));
  }

  // ------------------------------------------------------------------ seats

  private watches(options: FoolJoinOptions): boolean {
    return options.spectate === true || this.settings.mode === "ai-vs-ai";
  }

  private freeSeat(preferred: number | undefined): number | null {
    const seats = this.state.seats;
    if (preferred !== undefined) return seats[preferred]?.controller === "open" ? preferred : null;
    const open = seats.findIndex((held) => held.controller === "open");
    return open >= 0 ? open : null;
  }

  private noSeatReason(preferred: number | undefined): string {
    const which = preferred === undefined ? "every seat is taken" : `seat ${preferred} is taken`;
    return `${which}; join with { spectate: true } to watch`;
  }

  private noGameReason(): string {
    return this.state.phase === "waiting" ? "the game starts when both seats are taken" : "the game is over; send newGame to play again";
  }

  private seatOf(client: Client): number | null {
    const seat = this.holders.indexOf(client.sessionId);
    return seat >= 0 ? seat : null;
  }

  private requireSeat(client: Client): number {
    const seat = this.seatOf(client);
    if (seat === null) throw new Rejection("NOT_A_PLAYER", "spectators cannot play");
    return seat;
  }

  private publishMetadata(): void {
    const players = this.state.seats.map((held) => ({ name: held.name, controller: held.controller }));
    // The listing is informational: a failed persist (e.g. while the room is disposing) must not surface.
    this.setMetadata({ game: "fool", mode: this.settings.mode, players, phase: this.state.phase }).catch(() => undefined);
  }
}

/** The move as the engine recorded it (a play rebuilt from its `played` event, so nothing the client sent is echoed). */
function moveMade(events: readonly FoolEvent[]): FoolMove {
  const first = events[0];
  if (first.type !== "played") return first.type === "passed" ? { kind: "pass" } : { kind: "draw" };
  const { card, as, namedSuit } = first.faceUp;
  return {
    kind: "play",
    card,
    ...(isJoker(card) ? { as } : {}),
    ...(namedSuit !== null ? { namedSuit } : {}),
  };
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
