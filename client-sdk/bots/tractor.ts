/**
 * The random-legal and the heuristic Tractor bots, built only on the SDK: whenever the SDK says something
 * changed, the bot reads its seat's view (its own hand and what the table showed it, never another hand) and,
 * if it is this seat's turn, sends the policy's choice. The policies are the engine's pure functions of that
 * view (rooms/tractor/policy.ts); nothing here touches server code.
 *
 * A bot is written against `TractorSeat`, the little a seat session has to offer it, so any session that
 * offers these four things (the SDK's Tractor seat, or a stand-in in tests) can be played by a bot.
 */
import { seededRandom, type Random } from "../../rooms/cards/random";
import type { Card } from "../../rooms/tractor/cards";
import { heuristicPolicy, randomPolicy, type TractorPolicy } from "../../rooms/tractor/policy";
import { classic, type TractorRuleset } from "../../rooms/tractor/ruleset";
import type { SeatView } from "../../rooms/tractor/seat-view";
import { CardhallError } from "../errors";
import { think } from "./probe";

/** What a bot needs from a seat session. */
export interface TractorSeat {
  /** The seat's view of the round now, or undefined while there is no round (or no state yet). */
  seatView(): SeatView | undefined;
  /** Calls back whenever the seat's view may have changed; returns the unsubscribe function. */
  onChange(callback: () => void): () => void;
  /** Leads or follows with these cards; rejects with a CardhallError if the room refuses. */
  play(cards: readonly Card[]): Promise<void>;
  /** The dealer's 8 hidden cards; rejects with a CardhallError if the room refuses. */
  bury(cards: readonly Card[]): Promise<void>;
}

export interface TractorBotOptions {
  /** Mean think time before each action (0: act at once). */
  thinkMs?: number;
  /** Seeds the think times and the random policy. */
  botSeed?: string | number;
  /** The table's throw rule, which the heuristic must know (default: the seed's, every throw stands). */
  ruleset?: TractorRuleset;
  /** Told of every refusal other than the room having moved on first (the turn clock, the round's end). */
  onError?: (error: unknown) => void;
}

export interface TractorBot {
  /** How many plays and burials the room has accepted from this bot. */
  actions(): number;
  /** Stops acting; an action already sent still completes. */
  stop(): void;
}

/** Does the view ask this seat to act, and how? */
function dueAction(view: SeatView): "bury" | "play" | undefined {
  if (view.turn !== view.seat) return undefined;
  if (view.phase === "burying" && view.buryFrom !== undefined) return "bury";
  return view.phase === "playing" ? "play" : undefined;
}

/** A position is told apart by the seat's own cards: they change with every action it makes, and every deal. */
function positionKey(view: SeatView): string {
  return `${view.phase}|${view.hand
    .slice()
    .sort((a, b) => a - b)
    .join(",")}`;
}

/** Refusals that only mean the room acted first: the turn clock played for the seat, or the round moved on. */
function overtaken(error: unknown): boolean {
  return error instanceof CardhallError && ["NOT_YOUR_TURN", "WRONG_PHASE"].includes(error.code);
}

/** Plays the seat with `policy` until stopped: acts once per position in which it is the seat's turn. */
export function startTractorBot(seat: TractorSeat, policy: TractorPolicy, options: TractorBotOptions = {}): TractorBot {
  const random: Random = seededRandom(options.botSeed ?? "tractor-bot");
  let stopped = false;
  let acting = false;
  let actedAt: string | undefined;
  let actions = 0;
  const act = async (): Promise<void> => {
    const view = seat.seatView();
    if (stopped || acting || view === undefined || dueAction(view) === undefined || positionKey(view) === actedAt) return;
    acting = true;
    try {
      await think(options.thinkMs ?? 0, random);
      const now = seat.seatView();
      if (stopped || now === undefined || positionKey(now) !== positionKey(view)) return;
      actedAt = positionKey(now);
      await (dueAction(now) === "bury" ? seat.bury(policy.chooseBurial(now)) : seat.play(policy.choosePlay(now)));
      actions++;
    } catch (error) {
      if (!overtaken(error)) options.onError?.(error);
    } finally {
      acting = false;
      // The turn may have come round again while this action was on its way.
      if (!stopped) void act();
    }
  };
  const unsubscribe = seat.onChange(() => void act());
  void act();
  return {
    actions: () => actions,
    stop() {
      stopped = true;
      unsubscribe();
    },
  };
}

/** A bot that plays uniformly at random among the legal plays and buries at random. */
export function startRandomTractorBot(seat: TractorSeat, options: TractorBotOptions = {}): TractorBot {
  return startTractorBot(seat, randomPolicy(seededRandom(`${options.botSeed ?? "tractor-bot"}:policy`)), options);
}

/** A bot that plays the heuristic policy: takes point tricks, feeds its partner, keeps trumps, buries for voids. */
export function startHeuristicTractorBot(seat: TractorSeat, options: TractorBotOptions = {}): TractorBot {
  return startTractorBot(seat, heuristicPolicy(options.ruleset ?? classic), options);
}
