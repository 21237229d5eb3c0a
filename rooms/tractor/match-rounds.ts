/**
 * A match's rounds: each dealt from its own seed, buried, played trick by trick, and settled, with the events that
 * tell the table; the last round's settlement ends the match.
 */
import { refuse, type Applied } from "../kit/engine";
import { freshSeed, seededRandom } from "../kit/random";
import {
  names,
  parseCards,
  seatName,
  wrongPhase,
  type MatchFields,
  type PlayingMatch,
  type Result,
  type RoundOverMatch,
  type TractorEngineEvent,
  type TractorMatch,
} from "./match-state";
import type { TractorEvents, TractorPlay, TractorResult } from "./protocol";
import {
  applyPlay,
  buryCards,
  dealRound,
  type CompletedTrick,
  type FinishedRound,
  type RoundState,
  type TrickInProgress,
} from "./round";
import { roundContext, SEATS, type RoundSetup, type Seat } from "./scoring";

/**
 * A round's seed from the match seed, for a match that is reproducible from its seed. Whoever knows a revealed round
 * seed can search the match seeds (31 bits) for the one it follows from, and with it the next rounds' deals: a
 * table whose creator gave no seed deals each later round from a fresh seed instead (the `nextRound` action's).
 */
export function roundSeedOf(matchSeed: number, round: number): number {
  return freshSeed(seededRandom(`${matchSeed}:round:${round}`));
}

export function playsOf(trick: TrickInProgress): TractorPlay[] {
  return trick.plays.map((cards, index) => ({
    seat: seatName(((trick.leader + index) % SEATS.length) as Seat),
    cards: names(cards),
  }));
}

export function resultOf(match: RoundOverMatch): TractorResult {
  const round = match.round;
  const result = round.result;
  return {
    seed: match.roundSeed,
    defenderPoints: result.defenderPoints,
    hiddenCards: names(round.hidden),
    hiddenBonus: result.hiddenBonus,
    make: result.change.make,
    team: result.change.team,
    levels: result.change.levels,
    teamRanks: [...result.teamRanks],
    nextDealer: seatName(result.nextDealer),
    matchWinner: result.matchWinner ?? 0,
  };
}

/** Deals round `roundNumber`: with trump "fixed" the dealer buries next, with "declare" the paced deal begins. */
export function beginRound(
  { options, seed, step }: Pick<MatchFields, "options" | "seed" | "step">,
  roundNumber: number,
  setup: RoundSetup,
  roundSeed = roundSeedOf(seed, roundNumber),
): Applied<TractorMatch, TractorEngineEvent> {
  const dealt = dealRound(setup, seededRandom(roundSeed), options.ruleset);
  const fixed = options.trump === "fixed";
  const table = { options, seed, roundNumber, roundSeed, setup, declaration: undefined };
  const state: TractorMatch = fixed
    ? { ...table, phase: "burying", round: dealt, step: step + 1 }
    : { ...table, phase: "declaring", dealing: { hands: dealt.hands, steps: 0 }, step };
  const payload = {
    round: roundNumber,
    dealer: seatName(setup.dealer),
    teamRanks: [...setup.teamRanks],
    currentRank: roundContext(setup).currentRank,
    trump: options.trump,
    mainSuit: fixed ? setup.mainSuit : "",
  };
  return { ok: true, state, events: [{ name: "roundStart", payload }] };
}

export function bury(match: TractorMatch, seat: Seat, texts: readonly string[]): Result {
  if (match.phase !== "burying") return wrongPhase(match, "bury");
  const round = match.round;
  if (seat !== round.setup.dealer)
    return refuse("NOT_YOUR_TURN", `only the dealer, ${seatName(round.setup.dealer)}, buries`);
  const cards = parseCards(texts);
  if (!Array.isArray(cards)) return cards;
  const update = buryCards(round, seat, cards);
  if (!update.ok) return refuse("ILLEGAL_BURIAL", update.reason);
  const payload = { round: match.roundNumber, dealer: seatName(seat) };
  return {
    ok: true,
    state: { ...match, phase: "playing", round: update.state, step: match.step + 1 },
    events: [{ name: "buried", payload }],
  };
}

export function play(match: TractorMatch, seat: Seat, texts: readonly string[]): Result {
  if (match.phase !== "playing") return wrongPhase(match, "play");
  const round = match.round;
  if (seat !== round.turn) return refuse("NOT_YOUR_TURN", `it is ${seatName(round.turn)}'s turn`);
  const cards = parseCards(texts);
  if (!Array.isArray(cards)) return cards;
  const update = applyPlay(round, seat, cards);
  if (!update.ok) return refuse("ILLEGAL_PLAY", update.reason);
  const next = update.state;
  const trickDone = next.tricks.length > round.tricks.length;
  // A completed trick leaves none under way: the play was the last of the last trick.
  const trick: TrickInProgress = next.trick ?? next.tricks[next.tricks.length - 1];
  const failed =
    next.failedThrows.length > round.failedThrows.length ? next.failedThrows[next.failedThrows.length - 1] : undefined;
  const finished = next.phase === "finished";
  const events: TractorEngineEvent[] = [
    {
      name: "played",
      payload: {
        round: match.roundNumber,
        seat: seatName(seat),
        cards: names(trick.plays[trick.plays.length - 1]),
        ...(failed ? { failedThrow: { attempted: names(failed.attempted), penalty: failed.penalty } } : {}),
        next: finished ? "" : seatName(next.turn),
      },
    },
  ];
  if (trickDone) events.push({ name: "trick", payload: trickEvent(match.roundNumber, next, trick as CompletedTrick) });
  if (next.phase === "playing") return { ok: true, state: { ...match, round: next, step: match.step + 1 }, events };
  return roundOver(match, next, events);
}

/** The round's last play ends the round, and the match too once a team has passed Ace. */
function roundOver(match: PlayingMatch, round: FinishedRound, events: TractorEngineEvent[]): Result {
  const { matchWinner, teamRanks } = round.result;
  const state: RoundOverMatch = {
    ...match,
    phase: matchWinner === undefined ? "roundOver" : "matchOver",
    round,
    step: match.step + 1,
  };
  events.push({ name: "roundEnd", payload: { round: match.roundNumber, ...resultOf(state) } });
  if (matchWinner !== undefined)
    events.push({
      name: "matchEnd",
      payload: { winner: matchWinner, teamRanks: [...teamRanks], rounds: match.roundNumber },
    });
  return { ok: true, state, events };
}

function trickEvent(roundNumber: number, next: RoundState, completed: CompletedTrick): TractorEvents["trick"] {
  return {
    round: roundNumber,
    trick: next.tricks.length,
    leader: seatName(completed.leader),
    plays: playsOf(completed),
    winner: seatName(completed.winner),
    points: completed.points,
    defenderPoints: next.trickPoints,
    nextLeader: next.phase === "finished" ? "" : seatName(next.turn),
  };
}

export function nextRound(match: RoundOverMatch, seed: number | undefined): Result {
  const result = match.round.result;
  return beginRound(
    match,
    match.roundNumber + 1,
    {
      mainSuit: match.options.mainSuit,
      dealer: result.nextDealer,
      teamRanks: [result.teamRanks[0], result.teamRanks[1]],
    },
    seed,
  );
}
