/**
 * The `evensteven` room: the dealer is the room's authority. It turns validated messages into engine calls,
 * mirrors the result into the public state and decides who sees what: the hand goes to the player's view only,
 * the deck and the seed stay in `this.game` until the verdict reveals the seed.
 */
import { Room, ServerError, type Client, type RoomException, type RoomMethodName } from "@colyseus/core";
import { StateView } from "@colyseus/schema";
import { freshSeed } from "../kit/random";
import { handleMessage, parseRoomOptions, patchOnChange, Rejection, rejectUnknownMessages, reportUncaught, RoomTimer } from "../kit/room-kit";
import {
  cardToCover,
  describeFault,
  newGame,
  playCard,
  type Game,
  type PlayFault,
} from "./engine";
import {
  DEFAULT_CARD_TIME_LIMIT_MS,
  DEFAULT_HAND_SIZE,
  DEFAULT_RECONNECT_SECONDS,
  evenStevenEvents,
  evenStevenJoinOptions,
  evenStevenMessages,
  type DealEvent,
  type EvenStevenErrorCode,
  type EvenStevenOutcome,
  type HandEvent,
  type PlayedEvent,
  type VerdictEvent,
} from "./protocol";
import { EvenStevenPlayer, EvenStevenState } from "./state";

const MAX_SPECTATORS = 64;

const FAULT_CODES: Record<PlayFault["kind"], EvenStevenErrorCode> = {
  "not-a-card": "NOT_A_CARD",
  "not-in-hand": "NOT_IN_HAND",
  "played-twice": "ALREADY_PLAYED",
  "game-over": "NO_CARD_TO_COVER",
};

export class EvenStevenRoom extends Room<{ state: EvenStevenState }> {
  override maxClients = 1 + MAX_SPECTATORS;
  override state = new EvenStevenState();

  private game: Game | null = null;
  private playerSessionId: string | null = null;
  private cardTimeLimitMs = DEFAULT_CARD_TIME_LIMIT_MS;
  private reconnectSeconds = DEFAULT_RECONNECT_SECONDS;
  private readonly cardTimer = new RoomTimer(this);

  override onCreate(rawOptions: unknown): void {
    const options = parseRoomOptions(evenStevenJoinOptions, rawOptions, "create");
    this.cardTimeLimitMs = options.cardTimeLimitMs ?? DEFAULT_CARD_TIME_LIMIT_MS;
    this.reconnectSeconds = options.reconnectSeconds ?? DEFAULT_RECONNECT_SECONDS;
    this.metadata = { game: "evensteven", player: "", phase: "waiting" };
    patchOnChange(this);
    handleMessage(this, evenStevenMessages.play, (client, { card }) => this.onPlay(client, card));
    handleMessage(this, evenStevenMessages.newGame, (client, { n, seed }) => {
      this.requirePlayer(client);
      if (this.state.phase === "playing") throw new Rejection("GAME_IN_PROGRESS", "finish this game before starting another");
      this.startGame(n ?? this.state.handSize, seed);
    });
    rejectUnknownMessages(this, Object.values(evenStevenMessages));
  }

  override onAuth(_client: Client, rawOptions: unknown): boolean {
    const options = parseRoomOptions(evenStevenJoinOptions, rawOptions, "join");
    if (!options.spectate && this.playerSessionId !== null) {
      throw new ServerError(4403, "this game already has its player; join with { spectate: true } to watch");
    }
    if (options.spectate && this.state.spectators >= MAX_SPECTATORS) throw new ServerError(4403, "no room for more spectators");
    return true;
  }

  override onJoin(client: Client, rawOptions: unknown): void {
    const options = parseRoomOptions(evenStevenJoinOptions, rawOptions, "join");
    if (options.spectate) {
      this.state.spectators++;
      return;
    }
    this.playerSessionId = client.sessionId;
    const player = new EvenStevenPlayer();
    player.name = options.name ?? "player";
    this.state.player = player;
    const view = new StateView();
    view.add(player);
    client.view = view;
    this.setMetadata({ ...this.metadata, player: player.name });
    this.startGame(options.n ?? DEFAULT_HAND_SIZE, options.seed);
  }

  override async onDrop(client: Client): Promise<void> {
    if (client.sessionId !== this.playerSessionId) return;
    this.state.player!.connected = false;
    await this.allowReconnection(client, this.reconnectSeconds);
  }

