/**
 * Deals anyone can verify, for every game through the table kit: when a deal starts, every client (the player, a
 * spectator, a spectator joining mid-deal, the player back on its reconnection token) sees the commitment to its
 * seed and nothing of its salt; when the deal is over, every client (and one joining afterwards) sees the seed and
 * the salt, which hash to the commitment published at the start, and the seed is the one the game itself reveals.
 * Tractor seals each round apart: the next round's commitment is a new one.
 */
import type { Room as ServerRoom } from "@colyseus/core";
import type { Room as ClientRoom } from "@colyseus/sdk";
import { EvenStevenPlayer, FoolPlayer, PatienceOwner, TractorPlayer } from "../../client-sdk";
import { dealCommitment, NO_SEAL, type DealSealView } from "../../rooms/kit/commitment";
import { commitmentOf, type DealSeal } from "../../rooms/kit/deal-seal";
import { greedyMoveInView } from "../../rooms/fool/match";
import { deckOfSeed } from "../../rooms/patience/cards";
import { formatDeck } from "../../rooms/patience/notation";
import type { GameName } from "../../rooms/games";
import { dropConnection, Received, sleep, waitUntil } from "../helpers";
import { joinRecording, useRoomTestServer, type RoomTestServer } from "./test-server";

let colyseus: RoomTestServer;

useRoomTestServer((server) => (colyseus = server));

/** Long enough that nothing moves by the clock while the test looks; the test plays the person's moves itself. */
const NEVER_MS = 600_000;

interface Driver {
  /** The room's create options, which the player joins with too (the first to join is the player). */
  options: Record<string, unknown>;
  /** Plays the player's seat until the deal in play is over (its seal revealed). */
  playToEnd(client: ClientRoom, sealed: string): Promise<void>;
  /** The seed the game itself reveals at the deal's end (its own field or event). */
  gameReveal(received: Received): number;
}

/** The seal a client has decoded (none before its first state). */
const seal = (client: ClientRoom): DealSealView =>
  (client.state as { toJSON(): { seal?: DealSealView } } | undefined)?.toJSON().seal ?? NO_SEAL;
const lastSnapshot = (received: Received) => received.snapshots.at(-1) as Record<string, unknown>;
const over = (client: ClientRoom, sealed: string) => seal(client).revealedCommitment === sealed;

/** Repeats `move` until the deal sealed with `sealed` is over; each move waits for the state to show it. */
async function movesUntilOver(
  client: ClientRoom,
  sealed: string,
  move: () => Promise<boolean>,
  limit: number,
): Promise<void> {
  for (let moves = 0; moves < limit && !over(client, sealed); moves++) if (!(await move())) await sleep(20); // nothing to do yet: the table is dealing or a bot is moving
  await waitUntil(() => over(client, sealed), 10_000, "the deal's end");
}

const DRIVERS: Record<GameName, Driver> = {
  evensteven: {
    options: { n: 4, cardTimeLimitMs: NEVER_MS, reconnectSeconds: 30 },
    async playToEnd(client, sealed) {
      const player = new EvenStevenPlayer(client);
      await movesUntilOver(
        client,
        sealed,
        async () => {
          const view = player.view();
          const card = view?.player?.hand?.find((held) => !view.played.includes(held));
          if (view === undefined || view.toCover === "" || card === undefined) return false;
          const played = view.played.length;
          await player.play(card);
          await waitUntil(
            () => (player.view()?.played.length ?? 0) > played || over(client, sealed),
            5000,
            "the card played",
          );
          return true;
        },
        20,
      );
    },
    gameReveal: (received) => lastSnapshot(received).revealedSeed as number,
  },
  fool: {
    options: { aiDelayMs: 0, turnTimeMs: NEVER_MS, nextGameDelayMs: NEVER_MS, reconnectSeconds: 30 },
    async playToEnd(client, sealed) {
      const player = new FoolPlayer(client);
      await movesUntilOver(
        client,
        sealed,
        async () => {
          const turn = await player.nextTurn(10_000);
          if (turn.kind === "over") return true;
          await player.move(greedyMoveInView(turn.view, turn.moveCount));
          return true;
        },
        3000,
      );
    },
    gameReveal: (received) => lastSnapshot(received).revealedSeed as number,
  },
  patience: {
    options: { paused: true, reconnectSeconds: 30 },
    async playToEnd(client, sealed) {
      const owner = new PatienceOwner(client);
      await movesUntilOver(client, sealed, async () => (await owner.step(), true), 200);
    },
    gameReveal: (received) => lastSnapshot(received).revealedSeed as number,
  },
  tractor: {
    // The next round starts at once: its commitment and the last round's reveal arrive together.
    options: {
      seat: "Alice",
      name: "Ann",
      bots: ["Bob", "Charles", "David"],
      trump: "fixed",
      mainSuit: "S",
      botDelayMs: 0,
      startDelayMs: 0,
      roundPauseMs: 0,
      turnTimeMs: NEVER_MS,
      reconnectSeconds: 30,
    },
    async playToEnd(client, sealed) {
      const player = new TractorPlayer(client);
      await movesUntilOver(
        client,
        sealed,
        async () => {
          const view = player.view();
          if (view === undefined || view.turn !== "Alice" || (view.phase !== "burying" && view.phase !== "playing"))
            return false;
          const { suggestion } = await player.hint(1);
          await (view.phase === "burying" ? player.bury(suggestion) : player.play(suggestion));
          await waitUntil(() => player.view()?.step !== view.step || over(client, sealed), 5000, "the move shown");
          return true;
        },
        200,
      );
    },
    gameReveal: (received) =>
      (received.messages.find((message) => message.type === "roundEnd")!.payload as { seed: number }).seed,
  },
};

