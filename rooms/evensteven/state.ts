import { ArraySchema, Schema, type, view } from "../kit/schema";
import { DealSealState } from "../kit/seal-state";
import type { StateMatchesView } from "../kit/state-check";
import type { EvenStevenStateView } from "./protocol";

export class EvenStevenPlayer extends Schema {
  @type("string") name = "";
  @type("boolean") connected = true;
  /** Sent only to the player's own view. */
  @view() @type(["string"]) hand? = new ArraySchema<string>();
}

export class EvenStevenScore extends Schema {
  @type("uint32") games = 0;
  @type("uint32") wins = 0;
  @type("uint32") necessaryLosses = 0;
  @type("uint32") unnecessaryLosses = 0;
  @type("uint32") timeOuts = 0;
}

/** The schema of EvenStevenStateView in protocol.ts (checked below); the engine's game (deck, seed) is never here. */
export class EvenStevenState extends Schema {
  @type("string") phase: "waiting" | "playing" | "over" = "waiting";
  @type("uint32") game = 0;
  @type("uint8") handSize = 0;
  @type("uint8") cardsInHand = 0;
  @type("string") toCover = "";
  @type("float64") deadline = 0;
  @type(["string"]) dealt = new ArraySchema<string>();
  @type(["string"]) played = new ArraySchema<string>();
  @type("string") outcome = "";
  @type("uint32") revealedSeed = 0;
  @type(["string"]) undealt = new ArraySchema<string>();
  @type(["string"]) unplayed = new ArraySchema<string>();
  @type(EvenStevenScore) score = new EvenStevenScore();
  @type(EvenStevenPlayer) player: EvenStevenPlayer | undefined;
  @type("uint16") spectators = 0;
  /** The deals' commitments and reveals (rooms/kit/commitment.ts), written by the table kit. */
  @type(DealSealState) seal = new DealSealState();
}

/** Fails to compile when the schema and the protocol's view drift apart. */
export const stateMatchesView: StateMatchesView<EvenStevenState, EvenStevenStateView> = true;
