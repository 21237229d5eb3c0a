/**
 * The `tractor` room: the table kit (rooms/kit/table.ts) with the Tractor match engine (match.ts). Four seats
 * (people or bots); the match starts once every seat is held. The room mirrors the engine's state into the schema:
 * each hand goes to its own seat's view only, the buried cards to the dealer's view until the next deal, and every
 * round's seed stays in the engine's state until the round's end reveals it.
 */
import { Rejection, RoomTimer } from "../kit/room-kit";
import { syncList } from "../kit/schema-lists";
import { type Made, type SeatRequest, TableRoom } from "../kit/table";
import { cardName } from "./cards";
import type { Declaration } from "./declaration";
import { heldCards, playsOf, resultOf, roundIsOver, roundOf, shownHand, tableOf, tractorEngine, type TractorAction, type TractorEngineEvent, type TractorMatch, type TractorMatchOptions } from "./match";
import { checkedThrows, classic, tractorRuleset } from "./ruleset";
import { SEATS, teamOf, type Seat } from "./scoring";
import { TRACTOR_DEFAULTS, TRACTOR_HINT_LIMIT, TRACTOR_SEATS, tractorJoinOptions, tractorMessages, tractorRankNumber, type TractorErrorCode, type TractorHint, type TractorJoinOptions } from "./protocol";
import { TractorDeclarationState, TractorResultState, TractorSeatState, TractorState, TractorTrickState } from "./state";

const MAX_SPECTATORS = 64;

export class TractorRoom extends TableRoom<TractorState, TractorJoinOptions, TractorMatchOptions, TractorMatch, TractorAction, TractorEngineEvent, TractorErrorCode> {
  override state = new TractorState();
  protected override readonly engine = tractorEngine;
  protected override readonly joinOptions = tractorJoinOptions;
  private options!: TractorJoinOptions;
  private matchOptions!: TractorMatchOptions;
  private readonly startTimer = new RoomTimer(this);
  private shownDeclaration: Declaration | undefined;
  /** What the schema shows: the round and whether its deal was still under way (a change re-sorts every hand). */
  private shown = "";

  override onCreate(rawOptions: unknown): void {
    const options = (this.options = this.createOptions(rawOptions));
    const ranks = options.startRanks ?? [2, 2];
    const base = options.throws === "check-other-hands" ? checkedThrows : classic;
    const dealer = TRACTOR_SEATS.indexOf(options.dealer ?? "Alice") as Seat;
    const startRanks: [number, number] = [tractorRankNumber(ranks[0]), tractorRankNumber(ranks[1])];
    this.matchOptions = { trump: options.trump ?? "declare", mainSuit: options.mainSuit ?? "O", dealer, startRanks, ruleset: tractorRuleset(options.rules, base) };
    const [turnTimeMs, botDelayMs, reconnectSeconds] = [this.time("turnTimeMs"), this.time("botDelayMs"), this.time("reconnectSeconds")];
    const paces = { deal: this.time("dealDelayMs"), declareWindow: this.time("declareWindowMs"), roundPause: this.time("roundPauseMs") };
    this.openTable({ seats: SEATS.length, maxSpectators: MAX_SPECTATORS, timings: { turnTimeMs, botDelayMs, reconnectSeconds, paces }, messages: Object.values(tractorMessages) });
    for (const seat of SEATS) this.state.seats.push(Object.assign(new TractorSeatState(), { seat: TRACTOR_SEATS[seat], team: teamOf(seat) }));
    for (const name of options.bots ?? []) this.roster.seatBot(TRACTOR_SEATS.indexOf(name), "bot");
    this.state.trump = this.matchOptions.trump;
    this.state.teamRanks.push(...startRanks);
    this.mirror();
    this.metadata = this.listing();
    for (const message of [tractorMessages.declare, tractorMessages.bury, tractorMessages.play]) this.onActionMessage(message, ({ cards }) => ({ type: message.name, cards }) as TractorAction);
    this.onSeatMessage(tractorMessages.hint, (seat, { limit }) => this.hint(seat as Seat, limit ?? TRACTOR_HINT_LIMIT));
  }

  /** Not at once: the joining client registers its event handlers only once its join completes. */
  protected override onTableFull(): void {
    if (this.match !== null || this.startTimer.isPending) return;
    this.startTimer.start(this.time("startDelayMs"), () => {
      if (this.match === null && this.roster.everySeatTaken()) this.startMatch(this.matchOptions, this.options.seed);
    });
  }

  protected override seatRequest(options: TractorJoinOptions): SeatRequest {
    return options.spectate ? { watch: true } : { watch: false, seat: options.seat && TRACTOR_SEATS.indexOf(options.seat) };
  }

  protected override noSeatReason(asked: number | undefined): string {
    if (asked === undefined) return "no open seat: name a bot's seat to take it over, or join with { spectate: true }";
    return `${TRACTOR_SEATS[asked]}'s seat is taken; name an open seat or a bot's, or spectate`;
  }

