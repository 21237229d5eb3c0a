/**
 * The small emitter (rooms/kit/small-emitter.ts) against Node's EventEmitter, which it stands in for on each room and
 * each WebSocket-port connection: the same listeners called in the same order with the same arguments, the same
 * counts, over random calls; and, by hand, an event that changes the listeners while it is being handed out.
 */
import { EventEmitter } from "events";
import fc from "fast-check";
import { SmallEmitter } from "../../rooms/kit/small-emitter";

const EVENTS = ["lock", "join", "dispose"] as const;
type Name = (typeof EVENTS)[number];

describe("SmallEmitter", () => {
  const call = fc.oneof(
    fc.record({ op: fc.constantFrom("on" as const, "once" as const, "removeListener" as const), event: fc.constantFrom(...EVENTS), listener: fc.nat(3) }),
    fc.record({ op: fc.constant("removeAllListeners" as const), event: fc.option(fc.constantFrom(...EVENTS), { nil: undefined }) }),
    fc.record({ op: fc.constant("emit" as const), event: fc.constantFrom(...EVENTS), args: fc.array(fc.nat(9), { maxLength: 3 }) }),
  );

  it("calls what Node's EventEmitter calls, over random on, once, removeListener, removeAllListeners and emit", () => {
    fc.assert(
      fc.property(fc.array(call, { maxLength: 60 }), (calls) => {
        const heard = { small: [] as string[], node: [] as string[] };
        // Four listeners each side, numbered alike, each noting its number, the event and what it was given.
        const listenersOf = (log: string[]) => Array.from({ length: 4 }, (_, n) => (...args: unknown[]) => void log.push(`${n}:${args.join(",")}`));
        const small = { emitter: new SmallEmitter<Name>(), listeners: listenersOf(heard.small) };
        const node = { emitter: new EventEmitter(), listeners: listenersOf(heard.node) };
        for (const each of calls) {
          for (const side of [small, node]) {
            const emitter = side.emitter as unknown as SmallEmitter<Name>;
            if (each.op === "emit") emitter.emit(each.event, ...each.args);
            else if (each.op === "removeAllListeners") void (each.event === undefined ? emitter.removeAllListeners() : emitter.removeAllListeners(each.event));
            else emitter[each.op](each.event, side.listeners[each.listener]!);
          }
          expect(heard.small).toEqual(heard.node);
          for (const event of EVENTS) expect(small.emitter.listenerCount(event)).toBe(node.emitter.listenerCount(event));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("hands an event to those listening when it began, whoever a listener adds or takes off meanwhile", () => {
    const emitter = new SmallEmitter();
    const heard: string[] = [];
    const second = () => heard.push("second");
    emitter.on("close", () => {
      heard.push("first");
      emitter.removeListener("close", second);
      emitter.on("close", () => heard.push("added"));
    });
    emitter.on("close", second);
    expect(emitter.emit("close")).toBe(true);
    expect(heard).toEqual(["first", "second"]);
    heard.length = 0;
    emitter.emit("close");
    expect(heard).toEqual(["first", "added"]);
  });

  it("calls a once listener a single time though its event is emitted again from inside it", () => {
    const emitter = new SmallEmitter();
    let calls = 0;
    emitter.once("dispose", () => {
      calls++;
      emitter.emit("dispose");
    });
    emitter.emit("dispose");
    expect(calls).toBe(1);
    expect(emitter.listenerCount("dispose")).toBe(0);
    expect(emitter.emit("dispose")).toBe(false);
  });

  it("calls listeners with the emitter as this, as Node's do", () => {
    const emitter = new SmallEmitter();
    let self: unknown;
    emitter.on("join", function (this: unknown) {
      self = this;
    });
    emitter.emit("join");
    expect(self).toBe(emitter);
  });
});