/** The seal the table holds of the deal in play (seed and salt included): what the clients must not see yet. */
function serverSeal(room: ServerRoom): DealSeal {
  return (room as unknown as { seals: { inPlay(): DealSeal | null } }).seals.inPlay()!;
}

/** Nothing a client received before the reveal holds the salt; no message ever does (it travels in the state only). */
function expectSaltUnseenBeforeReveal(received: Received, salt: string): void {
  expect(JSON.stringify(received.messages)).not.toContain(salt);
  const revealedAt = received.snapshots.findIndex(
    (snapshot) => (snapshot as { seal?: DealSealView }).seal?.revealedSalt === salt,
  );
  expect(revealedAt).toBeGreaterThan(-1);
  expect(JSON.stringify(received.snapshots.slice(0, revealedAt))).not.toContain(salt);
}

describe.each(Object.keys(DRIVERS) as GameName[])("%s: the deal's seal", (game) => {
  const driver = DRIVERS[game];

  test("every client sees the commitment from the deal's start and no salt; at its end the seed and salt it reveals hash to it", async () => {
    const room = await colyseus.createRoom(game, driver.options);
    const player = await joinRecording(colyseus, room.roomId, driver.options);
    const watcher = await joinRecording(colyseus, room.roomId, { spectate: true });
    await waitUntil(
      () => seal(player.client).commitment !== "" && seal(watcher.client).commitment !== "",
      5000,
      "the commitment",
    );
    const sealed = serverSeal(room);
    const commitment = sealed.commitment;
    expect(commitment).toMatch(/^[0-9a-f]{64}$/);
    expect(commitmentOf(sealed.seed, sealed.salt)).toBe(commitment);
    const unrevealed = { commitment, revealedCommitment: "", revealedSeed: 0, revealedSalt: "" };
    expect(seal(player.client)).toEqual(unrevealed);
    expect(seal(watcher.client)).toEqual(unrevealed);

    // A spectator joining mid-deal, and the player back on its token, see the same commitment and nothing more.
    const midDeal = await joinRecording(colyseus, room.roomId, { spectate: true });
    expect(seal(midDeal.client)).toEqual(unrevealed);
    const token = player.client.reconnectionToken;
    await dropConnection(player.client);
    const back = await colyseus.reconnect(token);
    const backReceived = new Received(back);
    await waitUntil(() => seal(back).commitment === commitment, 5000, "the reconnected player's state");
    expect(seal(back)).toEqual(unrevealed);

    await driver.playToEnd(back, commitment);
    const everyone = [watcher, midDeal, { client: back, received: backReceived }];
    await waitUntil(() => everyone.every(({ client }) => over(client, commitment)), 5000, "every client's reveal");
    const afterwards = await joinRecording(colyseus, room.roomId, { spectate: true });
    for (const { client, received } of [...everyone, afterwards]) {
      const shown = seal(client);
      expect(shown).toMatchObject({
        revealedCommitment: commitment,
        revealedSeed: sealed.seed,
        revealedSalt: sealed.salt,
      });
      expect(await dealCommitment(shown.revealedSeed, shown.revealedSalt)).toBe(commitment);
      expect(shown.revealedSeed).toBe(driver.gameReveal(watcher.received));
      expectSaltUnseenBeforeReveal(received, sealed.salt);
    }
    expect(JSON.stringify(player.received.snapshots)).not.toContain(sealed.salt);
    if (game === "tractor") {
      // The next round was sealed afresh the moment it was dealt.
      expect(seal(back).commitment).not.toBe(commitment);
      expect(seal(back).commitment).toBe(serverSeal(room).commitment);
    } else {
      expect(seal(back).commitment).toBe(commitment);
    }
  });
});

describe("a deal drawn from no seed", () => {
  test("a Patience deck given as cards has nothing to seal: no commitment while it is dealt, no reveal after", async () => {
    const deck = formatDeck(deckOfSeed(7)).join("\n");
    const room = await colyseus.createRoom("patience", { deck, paused: true });
    const { client } = await joinRecording(colyseus, room.roomId, { deck, paused: true });
    const owner = new PatienceOwner(client);
    await waitUntil(() => owner.view() !== undefined, 5000, "the owner's state");
    expect(seal(client)).toEqual(NO_SEAL);
    for (let steps = 0; steps < 200 && owner.view()?.phase !== "over"; steps++) await owner.step();
    await waitUntil(() => owner.view()?.phase === "over", 5000, "the deal's end");
    expect(seal(client)).toEqual(NO_SEAL);
  });
});