  protected override personName(options: TractorJoinOptions, seat: number): string {
    return options.name ?? TRACTOR_SEATS[seat];
  }

  protected override noMatch(action: string): Rejection {
    return new Rejection("WRONG_PHASE", `cannot ${action} now: the table is waiting`);
  }

  protected override seatView(seat: number): TractorSeatState {
    return this.state.seats[seat];
  }

  protected override wire(event: TractorEngineEvent, made: Made): unknown {
    if (event.name !== "played") return event.payload;
    const { round, seat, cards, ...rest } = event.payload;
    return { round, seat, cards, auto: made.by === "clock", ...rest };
  }

  private time(name: keyof typeof TRACTOR_DEFAULTS): number {
    return this.options[name] ?? TRACTOR_DEFAULTS[name];
  }

  private hint(seat: Seat, limit: number): TractorHint {
    const none: TractorHint = { phase: this.state.phase, options: [], complete: true, suggestion: [] };
    const match = this.match?.state;
    if (match === undefined) return none;
    const cardsOf = (action: TractorAction | undefined) => (action !== undefined && "cards" in action ? [...action.cards] : []);
    if (match.phase === "declaring") {
      const options = tractorEngine.legalActions(match, seat).actions.map(cardsOf);
      return { ...none, options, suggestion: cardsOf(tractorEngine.volunteer?.(match, seat)) };
    }
    const waiting = tractorEngine.waiting(match);
    if (waiting.for !== "seat" || waiting.seat !== seat) return none;
    // A policy bug must not stop the table (nor reach a log: its message may name cards).
    const suggestion = (() => { try { return cardsOf(tractorEngine.botAction(match, seat)); } catch { return []; } })();
    if (match.phase === "burying") return { ...none, suggestion };
    const legal = tractorEngine.legalActions(match, seat, limit);
    return { ...none, options: legal.actions.map(cardsOf), complete: legal.complete, suggestion };
  }

  protected override mirror(): void {
    const state = this.state;
    this.roster.seats.forEach((held, seat) => Object.assign(state.seats[seat], { occupant: held.holder, player: held.name, connected: held.connected }));
    state.spectators = this.roster.spectators;
    const match = this.match?.state;
    if (match === undefined) return;
    const { setup, declaration } = match;
    const round = roundOf(match);
    const shown = `${match.roundNumber}:${match.phase !== "declaring"}`;
    const newRound = !this.shown.startsWith(`${match.roundNumber}:`);
    if (newRound) {
      state.tricks.clear();
      state.result = undefined;
      for (const seat of state.seats) seat.buried.clear();
      syncList(state.teamRanks, [...setup.teamRanks]);
    }
    const table = tableOf(match);
    const listed = state.phase !== table.phase || state.round !== table.round;
    Object.assign(state, table, { deadline: this.turnDeadline });
    if (declaration !== this.shownDeclaration || newRound) {
      state.declaration = Object.assign(new TractorDeclarationState(), { seat: declaration ? TRACTOR_SEATS[declaration.seat] : "" });
      state.declaration.cards.push(...(declaration?.cards ?? []).map(cardName));
      this.shownDeclaration = declaration;
    }
    while (round !== null && state.tricks.length < round.tricks.length) {
      const trick = round.tricks[state.tricks.length];
      state.tricks.push(Object.assign(new TractorTrickState().fill(TRACTOR_SEATS[trick.leader], playsOf(trick)), { winner: TRACTOR_SEATS[trick.winner], points: trick.points }));
    }
    if (round?.trick === undefined) Object.assign(state.trick.fill("", []), { winner: "", points: 0 });
    else if (state.trick.plays.length !== round.trick.plays.length) state.trick.fill(TRACTOR_SEATS[round.trick.leader], playsOf(round.trick));
    state.defenderPoints = round?.trickPoints ?? 0;
    state.penaltyPoints = round?.penaltyPoints ?? 0;
    for (const seat of SEATS) {
      const seatState = state.seats[seat];
      const count = heldCards(match, seat).length;
      if (shown !== this.shown || seatState.handCount !== count) syncList(seatState.hand, shownHand(match, seat));
      seatState.handCount = count;
    }
    const buried = state.seats[setup.dealer].buried;
    if (round !== null && round.hidden.length > 0 && buried.length === 0) buried.push(...round.hidden.map(cardName));
    if (roundIsOver(match) && state.result === undefined) state.result = TractorResultState.of(resultOf(match));
    this.shown = shown;
    if (listed) this.updateListing();
  }

  protected override listing(): Record<string, unknown> {
    const seats = this.state.seats.map((seat) => [seat.seat, seat.occupant === "person" ? seat.player : seat.occupant]);
    // The kit adds `openSeats` (open and not promised to a joining client) to every listing.
    const score = `ranks ${this.state.teamRanks.join("–")}`;
    return { game: "tractor", phase: this.state.phase, round: this.state.round, trump: this.state.trump, seats: Object.fromEntries(seats), score };
  }
}
