import { ArraySchema, Schema, type } from "../kit/schema";
import { DealSealState } from "../kit/seal-state";
import { MAX_PILES } from "./engine";
import type { StateMatchesView } from "../kit/state-check";
import type { PatiencePhase, PatienceStateView } from "./protocol";

export class PatienceCover extends Schema {
  @type("string") group: "" | "pair" | "triple" = "";
  @type(["uint8"]) piles = new ArraySchema<number>();
  @type(["string"]) covered = new ArraySchema<string>();
  @type(["string"]) covering = new ArraySchema<string>();
}

export class PatienceOutcome extends Schema {
  @type("string") kind: "" | "finished" | "overflowed" = "";
  @type(["uint8"]) pileSizes = new ArraySchema<number>();
  @type("uint8") overflowCard = 0;
  @type("string") line = "";
}

/**
 * Mirrors PatienceStateView in protocol.ts. Everything here is public; the deck and the seed stay in the room
 * (never in this state) until the deal is over, and the undealt cards never come here at all.
 */
export class PatienceState extends Schema {
  @type("string") phase: PatiencePhase = "paused";
  @type("uint32") deal = 0;
  @type("uint16") steps = 0;
  @type("uint16") paceMs = 0;
  @type("uint8") dealt = 0;
  @type("uint8") deckSize = 0;
  /** "" for a pile not started yet. */
  @type(["string"]) tops = new ArraySchema<string>(...Array.from({ length: MAX_PILES }, () => ""));
  @type(["uint8"]) counts = new ArraySchema<number>(...Array.from({ length: MAX_PILES }, () => 0));
  @type(PatienceCover) cover = new PatienceCover();
  @type(PatienceOutcome) outcome = new PatienceOutcome();
  @type("uint32") revealedSeed = 0;
  @type("string") owner = "";
  @type("string") ownerName = "";
  @type("boolean") ownerConnected = false;
  @type("uint16") spectators = 0;
  /** The deals' commitments and reveals (rooms/kit/commitment.ts), written by the table kit. */
  @type(DealSealState) seal = new DealSealState();
}

export const stateMatchesView: StateMatchesView<PatienceState, PatienceStateView> = true;
