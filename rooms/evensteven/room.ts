/**
 * The `evensteven` room: the table kit (rooms/kit/table.ts) with the Even-Steven match engine (match.ts). One
 * seat, the player's; the dealer is the table. The kit shows the engine's view of each game: the hand goes to
 * the player's view only; the deck and the seed stay in the engine's state until the verdict reveals the seed.
 */
import { parseRoomOptions, Rejection } from "../kit/room-kit";
import { type Made, type SeatRequest, TableRoom } from "../kit/table";
import {
  evenStevenEngine,
  PLAYER_SEAT,
  type EvenStevenAction,
  type EvenStevenEngineEvent,
  type EvenStevenMatch,
  type EvenStevenOptions,
} from "./match";
import {
  DEFAULT_CARD_TIME_LIMIT_MS,
  DEFAULT_HAND_SIZE,
  DEFAULT_RECONNECT_SECONDS,
  evenStevenJoinOptions,
  evenStevenLadderOptions,
  evenStevenMessages,
  type EvenStevenErrorCode,
  type EvenStevenJoinOptions,
  type EvenStevenOutcome,
  type EvenStevenPositionView,
  type EvenStevenScoreView,
  type EvenStevenStateView,
  type EvenStevenTableView,
} from "./protocol";
import { EvenStevenPlayer, EvenStevenState, stateMatchesView } from "./state";

const MAX_SPECTATORS = 64;

export class EvenStevenRoom extends TableRoom<
  EvenStevenState,
  EvenStevenJoinOptions,
  EvenStevenOptions,
  EvenStevenMatch,
  EvenStevenAction,
  EvenStevenEngineEvent,
  EvenStevenErrorCode,
  EvenStevenStateView
> {
  override state = new EvenStevenState();
  override readonly engine = evenStevenEngine;
  override readonly joinOptions = evenStevenJoinOptions;
  protected override readonly stateMatchesView = stateMatchesView;
  /** The games before the current one, counted by outcome. */
  private scoreBefore: EvenStevenScoreView = {
    games: 0,
    wins: 0,
    necessaryLosses: 0,
    unnecessaryLosses: 0,
    timeOuts: 0,
  };

  /** A ladder table (docs/arena.md, "Solo ladders"): its player's one deal of the period, nobody watching. */
  private ladderTable = false;

  protected override createTable(rawOptions: unknown): void {
    const options = this.createOptions(rawOptions);
    this.ladderTable = options.ladder === true;
    if (this.ladderTable) parseRoomOptions(evenStevenLadderOptions, options, "create");
    this.openTable({
      seats: 1,
      maxSpectators: this.ladderTable ? 0 : MAX_SPECTATORS,
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
      const shown = this.shownView();
      if (this.ladderTable)
        throw new Rejection(
          "LADDER_TABLE",
          "a ladder table plays its one deal: ask the ladder again for your next deal",
        );
      if (shown.phase === "playing")
        throw new Rejection("GAME_IN_PROGRESS", "finish this game before starting another");
      this.deal(n ?? shown.handSize, seed);
    });
  }

  override onJoined(place: number | "watch", options: EvenStevenJoinOptions, auth: unknown): void {
    if (place === "watch") return;
    // Every ladder deal has the default hand: the same game for everyone in the period.
    if (this.ladderTable) this.deal(DEFAULT_HAND_SIZE, this.takeLadderDeal(auth).seed);
    else this.deal(options.n ?? DEFAULT_HAND_SIZE, options.seed);
  }

  override seatRequest(options: EvenStevenJoinOptions): SeatRequest {
    if (options.spectate && this.ladderTable) this.refuseLadderSpectator();
    return options.spectate ? { watch: true } : { watch: false };
  }

  override noSeatReason(): string {
    return "this game already has its player; join with { spectate: true } to watch";
  }

  override personName(options: EvenStevenJoinOptions): string {
    return options.name ?? "player";
  }

  override noMatch(): Rejection {
    return new Rejection("NO_CARD_TO_COVER", "no card is waiting to be covered; send newGame to play again");
  }

  /** The player is gone for good: an unfinished game is forfeited, and the room closes once spectators leave. */
  override onPersonLeft(seat: number): void {
    this.roster.setConnected(seat, false);
    const match = this.match;
    if (match !== null && match.state.outcome === null) this.act(match, "dealer", { type: "timeout" }, "dealer");
    void this.disconnect();
  }

  override seatView(): EvenStevenPlayer {
    return (this.state.player ??= new EvenStevenPlayer());
  }

  override wire(event: EvenStevenEngineEvent, _made: Made): unknown {
    const game = this.match!.number;
    if (event.name === "deal") return { game, ...event.payload, deadline: this.turnDeadline };
    return { game, ...event.payload };
  }

  override tableView(): EvenStevenTableView {
    const held = this.roster.seats[PLAYER_SEAT];
    return {
      game: this.match?.number ?? 0,
      deadline: this.turnDeadline,
      score: withOutcome(this.scoreBefore, this.match?.state.outcome ?? null),
      player: held.holder === "open" ? undefined : { name: held.name, connected: held.connected },
      spectators: this.roster.spectators,
    };
  }

  override viewBeforeMatch(): EvenStevenPositionView {
    return {
      phase: "waiting",
      handSize: 0,
      cardsInHand: 0,
      toCover: "",
      dealt: [],
      played: [],
      outcome: "",
      revealedSeed: 0,
      undealt: [],
      unplayed: [],
    };
  }

  /** A new game; the last one's outcome joins the score before it. */
  private deal(n: number, seed: number | undefined): void {
    this.scoreBefore = withOutcome(this.scoreBefore, this.match?.state.outcome ?? null);
    this.startMatch({ n }, seed);
  }

  override listing(): Record<string, unknown> {
    if (this.roster === undefined) return { game: "evensteven", player: "", phase: "waiting", score: "0 won of 0" };
    const { phase, score } = this.shownView();
    const ladder = this.ladderTable ? { ladder: true } : {}; // the lobby offers no Watch on a ladder table
    return {
      game: "evensteven",
      player: this.roster.seats[PLAYER_SEAT].name,
      phase,
      score: `${score.wins} won of ${score.games}`,
      ...ladder,
    };
  }
}

/** The score with one more game's outcome counted (none while a game runs). */
function withOutcome(score: EvenStevenScoreView, outcome: EvenStevenOutcome | null): EvenStevenScoreView {
  if (outcome === null) return score;
  const { games, wins, necessaryLosses, unnecessaryLosses, timeOuts } = score;
  return {
    games: games + 1,
    wins: wins + (outcome === "WIN" ? 1 : 0),
    necessaryLosses: necessaryLosses + (outcome === "LOSE NECESSARILY" ? 1 : 0),
    unnecessaryLosses: unnecessaryLosses + (outcome === "LOSE UNNECESSARILY" ? 1 : 0),
    timeOuts: timeOuts + (outcome === "TIME OUT" ? 1 : 0),
  };
}
