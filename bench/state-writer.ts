/**
 * npm run bench:state-writer [-- ROOT ...]
 *
 * What writing the state views into a room's schema costs a step (the kit's `writeViews`, before every patch: the
 * spectator's view in the public pass, then each seat's own view in the hidden pass), for each game and for each
 * build given (a project root with a compiled dist/; this one by default). The matches are played once by the
 * engines' own bots; every build then writes the same views, the builds taking turns round after round so a noisy
 * machine slows them alike. Each build writes into its own schema classes; the patch is encoded after every step,
 * as a room does, outside the timing.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { playOut, SPECTATOR, type Viewer } from "../rooms/kit/engine";
import { RECORD_ENGINES } from "../server/records/replay";
import { BOT_MATCH_OPTIONS as OPTIONS } from "./match-options";
import type { RecordedGame } from "../rooms/kit/record";

const HERE = path.resolve(__dirname, "..", "..");
const MATCHES = 20;
const ROUNDS = 9;

const STATE_CLASS: Record<RecordedGame, [module: string, name: string]> = {
  evensteven: ["evensteven/state", "EvenStevenState"],
  fool: ["fool/state", "FoolRoomState"],
  patience: ["patience/state", "PatienceState"],
  tractor: ["tractor/state", "TractorState"],
};

type Plain = object;
type WriteView = (target: object, view: Plain, pass: "public" | "hidden") => void;
interface Build {
  readonly root: string;
  readonly writeView: WriteView;
  readonly Encoder: new (state: object) => { encode(): Uint8Array; discardChanges(): void };
  readonly stateClass: (game: RecordedGame) => new () => object;
}

function loadBuild(root: string): Build {
  const dist = path.join(root, "dist");
  // The schema copy the build's states are made with (rooms/kit/schema.ts; a build from before it, the package's own).
  const ownCopy = path.join(dist, "rooms", "kit", "schema.js");
  const schema = require(
    fs.existsSync(ownCopy) ? ownCopy : require.resolve("@colyseus/schema", { paths: [path.join(dist, "rooms")] }),
  ) as { Encoder: Build["Encoder"] };
  const { writeView } = require(path.join(dist, "rooms", "kit", "state-writer")) as { writeView: WriteView };
  const stateClass = (game: RecordedGame) => {
    const [module, name] = STATE_CLASS[game];
    return (require(path.join(dist, "rooms", module)) as Record<string, new () => object>)[name]!;
  };
  return { root, writeView, Encoder: schema.Encoder, stateClass };
}

/** Every step's views of a few whole matches: the spectator's, then each seat's. */
function viewsOfMatches(game: RecordedGame): Plain[][][] {
  const engine = RECORD_ENGINES[game];
  const options = OPTIONS[game];
  const seats = engine.seatCount(options as never);
  const viewers: Viewer[] = [SPECTATOR, ...Array.from({ length: seats }, (_, seat) => seat)];
  return Array.from({ length: MATCHES }, (_, match) => {
    const seed = 1000 + match;
    const played = playOut(engine, options as never, seed);
    let state = engine.start(options as never, seed).state;
    const steps: Plain[][] = [viewers.map((viewer) => engine.view(state, viewer) as Plain)];
    for (const { actor, action } of played.actions) {
      const outcome = engine.apply(state, actor, action as never);
      if (!outcome.ok) throw new Error(`${game}: the replay was refused`);
      state = outcome.state;
      steps.push(viewers.map((viewer) => engine.view(state, viewer) as Plain));
    }
    return steps;
  });
}

/** Microseconds spent writing views over every step of the matches. */
function writeMatches(build: Build, game: RecordedGame, matches: Plain[][][]): { micros: number; steps: number } {
  let micros = 0;
  let steps = 0;
  const State = build.stateClass(game);
  for (const match of matches) {
    const state = new State();
    const encoder = new build.Encoder(state);
    for (const [spectator, ...seats] of match) {
      const started = performance.now();
      build.writeView(state, spectator!, "public");
      for (const seat of seats) build.writeView(state, seat, "hidden");
      micros += (performance.now() - started) * 1000;
      steps++;
      encoder.encode();
      encoder.discardChanges();
    }
  }
  return { micros, steps };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function main(): void {
  const roots = process.argv.slice(2).map((root) => path.resolve(root));
  const builds = (roots.length > 0 ? roots : [HERE]).map(loadBuild);
  console.log(
    `the state views written a step (µs, median of ${ROUNDS} rounds of ${MATCHES} matches a game, the builds in turn)`,
  );
  console.log(["game", "steps", ...builds.map((build) => path.basename(build.root) || build.root)].join("\t"));
  for (const game of Object.keys(OPTIONS) as RecordedGame[]) {
    const matches = viewsOfMatches(game);
    const perStep = builds.map(() => [] as number[]);
    let steps = 0;
    for (let round = 0; round < ROUNDS; round++) {
      builds.forEach((build, index) => {
        const measured = writeMatches(build, game, matches);
        steps = measured.steps;
        if (round > 0) perStep[index]!.push(measured.micros / measured.steps); // the first round warms the code up
      });
    }
    console.log([game, steps, ...perStep.map((values) => median(values).toFixed(2))].join("\t"));
  }
}

main();
