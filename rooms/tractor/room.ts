/**
 * The `tractor` room: four seats (people or bots) play a match of rounds under the engine's rules until a team
 * passes Ace. The room turns validated messages into engine calls (round.ts, declaration.ts), mirrors the result
 * into the schema state and decides who sees what: each hand goes to its own seat's view only, the buried cards
 * to the dealer's view until the round ends, and every round's seed stays here until the round's end reveals it.
 * Timers (the paced deal, the turn clock, bot pacing, the pause between rounds) are the kit's RoomTimers.
 */
import { Room, ServerError, type Client, type RoomException, type RoomMethodName } from "@colyseus/core";
import { StateView } from "@colyseus/schema";
import { freshSeed, seededRandom } from "../kit/random";
import { handleMessage, parseRoomOptions, patchOnChange, Rejection, rejectUnknownMessages, reportUncaught, RoomTimer } from "../kit/room-kit";
import { syncList } from "../kit/schema-lists";
import { Card, cardName, parseCard } from "./cards";
import { botDeclaration, checkDeclaration, DEAL_STEPS, dealStep, dealtTo, declarationOptions, declaredMainSuit, type Declaration } from "./declaration";
import { cardOrdering, sortedHighFirst, type CardOrdering, type MainSuit } from "./order";
import {
  TRACTOR_HINT_LIMIT,
  tractorRankNumber,
  TRACTOR_DEFAULTS,
  TRACTOR_SEATS,
  tractorEvents,
  tractorJoinOptions,
  tractorMessages,
  type TractorBuriedEvent,
  type TractorDeclaredEvent,
  type TractorMatchEndEvent,
  type TractorPlayedEvent,
  type TractorRoundEndEvent,
  type TractorRoundStartEvent,
  type TractorErrorCode,
  type TractorHint,
  type TractorJoinOptions,
  type TractorTrumpMode,
  type TractorTrickEvent,
  type TractorTrumpEvent,
} from "./protocol";
import { heuristicPolicy, type TractorPolicy } from "./policy";
import { applyPlay, buryCards, dealRound, HIDDEN_CARDS, legalPlaysFor, orderingOf, startRound, type RoundState } from "./round";
import { checkedThrows, classic, type TractorRuleset } from "./ruleset";
import { roundContext, SEATS, teamOf, type RoundSetup, type Seat, type Team } from "./scoring";
import { seatView } from "./seat-view";
import {
  TractorDeclarationState,
  TractorPlayState,
  TractorResultState,
  TractorSeatState,
  TractorState,
  TractorTrickState,
} from "./state";

const MAX_SPECTATORS = 64;
/** Bot moves made at once (pace 0) before the room yields to the next clock tick. */
const MOVES_PER_BURST = 200;

interface TableSettings {
  trump: TractorTrumpMode;
  mainSuit: MainSuit;
  dealer: Seat;
  startRanks: [number, number];
  seed: number | undefined;
  ruleset: TractorRuleset;
  turnTimeMs: number;
  reconnectSeconds: number;
  botDelayMs: number;
  dealDelayMs: number;
  declareWindowMs: number;
  startDelayMs: number;
  roundPauseMs: number;
}

/** The declaration phase: the round's hands are dealt one card per step. */
interface Dealing {
  readonly setup: RoundSetup;
  readonly hands: readonly (readonly Card[])[];
  steps: number;
  /** When the first card was dealt (performance.now()). */
  readonly startedAt: number;
  declaration: Declaration | undefined;
}

export class TractorRoom extends Room<{ state: TractorState }> {
  override maxClients = SEATS.length + MAX_SPECTATORS;
  override state = new TractorState();

  private settings!: TableSettings;
  /** What every seat's bot plays (and what the turn clock plays for a person who runs out of time). */
  private botPolicy!: TractorPolicy;
  /** The session holding each seat (a person's), or null for a bot or an open seat. */
  private readonly seatSessions: (string | null)[] = SEATS.map(() => null);
  private readonly spectatorSessions = new Set<string>();
  private round: RoundState | null = null;
  private dealing: Dealing | null = null;
  private roundSeed = 0;
  /** The seat whose move the turn timer is waiting for. */
  private readonly turnTimer = new RoomTimer(this);
  /** The deal's pace, the end of declaring, the pause between rounds. */
  private readonly tableTimer = new RoomTimer(this);

