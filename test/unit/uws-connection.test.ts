/**
 * The WebSocket port's connection (server/transport/uws-websocket-port.ts, UwsConnection) as Colyseus's room uses it: the
 * listeners it adds and takes off at a join and a leave, its sends and its closes. (The leave pacer's part:
 * test/unit/leave-pacer.test.ts.)
 */
import { UwsConnection } from "../../server/transport/uws-websocket-port";
import { Pacer } from "../../server/transport/leave-pacer";

function connection(): {
  connection: UwsConnection;
  sent: number[];
  ended: Array<[number | undefined, string | undefined]>;
} {
  const sent: number[] = [];
  const ended: Array<[number | undefined, string | undefined]> = [];
  const socket = {
    send: (data: Uint8Array) => (sent.push(data.length), 1),
    end: (code?: number, reason?: string) => void ended.push([code, reason]),
    close: () => undefined,
  };
  // A pacer that always has time: every leave is handed on at once.
  return { connection: new UwsConnection(socket as never, new Pacer(Infinity)), sent, ended };
}

test("Colyseus's join and leave: its close listener swapped, its message listener added, then both taken off", () => {
  const { connection: conn } = connection();
  const heard: string[] = [];
  const leaving = (code: number) => heard.push(`leaving ${code}`);
  const left = (code: number) => heard.push(`left ${code}`);
  const onMessage = (data: Buffer) => heard.push(`message ${data.length}`);
  // Room#_onJoin: a close before the join ends marks the client leaving; once joined, the room's own leave.
  conn.onleave = leaving;
  conn.once("close", leaving);
  conn.removeListener("close", leaving);
  conn.onleave = left;
  conn.once("close", left);
  conn.on("message", onMessage);
  conn.received(Buffer.from([13, 1, 2]));
  conn.received(Buffer.from([13]));
  expect(heard).toEqual(["message 3", "message 1"]);
  // Room#_onLeave: both taken off; nothing listens any more.
  conn.removeAllListeners("message");
  conn.removeListener("close", left);
  expect(conn.emit("message", Buffer.from([13]))).toBe(false);
  expect(conn.emit("close", 1000)).toBe(false);
  expect(heard).toEqual(["message 3", "message 1"]);
});

test("sends while open; closes once; after uWebSockets.js's close, nothing is sent", () => {
  const { connection: conn, sent, ended } = connection();
  const afterSend = jest.fn();
  conn.send(new Uint8Array(3), undefined, afterSend);
  conn.close(4000, "bye");
  conn.close(4001, "again");
  conn.closed(4000);
  conn.send(new Uint8Array(5), undefined, afterSend);
  expect(sent).toEqual([3]);
  expect(ended).toEqual([[4000, "bye"]]);
  expect(afterSend).toHaveBeenCalledTimes(2);
  expect(conn.readyState).toBe(3);
});
