/**
 * The reflection of a game's state types, which every joining client decodes the state with, is made once per
 * state class and shared by the game's rooms (shareStateHandshake in rooms/kit/room-kit.ts).
 */
import type { Room } from "@colyseus/core";
import { stateHandshakeOf } from "../../rooms/kit/colyseus-internals";
import { useRoomTestServer, type RoomTestServer } from "./test-server";

let colyseus: RoomTestServer;

useRoomTestServer((server) => (colyseus = server));

const handshakeOf = (room: Room) => stateHandshakeOf(room).make();

test("rooms of one game share one handshake, a client of the second room decodes its state, another game has its own", async () => {
  const first = await colyseus.createRoom("evensteven", {});
  const second = await colyseus.createRoom("evensteven", {});
  const tractor = await colyseus.createRoom("tractor", {});
  expect(handshakeOf(second)).toBe(handshakeOf(first));
  expect(handshakeOf(tractor)).not.toEqual(handshakeOf(first));
  const client = await colyseus.connectTo(second, { name: "late" });
  expect((client.state as unknown as { phase: string }).phase).toBe("playing");
  const watcher = await colyseus.connectTo(tractor, { spectate: true });
  expect((watcher.state as unknown as { seats: unknown[] }).seats).toHaveLength(4);
});
