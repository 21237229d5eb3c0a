/**
 * The `tractor` room: the table kit (rooms/kit/table.ts) with the Tractor match engine (match.ts). Four seats
 * (people or bots); the match starts once every seat is held. The kit shows the engine's view of each seat:
 * each hand goes to its own seat's view only, the buried cards to the dealer's view until the next deal, and every
 * round's seed stays in the engine's state until the round's end reveals it.
 */
import { freshDealSeed } from "../kit/deal-seal";
import { Rejection, RoomTimer } from "../kit/room-kit";
import { type Made, type SeatRequest, TableRoom } from "../kit/table";
import {
  roundOf,
  tableOf,
  tractorEngine,
  type TractorAction,
  type TractorEngineEvent,
  type TractorMatch,
  type TractorMatchOptions,
} from "./match";
import { checkedThrows, classic, tractorRuleset } from "./ruleset";
import { SEATS, teamOf, type Seat } from "./scoring";
import {
  TRACTOR_DEFAULTS,
  TRACTOR_HINT_LIMIT,
  TRACTOR_SEATS,
  tractorJoinOptions,
  tractorMessages,
  tractorRankNumber,
  type TractorErrorCode,
  type TractorHint,
  type TractorJoinOptions,
} from "./protocol";
import type { TractorPositionView, TractorSeatPositionView, TractorStateView, TractorTableView } from "./protocol";
import { stateMatchesView, type TractorSeatState, TractorState } from "./state";
import type { Viewer } from "../kit/engine";
import { cardName, type Card } from "./cards";
import { decideInProcess, easyPolicy, type TractorAiDecider } from "./levels";
import { tractorBotName, type TractorBotLevel } from "./protocol";
import type { RecordedSeat } from "../kit/record";
import { seatView } from "./seat-view";
import { SEAT_BOT_NAME } from "../kit/seats";
import { HAND_CARDS } from "./round";
import {
  declarationCandidates,
  declarationMoment,
  declarationViewOf,
  declareInProcess,
  type TractorDeclarationDecider,
} from "./declaration-search";

const MAX_SPECTATORS = 64;

export class TractorRoom extends TableRoom<
  TractorState,
  TractorJoinOptions,
  TractorMatchOptions,
  TractorMatch,
  TractorAction,
  TractorEngineEvent,
  TractorErrorCode,
  TractorStateView
