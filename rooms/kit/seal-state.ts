/** The schema of DealSealView (commitment.ts): the `seal` field of every game's state, written by the table kit. */
import { Schema, type } from "./schema";

export class DealSealState extends Schema {
  @type("string") commitment = "";
  @type("string") revealedCommitment = "";
  @type("uint32") revealedSeed = 0;
  @type("string") revealedSalt = "";
}
