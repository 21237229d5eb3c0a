/**
 * The leave pacer (server/transport/leave-pacer.ts): work runs at once while the turn's slice has time, the rest waits for
 * later turns in arrival order, a slice at a time; nothing is lost, and a task that throws does not stop the others.
 * Both ports' connections hand their leaves to it. The clock and the turns are the test's own, so nothing here depends on the machine's speed.
 */
import { Pacer, RUNNERS_PER_TURN } from "../../server/transport/leave-pacer";
import { watchIncoming } from "../../server/transport/transport";
import { UwsConnection } from "../../server/transport/uws-websocket-port";
import { EventEmitter } from "node:events";
import type WebSocket from "ws";
import { takeConsole } from "../setup/console";

/** A hand-cranked event loop: `turn()` runs what was scheduled for the next turn. */
function handLoop() {
  let clock = 0;
  let scheduled: (() => void)[] = [];
  return {
    now: () => clock,
    advance: (ms: number) => (clock += ms),
    nextTurn: (callback: () => void) => scheduled.push(callback),
    turn() {
      const due = scheduled;
      scheduled = [];
      due.forEach((callback) => callback());
    },
    pending: () => scheduled.length,
  };
}

/** A task that takes `ms` of the hand clock and notes its name. */
const work =
  (loop: ReturnType<typeof handLoop>, ran: string[], name: string, ms = 3) =>
  () => {
    loop.advance(ms);
    ran.push(name);
  };

test("with no burst every task runs at once", () => {
  const loop = handLoop();
  const pacer = new Pacer(8, loop.now, loop.nextTurn);
  const ran: string[] = [];
  for (let turn = 0; turn < 5; turn++) {
    pacer.run(work(loop, ran, `t${turn}`));
    loop.turn();
  }
  expect(ran).toEqual(["t0", "t1", "t2", "t3", "t4"]);
  expect(pacer.counts()).toEqual({ atOnce: 5, deferred: 0, waiting: 0 });
});

test("a burst runs a slice per turn, in arrival order, and none is lost", () => {
  const loop = handLoop();
  const pacer = new Pacer(8, loop.now, loop.nextTurn);
  const ran: string[] = [];
  for (let i = 0; i < 10; i++) pacer.run(work(loop, ran, `t${i}`));
  // 3 ms each: t0, t1, t2 fit the first 8 ms (the third starts at 6 ms); the rest wait.
  expect(ran).toEqual(["t0", "t1", "t2"]);
  expect(pacer.counts()).toMatchObject({ atOnce: 3, deferred: 7, waiting: 7 });
  const perTurn: number[] = [];
  while (pacer.counts().waiting > 0) {
    const before = ran.length;
    loop.turn();
    perTurn.push(ran.length - before);
  }
  expect(ran).toEqual(Array.from({ length: 10 }, (_, i) => `t${i}`));
  expect(perTurn).toEqual([3, 3, 1]);
});

test("a task arriving while others wait queues behind them, even if the turn has time", () => {
  const loop = handLoop();
  const pacer = new Pacer(8, loop.now, loop.nextTurn);
  const ran: string[] = [];
  for (let i = 0; i < 4; i++) pacer.run(work(loop, ran, `t${i}`));
  loop.turn(); // drains t3; the slice of the first turn ends
  pacer.run(work(loop, ran, "late", 1));
  for (let i = 0; i < 3 && pacer.counts().waiting > 0; i++) loop.turn();
  expect(ran).toEqual(["t0", "t1", "t2", "t3", "late"]);
});

test("a turn starts at most its runners' worth of waiting tasks, however quick", () => {
  const loop = handLoop();
  const pacer = new Pacer(8, loop.now, loop.nextTurn);
  const ran: string[] = [];
  pacer.run(work(loop, ran, "first", 8)); // uses the whole first slice
  for (let i = 0; i < 100; i++) pacer.run(work(loop, ran, `quick${i}`, 0));
  const perTurn: number[] = [];
  while (pacer.counts().waiting > 0) {
    const before = ran.length;
    loop.turn();
    perTurn.push(ran.length - before);
  }
  expect(perTurn).toEqual([RUNNERS_PER_TURN, RUNNERS_PER_TURN, RUNNERS_PER_TURN, 100 - 3 * RUNNERS_PER_TURN]);
});

