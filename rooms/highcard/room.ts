/**
 * The `highcard` room: the table kit (rooms/kit/table.ts) plus the High Card engine (match.ts). Everything a
 * room of the kit must say is here: its options and timings, its messages, how the engine's state shows in the
 * schema, what the wire events carry beyond the engine's, and its listing.
 */
import { syncList } from "../kit/schema-lists";
import { TableRoom, type Made, type SeatRequest } from "../kit/table";
import { highCardEngine, SEATS, type HighCardAction, type HighCardEvent, type HighCardMatch, type HighCardOptions } from "./match";
import { highCardJoinOptions, highCardMessages, type HighCardErrorCode, type HighCardJoinOptions } from "./protocol";
import { HighCardSeat, HighCardState } from "./state";

const MAX_SPECTATORS = 16;

export class HighCardRoom extends TableRoom<HighCardState, HighCardJoinOptions, HighCardOptions, HighCardMatch, HighCardAction, HighCardEvent, HighCardErrorCode> {
  override state = new HighCardState();
  protected override readonly engine = highCardEngine;
  protected override readonly joinOptions = highCardJoinOptions;
  private seed: number | undefined;

  override onCreate(rawOptions: unknown): void {
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
    for (const seat of options.bots ?? []) this.roster.seatBot(seat, "bot");
    this.metadata = this.listing();
    this.onActionMessage(highCardMessages.play, ({ card }) => ({ type: "play", card }));
  }

  /** The game starts as soon as both seats are held. */
  protected override onTableFull(): void {
    if (this.match === null) this.startMatch({ leader: 0 }, this.seed);
  }

  protected override seatRequest(options: HighCardJoinOptions): SeatRequest {
    return options.spectate ? { watch: true } : { watch: false, seat: options.seat };
  }

  protected override personName(options: HighCardJoinOptions, seat: number): string {
    return options.name ?? `player ${seat + 1}`;
  }

  protected override seatView(seat: number): HighCardSeat {
    return this.state.seats[seat]!;
  }

  protected override wire(event: HighCardEvent, made: Made): unknown {
    return event.name === "played" ? { ...event.payload, by: made.by } : event.payload;
  }

  protected override mirror(): void {
    const state = this.state;
    state.spectators = this.roster.spectators;
    this.roster.seats.forEach((held, seat) => Object.assign(state.seats[seat]!, { name: held.name, holder: held.holder, connected: held.connected }));
    const match = this.match;
    if (match === null) return;
    const waiting = highCardEngine.waiting(match.state);
    state.phase = waiting.for === "dealer" ? "dealing" : waiting.for === "seat" ? "playing" : "over";
    state.turn = waiting.for === "seat" ? waiting.seat : -1;
    state.deadline = this.turnDeadline;
    state.winner = highCardEngine.result(match.state)?.winner ?? -1;
    state.seats.forEach((seatState, seat) => {
      const view = highCardEngine.view(match.state, seat);
      seatState.handCount = view.handCounts[seat]!;
      seatState.tricksWon = view.tricksWon[seat]!;
      syncList(seatState.hand!, view.hand!);
      syncList(state.trick, view.trick);
      state.revealedSeed = view.revealedSeed;
    });
  }

  protected override listing(): Record<string, unknown> {
    return { game: "highcard", phase: this.state.phase, seats: this.roster?.seats.map((held) => held.holder) ?? [] };
  }
}
