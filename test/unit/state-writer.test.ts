import { ArraySchema, Decoder, Encoder, Schema, StateView, type, view } from "@colyseus/schema";
import fc from "fast-check";
import { writeView } from "../../rooms/kit/state-writer";
import { keepListChangesInPlace } from "../../rooms/kit/colyseus-internals";
import { mergeViews, wholeTableView } from "../../rooms/kit/views";

/** A small table shaped like the games': seats with a hidden hand, a list of objects, an object that comes and goes. */
class Play extends Schema {
  @type("string") seat = "";
  @type(["string"]) cards = new ArraySchema<string>();
}

class Seat extends Schema {
  @type("string") name = "";
  @type("uint8") handCount = 0;
  @view() @type(["string"]) hand? = new ArraySchema<string>();
  @view() @type("boolean") canPass? = false;
}

class Result extends Schema {
  @type("uint32") seed = 0;
  @type(["uint8"]) ranks = new ArraySchema<number>();
}

class Table extends Schema {
  @type("string") phase = "waiting";
  @type("int8") turn = -1;
  @type(["uint8"]) piles = new ArraySchema<number>();
  @type([Play]) plays = new ArraySchema<Play>();
  @type([Seat]) seats = new ArraySchema<Seat>();
  @type(Result) result: Result | undefined;
}

interface SeatView {
  name: string;
  handCount: number;
  hand?: string[];
  canPass?: boolean;
}
interface TableView {
  phase: string;
  turn: number;
  piles: number[];
  plays: Array<{ seat: string; cards: string[] }>;
  seats: SeatView[];
  result?: { seed: number; ranks: number[] };
}

const cards = fc.array(fc.constantFrom("AS", "AS", "KH", "2C", "BJ", "9D"), { maxLength: 6 });
const hands = fc.tuple(cards, cards);
/** The position after a step: what every seat's view and the spectator's are made of. */
const position = fc.record({
  phase: fc.constantFrom("waiting", "playing", "over"),
  turn: fc.integer({ min: -1, max: 1 }),
  piles: fc.array(fc.integer({ min: 0, max: 15 }), { maxLength: 4 }),
  plays: fc.array(fc.record({ seat: fc.constantFrom("A", "B"), cards }), { maxLength: 3 }),
  hands,
  canPass: fc.tuple(fc.boolean(), fc.boolean()),
  result: fc.option(
    fc.record({ seed: fc.nat({ max: 1000 }), ranks: fc.array(fc.integer({ min: 2, max: 14 }), { maxLength: 2 }) }),
    { nil: undefined },
  ),
});
type Position = typeof position extends fc.Arbitrary<infer T> ? T : never;

/** The view of a position for a viewer: a seat sees its own hand and whether it may pass; a spectator neither. */
function viewOf(shown: Position, viewer: number | "spectator"): TableView {
  const seats = shown.hands.map((hand, seat): SeatView => {
    const named = { name: `seat ${seat}`, handCount: hand.length };
    return seat === viewer ? { ...named, hand, canPass: shown.canPass[seat]! } : named;
  });
  const { phase, turn, piles, plays, result } = shown;
  return { phase, turn, piles, plays, seats, ...(result === undefined ? {} : { result }) };
}

/** A table, its writer's two passes, and a client per viewer decoding every patch (the seat's owner through its StateView). */
function connectedTable() {
  const state = new Table();
  const encoder = new Encoder(state);
  const write = (shown: Position) => {
    writeView(state, viewOf(shown, "spectator"), "public");
    for (const seat of [0, 1]) writeView(state, viewOf(shown, seat), "hidden");
  };
  const views = [0, 1].map(() => new StateView());
  const clients = { spectator: new Decoder(new Table()), seats: [new Decoder(new Table()), new Decoder(new Table())] };
  let joined = false;
  const patch = () => {
    if (!joined) {
      views.forEach((seatView, seat) => seatView.add(state.seats[seat]!));
      const shared = encoder.encodeAll({ offset: 0 });
      clients.spectator.decode(shared);
      clients.seats.forEach((client, seat) =>
        client.decode(encoder.encodeAllView(views[seat]!, shared.length, { offset: shared.length })),
      );
      joined = true;
    } else {
      const it = { offset: 0 };
      clients.spectator.decode(encoder.encode(it));
      const sharedOffset = it.offset;
      clients.seats.forEach((client, seat) =>
        client.decode(encoder.encodeView(views[seat]!, sharedOffset, { offset: sharedOffset })),
      );
    }
    encoder.discardChanges();
  };
  return { state, encoder, write, patch, clients };
}

const decoded = (client: Decoder<Table>) => JSON.parse(JSON.stringify(client.state.toJSON())) as unknown;
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

// As in every table: lists keep their change records in place (test/unit/list-changes-in-place.test.ts).
beforeAll(() => keepListChangesInPlace());

