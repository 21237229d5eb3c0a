/**
 * What a table's listing says for the lobby beyond its own game's fields: how many people watch (every room, from
 * the table kit, kept current as spectators come and go) and a Tractor table's throw rule.
 */
import { useRoomTestServer, type RoomTestServer } from "./test-server";
import type { TractorRoom } from "../../rooms/tractor/room";
import type { FoolRoom } from "../../rooms/fool/room";
import { CardhallClient, TRACTOR_SEATS } from "../../client-sdk";
import { sleep } from "../helpers";

let colyseus: RoomTestServer;

useRoomTestServer((server) => (colyseus = server));

describe("a table's listing", () => {
  let client: CardhallClient;
  beforeAll(() => (client = new CardhallClient(colyseus.url)));
  /** Polls the listing (GET /rooms) until `holds` (at most 5 s). */
  async function listedUntil(holds: () => Promise<boolean>, what: string): Promise<void> {
    for (let tries = 0; tries < 100; tries++) {
      if (await holds()) return;
      await sleep(50);
    }
    throw new Error(`timed out waiting for ${what}`);
  }
  const metadataOf = async (roomId: string) =>
    (await client.listRooms()).find((entry) => entry.roomId === roomId)?.metadata as
      | Record<string, unknown>
      | undefined;

  test("counts the spectators as they come and go", async () => {
    const player = await client.playFool({ name: "Ann" });
    expect(await metadataOf(player.roomId)).toMatchObject({ game: "fool", spectators: 0 });
    const first = await client.spectateFool(player.roomId);
    const second = await client.spectateFool(player.roomId);
    await listedUntil(async () => (await metadataOf(player.roomId))?.spectators === 2, "two spectators listed");
    await first.leave();
    await listedUntil(async () => (await metadataOf(player.roomId))?.spectators === 1, "one spectator listed");
    await Promise.all([second.leave(), player.leave()]);
  });

  test("is written once for all the changes made in one go, when they are done", async () => {
    const room = await colyseus.createRoom<FoolRoom>("fool", { mode: "two-players" });
    const first = await colyseus.connectTo(room, { name: "Ann" });
    await listedUntil(async () => (await metadataOf(room.roomId))?.openSeats === 1, "one open seat listed");
    const written = jest.spyOn(room, "setMetadata");
    // What a join does to a table in one go: its seat changes, a game starts, the listing follows each change.
    const changes = room as unknown as { seatsChanged(): void; updateListing(): void };
    changes.seatsChanged();
    changes.updateListing();
    changes.seatsChanged();
    expect(written).not.toHaveBeenCalled();
    await Promise.resolve();
    expect(written).toHaveBeenCalledTimes(1);
    expect(written.mock.calls[0]![0]).toMatchObject({ game: "fool", openSeats: 1, spectators: 0 });
    const second = await colyseus.connectTo(room, { name: "Bea" });
    await listedUntil(async () => (await metadataOf(room.roomId))?.openSeats === 0, "the table listed full");
    written.mockRestore();
    await Promise.all([first.leave(), second.leave()]);
  });

  test("names a Tractor table's throw rule", async () => {
    const checked = await colyseus.createRoom<TractorRoom>("tractor", {
      bots: [...TRACTOR_SEATS],
      throws: "check-other-hands",
      botDelayMs: 60_000,
    });
    const stated = await colyseus.createRoom<TractorRoom>("tractor", { bots: [...TRACTOR_SEATS], botDelayMs: 60_000 });
    const watchers = [
      await colyseus.connectTo(checked, { spectate: true }),
      await colyseus.connectTo(stated, { spectate: true }),
    ];
    await listedUntil(
      async () =>
        (await metadataOf(checked.roomId))?.spectators === 1 && (await metadataOf(stated.roomId))?.spectators === 1,
      "the watchers listed",
    );
    expect(await metadataOf(checked.roomId)).toMatchObject({ game: "tractor", throws: "check-other-hands" });
    expect(await metadataOf(stated.roomId)).toMatchObject({ game: "tractor", throws: "always-accept" });
    await Promise.all(watchers.map((watcher) => watcher.leave()));
  });
});