  override onCreate(rawOptions: unknown): void {
    const options = parseRoomOptions(tractorJoinOptions, rawOptions, "create");
    this.settings = settingsOf(options);
    patchOnChange(this);
    this.botPolicy = heuristicPolicy(this.settings.ruleset);
    const bots = new Set(options.bots ?? []);
    for (const seat of SEATS) {
      const seatState = new TractorSeatState();
      seatState.seat = TRACTOR_SEATS[seat];
      seatState.team = teamOf(seat);
      seatState.occupant = bots.has(TRACTOR_SEATS[seat]) ? "bot" : "open";
      seatState.player = seatState.occupant === "bot" ? "bot" : "";
      this.state.seats.push(seatState);
    }
    this.state.trump = this.settings.trump;
    this.state.teamRanks.push(...this.settings.startRanks);
    this.metadata = this.listing();
    handleMessage(this, tractorMessages.declare, (client, { cards }) => this.onDeclare(this.seatOf(client), cards));
    handleMessage(this, tractorMessages.bury, (client, { cards }) => this.onBury(this.seatOf(client), cards));
    handleMessage(this, tractorMessages.play, (client, { cards }) => this.onPlay(this.seatOf(client), cards));
    handleMessage(this, tractorMessages.hint, (client, { limit }) => this.hint(this.seatOf(client), limit ?? TRACTOR_HINT_LIMIT));
    rejectUnknownMessages(this, Object.values(tractorMessages));
  }

  override onAuth(_client: Client, rawOptions: unknown): boolean {
    const options = parseRoomOptions(tractorJoinOptions, rawOptions, "join");
    if (options.spectate) {
      if (this.state.spectators >= MAX_SPECTATORS) throw new ServerError(4403, "no room for more spectators");
    } else this.seatFor(options);
    return true;
  }

  override onJoin(client: Client, rawOptions: unknown): void {
    const options = parseRoomOptions(tractorJoinOptions, rawOptions, "join");
    if (options.spectate) {
      this.spectatorSessions.add(client.sessionId);
      this.state.spectators++;
    } else this.takeSeat(this.seatFor(options), client, options.name);
    if (this.state.phase === "waiting" && this.everySeatTaken() && !this.tableTimer.isPending) {
      // Not at once: the joining client registers its event handlers only once its join completes.
      this.tableTimer.start(this.settings.startDelayMs, () => this.startMatch());
    }
  }

  override async onDrop(client: Client): Promise<void> {
    const seat = this.seatSessions.indexOf(client.sessionId);
    if (seat < 0) return;
    this.state.seats[seat].connected = false;
    this.updateListing();
    // An expired window rejects; onLeave follows either way and hands the seat to its bot.
    await this.allowReconnection(client, this.settings.reconnectSeconds).catch(() => undefined);
  }

  override onReconnect(client: Client): void {
    const seat = this.seatSessions.indexOf(client.sessionId);
    if (seat >= 0) this.state.seats[seat].connected = true;
    this.updateListing();
  }

  override onLeave(client: Client): void {
    if (this.spectatorSessions.delete(client.sessionId)) {
      this.state.spectators = Math.max(0, this.state.spectators - 1);
      return;
    }
    const seat = this.seatSessions.indexOf(client.sessionId);
    if (seat < 0) return;
    // Gone for good: before the match the seat opens again; during it the seat's bot plays on.
    this.seatSessions[seat] = null;
    const seatState = this.state.seats[seat];
    seatState.connected = false;
    seatState.occupant = this.state.phase === "waiting" ? "open" : "bot";
    seatState.player = seatState.occupant === "bot" ? "bot" : "";
    this.updateListing();
    if (this.state.phase !== "waiting") this.advance();
  }

  override onUncaughtException(error: RoomException, methodName: RoomMethodName): void {
    reportUncaught(this, error, methodName);
  }

  override onDispose(): void {
    this.turnTimer.clear();
    this.tableTimer.clear();
  }

  // ---------------------------------------------------------------------------------------------------------
  // Seats

