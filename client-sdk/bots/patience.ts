/**
 * A scripted Shuffling Patience watcher, built only on the SDK: it watches one deal to its end and returns the
 * outcome. Without a room id it creates a room and owns it, dealing either at the room's pace or step by step (each
 * step a request whose broadcast the load test times); with one it spectates. Either way it rebuilds the grid from
 * the move events it saw and reports a desync if the room's final state disagrees.
 */
import type { CardhallClient } from "../index";
import { CardhallError } from "../errors";
import type { PatienceMoveEvent, PatienceOutcomeData, PatienceStateView } from "../../rooms/patience/protocol";
import type { PatienceDeck, PatienceOwner, PatienceSpectator } from "../patience";
import { NO_PROBE, StoppedEarly, think, type MoveProbe } from "./probe";

export interface PatienceWatchOptions {
  /** Spectate this live room; without it the bot creates a room and owns it. */
  roomId?: string;
  /** For a room the bot creates: the deal and the pace (the room's defaults otherwise). */
  seed?: number;
  deck?: PatienceDeck;
  paceMs?: number;
  /** For a room the bot creates: start it paused and deal by `step` requests, one move at a time. */
  stepByStep?: boolean;
  /** Mean think time before each step request. */
  thinkMs?: number;
  name?: string;
  /** How long to wait for the deal's end. */
  timeoutMs?: number;
  probe?: MoveProbe;
  /** Asked before each step the bot deals: true abandons the deal with StoppedEarly (a load test's deadline). */
  stopNow?: () => boolean;
  /** Called once the bot is in the room. */
  onJoined?: () => void;
}

export interface PatienceWatchResult {
  roomId: string;
  deal: number;
  /** The revealed seed; 0 for a deal given as a deck. */
  seed: number;
  outcome: PatienceOutcomeData;
  /** The line bin/patience prints for the deck. */
  line: string;
  steps: number;
  /** Moves this client saw as events (fewer than `steps` when it joined during the deal). */
  movesSeen: number;
}

/** The most steps a 52-card deal can take (each step deals a card, plus the last), with room to spare. */
const MAX_STEPS = 200;

/** Watches one deal of Shuffling Patience to its end. */
export async function watchPatienceDeal(
  client: CardhallClient,
  options: PatienceWatchOptions = {},
): Promise<PatienceWatchResult> {
  const owning = options.roomId === undefined;
  const stepByStep = owning && (options.stepByStep ?? false);
  const owner = owning
    ? await client.createPatience({
        seed: options.seed,
        deck: options.deck,
        paceMs: options.paceMs,
        paused: stepByStep,
        name: options.name ?? "patience-bot",
      })
    : null;
  const session: PatienceSpectator = owner ?? (await client.spectatePatience(options.roomId!, { name: options.name }));
  const probe = options.probe ?? NO_PROBE;
  const moves: PatienceMoveEvent[] = [];
  let over = false;
  session.on("move", (event) => {
    moves.push(event);
    probe.seen(`${event.deal}:${event.step}`);
  });
  session.on("dealOver", () => (over = true));
  options.onJoined?.();
  try {
    if (owner && stepByStep) await stepToTheEnd(owner, () => over, options.thinkMs ?? 0, probe, options.stopNow);
    const ending = await session.dealOver(owning ? 1 : undefined, options.timeoutMs);
    const ownMoves = moves.filter((move) => move.deal === ending.deal);
    await checkAgreement(session, ending.deal, ownMoves, probe);
    const { deal, seed, outcome, line, steps } = ending;
    return { roomId: session.roomId, deal, seed, outcome, line, steps, movesSeen: ownMoves.length };
  } finally {
    await session.leave();
  }
}

/** As the owner of a paused deal: one `step` request after another until the deal is over. */
async function stepToTheEnd(
  owner: PatienceOwner,
  isOver: () => boolean,
  thinkMs: number,
  probe: MoveProbe,
  stopNow?: () => boolean,
): Promise<void> {
  for (let step = 1; step <= MAX_STEPS && !isOver(); step++) {
    await think(thinkMs);
    if (stopNow?.() && !isOver()) throw new StoppedEarly();
    probe.sent(`1:${step}`);
    try {
      await owner.step();
    } catch (error) {
      // The dealOver event comes before the last step's reply, so this is only a safety net.
      if (error instanceof CardhallError && error.code === "DEAL_OVER") return;
      throw error;
    }
  }
}

/** The grid the bot rebuilt from the moves must be the grid the room's final state shows. */
async function checkAgreement(
  session: PatienceSpectator,
  deal: number,
  moves: PatienceMoveEvent[],
  probe: MoveProbe,
): Promise<void> {
  if (probe === NO_PROBE || moves[0]?.step !== 1) return; // a late joiner cannot rebuild the grid
  const view = await session
    .waitForView((v: PatienceStateView) => v.deal === deal && v.phase === "over")
    .catch(() => undefined);
  if (!view) return probe.desync(`deal ${deal}: the state never showed the deal's end`);
  const rebuilt = JSON.stringify(gridFrom(moves));
  const shown = JSON.stringify({ tops: view.tops, counts: view.counts });
  if (rebuilt !== shown) probe.desync(`deal ${deal}: the moves make ${rebuilt}, the state shows ${shown}`);
}

/**
 * The 16 piles the moves leave, each one's top card and size: a dealt card starts a pile, a cover lays each covering
 * card on its pile.
 */
export function gridFrom(moves: readonly PatienceMoveEvent[]): Pick<PatienceStateView, "tops" | "counts"> {
  const tops: string[] = Array.from({ length: 16 }, () => "");
  const counts: number[] = Array.from({ length: 16 }, () => 0);
  for (const move of moves) {
    if (move.kind === "dealt") {
      tops[move.pile] = move.card;
      counts[move.pile] = 1;
    }
    if (move.kind === "covered") {
      move.covering.forEach((card, i) => {
        tops[move.piles[i]] = card;
        counts[move.piles[i]]++;
      });
    }
  }
  return { tops, counts };
}
