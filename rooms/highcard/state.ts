import { ArraySchema, Schema, type, view } from "../kit/schema";
import { DealSealState } from "../kit/seal-state";
import type { StateMatchesView } from "../kit/state-check";
import type { HighCardStateView } from "./protocol";

export class HighCardSeat extends Schema {
  @type("string") name = "";
  @type("string") holder: "open" | "bot" | "person" = "open";
  @type("boolean") connected = false;
  @type("uint8") handCount = 0;
  @type("uint8") tricksWon = 0;
  /** Sent only to the seat's own view. */
  @view() @type(["string"]) hand? = new ArraySchema<string>();
}

export class HighCardState extends Schema {
  @type("string") phase: HighCardStateView["phase"] = "waiting";
  @type("int8") turn = -1;
  @type("float64") deadline = 0;
  @type(["string"]) trick = new ArraySchema<string>();
  @type([HighCardSeat]) seats = new ArraySchema<HighCardSeat>(new HighCardSeat(), new HighCardSeat());
  @type("int8") winner = -1;
  @type("uint32") revealedSeed = 0;
  @type("uint16") spectators = 0;
  /** The deals' commitments and reveals (rooms/kit/commitment.ts), written by the table kit. */
  @type(DealSealState) seal = new DealSealState();
}

/** Fails to compile when the schema and the protocol's view drift apart. */
export const stateMatchesView: StateMatchesView<HighCardState, HighCardStateView> = true;