describe("writeView", () => {
  /** Each position written and patched in turn: after each patch, every client holds exactly its own view of it. */
  function expectEveryClientDecodesItsView(steps: readonly Position[]): void {
    const table = connectedTable();
    for (const shown of steps) {
      table.write(shown);
      table.patch();
      expect(decoded(table.clients.spectator)).toEqual(plain(viewOf(shown, "spectator")));
      table.clients.seats.forEach((client, seat) => expect(decoded(client)).toEqual(plain(viewOf(shown, seat))));
    }
  }

  it("writes any sequence of views, one write a patch, so that every client decodes exactly its own view", () => {
    fc.assert(fc.property(fc.array(position, { minLength: 1, maxLength: 10 }), expectEveryClientDecodesItsView), {
      numRuns: 500,
    });
  });

  it("reads, in a seat's pass, only the fields that lead to a seat's own: the public ones are the spectator pass's", () => {
    const table = connectedTable();
    const shown = fc.sample(position, { seed: 11, numRuns: 1 })[0]!;
    table.write(shown);
    const read: string[] = [];
    const watched = new Proxy(viewOf(shown, 0), {
      get: (target, key, receiver) => (read.push(String(key)), Reflect.get(target, key, receiver)),
    });
    writeView(table.state, watched, "hidden");
    expect(read).toEqual(["seats"]);
  });

  it("writes views whose unchanging parts are the same objects from step to step (as Tractor's finished tricks), so that every client decodes its own view", () => {
    // Plays made once and given again, in any place of the list: an object written before may now sit elsewhere.
    const pool = fc
      .sample(fc.record({ seat: fc.constantFrom("A", "B"), cards }), { seed: 3, numRuns: 5 })
      .map((play) => Object.freeze(play));
    const reused = fc.array(fc.constantFrom(...pool), { maxLength: 4 });
    const steps = fc
      .array(fc.tuple(position, reused), { minLength: 1, maxLength: 10 })
      .map((pairs) => pairs.map(([shown, plays]) => ({ ...shown, plays })));
    fc.assert(fc.property(steps, expectEveryClientDecodesItsView), { numRuns: 500 });
  });

  it("does not read again a kept (frozen) view object it wrote into the same place at the last patch", () => {
    const table = connectedTable();
    const shown = fc.sample(position, { seed: 5, numRuns: 1 })[0]!;
    const reads: string[] = [];
    const made: Position["plays"][number] = Object.freeze<Position["plays"][number]>({ seat: "A", cards: ["AS"] });
    const play = new Proxy(made, {
      get: (target, key, receiver) => (reads.push(String(key)), Reflect.get(target, key, receiver)),
    });
    table.write({ ...shown, plays: [play] });
    table.patch();
    expect(reads.length).toBeGreaterThan(0);
    reads.length = 0;
    table.write({ ...shown, plays: [play] });
    expect(reads).toEqual([]);
    expect(table.encoder.hasChanges).toBe(false);
  });

  it("reads again a view made afresh (not frozen), which it does not keep between patches", () => {
    const table = connectedTable();
    const shown = fc.sample(position, { seed: 5, numRuns: 1 })[0]!;
    const reads: string[] = [];
    const made: Position["plays"][number] = { seat: "A", cards: ["AS"] };
    const play = new Proxy(made, {
      get: (target, key, receiver) => (reads.push(String(key)), Reflect.get(target, key, receiver)),
    });
    table.write({ ...shown, plays: [play] });
    table.patch();
    reads.length = 0;
    table.write({ ...shown, plays: [play] });
    expect(reads.length).toBeGreaterThan(0);
    expect(table.encoder.hasChanges).toBe(false);
  });

  it("changes nothing, and so sends nothing, when the view is what the schema shows", () => {
    const table = connectedTable();
    const shown = fc.sample(position, { seed: 7, numRuns: 1 })[0]!;
    table.write(shown);
    table.patch();
    expect(table.encoder.hasChanges).toBe(false);
    table.write(shown);
    expect(table.encoder.hasChanges).toBe(false);
  });
});

describe("mergeViews", () => {
  it("lays the table's fields over the position, seats item by item, and keeps what the table does not name", () => {
    const position = {
      phase: "playing",
      seats: [{ handCount: 3, hand: ["AS"] }, { handCount: 2 }],
      plays: [{ seat: "A" }],
    };
    const table = { deadline: 5, seats: [{ name: "Ann" }, { name: "Bob" }] };
    expect(mergeViews(position, table)).toEqual({
      phase: "playing",
      deadline: 5,
      plays: [{ seat: "A" }],
      seats: [
        { name: "Ann", handCount: 3, hand: ["AS"] },
        { name: "Bob", handCount: 2 },
      ],
    });
  });

  it("an empty list and a list of values replace what was there", () => {
    expect(mergeViews({ cards: ["AS"], plays: [{ seat: "A" }] }, { cards: ["KH", "2C"], plays: [] })).toEqual({
      cards: ["KH", "2C"],
      plays: [],
    });
  });

  it("the whole table is the spectator's view with each seat's own hidden fields", () => {
    const shown = fc.sample(position, { seed: 11, numRuns: 1 })[0]!;
    const whole = wholeTableView(viewOf(shown, "spectator"), [viewOf(shown, 0), viewOf(shown, 1)]);
    expect(whole.seats.map((seat) => seat.hand)).toEqual(shown.hands);
    expect(whole.seats.map((seat) => seat.canPass)).toEqual(shown.canPass);
  });
});