  override onReconnect(client: Client): void {
    if (client.sessionId === this.playerSessionId) this.state.player!.connected = true;
  }

  override onLeave(client: Client): void {
    if (client.sessionId !== this.playerSessionId) {
      this.state.spectators = Math.max(0, this.state.spectators - 1);
      return;
    }
    // The player is gone for good: an unfinished game is forfeited, and the room closes once spectators leave.
    this.state.player!.connected = false;
    if (this.state.phase === "playing") this.finishGame("TIME OUT");
    this.disconnect();
  }

  override onUncaughtException(error: RoomException, methodName: RoomMethodName): void {
    reportUncaught(this, error, methodName);
  }

  override onDispose(): void {
    this.cardTimer.clear();
  }

  private startGame(n: number, seed?: number): void {
    this.game = newGame(n, seed ?? freshSeed());
    const state = this.state;
    state.phase = "playing";
    state.game++;
    state.handSize = n;
    state.outcome = "";
    state.revealedSeed = 0;
    state.dealt.clear();
    state.played.clear();
    state.player!.hand.clear();
    state.player!.hand.push(...this.game.hand);
    state.cardsInHand = this.game.hand.length;
    this.sendToPlayer(evenStevenEvents.hand, { game: state.game, cards: [...this.game.hand] } satisfies HandEvent);
    this.setMetadata({ ...this.metadata, phase: "playing" });
    this.dealNextCard();
  }

  private dealNextCard(): void {
    const card = cardToCover(this.game!);
    if (card === null) return;
    this.state.toCover = card;
    this.state.dealt.push(card);
    this.state.deadline = Date.now() + this.cardTimeLimitMs;
    this.cardTimer.start(this.cardTimeLimitMs, () => this.finishGame("TIME OUT"));
    const event: DealEvent = { game: this.state.game, card, index: this.state.dealt.length, deadline: this.state.deadline };
    this.broadcast(evenStevenEvents.deal, event);
  }

  private onPlay(client: Client, card: string): void {
    this.requirePlayer(client);
    if (this.state.phase !== "playing" || !this.game) {
      throw new Rejection("NO_CARD_TO_COVER", "no card is waiting to be covered; send newGame to play again");
    }
    const result = playCard(this.game, card);
    if (!result.ok) throw new Rejection(FAULT_CODES[result.fault.kind], describeFault(result.fault));
    this.game = result.game;
    this.state.played.push(card);
    const hand = this.state.player!.hand;
    hand.splice(hand.indexOf(card), 1);
    this.state.cardsInHand = hand.length;
    this.state.toCover = "";
    const event: PlayedEvent = { game: this.state.game, card, dealt: result.dealt, covered: result.covered };
    this.broadcast(evenStevenEvents.played, event);
    if (this.game.verdict) this.finishGame(this.game.verdict);
    else this.dealNextCard();
  }

  private finishGame(outcome: EvenStevenOutcome): void {
    const game = this.game!;
    this.cardTimer.clear();
    const state = this.state;
    state.phase = "over";
    state.toCover = "";
    state.deadline = 0;
    state.outcome = outcome;
    state.revealedSeed = game.seed;
    countOutcome(state, outcome);
    const event: VerdictEvent = {
      game: state.game,
      outcome,
      n: game.n,
      seed: game.seed,
      dealt: [...state.dealt],
      played: [...game.played],
    };
    this.broadcast(evenStevenEvents.verdict, event);
    this.setMetadata({ ...this.metadata, phase: "over" });
  }

  private requirePlayer(client: Client): void {
    if (client.sessionId !== this.playerSessionId) throw new Rejection("NOT_A_PLAYER", "spectators cannot play");
  }

  private sendToPlayer(type: string, message: unknown): void {
    this.clients.find((client) => client.sessionId === this.playerSessionId)?.send(type, message);
  }
}

function countOutcome(state: EvenStevenState, outcome: EvenStevenOutcome): void {
  const score = state.score;
  score.games++;
  if (outcome === "WIN") score.wins++;
  else if (outcome === "LOSE NECESSARILY") score.necessaryLosses++;
  else if (outcome === "LOSE UNNECESSARILY") score.unnecessaryLosses++;
  else score.timeOuts++;
}
