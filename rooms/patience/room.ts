/**
 * The `patience` room: deals a Shuffling Patience deck step by step for everyone to watch. The engine decides
 * every move; the room keeps time, mirrors each step into the public state, broadcasts it, and lets its owner
 * pause, step, change the pace and deal again. The deck and the seed stay in `this.current` (never in the state):
 * the seed is revealed when the deal is over, the undealt cards never.
 */
import { Room, ServerError, type Client, type RoomException, type RoomMethodName } from "@colyseus/core";
import type { z } from "zod";
import { freshSeed } from "../kit/random";
import { handleMessage, OPTIONS_REFUSED, parseRoomOptions, patchOnChange, Rejection, rejectUnknownMessages, reportUncaught, RoomTimer } from "../kit/room-kit";
import { deckOfSeed, formatCard, type Card } from "./cards";
import { startDeal, step, topCard, type Outcome, type PatienceEvent, type PatienceState as Deal } from "./engine";
import { DeckInputError, describeEvent, formatResult, parseDeal } from "./notation";
import {
  PATIENCE_DEFAULT_PACE_MS,
  PATIENCE_DEFAULT_RECONNECT_SECONDS,
  patienceEvents,
  patienceJoinOptions,
  patienceMessages,
  type PatienceControlEvent,
  type PatienceDealOverEvent,
  type PatienceDealStartedEvent,
  type PatienceMoveEvent,
  type PatienceErrorCode,
  type PatienceMoveData,
  type PatienceOutcomeData,
  type PatienceRestartOptions,
} from "./protocol";
import { PatienceState } from "./state";

const MAX_SPECTATORS = 200;
const DEFAULT_OWNER_NAME = "owner";

/** The deal in play: the engine's state and the seed that shuffled it (0 for a deck given as cards). */
interface CurrentDeal {
  deal: Deal;
  seed: number;
}

export class PatienceRoom extends Room<{ state: PatienceState }> {
  override maxClients = 1 + MAX_SPECTATORS;
  override state = new PatienceState();

  private current: CurrentDeal = { deal: startDeal([]), seed: 0 };
  private reconnectSeconds = PATIENCE_DEFAULT_RECONNECT_SECONDS;
  private readonly stepTimer = new RoomTimer(this);

  override onCreate(rawOptions: unknown): void {
    const options = parseRoomOptions(patienceJoinOptions, rawOptions, "create");
    const first = dealFrom(options, (problem) => new ServerError(OPTIONS_REFUSED.create, `bad deck: ${problem}`));
    this.state.paceMs = options.paceMs ?? PATIENCE_DEFAULT_PACE_MS;
    this.reconnectSeconds = options.reconnectSeconds ?? PATIENCE_DEFAULT_RECONNECT_SECONDS;
    this.metadata = { game: "patience", deal: 0, phase: "paused", owner: "" };
    patchOnChange(this);
    this.registerMessages();
    this.beginDeal(first, options.paused ?? false);
  }

  override onAuth(_client: Client, rawOptions: unknown): boolean {
    parseRoomOptions(patienceJoinOptions, rawOptions, "join");
    return true;
  }

  override onJoin(client: Client, rawOptions: unknown): void {
    const options = parseRoomOptions(patienceJoinOptions, rawOptions, "join");
    // The creator owns the room; after an owner has left for good, the next client joining without `spectate` does.
    if (!options.spectate && this.state.owner === "") this.makeOwner(client, options.name);
    else this.state.spectators++;
  }

  override async onDrop(client: Client): Promise<void> {
    if (client.sessionId !== this.state.owner) return;
    this.state.ownerConnected = false;
    await this.allowReconnection(client, this.reconnectSeconds);
  }

  override onReconnect(client: Client): void {
    if (client.sessionId === this.state.owner) this.state.ownerConnected = true;
  }

  override onLeave(client: Client): void {
    if (client.sessionId !== this.state.owner) {
      this.state.spectators = Math.max(0, this.state.spectators - 1);
      return;
    }
    // The deal goes on as it was (dealing or paused) until someone claims the room.
    this.state.owner = "";
    this.state.ownerName = "";
    this.state.ownerConnected = false;
    this.updateMetadata();
    this.announce("ownerLeft");
  }

