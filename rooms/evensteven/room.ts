/**
 * The `evensteven` room: the table kit (rooms/kit/table.ts) with the Even-Steven match engine (match.ts). One
 * seat, the player's; the dealer is the table. The room mirrors each game into the schema state: the hand goes to
 * the player's view only; the deck and the seed stay in the engine's state until the verdict reveals the seed.
 */
import { syncList } from "../kit/schema-lists";
import { Rejection } from "../kit/room-kit";
import { type Made, type SeatRequest, TableRoom } from "../kit/table";
import { evenStevenEngine, PLAYER_SEAT, type EvenStevenAction, type EvenStevenEngineEvent, type EvenStevenMatch, type EvenStevenOptions } from "./match";
import {
  DEFAULT_CARD_TIME_LIMIT_MS,
  DEFAULT_HAND_SIZE,
  DEFAULT_RECONNECT_SECONDS,
  evenStevenJoinOptions,
  evenStevenMessages,
  type EvenStevenErrorCode,
  type EvenStevenJoinOptions,
  type EvenStevenOutcome,
} from "./protocol";
import { EvenStevenPlayer, EvenStevenState } from "./state";

const MAX_SPECTATORS = 64;

export class EvenStevenRoom extends TableRoom<
  EvenStevenState,
  EvenStevenJoinOptions,
  EvenStevenOptions,
  EvenStevenMatch,
  EvenStevenAction,
  EvenStevenEngineEvent,
  EvenStevenErrorCode
> {
  override state = new EvenStevenState();
  protected override readonly engine = evenStevenEngine;
  protected override readonly joinOptions = evenStevenJoinOptions;

  override onCreate(rawOptions: unknown): void {
    const options = this.createOptions(rawOptions);
    this.openTable({
      seats: 1,
      maxSpectators: MAX_SPECTATORS,
      timings: {
        turnTimeMs: options.cardTimeLimitMs ?? DEFAULT_CARD_TIME_LIMIT_MS,
        botDelayMs: 0,
        reconnectSeconds: options.reconnectSeconds ?? DEFAULT_RECONNECT_SECONDS,
        paces: {},
      },
      messages: Object.values(evenStevenMessages),
    });
    this.metadata = this.listing();
    this.onActionMessage(evenStevenMessages.play, ({ card }) => ({ type: "play", card }));
    this.onSeatMessage(evenStevenMessages.newGame, (_seat, { n, seed }) => {
      if (this.state.phase === "playing") throw new Rejection("GAME_IN_PROGRESS", "finish this game before starting another");
      this.startMatch({ n: n ?? this.state.handSize }, seed);
    });
  }

  protected override onJoined(place: number | "watch", options: EvenStevenJoinOptions): void {
    if (place !== "watch") this.startMatch({ n: options.n ?? DEFAULT_HAND_SIZE }, options.seed);
  }

  protected override seatRequest(options: EvenStevenJoinOptions): SeatRequest {
    return options.spectate ? { watch: true } : { watch: false };
  }

  protected override noSeatReason(): string {
    return "this game already has its player; join with { spectate: true } to watch";
  }

  protected override personName(options: EvenStevenJoinOptions): string {
    return options.name ?? "player";
  }

  protected override noMatch(): Rejection {
    return new Rejection("NO_CARD_TO_COVER", "no card is waiting to be covered; send newGame to play again");
  }

  /** The player is gone for good: an unfinished game is forfeited, and the room closes once spectators leave. */
  protected override onPersonLeft(seat: number): void {
    this.roster.setConnected(seat, false);
    const match = this.match;
    if (match !== null && match.state.outcome === null) this.act(match, "dealer", { type: "timeout" }, "dealer");
    void this.disconnect();
  }

  protected override onMatchOver(): void {
    countOutcome(this.state, this.match!.state.outcome!);
  }

  protected override seatView(): EvenStevenPlayer {
    return (this.state.player ??= new EvenStevenPlayer());
  }

  protected override wire(event: EvenStevenEngineEvent, _made: Made): unknown {
    const game = this.match!.number;
    if (event.name === "deal") return { game, ...event.payload, deadline: this.turnDeadline };
    return { game, ...event.payload };
  }

  protected override mirror(): void {
    const state = this.state;
    const held = this.roster.seats[PLAYER_SEAT];
    if (held.holder !== "open") {
      const player = this.seatView();
      player.name = held.name;
      player.connected = held.connected;
    }
    state.spectators = this.roster.spectators;
    const match = this.match;
    if (match === null) return;
    const view = evenStevenEngine.view(match.state, PLAYER_SEAT);
    state.phase = view.over ? "over" : "playing";
    state.game = match.number;
    state.handSize = view.handSize;
    state.cardsInHand = view.cardsInHand;
    state.toCover = view.toCover;
    state.deadline = view.over ? 0 : this.turnDeadline;
    syncList(state.dealt, view.dealt);
    syncList(state.played, view.played);
    state.outcome = view.outcome;
    state.revealedSeed = view.revealedSeed;
    if (state.player) syncList(state.player.hand!, view.hand ?? []);
  }

  protected override listing(): Record<string, unknown> {
    const { games, wins } = this.state.score;
    return { game: "evensteven", player: this.roster?.seats[PLAYER_SEAT].name ?? "", phase: this.state.phase, score: `${wins} won of ${games}` };
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