> {
  override state = new TractorState();
  override readonly engine = tractorEngine;
  override readonly joinOptions = tractorJoinOptions;
  protected override readonly stateMatchesView = stateMatchesView;
  private options!: TractorJoinOptions;
  private matchOptions!: TractorMatchOptions;
  private readonly startTimer = new RoomTimer(this);
  /** The seats the table was made with bots in: the house's bots at their levels (a person's seat a bot took over is not). */
  private houseSeats = new Set<number>();
  /** The phase and round the listing shows. */
  private listed = "";

  /** The server's threads for the strong bots, or null to decide in-process. */
  private strongThreads: TractorAiDecider | null = null;
  /** The server's threads for the strong bots' declarations, or null to declare in-process. */
  private strongDeclarations: TractorDeclarationDecider | null = null;
  /** What each strong seat was last asked to declare about (the match, the round and its declarationMoment). */
  private readonly declarationAsked = new Map<number, string>();

  protected override createTable(rawOptions: unknown): void {
    const { tractorAi, ...clientOptions } = (rawOptions ?? {}) as {
      tractorAi?: Partial<TractorAiDecider & TractorDeclarationDecider>;
    };
    // Only the server can put a pool there: a client's JSON carries no function.
    this.strongThreads = typeof tractorAi?.decide === "function" ? (tractorAi as TractorAiDecider) : null;
    this.strongDeclarations =
      typeof tractorAi?.declaration === "function" ? (tractorAi as TractorDeclarationDecider) : null;
    const options = (this.options = this.createOptions(clientOptions));
    const ranks = options.startRanks ?? [2, 2];
    const base = options.throws === "check-other-hands" ? checkedThrows : classic;
    const dealer = TRACTOR_SEATS.indexOf(options.dealer ?? "Alice") as Seat;
    const startRanks: [number, number] = [tractorRankNumber(ranks[0]), tractorRankNumber(ranks[1])];
    this.matchOptions = {
      trump: options.trump ?? "declare",
      mainSuit: options.mainSuit ?? "O",
      dealer,
      startRanks,
      ruleset: tractorRuleset(options.rules, base),
    };
    const [turnTimeMs, botDelayMs, reconnectSeconds] = [
      this.time("turnTimeMs"),
      this.time("botDelayMs"),
      this.time("reconnectSeconds"),
    ];
    const paces = {
      deal: this.time("dealDelayMs"),
      declareWindow: this.time("declareWindowMs"),
      roundPause: this.time("roundPauseMs"),
    };
    this.openTable({
      seats: SEATS.length,
      maxSpectators: MAX_SPECTATORS,
      timings: { turnTimeMs, botDelayMs, reconnectSeconds, paces },
      messages: Object.values(tractorMessages),
    });
    for (const name of options.bots ?? []) this.roster.seatBot(TRACTOR_SEATS.indexOf(name), SEAT_BOT_NAME);
    this.houseSeats = new Set((options.bots ?? []).map((name) => TRACTOR_SEATS.indexOf(name)));
    if (Object.values(options.botLevels ?? {}).includes("strong")) this.strongThreads?.warm?.();
    this.showChanges();
    this.metadata = this.listing();
    for (const message of [tractorMessages.declare, tractorMessages.bury, tractorMessages.play])
      this.onActionMessage(message, ({ cards }) => ({ type: message.name, cards }) as TractorAction);
    this.onSeatMessage(tractorMessages.hint, (seat, { limit }) => this.hint(seat as Seat, limit ?? TRACTOR_HINT_LIMIT));
  }

  /** Not at once: the joining client registers its event handlers only once its join completes. */
  override onTableFull(): void {
    if (this.match !== null || this.startTimer.isPending) return;
    this.startTimer.start(this.time("startDelayMs"), () => {
      if (this.match === null && this.roster.everySeatTaken()) this.startMatch(this.matchOptions, this.options.seed);
    });
  }

  /**
   * A match whose creator gave no seed deals each later round from a fresh seed: derived from the match's seed, a
   * round's deal would follow from the first round's revealed seed by a search of the 31-bit match seeds. A match
   * given a seed (a reproducible one, a tournament's duplicate deals) keeps its rounds' seeds derived.
   */
  override dealerActionFor(due: TractorAction): TractorAction {
    return due.type === "nextRound" && this.options.seed === undefined ? { ...due, seed: freshDealSeed() } : due;
  }

  override seatRequest(options: TractorJoinOptions): SeatRequest {
    return options.spectate
      ? { watch: true }
      : { watch: false, seat: options.seat && TRACTOR_SEATS.indexOf(options.seat) };
  }

  override noSeatReason(asked: number | undefined): string {
    if (asked === undefined) return "no open seat: name a bot's seat to take it over, or join with { spectate: true }";
    return `${TRACTOR_SEATS[asked]}'s seat is taken; name an open seat or a bot's, or spectate`;
  }

  override personName(options: TractorJoinOptions, seat: number): string {
    return options.name ?? TRACTOR_SEATS[seat];
  }

  override noMatch(action: string): Rejection {
    return new Rejection("WRONG_PHASE", `cannot ${action} now: the table is waiting`);
  }

  /** The seat's level (botLevels), for its own bot and for the clock playing a silent person's seat. */
  private levelOf(seat: number): TractorBotLevel {
    return this.options.botLevels?.[TRACTOR_SEATS[seat]] ?? "normal";
  }

  /**
   * A bot seat's action at its level: normal is the engine's own bot (as before levels); easy slips now and then;
   * strong plays and buries by search from the seat's view (on the server's threads when there are some).
   * Easy's burials are the heuristic's; declarations are the heuristic's (botDeclaration) but for strong seats
   * (see `volunteer`).
   */
  override decide(state: TractorMatch, seat: number): TractorAction | undefined | Promise<TractorAction | undefined> {
    const level = this.levelOf(seat);
    const phase = state.phase;
    if (level === "normal" || (phase !== "playing" && phase !== "burying") || state.round.turn !== seat)
      return super.decide(state, seat);
    if (level === "easy" && phase === "burying") return super.decide(state, seat);
    const round = state.round;
    const view = seatView(round, seat as Seat);
    const played = (cards: readonly Card[]): TractorAction => ({
      type: phase === "burying" ? "bury" : "play",
      cards: cards.map(cardName),
    });
    // The slips draw on no seed of the table's: a record keeps the plays made, not the dice.
    if (level === "easy") return played(easyPolicy(round.ruleset, Math.random).choosePlay(view));
    const declaration =
      state.declaration === undefined
        ? {}
        : { declaration: { seat: state.declaration.seat, cards: [...state.declaration.cards] } };
    const task = { view, rules: round.ruleset, context: declaration };
    if (this.strongThreads === null) return played(decideInProcess(task));
    return this.strongThreads.decide(task).then(played);
  }

  /**
   * A strong seat declares by search (declaration-search.ts) from what it has been dealt, on the server's threads
   * when there are some: asked whenever its declaration options or the standing declaration change, and once its
   * hand is complete; its answer is made when it comes if the round is still being dealt, nobody has declared since
   * and the engine accepts it. Other levels declare as the seat bot does, at once.
   */
  override volunteer(
    state: TractorMatch,
    seat: number,
  ): TractorAction | undefined | Promise<TractorAction | undefined> {
    if (this.levelOf(seat) !== "strong" || state.phase !== "declaring") return super.volunteer(state, seat);
    const rules = state.options.ruleset;
    const view = declarationViewOf(state, seat as Seat);
    const moment = `${this.match?.number}|${state.roundNumber}|${declarationMoment(view, rules)}`;
    if (this.declarationAsked.get(seat) === moment || declarationCandidates(view, rules).length === 0) return undefined;
    this.declarationAsked.set(seat, moment);
    const declared = (cards: readonly Card[] | undefined): TractorAction | undefined =>
      cards === undefined ? undefined : { type: "declare", cards: cards.map(cardName) };
    if (this.strongDeclarations === null) return declared(declareInProcess({ view, rules }));
    return this.strongDeclarations.declaration({ view, rules }).then(declared);
  }

  /** A declaration decided elsewhere is made only in the round it was asked in, while dealing, over the same standing declaration. */
  override volunteerStillFits(asked: TractorMatch, now: TractorMatch): boolean {
    return (
      asked.phase === "declaring" &&
      now.phase === "declaring" &&
      asked.roundNumber === now.roundNumber &&
      asked.declaration === now.declaration
    );
  }

  /**
   * Gone for good: before the match the seat opens again. In a round the person has played in (a card, or the
   * dealer's burial) the seat's bot finishes it under their name and identity, and the round is theirs, forfeited
   * (rooms/tractor/records.ts); otherwise (between rounds, or a round just dealt, as for a program that leaves
   * after the rounds it came for) the seat is a bot's at once, as it is from the next round on. Someone who takes
   * the seat over before the round ends plays it under their own name instead.
   */
  override onPersonLeft(seat: number): void {
    if (this.match === null) return this.roster.open(seat);
    if (playedInRound(this.match.state, seat as Seat)) return this.roster.seatStandIn(seat);
    this.roster.seatBot(seat, SEAT_BOT_NAME);
  }

  /** The round a person left is recorded as theirs: the next is their seat bot's. */
  override onRoundOver(): void {
    this.roster.seats.forEach((held, seat) => held.left && this.roster.seatBot(seat, SEAT_BOT_NAME));
  }

  /** A person who takes a house bot's seat over makes it theirs: should they leave, the bot plays on for them. */
  override onJoined(place: number | "watch"): void {
    if (place !== "watch") this.houseSeats.delete(place);
  }

  /** A bot the table was made with is recorded as the house's bot at its level, which the standings rate (docs/arena.md). */
  override recordedSeat(seat: number): RecordedSeat {
    const recorded = super.recordedSeat(seat);
    if (recorded.kind !== "bot" || !this.houseSeats.has(seat)) return recorded;
    const name = tractorBotName(this.levelOf(seat));
    return { ...recorded, name, identity: { kind: "house", name } };
  }

  override seatView(seat: number): TractorSeatState {
    return this.state.seats[seat];
  }

  override wire(event: TractorEngineEvent, made: Made): unknown {
    if (event.name !== "played") return event.payload;
    const { round, seat, cards, ...rest } = event.payload;
    return { round, seat, cards, auto: made.by === "clock", ...rest };
  }

  private time(name: keyof typeof TRACTOR_DEFAULTS): number {
    return this.options[name] ?? TRACTOR_DEFAULTS[name];
  }

  private hint(seat: Seat, limit: number): TractorHint {
    const none: TractorHint = {
      phase: this.match === null ? "waiting" : tableOf(this.match.state).phase,
      options: [],
      complete: true,
      suggestion: [],
    };
    const match = this.match?.state;
    if (match === undefined) return none;
    const cardsOf = (action: TractorAction | undefined) =>
      action !== undefined && "cards" in action ? [...action.cards] : [];
    if (match.phase === "declaring") {
      const options = tractorEngine.legalActions(match, seat).actions.map(cardsOf);
      return { ...none, options, suggestion: cardsOf(tractorEngine.volunteer?.(match, seat)) };
    }
    const waiting = tractorEngine.waiting(match);
    if (waiting.for !== "seat" || waiting.seat !== seat) return none;
    // A policy bug must not stop the table (nor reach a log: its message may name cards).
    const suggestion = (() => {
      try {
        return cardsOf(tractorEngine.botAction(match, seat));
      } catch {
        return [];
      }
    })();
    if (match.phase === "burying") return { ...none, suggestion };
    const legal = tractorEngine.legalActions(match, seat, limit);
    return { ...none, options: legal.actions.map(cardsOf), complete: legal.complete, suggestion };
  }

  override tableView(): TractorTableView {
    const seats = this.roster.seats.map(({ holder, name, connected }) => ({
      occupant: holder,
      player: name,
      connected,
    }));
    return { deadline: this.turnDeadline, seats, spectators: this.roster.spectators };
  }

  override viewBeforeMatch(viewer: Viewer): TractorPositionView {
    const { trump, startRanks } = this.matchOptions;
    const seats = SEATS.map((seat) => {
      const shown: TractorSeatPositionView = { seat: TRACTOR_SEATS[seat], team: teamOf(seat), handCount: 0 };
      return seat === viewer ? { ...shown, hand: [], buried: [] } : shown;
    });
    const noTrick = { leader: "" as const, plays: [], winner: "" as const, points: 0 };
    return {
      phase: "waiting",
      round: 0,
      trump,
      mainSuit: "",
      currentRank: 0,
      teamRanks: [...startRanks],
      dealer: "",
      turn: "",
      step: 0,
      dealt: 0,
      declaration: { seat: "", cards: [] },
      trick: noTrick,
      tricks: [],
      defenderPoints: 0,
      penaltyPoints: 0,
      winner: 0,
      seats,
    };
  }

  /** The listing names the phase and the round: it follows them. */
  override showChanges(): void {
    super.showChanges();
    const listed =
      this.match === null ? "waiting:0" : `${tableOf(this.match.state).phase}:${this.match.state.roundNumber}`;
    if (listed !== this.listed) this.updateListing();
    this.listed = listed;
  }

  override listing(): Record<string, unknown> {
    if (this.roster === undefined)
      return {
        game: "tractor",
        phase: "waiting",
        round: 0,
        trump: this.matchOptions?.trump ?? "declare",
        seats: {},
        score: "",
      };
    const shown = this.shownView();
    const seats = shown.seats.map((seat) => [seat.seat, seat.occupant === "person" ? seat.player : seat.occupant]);
    // The kit adds `openSeats` (open and not promised to a joining client) and `spectators` to every listing.
    const score = `ranks ${shown.teamRanks.join("–")}`;
    // The throw rule is listed so that a page joining or watching the table can state its rules.
    const { throwPolicy, failedThrowPenalty } = this.matchOptions.ruleset;
    return {
      game: "tractor",
      phase: shown.phase,
      round: shown.round,
      trump: shown.trump,
      seats: Object.fromEntries(seats),
      score,
      throws: throwPolicy,
      failedThrowPenalty,
      botLevels: this.options.botLevels ?? {},
    };
  }
}

/** Whether the seat has acted in the round in play: played a card, or buried as its dealer. */
function playedInRound(match: TractorMatch, seat: Seat): boolean {
  const round = roundOf(match);
  if (round === null || round.phase === "finished") return false;
  const buried = seat === round.setup.dealer && round.phase === "playing";
  return buried || round.hands[seat].length < HAND_CARDS;
}
