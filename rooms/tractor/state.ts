/**
 * The `tractor` room's schema state: TractorStateView in protocol.ts, written by the table kit. The match engine's state (every
 * hand, the hidden cards, the seed) stays in the room; only a seat's own `hand` and the dealer's `buried` are
 * here, each visible to that seat's StateView alone.
 */
import { ArraySchema, Schema, type, view } from "../kit/schema";
import { DealSealState } from "../kit/seal-state";
import type { StateMatchesView } from "../kit/state-check";
import type {
  TractorSeatName,
  TractorOccupant,
  TractorTeam,
  TractorPhase,
  TractorStateView,
  TractorTrumpMode,
} from "./protocol";

export class TractorPlayState extends Schema {
  /** Always a seat's name once written (the kit writes a play whole before it is sent). */
  @type("string") seat = "" as TractorSeatName;
  @type(["string"]) cards = new ArraySchema<string>();
}

export class TractorTrickState extends Schema {
  @type("string") leader: TractorSeatName | "" = "";
  @type([TractorPlayState]) plays = new ArraySchema<TractorPlayState>();
  @type("string") winner: TractorSeatName | "" = "";
  @type("uint16") points = 0;
}

export class TractorDeclarationState extends Schema {
  @type("string") seat: TractorSeatName | "" = "";
  @type(["string"]) cards = new ArraySchema<string>();
}

export class TractorResultState extends Schema {
  @type("uint32") seed = 0;
  @type("uint16") defenderPoints = 0;
  @type(["string"]) hiddenCards = new ArraySchema<string>();
  @type("uint16") hiddenBonus = 0;
  @type("boolean") make = false;
  @type("uint8") team: TractorTeam = 1;
  @type("uint8") levels = 0;
  @type(["uint8"]) teamRanks = new ArraySchema<number>();
  @type("string") nextDealer = "" as TractorSeatName;
  @type("uint8") matchWinner: 0 | TractorTeam = 0;
}

export class TractorSeatState extends Schema {
  /** Always a seat's name once written. */
  @type("string") seat = "" as TractorSeatName;
  @type("uint8") team: TractorTeam = 1;
  @type("string") occupant: TractorOccupant = "open";
  @type("string") player = "";
  @type("boolean") connected = false;
  @type("uint8") handCount = 0;
  /** Sent only to the seat's own view. */
  @view() @type(["string"]) hand? = new ArraySchema<string>();
  /** Sent only to the seat's own view: the dealer's hidden cards, once buried. */
  @view() @type(["string"]) buried? = new ArraySchema<string>();
}

export class TractorState extends Schema {
  @type("string") phase: TractorPhase = "waiting";
  @type("uint16") round = 0;
  @type("string") trump: TractorTrumpMode = "declare";
  @type("string") mainSuit = "";
  @type("uint8") currentRank = 0;
  @type(["uint8"]) teamRanks = new ArraySchema<number>();
  @type("string") dealer: TractorSeatName | "" = "";
  @type("string") turn: TractorSeatName | "" = "";
  @type("float64") deadline = 0;
  @type("uint32") step = 0;
  @type("uint8") dealt = 0;
  @type(TractorDeclarationState) declaration = new TractorDeclarationState();
  @type(TractorTrickState) trick = new TractorTrickState();
  @type([TractorTrickState]) tricks = new ArraySchema<TractorTrickState>();
  @type("uint16") defenderPoints = 0;
  @type("int16") penaltyPoints = 0;
  @type(TractorResultState) result: TractorResultState | undefined;
  @type("uint8") winner: 0 | TractorTeam = 0;
  @type([TractorSeatState]) seats = new ArraySchema<TractorSeatState>();
  @type("uint16") spectators = 0;
  /** The deals' commitments and reveals (rooms/kit/commitment.ts), written by the table kit. */
  @type(DealSealState) seal = new DealSealState();
}

export const stateMatchesView: StateMatchesView<TractorState, TractorStateView> = true;
