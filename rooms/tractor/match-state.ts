/**
 * A Tractor match's state in each phase, the actions on it, and what every phase's actions share (parsing the
 * cards, refusing out of phase). The engine (match.ts) and the phases' actions (match-declaring.ts,
 * match-rounds.ts) all read it.
 */
import { refuse, type GameEvent, type Outcome } from "../kit/engine";
import { type Card, cardName, parseCard } from "./cards";
import { dealtTo, type Declaration } from "./declaration";
import type { MainSuit } from "./order";
import type { TractorErrorCode, TractorEvents, TractorTrumpMode } from "./protocol";
import { TRACTOR_SEATS, type TractorSeatName } from "./wire-names";
import type { BuryingRound, FinishedRound, PlayingRound } from "./round";
import type { TractorRuleset } from "./ruleset";
import { roundContext, type RoundSetup, type Seat } from "./scoring";

export interface TractorMatchOptions {
  readonly trump: TractorTrumpMode;
  /** Every round's main suit with trump "fixed" (ignored with "declare"). */
  readonly mainSuit: MainSuit;
  /** The first round's dealer. */
  readonly dealer: Seat;
  /** The teams' ranks at the start (2..14). */
  readonly startRanks: readonly [number, number];
  readonly ruleset: TractorRuleset;
}

/** A declaration deal under way: the round's hands as they will be, dealt `steps` cards so far. */
export interface Dealing {
  readonly hands: readonly (readonly Card[])[];
  readonly steps: number;
}

/** What a match holds in every phase. */
export interface MatchFields {
  readonly options: TractorMatchOptions;
  /** 1 for the first round. */
  readonly roundNumber: number;
  /** The match seed (each round's seed is derived from it); never shown. */
  readonly seed: number;
  /** This round's deal seed, shown only once the round is over. */
  readonly roundSeed: number;
  /** This round's setup (with trump "declare", the main suit is "O" until declaring is over). */
  readonly setup: RoundSetup;
  /** The standing declaration of this round (kept after declaring is over, to show who declared). */
  readonly declaration: Declaration | undefined;
  /** Counts accepted declarations, burials, plays and burial starts (never reset). */
  readonly step: number;
}

/** The declaration deal (trump "declare" only): the round begins once declaring is over. */
export interface DeclaringMatch extends MatchFields {
  readonly phase: "declaring";
  readonly dealing: Dealing;
}

export interface BuryingMatch extends MatchFields {
  readonly phase: "burying";
  readonly round: BuryingRound;
}

export interface PlayingMatch extends MatchFields {
  readonly phase: "playing";
  readonly round: PlayingRound;
}

/** The round is over: the dealer deals the next one, unless a team has passed Ace and the match is over too. */
export interface RoundOverMatch extends MatchFields {
  readonly phase: "roundOver" | "matchOver";
  readonly round: FinishedRound;
}

export type TractorMatch = DeclaringMatch | BuryingMatch | PlayingMatch | RoundOverMatch;

export type TractorAction =
  | { readonly type: "declare" | "bury" | "play"; readonly cards: readonly string[] }
  | { readonly type: "deal" | "closeDeclarations" }
  /**
   * `seed`: the round's deal, given by the table (a fresh one for each round of a match whose creator gave no seed,
   * so that a finished round's revealed seed tells nothing of the next: docs/arena.md). Without it the round's seed
   * follows from the match's (roundSeedOf), as a reproducible match and a play-out want.
   */
  | { readonly type: "nextRound"; readonly seed?: number };

/** The wire payloads; `played.auto` is added by the room. */
export type TractorEnginePayloads = Omit<TractorEvents, "played"> & { played: Omit<TractorEvents["played"], "auto"> };
export type TractorEngineEvent = {
  [Name in keyof TractorEnginePayloads]: GameEvent<Name, TractorEnginePayloads[Name]>;
}[keyof TractorEnginePayloads];

export type Result = Outcome<TractorMatch, TractorEngineEvent, TractorErrorCode>;

export const names = (cards: readonly Card[]): string[] => cards.map(cardName);
export const seatName = (seat: Seat): TractorSeatName => TRACTOR_SEATS[seat];

export function roundIsOver(match: TractorMatch): match is RoundOverMatch {
  return match.phase === "roundOver" || match.phase === "matchOver";
}

export function currentRank(match: TractorMatch): number {
  return roundContext(match.setup).currentRank;
}

/** The cards `seat` holds now: what it has been dealt while dealing, else its round hand. */
export function heldCards(match: TractorMatch, seat: Seat): readonly Card[] {
  if (match.phase !== "declaring") return match.round.hands[seat];
  const dealing = match.dealing;
  return dealtTo(dealing.hands[seat], match.setup.dealer, seat, dealing.steps);
}

export function parseCards(texts: readonly string[]): Card[] | TractorMatchRefusal {
  const cards: Card[] = [];
  for (const text of texts) {
    const card = parseCard(text);
    if (card === undefined) return refuse("NOT_A_CARD", `"${text}" is not a card (e.g. H5, ST, BJ, RJ)`);
    cards.push(card);
  }
  return cards;
}

export type TractorMatchRefusal = Extract<Result, { ok: false }>;

export function wrongPhase(match: TractorMatch, action: string): TractorMatchRefusal {
  const phase = match.phase;
  return refuse(
    "WRONG_PHASE",
    `cannot ${action} now: the table is ${phase === "roundOver" ? "between rounds" : phase}`,
  );
}
