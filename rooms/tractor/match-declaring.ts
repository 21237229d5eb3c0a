/**
 * The declaring phase of a match with trump "declare": the paced deal, the seats' declarations, and its close,
 * which fixes the main suit and starts the round.
 */
import { refuse } from "../kit/engine";
import { checkDeclaration, declaredMainSuit } from "./declaration";
import {
  currentRank,
  heldCards,
  names,
  parseCards,
  seatName,
  wrongPhase,
  type DeclaringMatch,
  type Result,
  type TractorMatch,
} from "./match-state";
import { startRound } from "./round";
import type { RoundSetup, Seat } from "./scoring";

export function declare(match: TractorMatch, seat: Seat, texts: readonly string[]): Result {
  if (match.phase !== "declaring") return wrongPhase(match, "declare");
  const cards = parseCards(texts);
  if (!Array.isArray(cards)) return cards;
  const check = checkDeclaration(
    match.declaration,
    seat,
    cards,
    heldCards(match, seat),
    currentRank(match),
    match.options.ruleset,
  );
  if (!check.ok) return refuse("ILLEGAL_DECLARATION", check.reason);
  const declaration = check.declaration;
  const payload = {
    round: match.roundNumber,
    seat: seatName(seat),
    cards: names(declaration.cards),
    mainSuit: declaredMainSuit(declaration),
  };
  return { ok: true, state: { ...match, declaration, step: match.step + 1 }, events: [{ name: "declared", payload }] };
}

export function dealCard(match: DeclaringMatch): Result {
  const dealing = match.dealing;
  return { ok: true, state: { ...match, dealing: { ...dealing, steps: dealing.steps + 1 } }, events: [] };
}

/** The declaration (if any) sets the main suit; the dealt hands become the round's and the dealer buries. */
export function closeDeclarations({ dealing, ...match }: DeclaringMatch): Result {
  const mainSuit = declaredMainSuit(match.declaration);
  const setup: RoundSetup = { ...match.setup, mainSuit };
  const round = startRound(setup, dealing.hands, match.options.ruleset);
  const payload = {
    round: match.roundNumber,
    mainSuit,
    declaredBy: match.declaration ? seatName(match.declaration.seat) : ("" as const),
  };
  return {
    ok: true,
    state: { ...match, phase: "burying", setup, round, step: match.step + 1 },
    events: [{ name: "trump", payload }],
  };
}
