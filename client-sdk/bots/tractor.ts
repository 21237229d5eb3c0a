/**
 * The random-legal and the heuristic Tractor bots, built only on the SDK: the seat session hands out each turn
 * with the seat's own SeatView (its hand and what the table showed it, never another hand), and the bot answers
 * with the choice of one of the engine's pure policies (rooms/tractor/policy.ts). No server code is involved.
 */
import { seededRandom, type Random } from "../../rooms/kit/random";
import { heuristicPolicy, type TractorPolicy } from "../../rooms/tractor/policy";
import { randomPolicy } from "../../rooms/tractor/policy-random";
import type { TractorTeam } from "../../rooms/tractor/protocol";
import { classic, type TractorRuleset } from "../../rooms/tractor/ruleset";
import { CardhallError } from "../errors";
import type { TractorPlayer, TractorTurn } from "../tractor";
import { think } from "./probe";

/** What a bot needs of a seat session: its turns and its two moves. `TractorPlayer` is one. */
export type TractorSeat = Pick<TractorPlayer, "nextTurn" | "play" | "bury">;

export type TractorBotPolicy = "random" | "heuristic";

export interface TractorBotOptions {
  /** How long to wait for each turn (the others may be people). */
  timeoutMs?: number;
  /** Mean think time before each action (0: act at once). */
  thinkMs?: number;
  /** Seeds the think times and the random policy. */
  botSeed?: string | number;
  /** The table's throw rule, which the heuristic must know (default: the statement's, every throw stands). */
  ruleset?: TractorRuleset;
  /** Asked before each turn and again before acting on it: false ends the bot's play (it does not leave the room). */
  keepPlaying?: () => boolean;
}

export interface TractorBotResult {
  /** Burials and plays the room accepted from this bot. */
  actions: number;
  /** The team that won the match, or undefined when the bot stopped first. */
  matchWinner?: TractorTeam;
}

/** A match is bounded by the rounds it takes a team past Ace; this bounds the bot's own loop whatever the room does. */
const MAX_TURNS = 100_000;
const DEFAULT_TURN_TIMEOUT_MS = 10 * 60_000;

/** The policy a named bot plays. */
export function tractorBotPolicy(
  kind: TractorBotPolicy,
  options: Pick<TractorBotOptions, "botSeed" | "ruleset"> = {},
): TractorPolicy {
  if (kind === "heuristic") return heuristicPolicy(options.ruleset ?? classic);
  return randomPolicy(seededRandom(`${options.botSeed ?? "tractor-bot"}:policy`));
}

/** Refusals that only mean the room acted first: the turn clock played for the seat, or the round moved on. */
function overtaken(error: unknown): boolean {
  return error instanceof CardhallError && (error.code === "NOT_YOUR_TURN" || error.code === "WRONG_PHASE");
}

/** How often a waiting bot asks `keepPlaying` again: another seat may have stopped, and then no turn comes. */
const STOP_CHECK_MS = 500;

/** The seat's next turn, or null once `keepPlaying` says stop; rejects when no turn comes within the time-out. */
async function awaitTurn(seat: TractorSeat, options: TractorBotOptions): Promise<TractorTurn | null> {
  const limit = options.timeoutMs ?? DEFAULT_TURN_TIMEOUT_MS;
  const keepPlaying = options.keepPlaying;
  if (keepPlaying === undefined) return seat.nextTurn(limit);
  if (!keepPlaying()) return null;
  const stop = new AbortController();
  const stopCheck = setInterval(() => keepPlaying() || stop.abort(), STOP_CHECK_MS);
  try {
    return await seat.nextTurn(limit, stop.signal);
  } catch (error) {
    if (error instanceof CardhallError && error.code === "ABORTED") return null;
    throw error;
  } finally {
    clearInterval(stopCheck);
  }
}

/**
 * Plays the seat with `policy` (a TractorPolicy, or "random" / "heuristic") until the match is over or
 * `keepPlaying` says stop: each burial and play is the policy's choice from the turn's SeatView.
 * Rejects with the SDK's CardhallError when a turn does not come in time or the room refuses a choice.
 */
export async function playTractorBot(
  seat: TractorSeat,
  policy: TractorPolicy | TractorBotPolicy,
  options: TractorBotOptions = {},
): Promise<TractorBotResult> {
  const decide = typeof policy === "string" ? tractorBotPolicy(policy, options) : policy;
  const random: Random = seededRandom(options.botSeed ?? "tractor-bot");
  let actions = 0;
  for (let turns = 0; turns < MAX_TURNS; turns++) {
    const turn = await awaitTurn(seat, options);
    if (turn === null) return { actions };
    if (turn.kind === "matchOver") return { actions, matchWinner: turn.winner };
    await think(options.thinkMs ?? 0, random);
    // Told to stop while it thought (a load test's deadline): it stops before acting, as the other games' bots do.
    if (options.keepPlaying && !options.keepPlaying()) return { actions };
    try {
      if (turn.kind === "bury") await seat.bury(decide.chooseBurial(turn.view));
      else await seat.play(decide.choosePlay(turn.view));
      actions++;
    } catch (error) {
      if (!overtaken(error)) throw error;
    }
  }
  throw new CardhallError("TIMEOUT", `the match did not end within ${MAX_TURNS} turns`);
}