  override onUncaughtException(error: RoomException, methodName: RoomMethodName): void {
    reportUncaught(this, error, methodName);
  }

  override onDispose(): void {
    this.stepTimer.clear();
  }

  private registerMessages(): void {
    const owned = <M extends (typeof patienceMessages)[keyof typeof patienceMessages]>(
      definition: M,
      handler: (payload: z.infer<M["payload"]>) => void,
    ) =>
      handleMessage(this, definition, (client, payload) => {
        this.requireOwner(client);
        handler(payload);
      });
    owned(patienceMessages.pause, () => this.pause());
    owned(patienceMessages.resume, () => this.resume());
    owned(patienceMessages.step, () => this.stepWhilePaused());
    owned(patienceMessages.setPace, ({ paceMs }) => this.setPace(paceMs));
    owned(patienceMessages.restart, (payload) => this.restart(payload));
    handleMessage(this, patienceMessages.claim, (client, { name }) => this.claim(client, name));
    rejectUnknownMessages(this, Object.values(patienceMessages));
  }

  private pause(): void {
    this.requireDealGoingOn();
    if (this.state.phase === "paused") throw reject("ALREADY_PAUSED", "the deal is already paused");
    this.state.phase = "paused";
    this.schedule();
    this.announce("pause");
  }

  private resume(): void {
    this.requirePaused();
    this.state.phase = "dealing";
    this.schedule();
    this.announce("resume");
  }

  private stepWhilePaused(): void {
    this.requirePaused();
    this.advance();
  }

  private setPace(paceMs: number): void {
    this.state.paceMs = paceMs;
    this.schedule(); // the next step comes at the new pace, counted from now
    this.announce("setPace");
  }

  private restart(payload: PatienceRestartOptions): void {
    if (this.state.phase !== "over") throw reject("DEAL_IN_PROGRESS", "the deal is not over yet; restart deals again once it is");
    this.beginDeal(dealFrom(payload, (problem) => reject("BAD_DECK", problem)), payload.paused ?? false);
  }

  private claim(client: Client, name: string | undefined): void {
    if (this.state.owner === client.sessionId) throw reject("HAS_OWNER", "you already own this room");
    if (this.state.owner !== "") throw reject("HAS_OWNER", "this room has its owner; claim it once the owner has left");
    this.state.spectators = Math.max(0, this.state.spectators - 1);
    this.makeOwner(client, name);
    this.announce("claim");
  }

  private makeOwner(client: Client, name: string | undefined): void {
    this.state.owner = client.sessionId;
    this.state.ownerName = name ?? DEFAULT_OWNER_NAME;
    this.state.ownerConnected = true;
    this.updateMetadata();
  }

  private beginDeal(next: CurrentDeal, paused: boolean): void {
    this.current = next;
    const state = this.state;
    state.deal++;
    state.phase = paused ? "paused" : "dealing";
    state.steps = 0;
    state.deckSize = next.deal.deck.length;
    state.revealedSeed = 0;
    state.outcome.kind = "";
    state.outcome.pileSizes.clear();
    state.outcome.overflowCard = 0;
    state.outcome.line = "";
    this.mirror(next.deal, null);
    this.schedule();
    this.updateMetadata();
    this.broadcast(patienceEvents.dealStarted, { deal: state.deal, paceMs: state.paceMs, phase: state.phase } satisfies PatienceDealStartedEvent);
  }

  /** While dealing, the next step comes after the pace; otherwise no step is due. */
  private schedule(): void {
    if (this.state.phase === "dealing") this.stepTimer.start(this.state.paceMs, () => this.advance());
    else this.stepTimer.clear();
  }

  /** Makes one step of the deal, shows it, and ends the deal or schedules the next step. */
  private advance(): void {
    const { state: deal, event } = step(this.current.deal);
    this.current.deal = deal;
    this.state.steps++;
    this.mirror(deal, event);
    const move: PatienceMoveEvent = { ...moveData(event), deal: this.state.deal, step: this.state.steps, dealt: deal.dealt, description: describeEvent(event) };
    this.broadcast(patienceEvents.move, move);
    if (deal.outcome !== null) this.finish(deal.outcome);
    else this.schedule();
  }