  /** The seat a joining player gets: the one named (open or a bot's), else the first open one. */
  private seatFor(options: TractorJoinOptions): Seat {
    const seats = this.state.seats;
    if (options.seat !== undefined) {
      const seat = TRACTOR_SEATS.indexOf(options.seat) as Seat;
      if (seats[seat].occupant === "person") throw new ServerError(4403, `${options.seat}'s seat is taken; name an open seat or a bot's, or spectate`);
      return seat;
    }
    const open = SEATS.find((seat) => seats[seat].occupant === "open");
    if (open === undefined) throw new ServerError(4403, "no open seat: name a bot's seat to take it over, or join with { spectate: true }");
    return open;
  }

  private takeSeat(seat: Seat, client: Client, name: string | undefined): void {
    this.seatSessions[seat] = client.sessionId;
    const seatState = this.state.seats[seat];
    seatState.occupant = "person";
    seatState.player = name ?? TRACTOR_SEATS[seat];
    seatState.connected = true;
    const view = new StateView();
    view.add(seatState);
    client.view = view;
    this.updateListing();
    // A bot's pending move is cancelled: the person now has the turn clock.
    if (this.state.phase !== "waiting") this.advance();
  }

  private seatOf(client: Client): Seat {
    const seat = this.seatSessions.indexOf(client.sessionId);
    if (seat < 0) throw new Rejection<TractorErrorCode>("NOT_A_PLAYER", "spectators cannot act; join with a seat to play");
    return seat as Seat;
  }

  private isBot(seat: Seat): boolean {
    return this.state.seats[seat].occupant !== "person";
  }

  // ---------------------------------------------------------------------------------------------------------
  // Rounds

  private everySeatTaken(): boolean {
    return this.state.seats.every((seat) => seat.occupant !== "open");
  }

  private startMatch(): void {
    // Someone may have left since the start was scheduled; the next join schedules it again.
    if (this.state.phase !== "waiting" || !this.everySeatTaken()) return;
    const { mainSuit, dealer, startRanks } = this.settings;
    this.dealNewRound({ mainSuit, dealer, teamRanks: startRanks });
  }

  /** A given match seed derives each round's seed, so a revealed round seed tells nothing of the next deal. */
  private seedOfRound(round: number): number {
    const { seed } = this.settings;
    return seed === undefined ? freshSeed() : freshSeed(seededRandom(`${seed}:round:${round}`));
  }

  private dealNewRound(setup: RoundSetup): void {
    const state = this.state;
    state.round++;
    this.roundSeed = this.seedOfRound(state.round);
    const dealt = dealRound(setup, seededRandom(this.roundSeed), this.settings.ruleset);
    state.result = undefined;
    state.tricks.clear();
    resetTrick(state.trick);
    state.declaration = new TractorDeclarationState();
    state.defenderPoints = 0;
    state.penaltyPoints = 0;
    state.dealt = 0;
    state.dealer = TRACTOR_SEATS[setup.dealer];
    state.teamRanks.splice(0, state.teamRanks.length, ...setup.teamRanks);
    state.currentRank = roundContext(setup).currentRank;
    state.mainSuit = this.settings.trump === "fixed" ? setup.mainSuit : "";
    for (const seat of state.seats) seat.buried.clear();
    this.setMetadata(this.listing());
    const event: TractorRoundStartEvent = {
      round: state.round,
      dealer: state.dealer,
      teamRanks: [...setup.teamRanks],
      currentRank: state.currentRank,
      trump: this.settings.trump,
      mainSuit: state.mainSuit,
    };
    this.broadcast(tractorEvents.roundStart, event);
    if (this.settings.trump === "fixed") return this.beginBurial(dealt);
    this.dealing = { setup, hands: dealt.hands, steps: 0, startedAt: performance.now(), declaration: undefined };
    state.phase = "declaring";
    state.turn = "";
    state.deadline = 0;
    for (const seat of SEATS) this.showHand(seat, []);
    this.dealCards();
  }

  /**
   * Deals the cards due by now, one every dealDelayMs (a timer that fires late, on a busy server, deals the cards
   * it missed at once); after the last, the declaration window closes declaring.
   */
  private dealCards(): void {
    const dealing = this.dealing!;
    const { dealDelayMs } = this.settings;
    const due = dealDelayMs === 0 ? DEAL_STEPS : Math.floor((performance.now() - dealing.startedAt) / dealDelayMs) + 1;
    do this.dealOneCard(dealing);
    while (dealing.steps < Math.min(due, DEAL_STEPS));
    if (dealing.steps < DEAL_STEPS) this.tableTimer.start(this.settings.dealDelayMs, () => this.dealCards());
    else this.tableTimer.start(this.settings.declareWindowMs, () => this.closeDeclarations());
  }

