/**
 * A table's sealed deals (docs/arena.md, "Checking a deal by hand"): each deal gets a fresh secret salt when it
 * starts, and every client sees the commitment to its seed from then on; its seed and salt stay here until the
 * deal is over, then go to every client with the next patch.
 */
import { NO_SEAL, type DealSealView } from "../commitment";
import { sealDeal, type DealSeal } from "../deal-seal";
import { dealInPlay, type Deal } from "../engine";

export class DealSeals<State> {
  /** The seal of the deal in play (or the last one dealt); null before the first deal and for a deal drawn from no seed. */
  private current: { readonly deal: number; readonly match: number; readonly sealed: DealSeal } | null = null;
  /** The last finished deal's seal, revealed to every client (seed and salt) once its deal was over. */
  private revealed: DealSeal | null = null;

  /** `engine`: the game's engine, asked when a step is taken (a game's room sets its engine after the kit is made). */
  constructor(private readonly engine: () => { currentDeal?(state: State): Deal | undefined }) {}

  /** After every step of match `match` (seeded `seed`): a deal that has just started is sealed. */
  follow(match: number, seed: number, state: State): void {
    const deal = dealInPlay(this.engine(), state, seed);
    if (deal === undefined) {
      this.current = null;
      return;
    }
    if (this.current !== null && this.current.match === match && this.current.deal === deal.number) return;
    this.current = { deal: deal.number, match, sealed: sealDeal(deal.seed) };
  }

  /** The deal in play is over: its seed and salt are shown from now on. */
  reveal(): void {
    if (this.current !== null) this.revealed = this.current.sealed;
  }

  /** The seal of the deal in play, secret salt and all: the server's alone until its reveal. */
  inPlay(): DealSeal | null {
    return this.current?.sealed ?? null;
  }

  /** What every client sees of the deals: the commitment of the deal in play and the last finished deal's reveal. */
  view(): DealSealView {
    const shown = this.revealed;
    const revealed =
      shown === null
        ? NO_SEAL
        : { revealedCommitment: shown.commitment, revealedSeed: shown.seed, revealedSalt: shown.salt };
    return { ...NO_SEAL, ...revealed, commitment: this.current?.sealed.commitment ?? "" };
  }

  /** What a record keeps of the deal just over: the commitment every client was shown, and its salt. */
  forRecord(): { commitment?: string; salt?: string } {
    const sealed = this.current?.sealed;
    return sealed === undefined ? {} : { commitment: sealed.commitment, salt: sealed.salt };
  }
}
