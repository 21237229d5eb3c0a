import { ArraySchema, Decoder, Encoder, Schema, StateView, type, view } from "@colyseus/schema";
import fc from "fast-check";
import { syncList } from "../../rooms/kit/schema-lists";
import { keepListChangesInPlace } from "../../rooms/kit/colyseus-internals";

class Seat extends Schema {
  @type(["string"]) table = new ArraySchema<string>();
  /** Seen only by the views that hold this seat, like a Tractor hand. */
  @view() @type(["string"]) hand = new ArraySchema<string>();
}

class Table extends Schema {
  @type(Seat) seat = new Seat();
}

/** A server-side state and two clients that decode every patch: the seat's owner (its view) and a spectator. */
function connectedTable() {
  const state = new Table();
  const encoder = new Encoder(state);
  const ownerView = new StateView();
  ownerView.add(state.seat);
  const owner = new Decoder(new Table());
  const spectator = new Decoder(new Table());
  const join = (decoder: Decoder<Table>, clientView?: StateView) => {
    const shared = encoder.encodeAll({ offset: 0 });
    decoder.decode(clientView ? encoder.encodeAllView(clientView, shared.length, { offset: shared.length }) : shared);
  };
  join(owner, ownerView);
  join(spectator);
  encoder.discardChanges();
  let bytesSent = 0;
  const patch = () => {
    const it = { offset: 0 };
    const shared = encoder.encode(it);
    spectator.decode(shared);
    const withView = encoder.encodeView(ownerView, it.offset, it);
    owner.decode(withView);
    bytesSent += withView.length;
    encoder.discardChanges();
  };
  return { state, owner: owner.state, spectator: spectator.state, patch, sent: () => bytesSent };
}

const sortedCards = fc
  .uniqueArray(fc.integer({ min: 0, max: 53 }), { maxLength: 30 })
  .map((cards) => cards.sort((a, b) => a - b).map((card) => `c${card}`));
/** Lists with repeated items too (two decks hold two of every card). */
const anyList = fc.array(fc.constantFrom("HA", "HA", "S2", "BJ", "RJ", "D7"), { maxLength: 12 });

/** The hand after one change: a missing card drawn into its sorted place (`pick` chooses it), or a card played. */
function changedHand(hand: string[], draw: boolean, pick: number): string[] {
  if (draw) {
    const missing = Array.from({ length: 54 }, (_, card) => `c${card}`).filter((card) => !hand.includes(card));
    return [...hand, missing[pick % missing.length]!].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  }
  return hand.length > 0 ? hand.filter((_, index) => index !== pick % hand.length) : hand;
}

// As in every table: lists keep their change records in place (test/unit/list-changes-in-place.test.ts).
beforeAll(() => keepListChangesInPlace());