  private dealOneCard(dealing: Dealing): void {
    const { seat } = dealStep(dealing.setup.dealer, dealing.steps);
    dealing.steps++;
    this.state.dealt = dealing.steps;
    this.showHand(seat, this.dealtSoFar(seat));
    this.letBotsDeclare();
  }

  private dealtSoFar(seat: Seat): Card[] {
    const dealing = this.dealing!;
    return dealtTo(dealing.hands[seat], dealing.setup.dealer, seat, dealing.steps);
  }

  private closeDeclarations(): void {
    const dealing = this.dealing!;
    this.dealing = null;
    const mainSuit = declaredMainSuit(dealing.declaration);
    this.state.mainSuit = mainSuit;
    const event: TractorTrumpEvent = {
      round: this.state.round,
      mainSuit,
      declaredBy: dealing.declaration ? TRACTOR_SEATS[dealing.declaration.seat] : "",
    };
    this.broadcast(tractorEvents.trump, event);
    this.beginBurial(startRound({ ...dealing.setup, mainSuit }, dealing.hands, this.settings.ruleset));
  }

  private beginBurial(round: RoundState): void {
    this.round = round;
    this.state.step++;
    this.mirrorRound(true);
    this.advance();
  }

  private finishRound(): void {
    const round = this.round!;
    const result = round.result!;
    const state = this.state;
    const resultState = new TractorResultState();
    resultState.seed = this.roundSeed;
    resultState.defenderPoints = result.defenderPoints;
    resultState.hiddenCards.push(...this.cardNames(round.hidden));
    resultState.hiddenBonus = result.hiddenBonus;
    resultState.make = result.change.make;
    resultState.team = result.change.team;
    resultState.levels = result.change.levels;
    resultState.teamRanks.push(...result.teamRanks);
    resultState.nextDealer = TRACTOR_SEATS[result.nextDealer];
    resultState.matchWinner = result.matchWinner ?? 0;
    // The round's own ranks (and the dealer's buried cards) stay on show beside the result until the next deal.
    state.result = resultState;
    const event: TractorRoundEndEvent = { round: state.round, ...(resultState.toJSON() as Omit<TractorRoundEndEvent, "round">) };
    this.broadcast(tractorEvents.roundEnd, event);
    if (result.matchWinner !== undefined) return this.finishMatch(result.matchWinner, result.teamRanks);
    const next: RoundSetup = { mainSuit: this.settings.mainSuit, dealer: result.nextDealer, teamRanks: [result.teamRanks[0], result.teamRanks[1]] };
    this.tableTimer.start(this.settings.roundPauseMs, () => this.dealNewRound(next));
  }

  private finishMatch(winner: Team, teamRanks: readonly number[]): void {
    const state = this.state;
    state.phase = "matchOver";
    state.winner = winner;
    const event: TractorMatchEndEvent = { winner, teamRanks: [...teamRanks], rounds: state.round };
    this.broadcast(tractorEvents.matchEnd, event);
    this.setMetadata(this.listing());
  }

  // ---------------------------------------------------------------------------------------------------------
  // Turns: whoever must act gets the turn clock, or the bot moves (paced)

  /** The seat that must act now, if any. */
  private actor(): Seat | undefined {
    const round = this.round;
    if (round === null || this.dealing !== null || round.phase === "finished") return undefined;
    return round.turn;
  }

  /** After every change: runs unpaced bots, then starts the clock of whoever acts next. */
  private advance(): void {
    this.turnTimer.clear();
    this.state.deadline = 0;
    for (let moves = 0; moves < MOVES_PER_BURST; moves++) {
      const seat = this.actor();
      this.state.turn = seat === undefined ? "" : TRACTOR_SEATS[seat];
      if (seat === undefined) return;
      if (!this.isBot(seat)) {
        this.state.deadline = Date.now() + this.settings.turnTimeMs;
        this.turnTimer.start(this.settings.turnTimeMs, () => this.moveForSeat(seat, true));
        return;
      }
      if (this.settings.botDelayMs > 0) {
        this.turnTimer.start(this.settings.botDelayMs, () => this.moveForSeat(seat, false));
        return;
      }
      this.makeBotMove(seat, false);
    }
    this.turnTimer.start(0, () => this.advance());
  }

