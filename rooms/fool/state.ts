import { ArraySchema, Schema, type, view } from "../kit/schema";
import { DealSealState } from "../kit/seal-state";
import type { StateMatchesView } from "../kit/state-check";
import type { FoolMode, FoolOutcome, FoolSeatController, FoolStateView } from "./protocol";
import type { Phase } from "./rules";

export class FoolSeat extends Schema {
  @type("string") name = "";
  @type("string") controller: FoolSeatController = "open";
  @type("boolean") connected = false;
  @type("uint8") handCount = 0;
  @type("uint32") wins = 0;
  /** Every hand, to everyone, once the game is over. */
  @type(["string"]) revealed = new ArraySchema<string>();
  /** The seat's own player alone sees these: the hand, and what the rules allow it now. */
  @view() @type(["string"]) hand? = new ArraySchema<string>();
  @view() @type("boolean") canDraw? = false;
  @view() @type("boolean") canPass? = false;
}

export class FoolFaceUpState extends Schema {
  @type("string") card = "";
  @type("string") as = "";
  @type("string") namedSuit = "";
  @type("string") text = "";
}

/** FoolStateView in protocol.ts, written by the table kit; the engine's state (deck order, every hand) and the seed stay in the room. */
export class FoolRoomState extends Schema {
  @type("string") mode: FoolMode = "vs-ai";
  @type("string") phase: "waiting" | "playing" | "over" = "waiting";
  @type("uint32") game = 0;
  @type("uint8") dealer = 0;
  @type([FoolSeat]) seats = new ArraySchema<FoolSeat>();
  @type(FoolFaceUpState) faceUp = new FoolFaceUpState();
  @type("uint8") deckCount = 0;
  @type("int8") turn = -1;
  @type("string") turnPhase: Phase | "" = "";
  @type("float64") deadline = 0;
  @type("uint32") moveCount = 0;
  @type(["uint8"]) winners = new ArraySchema<number>();
  @type("int8") fool = -1;
  @type("string") outcome: FoolOutcome | "" = "";
  @type("uint32") revealedSeed = 0;
  @type("uint16") spectators = 0;
  /** The deals' commitments and reveals (rooms/kit/commitment.ts), written by the table kit. */
  @type(DealSealState) seal = new DealSealState();
}

export const stateMatchesView: StateMatchesView<FoolRoomState, FoolStateView> = true;