describe("syncList", () => {
  it("leaves the list equal to what is wanted, and both clients decode exactly that (the spectator sees no hand)", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(sortedCards, anyList), { minLength: 1, maxLength: 8 }), (steps) => {
        const table = connectedTable();
        for (const wanted of steps) {
          syncList(table.state.seat.hand, wanted);
          syncList(table.state.seat.table, wanted);
          expect(table.state.seat.hand.toArray()).toEqual(wanted);
          table.patch();
          expect(table.owner.seat.hand.toArray()).toEqual(wanted);
          expect(table.owner.seat.table.toArray()).toEqual(wanted);
          expect(table.spectator.seat.table.toArray()).toEqual(wanted);
          expect(table.spectator.seat.hand?.toArray() ?? []).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("follows a hand through plays and draws, whatever cards go and come", () => {
    fc.assert(
      fc.property(sortedCards, fc.array(fc.tuple(fc.boolean(), fc.nat()), { maxLength: 40 }), (start, changes) => {
        const table = connectedTable();
        let hand = start;
        syncList(table.state.seat.hand, hand);
        table.patch();
        for (const [draw, pick] of changes) {
          hand = changedHand(hand, draw, pick);
          syncList(table.state.seat.hand, hand);
          table.patch();
          expect(table.owner.seat.hand.toArray()).toEqual(hand);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("leaves any lists right when several are synced between two patches", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.oneof(sortedCards, anyList), { minLength: 1, maxLength: 3 }), {
          minLength: 1,
          maxLength: 6,
        }),
        (patches) => {
          const table = connectedTable();
          for (const lists of patches) {
            for (const wanted of lists) syncList(table.state.seat.hand, wanted);
            table.patch();
            expect(table.owner.seat.hand.toArray()).toEqual(lists[lists.length - 1]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("follows a hand through several plays and draws between two patches (a bot answering in the same message)", () => {
    fc.assert(
      fc.property(
        sortedCards,
        fc.array(fc.array(fc.tuple(fc.boolean(), fc.nat()), { minLength: 1, maxLength: 4 }), { maxLength: 15 }),
        (start, patches) => {
          const table = connectedTable();
          let hand = start;
          syncList(table.state.seat.hand, hand);
          table.patch();
          for (const changes of patches) {
            for (const [draw, pick] of changes) {
              hand = changedHand(hand, draw, pick);
              syncList(table.state.seat.hand, hand);
            }
            table.patch();
            expect(table.owner.seat.hand.toArray()).toEqual(hand);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  /** Syncs the seat's hidden and public lists to `list`, sends the patch, and checks what the owner and the spectator decoded. */
  function expectBothDecode(table: ReturnType<typeof connectedTable>, list: string[]): void {
    syncList(table.state.seat.hand, list);
    syncList(table.state.seat.table, list);
    table.patch();
    expect(table.owner.seat.hand.toArray()).toEqual(list);
    expect(table.spectator.seat.table.toArray()).toEqual(list);
  }

  it("grows a list at its end with one push, and both clients decode it (a fresh list's cards, a card added to the cards played)", () => {
    const splice = jest.spyOn(ArraySchema.prototype, "splice");
    try {
      fc.assert(
        fc.property(fc.array(anyList, { minLength: 1, maxLength: 6 }), (additions) => {
          const table = connectedTable();
          let list: string[] = [];
          for (const added of additions) {
            list = [...list, ...added];
            expectBothDecode(table, list);
          }
        }),
        { numRuns: 200 },
      );
      expect(splice).not.toHaveBeenCalled();
    } finally {
      splice.mockRestore();
    }
  });

  it("takes out any items, in runs or apart, and both clients decode what is left", () => {
    fc.assert(
      fc.property(
        anyList,
        fc.array(fc.array(fc.boolean(), { maxLength: 12 }), { minLength: 1, maxLength: 5 }),
        (start, removals) => {
          const table = connectedTable();
          let list = start;
          expectBothDecode(table, list);
          for (const taken of removals) {
            list = list.filter((_, index) => !taken[index]);
            expectBothDecode(table, list);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("follows a list whose length stays through any changes of its items, one patch or several syncs apart (Patience's piles)", () => {
    const sixteen = fc.array(fc.constantFrom("", "HA", "S2", "KH", "9H", "D7"), { minLength: 16, maxLength: 16 });
    fc.assert(
      fc.property(
        sixteen,
        fc.array(fc.array(sixteen, { minLength: 1, maxLength: 3 }), { maxLength: 12 }),
        (start, patches) => {
          const table = connectedTable();
          syncList(table.state.seat.table, start);
          syncList(table.state.seat.hand, start);
          table.patch();
          for (const lists of patches) {
            for (const wanted of lists) {
              syncList(table.state.seat.table, wanted);
              syncList(table.state.seat.hand, wanted);
            }
            table.patch();
            const last = lists[lists.length - 1];
            expect(table.spectator.seat.table.toArray()).toEqual(last);
            expect(table.owner.seat.table.toArray()).toEqual(last);
            expect(table.owner.seat.hand.toArray()).toEqual(last);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  /** The bytes the owner is sent for a list going from `from` to `to`: synced, and rewritten (cleared, then filled). */
  function bytesSyncedAndRewritten(from: string[], to: string[]): { synced: number; rewritten: number } {
    const bytesFor = (change: (list: ArraySchema<string>) => void) => {
      const table = connectedTable();
      syncList(table.state.seat.hand, from);
      table.patch();
      const before = table.sent();
      change(table.state.seat.hand);
      table.patch();
      expect(table.owner.seat.hand.toArray()).toEqual(to);
      return table.sent() - before;
    };
    const synced = bytesFor((list) => syncList(list, to));
    const rewritten = bytesFor((list) => {
      list.clear();
      list.push(...to);
    });
    return { synced, rewritten };
  }

  it("sends a pile's new top card among sixteen in a fraction of the bytes a rewrite takes", () => {
    const tops = Array.from({ length: 16 }, (_, pile) => `c${pile + 10}`);
    const { synced, rewritten } = bytesSyncedAndRewritten(
      tops,
      tops.map((top, pile) => (pile === 6 ? "c50" : top)),
    );
    expect(synced * 5).toBeLessThan(rewritten);
  });

  it("sends one card played from a hand of 25 in a fraction of the bytes a rewrite takes", () => {
    const hand = Array.from({ length: 25 }, (_, card) => `c${card + 10}`);
    const { synced, rewritten } = bytesSyncedAndRewritten(
      hand,
      hand.filter((card) => card !== "c20"),
    );
    expect(synced * 5).toBeLessThan(rewritten);
  });
});

describe("@colyseus/schema 5.0.34 and a list changed twice between two patches", () => {
  class Piles extends Schema {
    @type(["uint8"]) piles = new ArraySchema<number>();
  }

  /**
   * The smallest case the differential test found (a Patience cover's piles, written after each of two steps made
   * in one callback): [0] sent, then a splice and a push before the next patch; the client decodes [1, 1]. This is
   * why the table kit writes the views once a patch (rooms/kit/table.ts). Should a schema upgrade decode it right,
   * this test fails: the kit's rule may then be revisited.
   */
  it("is decoded wrongly: the reason the kit writes each list at most once a patch", () => {
    const state = new Piles();
    const encoder = new Encoder(state);
    const client = new Decoder(new Piles());
    client.decode(encoder.encodeAll({ offset: 0 }));
    encoder.discardChanges();
    state.piles.push(0);
    client.decode(encoder.encode({ offset: 0 }));
    encoder.discardChanges();
    state.piles.splice(0, 1);
    state.piles.push(0, 1);
    client.decode(encoder.encode({ offset: 0 }));
    expect(state.piles.toArray()).toEqual([0, 1]);
    expect(client.state.piles.toArray()).toEqual([1, 1]);
  });
});