  /** The bot's move for the seat: its own (a bot seat) or a person's whose turn clock ran out (`auto`). */
  private moveForSeat(seat: Seat, auto: boolean): void {
    if (this.actor() !== seat) return;
    this.makeBotMove(seat, auto);
    this.advance();
  }

  private makeBotMove(seat: Seat, auto: boolean): void {
    const round = this.round!;
    const act = (cards: readonly Card[]) => (round.phase === "burying" ? buryCards(round, seat, cards) : applyPlay(round, seat, cards));
    const choice = this.botChoice(round, seat);
    let update = choice === undefined ? undefined : act(choice);
    // The bots only choose what the engine allows; should one ever not, the engine's own first option keeps the table going.
    if (!update?.ok) update = act(round.phase === "burying" ? round.hands[seat].slice(0, HIDDEN_CARDS) : legalPlaysFor(round, seat, 1).plays[0]);
    if (!update.ok) return;
    if (round.phase === "burying") this.commitBurial(update.state);
    else this.commitPlay(seat, update.state, auto);
  }

  /** The seat bot's choice, decided from the seat's own view only (no peeking at other hands); undefined if the policy failed. */
  private botChoice(round: RoundState, seat: Seat): Card[] | undefined {
    const view = seatView(round, seat);
    try {
      return round.phase === "burying" ? this.botPolicy.chooseBurial(view) : this.botPolicy.choosePlay(view);
    } catch {
      return undefined; // a policy bug must not stop the table (nor reach a log: its message may name cards)
    }
  }

  // ---------------------------------------------------------------------------------------------------------
  // Messages

  private onDeclare(seat: Seat, cardTexts: readonly string[]): void {
    const dealing = this.dealing;
    if (dealing === null) throw new Rejection<TractorErrorCode>("WRONG_PHASE", this.phaseMessage("declare"));
    const cards = parseCardTexts(cardTexts);
    const check = checkDeclaration(dealing.declaration, seat, cards, this.dealtSoFar(seat), this.state.currentRank);
    if (!check.ok) throw new Rejection<TractorErrorCode>("ILLEGAL_DECLARATION", check.reason);
    this.commitDeclaration(check.declaration);
    this.letBotsDeclare();
  }

  private onBury(seat: Seat, cardTexts: readonly string[]): void {
    const round = this.requirePhase("burying", "bury");
    if (seat !== round.setup.dealer) throw new Rejection<TractorErrorCode>("NOT_YOUR_TURN", `only the dealer, ${this.state.dealer}, buries`);
    const update = buryCards(round, seat, parseCardTexts(cardTexts));
    if (!update.ok) throw new Rejection<TractorErrorCode>("ILLEGAL_BURIAL", update.reason);
    this.commitBurial(update.state);
    this.advance();
  }

  private onPlay(seat: Seat, cardTexts: readonly string[]): void {
    const round = this.requirePhase("playing", "play");
    if (seat !== round.turn) throw new Rejection<TractorErrorCode>("NOT_YOUR_TURN", `it is ${TRACTOR_SEATS[round.turn]}'s turn`);
    const update = applyPlay(round, seat, parseCardTexts(cardTexts));
    if (!update.ok) throw new Rejection<TractorErrorCode>("ILLEGAL_PLAY", update.reason);
    this.commitPlay(seat, update.state, false);
    this.advance();
  }

  private hint(seat: Seat, limit: number): TractorHint {
    const phase = this.state.phase;
    const none: TractorHint = { phase, options: [], complete: true, suggestion: [] };
    if (this.dealing !== null) {
      const { declaration } = this.dealing;
      const held = this.dealtSoFar(seat);
      const options = declarationOptions(declaration, seat, held, this.state.currentRank).map((cards) => this.cardNames(cards));
      const suggestion = botDeclaration(declaration, seat, held, this.state.currentRank) ?? [];
      return { ...none, options, suggestion: this.cardNames(suggestion) };
    }
    const round = this.round;
    if (round === null || this.actor() !== seat) return none;
    const suggestion = this.cardNames(this.botChoice(round, seat) ?? []);
    if (round.phase === "burying") return { ...none, suggestion };
    const legal = legalPlaysFor(round, seat, limit);
    return { phase, options: legal.plays.map((cards) => this.cardNames(cards)), complete: legal.complete, suggestion };
  }

