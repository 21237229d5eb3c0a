/**
 * Who plays a Fool room's AI seats (and a silent person's move): the AI — on the server's thread pool when the
 * room was given one, else in-process — or a baseline bot. Each seat remembers the game's public events, which is
 * what the AI plays from besides its own view; the baselines throw dice seeded from the deal, so a game between
 * baselines replays from its seed.
 */
import { lazySeededRandom, type Random } from "../kit/random";
import { aiPolicy, strongAiPolicy, type FoolAiDecider } from "./ai";
import { remember, startMemory, type FoolMemory } from "./ai-memory";
import { greedyPolicy, randomPolicy, type Policy } from "./bots";
import type { FoolAiLevel, FoolAiPolicy } from "./protocol";
import { viewFor, type FoolEvent, type FoolMove, type FoolState } from "./rules";

const BASELINES: Record<Exclude<FoolAiPolicy, "ai">, Policy> = { greedy: greedyPolicy, random: randomPolicy };

export class FoolTablePlayers {
  private dice: Random = Math.random;
  private memories: FoolMemory[] = [];

  constructor(
    private readonly policy: FoolAiPolicy,
    /** The server's pool of AI threads, or null to decide in-process. */
    private readonly threads: FoolAiDecider | null,
    private readonly level: FoolAiLevel = "normal",
  ) {}

  /** A new game was dealt from `seed`: memories start from each seat's view, the dice from the seed (made when first thrown). */
  dealt(game: FoolState, seed: number): void {
    this.dice = lazySeededRandom(`${seed}:policies`);
    this.memories = game.hands.map((_, seat) => startMemory(viewFor(game, seat)));
  }

  /** Every seat saw a move's events. */
  saw(events: readonly FoolEvent[]): void {
    this.memories = this.memories.map((memory) => remember(memory, events));
  }

  /** The seat's move: a baseline's at once, the AI's on a thread (a promise) or in-process. */
  decide(game: FoolState, seat: number): FoolMove | Promise<FoolMove> {
    const view = viewFor(game, seat);
    if (this.policy !== "ai") return BASELINES[this.policy](view, this.dice);
    if (this.level === "easy") return greedyPolicy(view, this.dice);
    if (this.threads === null)
      return (this.level === "strong" ? strongAiPolicy : aiPolicy)(view, this.dice, this.memories[seat]); // (the AI draws no dice)
    return this.level === "strong"
      ? this.threads.decide(view, this.memories[seat], "strong")
      : this.threads.decide(view, this.memories[seat]);
  }
}
