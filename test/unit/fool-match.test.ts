import fc from "fast-check";
import { DEALER, playOut, replayMatch, SPECTATOR, type RecordedAction } from "../../rooms/kit/engine";
import { seededRandom } from "../../rooms/kit/random";
import { foolEngine, type FoolEngineEvent, type FoolMatch, type FoolOptions } from "../../rooms/fool/match";
import { FOOL_ERROR_CODES } from "../../rooms/fool/protocol";
import { legalMoves, newGame, type FoolMove } from "../../rooms/fool/rules";

const seeds = fc.integer({ min: 1, max: 2_147_483_646 });
const options = fc.record({ dealer: fc.integer({ min: 0, max: 1 }), maxMoves: fc.integer({ min: 10, max: 400 }) });

/** The game must be over, by a Fool or by the cap, and replay exactly from its seed and its actions. */
function expectReplays(
  opts: FoolOptions,
  seed: number,
  played: { actions: RecordedAction<FoolMove>[]; events: (readonly FoolEngineEvent[])[]; state: FoolMatch },
): void {
  const { state } = played;
  expect(foolEngine.waiting(state)).toEqual({ for: "nobody" });
  expect(state.outcome).toBe(state.game.phase === "over" ? "fool" : "capped");
  if (state.outcome === "capped") expect(state.game.moveCount).toBe(opts.maxMoves);
  expect(played.actions.length).toBe(state.game.moveCount);
  const replayed = replayMatch(foolEngine, opts, seed, played.actions);
  expect(replayed.events).toEqual(played.events);
  expect(replayed.state).toEqual(state);
}

/** A game whose every move is picked by fast-check among the legal ones. */
function playPicked(opts: FoolOptions, seed: number, picks: readonly number[]) {
  const started = foolEngine.start(opts, seed);
  let state = started.state;
  const actions: RecordedAction<FoolMove>[] = [];
  const events: (readonly FoolEngineEvent[])[] = [started.events];
  for (let waiting = foolEngine.waiting(state); waiting.for === "seat"; waiting = foolEngine.waiting(state)) {
    const legal = foolEngine.legalActions(state, waiting.seat).actions;
    const action = legal[picks[actions.length % picks.length] % legal.length];
    const outcome = foolEngine.apply(state, waiting.seat, action);
    if (!outcome.ok) throw new Error(`a legal move was refused: ${outcome.reason}`);
    state = outcome.state;
    actions.push({ actor: waiting.seat, action });
    events.push(outcome.events);
  }
  return { actions, events, state };
}