  /** Writes the table into the public state: every pile's top card and size, the cards dealt, the last cover. */
  private mirror(deal: Deal, event: PatienceEvent | null): void {
    const state = this.state;
    state.dealt = deal.dealt;
    state.piles.forEach((pile, index) => {
      const cards = deal.piles[index];
      pile.top = cards ? formatCard(topCard(cards)) : "";
      pile.count = cards?.length ?? 0;
    });
    const cover = state.cover;
    cover.piles.clear();
    cover.covered.clear();
    cover.covering.clear();
    cover.group = "";
    if (event?.kind !== "covered") return;
    cover.group = event.group;
    cover.piles.push(...event.piles);
    cover.covered.push(...event.covered.map(formatCard));
    cover.covering.push(...event.covering.map(formatCard));
  }

  private finish(outcome: Outcome): void {
    const state = this.state;
    state.phase = "over";
    this.schedule();
    const data = outcomeData(outcome);
    const line = formatResult(1, outcome);
    state.outcome.kind = data.kind;
    if (data.kind === "finished") state.outcome.pileSizes.push(...data.pileSizes);
    else state.outcome.overflowCard = data.cardNumber;
    state.outcome.line = line;
    state.revealedSeed = this.current.seed;
    const event: PatienceDealOverEvent = { deal: state.deal, outcome: data, line, seed: this.current.seed, steps: state.steps };
    this.broadcast(patienceEvents.dealOver, event);
    this.updateMetadata();
  }

  private announce(action: PatienceControlEvent["action"]): void {
    const { deal, phase, paceMs, ownerName } = this.state;
    this.broadcast(patienceEvents.control, { deal, action, phase, paceMs, ownerName } satisfies PatienceControlEvent);
  }

  private updateMetadata(): void {
    this.setMetadata({ game: "patience", deal: this.state.deal, phase: this.state.phase, owner: this.state.ownerName });
  }

  private requireOwner(client: Client): void {
    if (client.sessionId !== this.state.owner) throw reject("NOT_OWNER", "only the room's owner may do this");
  }

  private requireDealGoingOn(): void {
    if (this.state.phase === "over") throw reject("DEAL_OVER", "the deal is over; send restart to deal again");
  }

  private requirePaused(): void {
    this.requireDealGoingOn();
    if (this.state.phase !== "paused") throw reject("NOT_PAUSED", "the deal is going on; pause it first");
  }
}

function reject(code: PatienceErrorCode, message: string): Rejection<PatienceErrorCode> {
  return new Rejection(code, message);
}

/** The deal a seed or a deck names; with neither, a fresh seed's. A bad deck throws `refuse(what is wrong)`. */
function dealFrom(source: { seed?: number; deck?: string }, refuse: (problem: string) => Error): CurrentDeal {
  if (source.deck !== undefined) {
    try {
      return { deal: startDeal(parseDeal(source.deck)), seed: 0 };
    } catch (error) {
      throw error instanceof DeckInputError ? refuse(error.message) : error;
    }
  }
  const seed = source.seed ?? freshSeed();
  return { deal: startDeal(deckOfSeed(seed)), seed };
}

function outcomeData(outcome: Outcome): PatienceOutcomeData {
  return outcome.kind === "finished"
    ? { kind: "finished", pileSizes: [...outcome.pileSizes] }
    : { kind: "overflowed", cardNumber: outcome.cardNumber };
}

function moveData(event: PatienceEvent): PatienceMoveData {
  const cards = (list: readonly Card[]) => list.map(formatCard);
  switch (event.kind) {
    case "dealt":
      return { kind: "dealt", card: formatCard(event.card), cardNumber: event.cardNumber, pile: event.pile };
    case "covered":
      return { kind: "covered", group: event.group, piles: [...event.piles], covered: cards(event.covered), covering: cards(event.covering) };
    case "overflowed":
      return { kind: "overflowed", card: formatCard(event.card), cardNumber: event.cardNumber };
    case "finished":
      return { kind: "finished", pileSizes: [...event.pileSizes] };
  }
}
