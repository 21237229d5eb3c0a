/**
 * Many clients leaving at once (server/transport/leave-pacer.ts paces their leaves over turns of the event loop): every leave
 * still runs, in full, and every table closes. Whether a given leave waited for a later turn depends on the
 * machine's speed, so only the whole is asserted.
 */
import { matchMaker } from "@colyseus/core";
import { useRoomTestServer, type RoomTestServer } from "./test-server";
import { CardhallClient } from "../../client-sdk";
import { leavePacer } from "../../server/transport/leave-pacer";
import { waitUntil } from "../helpers";

let colyseus: RoomTestServer;

useRoomTestServer((server) => (colyseus = server));

const PLAYERS = 100;

test(`${PLAYERS} players leaving in the same moment all leave, and every table closes`, async () => {
  const before = leavePacer.counts();
  const client = new CardhallClient(colyseus.url);
  const players = await Promise.all(
    Array.from({ length: PLAYERS }, (_, i) => client.playEvenSteven({ n: 4, name: `p${i}` })),
  );
  expect(matchMaker.stats.local.roomCount).toBe(PLAYERS);
  expect(matchMaker.stats.local.ccu).toBe(PLAYERS);

  await Promise.all(players.map((player) => player.leave()));
  // Each consented leave is its leave message, then (once the server has closed it) its socket's close.
  const paced = () => leavePacer.counts().atOnce + leavePacer.counts().deferred - (before.atOnce + before.deferred);
  await waitUntil(
    () => matchMaker.stats.local.roomCount === 0 && paced() === 2 * PLAYERS,
    20_000,
    "every table to close",
  );
  expect(leavePacer.counts().waiting).toBe(0);
  expect(matchMaker.stats.local.ccu).toBe(0);
});
