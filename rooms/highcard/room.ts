/**
 * The `highcard` room: the table kit (rooms/kit/table.ts) plus the High Card engine (match.ts). Everything a
 * room of the kit must say is here: its options and timings, its messages, how the table shows beside the
 * engine's view, what the wire events carry beyond the engine's, and its listing.
 */
import { TableRoom, type Made, type SeatRequest } from "../kit/table";
import {
  highCardEngine,
  SEATS,
  type HighCardAction,
  type HighCardEvent,
  type HighCardMatch,
  type HighCardOptions,
} from "./match";
import {
  highCardJoinOptions,
  highCardMessages,
  type HighCardErrorCode,
  type HighCardJoinOptions,
  type HighCardPositionView,
  type HighCardStateView,
  type HighCardTableView,
} from "./protocol";
import { type HighCardSeat, HighCardState, stateMatchesView } from "./state";
import type { Viewer } from "../kit/engine";
import { SEAT_BOT_NAME } from "../kit/seats";

const MAX_SPECTATORS = 16;

export class HighCardRoom extends TableRoom<
  HighCardState,
  HighCardJoinOptions,
  HighCardOptions,
  HighCardMatch,
  HighCardAction,
  HighCardEvent,
  HighCardErrorCode,
  HighCardStateView
> {
  override state = new HighCardState();
  override readonly engine = highCardEngine;
  override readonly joinOptions = highCardJoinOptions;
  protected override readonly stateMatchesView = stateMatchesView;
  private seed: number | undefined;

  protected override createTable(rawOptions: unknown): void {
    const options = this.createOptions(rawOptions);
    this.openTable({
      seats: SEATS,
      maxSpectators: MAX_SPECTATORS,
      timings: {
        turnTimeMs: options.turnTimeMs ?? 30_000,
        botDelayMs: options.botDelayMs ?? 0,
        reconnectSeconds: options.reconnectSeconds ?? 30,
        paces: { deal: options.dealDelayMs ?? 0 },
      },
      messages: Object.values(highCardMessages),
    });
    this.seed = options.seed;
    for (const seat of options.bots ?? []) this.roster.seatBot(seat, SEAT_BOT_NAME);
    this.metadata = this.listing();
    this.onActionMessage(highCardMessages.play, ({ card }) => ({ type: "play", card }));
  }

  /** The game starts as soon as both seats are held. */
  override onTableFull(): void {
    if (this.match === null) this.startMatch({ leader: 0 }, this.seed);
  }

  override seatRequest(options: HighCardJoinOptions): SeatRequest {
    return options.spectate ? { watch: true } : { watch: false, seat: options.seat };
  }

  override personName(options: HighCardJoinOptions, seat: number): string {
    return options.name ?? `player ${seat + 1}`;
  }

  override seatView(seat: number): HighCardSeat {
    return this.state.seats[seat]!;
  }

  override wire(event: HighCardEvent, made: Made): unknown {
    return event.name === "played" ? { ...event.payload, by: made.by } : event.payload;
  }

  override tableView(): HighCardTableView {
    const seats = this.roster.seats.map(({ name, holder, connected }) => ({ name, holder, connected }));
    return { deadline: this.turnDeadline, seats, spectators: this.roster.spectators };
  }

  override viewBeforeMatch(viewer: Viewer): HighCardPositionView {
    const seats = Array.from({ length: SEATS }, (_, seat) => ({
      handCount: 0,
      tricksWon: 0,
      ...(seat === viewer ? { hand: [] } : {}),
    }));
    return { phase: "waiting", turn: -1, trick: [], seats, winner: -1, revealedSeed: 0 };
  }

  override listing(): Record<string, unknown> {
    if (this.roster === undefined) return { game: "highcard", phase: "waiting", seats: [] };
    return { game: "highcard", phase: this.shownView().phase, seats: this.roster.seats.map((held) => held.holder) };
  }
}