describe("the Fool match engine", () => {
  test("games played by the engine's bots replay exactly from the seed and the recorded actions", () => {
    fc.assert(
      fc.property(seeds, options, (seed, opts) => expectReplays(opts, seed, playOut(foolEngine, opts, seed))),
      { numRuns: 1_000 },
    );
  });

  test("games of random legal moves replay exactly too", () => {
    fc.assert(
      fc.property(seeds, options, fc.array(fc.nat(), { minLength: 1, maxLength: 64 }), (seed, opts, picks) =>
        expectReplays(opts, seed, playPicked(opts, seed, picks)),
      ),
      { numRuns: 500 },
    );
  });

  test("the deal is the rules' deal of the seed", () => {
    const { state, events } = foolEngine.start({ dealer: 0, maxMoves: 100 }, 42);
    expect(state.game).toEqual(newGame(seededRandom(42), 2, 0));
    expect(events).toEqual([
      {
        name: "start",
        payload: expect.objectContaining({ dealer: 0, turn: state.game.turn, deckCount: state.game.deck.length }),
      },
    ]);
  });

  test("a refused move changes nothing and says why with its code", () => {
    const { state } = foolEngine.start({ dealer: 1, maxMoves: 100 }, 42); // seat 0 holds 6H 3H 9H 7H 4C on 5C
    const before = JSON.stringify(state);
    expect(foolEngine.apply(state, 0, { kind: "play", card: "9H" })).toEqual({
      ok: false,
      code: "ILLEGAL_MOVE",
      reason: expect.stringMatching(/9H does not cover 5C/),
    });
    expect(foolEngine.apply(state, 0, { kind: "draw" })).toMatchObject({ ok: false, code: "ILLEGAL_MOVE" });
    expect(foolEngine.apply(state, 1, { kind: "draw" })).toEqual({
      ok: false,
      code: "NOT_YOUR_TURN",
      reason: "It is not your turn.",
    });
    expect(foolEngine.apply(state, DEALER, { kind: "draw" })).toMatchObject({ ok: false, code: "NOT_YOUR_TURN" });
    expect(JSON.stringify(state)).toBe(before);
    const over = playOut(foolEngine, { dealer: 1, maxMoves: 100 }, 42).state;
    expect(foolEngine.apply(over, over.game.turn, { kind: "pass" })).toMatchObject({ ok: false, code: "NO_GAME" });
    for (const code of ["ILLEGAL_MOVE", "NOT_YOUR_TURN", "NO_GAME"]) expect(FOOL_ERROR_CODES).toContain(code);
  });

  test("the seed is in no view before the game is over, and in every view after", () => {
    const seed = 1_234_567_891;
    const { actions, state: over } = playOut(foolEngine, { dealer: 0, maxMoves: 400 }, seed);
    let state = foolEngine.start({ dealer: 0, maxMoves: 400 }, seed).state;
    for (const { actor, action } of actions) {
      for (const viewer of [0, 1, SPECTATOR] as const) {
        const view = foolEngine.view(state, viewer);
        expect(view.revealedSeed).toBe(0);
        expect(JSON.stringify(view)).not.toContain(String(seed));
      }
      expect(foolEngine.result(state)).toBeUndefined();
      const outcome = foolEngine.apply(state, actor, action);
      if (!outcome.ok) throw new Error(outcome.reason);
      state = outcome.state;
    }
    expect(state).toEqual(over);
    for (const viewer of [0, 1, SPECTATOR] as const)
      expect(foolEngine.view(over, viewer)).toMatchObject({ phase: "over", revealedSeed: seed });
    expect(foolEngine.result(over)).toMatchObject({ seed, dealer: 0, moves: over.game.moveCount });
  });

  test("a spectator sees no hand; a seat sees its own", () => {
    const { state } = foolEngine.start({ dealer: 1, maxMoves: 100 }, 42);
    expect(foolEngine.view(state, SPECTATOR).seats.map((seat) => seat.hand)).toEqual([undefined, undefined]);
    expect(foolEngine.view(state, 0).seats[0]).toMatchObject({
      hand: ["6H", "3H", "9H", "7H", "4C"],
      canDraw: false,
      canPass: false,
    });
    expect(foolEngine.view(state, 0).seats[1]!.hand).toBeUndefined();
    expect(foolEngine.view(state, 1).seats[1]!.hand).toEqual(state.game.hands[1]);
  });

  test("a game that hits its move cap ends capped, without a Fool", () => {
    const maxMoves = 10;
    const seed = [...Array(200).keys()]
      .map((k) => k + 1)
      .find((s) => playOut(foolEngine, { dealer: 1, maxMoves }, s).state.outcome === "capped")!;
    const capped = playOut(foolEngine, { dealer: 1, maxMoves }, seed);
    expect(capped.state.outcome).toBe("capped");
    expect(capped.state.game.phase).not.toBe("over");
    expect(capped.actions).toHaveLength(maxMoves);
    const last = capped.events[capped.events.length - 1];
    expect(last.map((event) => event.name)).toEqual(["move", "over"]);
    expect(last[1].payload).toMatchObject({ outcome: "capped", fool: null, seed, moves: maxMoves });
    expect(foolEngine.view(capped.state, 0)).toMatchObject({
      phase: "over",
      turnPhase: "over",
      outcome: "capped",
      fool: -1,
      seats: [{ canDraw: false, canPass: false }, {}],
    });
    expect(foolEngine.legalActions(capped.state, capped.state.game.turn).actions).toEqual([]);
    expect(legalMoves(capped.state.game, capped.state.game.turn).length).toBeGreaterThan(0); // the rules would go on
  });
});