test("one slow task a turn still moves the queue", () => {
  const loop = handLoop();
  const pacer = new Pacer(8, loop.now, loop.nextTurn);
  const ran: string[] = [];
  for (let i = 0; i < 4; i++) pacer.run(work(loop, ran, `slow${i}`, 20));
  expect(ran).toEqual(["slow0"]);
  for (let i = 1; i <= 3; i++) {
    loop.turn();
    expect(ran).toHaveLength(i + 1);
  }
  expect(pacer.counts().waiting).toBe(0);
});

test("a task that throws is logged and the others still run", () => {
  const loop = handLoop();
  const pacer = new Pacer(8, loop.now, loop.nextTurn);
  const ran: string[] = [];
  pacer.run(() => {
    loop.advance(10);
    throw new TypeError("listener failed");
  });
  pacer.run(work(loop, ran, "after"));
  loop.turn();
  expect(ran).toEqual(["after"]);
  const logged = takeConsole(/paced_task_failed/);
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatch(/"kind":"TypeError"/);
});

/** A connection as the pacer's two watchers see it: where listeners go, and how a close or a message arrives. */
interface WatchedConnection {
  listen(event: "close", listener: (code: number) => void): void;
  listen(event: "message", listener: (data: Buffer) => void): void;
  close(code: number): void;
  message(data: Buffer): void;
}

const CONNECTIONS: Array<[string, (pacer: Pacer) => WatchedConnection]> = [
  [
    "the main port's (a ws WebSocket watched by watchIncoming)",
    (pacer) => {
      const socket = new EventEmitter();
      watchIncoming(socket as unknown as WebSocket, pacer);
      return {
        listen: (event: string, listener: (data: never) => void) =>
          void socket.on(event, listener as (...args: unknown[]) => void),
        close: (code) => socket.emit("close", code),
        message: (data) => socket.emit("message", data, true),
      };
    },
  ],
  [
    "the WebSocket port's (a UwsConnection)",
    (pacer) => {
      const connection = new UwsConnection(
        { send: () => 0, end: () => undefined, close: () => undefined } as never,
        pacer,
      );
      return {
        listen: (event: "message" | "close", listener: (data: never) => void) =>
          void connection.on(event, listener as (...args: unknown[]) => void),
        close: (code) => connection.closed(code),
        message: (data) => connection.received(data),
      };
    },
  ],
];

test.each(CONNECTIONS)(
  "on %s, a close and a leave message reach their listeners through the pacer, other messages at once",
  (_, connect) => {
    const loop = handLoop();
    const pacer = new Pacer(8, loop.now, loop.nextTurn);
    const sockets = Array.from({ length: 5 }, () => connect(pacer));
    const heard: string[] = [];
    sockets.forEach((socket, i) => {
      socket.listen("close", (code: number) => {
        loop.advance(5);
        heard.push(`close ${i} ${code}`);
      });
      socket.listen("message", (data: Buffer) => {
        loop.advance(5);
        heard.push(`message ${i} [${[...data].join(",")}]`);
      });
    });
    const LEAVE = Buffer.from([12]); // Colyseus's LEAVE_ROOM: a consented leave
    sockets.slice(0, 4).forEach((socket) => socket.close(1000));
    sockets[4].message(LEAVE);
    sockets[4].message(Buffer.from([13, 1, 2]));
    expect(heard).toEqual(["close 0 1000", "close 1 1000", "message 4 [13,1,2]"]);
    while (pacer.counts().waiting > 0) loop.turn();
    expect(heard.slice(3)).toEqual(["close 2 1000", "close 3 1000", "message 4 [12]"]);
  },
);