  private requirePhase(phase: "burying" | "playing", action: string): RoundState {
    const round = this.round;
    if (round === null || this.dealing !== null || round.phase !== phase) {
      throw new Rejection<TractorErrorCode>("WRONG_PHASE", this.phaseMessage(action));
    }
    return round;
  }

  private phaseMessage(action: string): string {
    return `cannot ${action} now: the table is ${this.state.phase === "roundOver" ? "between rounds" : this.state.phase}`;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Committing accepted actions: state first, then the event

  private commitDeclaration(declaration: Declaration): void {
    this.dealing!.declaration = declaration;
    const declarationState = new TractorDeclarationState();
    declarationState.seat = TRACTOR_SEATS[declaration.seat];
    declarationState.cards.push(...this.cardNames(declaration.cards));
    this.state.declaration = declarationState;
    this.state.step++;
    const event: TractorDeclaredEvent = {
      round: this.state.round,
      seat: declarationState.seat,
      cards: [...declarationState.cards],
      mainSuit: declaredMainSuit(declaration),
    };
    this.broadcast(tractorEvents.declared, event);
  }

  /** Every bot may answer the deal or a declaration; each declaration is stronger than the last, so this ends. */
  private letBotsDeclare(): void {
    const dealing = this.dealing!;
    for (let declared = true; declared; ) {
      declared = false;
      for (const seat of SEATS) {
        if (!this.isBot(seat)) continue;
        const cards = botDeclaration(dealing.declaration, seat, this.dealtSoFar(seat), this.state.currentRank);
        if (cards === undefined) continue;
        this.commitDeclaration({ seat, cards });
        declared = true;
      }
    }
  }

  private commitBurial(next: RoundState): void {
    this.round = next;
    this.state.step++;
    this.mirrorRound();
    const dealer = next.setup.dealer;
    this.state.seats[dealer].buried.push(...this.cardNames(next.hidden));
    const event: TractorBuriedEvent = { round: this.state.round, dealer: TRACTOR_SEATS[dealer] };
    this.broadcast(tractorEvents.buried, event);
  }

  private commitPlay(seat: Seat, next: RoundState, auto: boolean): void {
    const before = this.round!;
    this.round = next;
    this.state.step++;
    this.mirrorRound();
    const trickDone = next.tricks.length > before.tricks.length;
    const trick = trickDone ? next.tricks[next.tricks.length - 1] : next.trick!;
    const failedThrow = next.failedThrows.length > before.failedThrows.length ? next.failedThrows[next.failedThrows.length - 1] : undefined;
    const played: TractorPlayedEvent = {
      round: this.state.round,
      seat: TRACTOR_SEATS[seat],
      cards: this.cardNames(trick.plays[trick.plays.length - 1]),
      auto,
      ...(failedThrow ? { failedThrow: { attempted: this.cardNames(failedThrow.attempted), penalty: failedThrow.penalty } } : {}),
      next: this.actor() === undefined ? "" : TRACTOR_SEATS[next.turn],
    };
    this.broadcast(tractorEvents.played, played);
    if (trickDone) {
      const completed = next.tricks[next.tricks.length - 1];
      const event: TractorTrickEvent = {
        round: this.state.round,
        trick: next.tricks.length,
        leader: TRACTOR_SEATS[completed.leader],
        plays: completed.plays.map((cards, index) => ({ seat: TRACTOR_SEATS[(completed.leader + index) % SEATS.length], cards: this.cardNames(cards) })),
        winner: TRACTOR_SEATS[completed.winner],
        points: completed.points,
        defenderPoints: next.trickPoints,
        nextLeader: next.phase === "finished" ? "" : TRACTOR_SEATS[next.turn],
      };
      this.broadcast(tractorEvents.trick, event);
    }
    if (next.phase === "finished") this.finishRound();
  }

  // ---------------------------------------------------------------------------------------------------------
  // Mirroring the engine's round into the schema state

  /** Copies the round into the state; the hands only where they changed, unless `allHands` (a new round). */
  private mirrorRound(allHands = false): void {
    const round = this.round!;
    const state = this.state;
    state.phase = round.phase === "finished" ? "roundOver" : round.phase;
    while (state.tricks.length < round.tricks.length) {
      const trick = round.tricks[state.tricks.length];
      const trickState = new TractorTrickState();
      this.fillTrick(trickState, trick);
      trickState.winner = TRACTOR_SEATS[trick.winner];
      trickState.points = trick.points;
      state.tricks.push(trickState);
    }
    if (round.trick === undefined) resetTrick(state.trick);
    else if (state.trick.plays.length !== round.trick.plays.length) this.fillTrick(state.trick, round.trick);
    state.defenderPoints = round.trickPoints;
    state.penaltyPoints = round.penaltyPoints;
    for (const seat of SEATS) {
      if (allHands || state.seats[seat].hand.length !== round.hands[seat].length) this.showHand(seat, round.hands[seat]);
    }
  }

  /** Brings a trick's state up to the engine's trick: a play added to the same trick is sent alone. */
  private fillTrick(trickState: TractorTrickState, trick: { leader: Seat; plays: readonly (readonly Card[])[] }): void {
    const leader = TRACTOR_SEATS[trick.leader];
    if (trickState.leader !== leader || trickState.plays.length > trick.plays.length) {
      trickState.leader = leader;
      trickState.plays.clear();
    }
    for (let index = trickState.plays.length; index < trick.plays.length; index++) {
      const play = new TractorPlayState();
      play.seat = TRACTOR_SEATS[(trick.leader + index) % SEATS.length];
      play.cards.push(...this.cardNames(trick.plays[index]));
      trickState.plays.push(play);
    }
  }

  /** Writes a seat's hand, highest first, into its own view; everyone sees only the count. */
  private showHand(seat: Seat, cards: readonly Card[]): void {
    const seatState = this.state.seats[seat];
    syncList(seatState.hand, this.cardNames(sortedHighFirst(cards, this.currentOrdering())));
    seatState.handCount = cards.length;
  }

  private currentOrdering(): CardOrdering {
    if (this.round !== null && this.dealing === null) return orderingOf(this.round);
    return cardOrdering({ mainSuit: "O", currentRank: this.state.currentRank });
  }

  private cardNames(cards: readonly Card[]): string[] {
    return cards.map(cardName);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Listing: what GET /rooms shows (nothing hidden)

  private listing(): Record<string, unknown> {
    return {
      game: "tractor",
      phase: this.state.phase,
      round: this.state.round,
      trump: this.settings.trump,
      seats: Object.fromEntries(this.state.seats.map((seat) => [seat.seat, seat.occupant === "person" ? seat.player : seat.occupant])),
      openSeats: this.state.seats.filter((seat) => seat.occupant === "open").length,
    };
  }

  private updateListing(): void {
    void this.setMetadata(this.listing());
  }
}

function resetTrick(trick: TractorTrickState): void {
  trick.leader = "";
  trick.plays.clear();
  trick.winner = "";
  trick.points = 0;
}

function parseCardTexts(texts: readonly string[]): Card[] {
  return texts.map((text) => {
    const card = parseCard(text);
    if (card === undefined) throw new Rejection<TractorErrorCode>("NOT_A_CARD", `"${text}" is not a card (e.g. H5, ST, BJ, RJ)`);
    return card;
  });
}

function settingsOf(options: TractorJoinOptions): TableSettings {
  const trump = options.trump ?? "declare";
  const startRanks = options.startRanks ?? [2, 2];
  return {
    trump,
    mainSuit: options.mainSuit ?? "O",
    dealer: TRACTOR_SEATS.indexOf(options.dealer ?? "Alice") as Seat,
    startRanks: [tractorRankNumber(startRanks[0]), tractorRankNumber(startRanks[1])],
    seed: options.seed,
    ruleset: options.throws === "check-other-hands" ? checkedThrows : classic,
    turnTimeMs: options.turnTimeMs ?? TRACTOR_DEFAULTS.turnTimeMs,
    reconnectSeconds: options.reconnectSeconds ?? TRACTOR_DEFAULTS.reconnectSeconds,
    botDelayMs: options.botDelayMs ?? TRACTOR_DEFAULTS.botDelayMs,
    dealDelayMs: options.dealDelayMs ?? TRACTOR_DEFAULTS.dealDelayMs,
    declareWindowMs: options.declareWindowMs ?? TRACTOR_DEFAULTS.declareWindowMs,
    startDelayMs: options.startDelayMs ?? TRACTOR_DEFAULTS.startDelayMs,
    roundPauseMs: options.roundPauseMs ?? TRACTOR_DEFAULTS.roundPauseMs,
  };
}

