/**
 * The differential test: for every game, at least `matches` seeded matches played through a real
 * server by people's clients choosing random legal moves, by the rooms' bots and by the turn clock (a client that
 * stays silent), each watched by two spectators (one joining mid-game by id) and with one player dropping and
 * coming back with its token mid-game. Every client decodes every frame with the plain @colyseus/sdk decoder, and
 * after every frame its decoded state must equal the view its table gives that viewer (one-truth.ts). With
 * ONE_TRUTH_REPORT=<file> the figures (matches, clients, frames compared) are written there. one-truth.test.ts runs
 * it with every client on the main port; websocket-port.test.ts with their WebSockets on the WebSocket port
 * (server/transport/websocket-port.ts).
 *
 * The first Fool table is the case that showed the transport's shared-buffer desync: a player against the AI with
 * `aiDelayMs: 0`, new games started with given seeds, a spectator watching (it decoded empty names, wins of
 * 117376131 and another seat's `canDraw` on the build before the fix).
 */
import * as fs from "node:fs";
import { Client, type Room as SdkRoom } from "@colyseus/sdk";
import type { Server } from "@colyseus/core";
import { CardhallClient } from "../../client-sdk";
import { CardhallError } from "../../client-sdk/errors";
import type { EvenStevenPlayer } from "../../client-sdk/evensteven";
import type { FoolPlayer } from "../../client-sdk/fool";
import type { PatienceOwner } from "../../client-sdk/patience";
import type { TractorPlayer } from "../../client-sdk/tractor";
import { seededRandom, type Random } from "../../rooms/kit/random";
import { randomPolicy } from "../../rooms/tractor/policy-random";
import type { TractorSeatName } from "../../rooms/tractor/protocol";
import { makeServer } from "../../server/app";
import type { WebSocketPortConfig } from "../../server/transport/websocket-port";
import { freePort } from "./ports";
import { OneTruth } from "./one-truth";

/** Matches of each game a suite plays (its `matches`). */
let MATCHES = 1000;
/** Tables played at once: enough to interleave many rooms' patches, few enough for a two-core machine. */
const TABLES_AT_ONCE = 16;
/** Each game's part of the run stops starting tables after this long (a bound; the figures say what was played). */
const GAME_BUDGET_MS = 270_000;
/** A silent client lets the turn clock play: how often a person's client says nothing on its turn. */
const SILENCE = 0.04;
const CLOCK_MS = 100;

const truth = new OneTruth();
let server: Server;
let url: string;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seedOf = (random: Random) => 1 + Math.floor(random() * 2_000_000_000);
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** What one table played, for the figures. */
interface Played {
  matches: number;
  /** Matches in which a spectator joined after the first move. */
  lateSpectators: number;
  /** Matches in which a player dropped and came back with its token. */
  reconnections: number;
}

/** Plays tables, TABLES_AT_ONCE at a time, until MATCHES matches are played (or the budget runs out). */
async function playTables(table: (index: number) => Promise<Played>): Promise<Played> {
  const total: Played = { matches: 0, lateSpectators: 0, reconnections: 0 };
  const stopAt = Date.now() + GAME_BUDGET_MS;
  let next = 0;
  const worker = async () => {
    while (total.matches < MATCHES && Date.now() < stopAt) {
      const played = await table(next++);
      total.matches += played.matches;
      total.lateSpectators += played.lateSpectators;
      total.reconnections += played.reconnections;
    }
  };
  await Promise.all(Array.from({ length: TABLES_AT_ONCE }, worker));
  return total;
}

/** A spectator with nothing but @colyseus/sdk. */
async function watch(roomId: string): Promise<SdkRoom> {
  const room = await new Client(url).joinById(roomId, { spectate: true });
  room.onMessage("*", () => undefined);
  return room;
}

/** The session's connection dropped (not a leave: the seat is kept) and restored with its token. */
async function dropAndReturn<T>(session: { room: SdkRoom }, reconnect: (token: string) => Promise<T>): Promise<T> {
  const token = session.room.reconnectionToken;
  session.room.reconnection.enabled = false; // this test restores the connection itself, with the token
  await session.room.leave(false);
  return reconnect(token);
}

/** Refusals that only mean the room moved first (the clock played, the game ended). */
function overtaken(error: unknown): boolean {
  return (
    error instanceof CardhallError &&
    [
      "NOT_YOUR_TURN",
      "NO_GAME",
      "WRONG_PHASE",
      "NO_CARD_TO_COVER",
      "DEAL_OVER",
      "NOT_PAUSED",
      "ALREADY_PAUSED",
    ].includes(error.code)
  );
}

/** Sends again what the room refused for the client's send budget (a restored connection starts a new one on the client only). */
async function withinBudget(action: () => Promise<unknown>): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      return void (await action());
    } catch (error) {
      if (!(error instanceof CardhallError && error.code === "RATE_LIMITED") || tries === 20) throw error;
      await sleep(250);
    }
  }
}

/** Makes a move unless the room moved first: refused for a reason that says so, or while `movedOn` (the clock played). */
async function unlessOvertaken(action: () => Promise<unknown>, movedOn: () => boolean = () => false): Promise<void> {
  try {
    await action();
  } catch (error) {
    // A connection restored with its token starts a new send budget on the client, not on the server.
    if (error instanceof CardhallError && error.code === "RATE_LIMITED") return void (await sleep(250));
    if (!overtaken(error) && !(error instanceof CardhallError && movedOn())) throw error;
  }
}

/** Each game's figures; with ONE_TRUTH_REPORT=<file> they are written there once every game has played. */
const reported: Record<string, unknown> = {};

/**
 * Before a person's move: the table's extras (`during`: a spectator joining, a drop and return), then now and then
 * silence. The session to go on with, and whether it moves now (not when the clock plays this turn, nor when a
 * restored connection is to be handed its next turn afresh).
 */
async function beforeMove<Seat>(
  player: Seat,
  random: Random,
  during: () => Promise<Seat>,
): Promise<{ seat: Seat; moves: boolean }> {
  const seat = await during();
  if (seat !== player) return { seat, moves: false };
  if (random() < SILENCE) await sleep(CLOCK_MS + 30);
  else return { seat, moves: true };
  return { seat, moves: false };
}

function report(game: string, played: Played): void {
  const figures = truth.figures(game);
  reported[game] = {
    ...played,
    clientConnections: figures.clients.size,
    framesCompared: figures.frames,
    fullStates: figures.fullStates,
    mismatches: figures.mismatches.length,
  };
  if (process.env.ONE_TRUTH_REPORT)
    fs.writeFileSync(process.env.ONE_TRUTH_REPORT, JSON.stringify(reported, null, 2) + "\n");
  expect(figures.mismatches).toEqual([]);
  expect(played.matches).toBeGreaterThanOrEqual(MATCHES);
  expect(played.lateSpectators).toBeGreaterThanOrEqual(MATCHES * 0.9);
  expect(played.reconnections).toBeGreaterThanOrEqual(MATCHES * 0.9);
}

// ------------------------------------------------------------------------------------------------------------
// Fool: a person against the AI, or two people; four games a table.

const FOOL_GAMES_PER_TABLE = 4;

/** One seat's game: random legal moves, now and then silence (the clock moves); `during` runs before each move. */
async function playFoolGame(
  start: FoolPlayer,
  game: number,
  random: Random,
  during: (player: FoolPlayer, moveCount: number) => Promise<FoolPlayer>,
): Promise<void> {
  let player = start;
  for (let turns = 0; turns < 2000; turns++) {
    const turn = await player.nextTurn(30_000);
    if (turn.kind === "over") {
      if (turn.game >= game) return;
      continue;
    }
    const next = await beforeMove(player, random, () => during(player, turn.moveCount));
    player = next.seat;
    if (!next.moves) continue;
    const movedOn = () => player.view()?.game !== turn.game || player.view()?.moveCount !== turn.moveCount;
    await unlessOvertaken(() => player.move(pick(random, turn.moves)), movedOn);
  }
  throw new Error("a Fool game did not end");
}

async function foolTable(index: number): Promise<Played> {
  const random = seededRandom(`one-truth:fool:${index}`);
  const client = new CardhallClient(url);
  const twoPlayers = index % 3 === 2;
  const first = index === 0;
  let player = await client.playFool({
    name: first ? "bar-0" : `fool-${index}`,
    seed: first ? 1 : seedOf(random),
    mode: twoPlayers ? "two-players" : "vs-ai",
    aiDelayMs: 0,
    turnTimeMs: CLOCK_MS,
  });
  const roomId = player.roomId;
  const watcher = await watch(roomId);
  const other = twoPlayers ? await client.joinFool(roomId, { name: `fool-${index}-b` }) : null;
  const played: Played = { matches: 0, lateSpectators: 0, reconnections: 0 };
  for (let game = 1; game <= FOOL_GAMES_PER_TABLE; game++) {
    if (game > 1) await withinBudget(() => player.newGame({ seed: first ? game * 7 : seedOf(random) }));
    let late: SdkRoom | null = null;
    let returned = false;
    // At the seat's first turns: a game may be over within a few of them.
    const [joinAt, dropAt] = [Math.floor(random() * 2), Math.floor(random() * 3)];
    const during = async (seat: FoolPlayer, moveCount: number) => {
      if (late === null && moveCount >= joinAt) late = await watch(roomId);
      if (returned || moveCount < dropAt) return seat;
      returned = true;
      return (player = await dropAndReturn(seat, (token) => client.reconnectFool(token)));
    };
    const seats = [playFoolGame(player, game, random, during)];
    if (other !== null) seats.push(playFoolGame(other, game, seededRandom(`${index}:${game}:b`), async (seat) => seat));
    await Promise.all(seats);
    played.matches++;
    if (late !== null) played.lateSpectators++;
    if (returned) played.reconnections++;
    await (late as SdkRoom | null)?.leave();
  }
  await Promise.all([player.leave(), other?.leave(), watcher.leave()]);
  return played;
}

// ------------------------------------------------------------------------------------------------------------
// Even-Steven: one player, five games a table, any card of the hand, sometimes out of time.

const EVENSTEVEN_GAMES_PER_TABLE = 5;

async function evenStevenTable(index: number): Promise<Played> {
  const random = seededRandom(`one-truth:evensteven:${index}`);
  const client = new CardhallClient(url);
  const handSize = () => 4 + Math.floor(random() * 6);
  let player: EvenStevenPlayer = await client.playEvenSteven({
    name: `steven-${index}`,
    n: handSize(),
    seed: seedOf(random),
    cardTimeLimitMs: CLOCK_MS * 5,
  });
  const roomId = player.roomId;
  const watcher = await watch(roomId);
  const played: Played = { matches: 0, lateSpectators: 0, reconnections: 0 };
  for (let game = 1; game <= EVENSTEVEN_GAMES_PER_TABLE; game++) {
    if (game > 1) await withinBudget(() => player.newGame({ n: handSize(), seed: seedOf(random) }));
    let late: SdkRoom | null = null;
    let returned = false;
    for (let card = 1; card <= 20; card++) {
      const turn = await player.nextTurn(game, card, 30_000);
      if (turn.kind === "over") break;
      if (card === 1) {
        late = await watch(roomId); // the game is under way: its first card is dealt
        player = await dropAndReturn(player, (token) => client.reconnectEvenSteven(token));
        returned = true;
      }
      if (random() < SILENCE) continue; // the card's time runs out: the game is lost on time
      const hand = player.view()?.player?.hand ?? turn.hand; // the state's hand: a restored session learns the rest
      await unlessOvertaken(
        () => player.play(pick(random, hand)),
        () => player.view()?.phase !== "playing",
      );
    }
    await player.waitForView((view) => view.game === game && view.phase === "over", 30_000);
    played.matches++;
    if (late !== null) played.lateSpectators++;
    if (returned) played.reconnections++;
    await (late as SdkRoom | null)?.leave();
  }
  await Promise.all([player.leave(), watcher.leave()]);
  return played;
}

// ------------------------------------------------------------------------------------------------------------
// Patience: the owner pauses, steps, resumes and changes the pace at random; three deals a table.

const PATIENCE_DEALS_PER_TABLE = 3;

async function patienceTable(index: number): Promise<Played> {
  const random = seededRandom(`one-truth:patience:${index}`);
  const client = new CardhallClient(url);
  let owner: PatienceOwner = await client.createPatience({
    name: `owner-${index}`,
    seed: seedOf(random),
    paceMs: 2,
    paused: true,
  });
  const roomId = owner.roomId;
  const watcher = await watch(roomId);
  const played: Played = { matches: 0, lateSpectators: 0, reconnections: 0 };
  for (let deal = 1; deal <= PATIENCE_DEALS_PER_TABLE; deal++) {
    if (deal > 1) await withinBudget(() => owner.restart({ seed: seedOf(random), paused: true }));
    // Each deal starts paused: two steps, a spectator joins, the owner drops and comes back, then anything goes.
    await owner.waitForView((view) => view.deal === deal, 30_000);
    for (let step = 0; step < 2; step++) await withinBudget(() => owner.step());
    const late = await watch(roomId);
    owner = await dropAndReturn(owner, (token) => client.reconnectPatience(token));
    await owner.waitForView((view) => view.deal === deal, 30_000);
    if (random() < 0.5) await withinBudget(() => owner.resume());
    for (let actions = 0; owner.view()?.phase !== "over" && actions < 500; actions++) {
      const view = owner.view()!;
      const control = pick(random, ["pause", "step", "step", "resume", "pace", "wait", "wait"] as const);
      if (control === "pause" && view.phase === "dealing") await unlessOvertaken(() => owner.pause());
      else if (control === "step" && view.phase === "paused") await unlessOvertaken(() => owner.step());
      else if (control === "resume" && view.phase === "paused") await unlessOvertaken(() => owner.resume());
      else if (control === "pace") await withinBudget(() => owner.setPace(Math.floor(random() * 4)));
      else await sleep(3);
    }
    if (owner.view()?.phase !== "over") {
      await unlessOvertaken(() => owner.resume());
      await owner.dealOver(deal, 30_000);
    }
    played.matches++;
    played.lateSpectators++;
    played.reconnections++;
    await late.leave();
  }
  await Promise.all([owner.leave(), watcher.leave()]);
  return played;
}

// ------------------------------------------------------------------------------------------------------------
// Tractor: one or two people beside the rooms' bots, random legal plays, a short match (both teams at Ace).

const TRACTOR_SEATS_IN_ORDER: TractorSeatName[] = ["Alice", "Bob", "Charles", "David"];

/** A person's seat: random legal burials and plays (the engine's random policy on the seat's own view), now and then the clock. */
async function playTractorSeat(
  start: TractorPlayer,
  random: Random,
  during: (player: TractorPlayer, step: number) => Promise<TractorPlayer>,
): Promise<void> {
  const policy = randomPolicy(random);
  let player = start;
  for (let turns = 0; turns < 5000; turns++) {
    const turn = await player.nextTurn(60_000);
    if (turn.kind === "matchOver") return;
    const next = await beforeMove(player, random, () => during(player, turn.step));
    player = next.seat;
    if (!next.moves) continue;
    const move =
      turn.kind === "bury"
        ? () => player.bury(policy.chooseBurial(turn.view))
        : () => player.play(policy.choosePlay(turn.view));
    await unlessOvertaken(move, () => player.view()?.step !== turn.step);
  }
  throw new Error("a Tractor match did not end");
}

async function tractorTable(index: number): Promise<Played> {
  const random = seededRandom(`one-truth:tractor:${index}`);
  const client = new CardhallClient(url);
  const people = index % 2 === 0 ? 1 : 2;
  const declare = index % 4 === 1;
  const pace = {
    turnTimeMs: CLOCK_MS,
    botDelayMs: 0,
    dealDelayMs: 0,
    declareWindowMs: 0,
    startDelayMs: 0,
    roundPauseMs: 0,
  };
  const trump = declare
    ? { trump: "declare" as const }
    : { trump: "fixed" as const, mainSuit: pick(random, ["H", "S", "C", "D", "O"] as const) };
  const bots = TRACTOR_SEATS_IN_ORDER.slice(people);
  const dealer = pick(random, TRACTOR_SEATS_IN_ORDER);
  let alice = await client.playTractor({
    name: `alice-${index}`,
    seat: "Alice",
    bots,
    startRanks: ["A", "A"],
    seed: seedOf(random),
    dealer,
    ...trump,
    ...pace,
  });
  const roomId = alice.roomId;
  const watcher = await watch(roomId);
  const bob = people === 2 ? await client.joinTractor(roomId, { seat: "Bob", name: `bob-${index}` }) : null;
  let late: SdkRoom | null = null;
  let returned = false;
  // Random players throw whole suits (every throw stands): a round may be over in a dozen steps.
  const dropAt = 2 + Math.floor(random() * 5);
  const during = async (seat: TractorPlayer, step: number) => {
    if (late === null && step >= 3) late = await watch(roomId);
    if (returned || step < dropAt) return seat;
    returned = true;
    return (alice = await dropAndReturn(seat, (token) => client.reconnectTractor(token)));
  };
  const seats = [playTractorSeat(alice, random, during)];
  if (bob !== null) seats.push(playTractorSeat(bob, seededRandom(`${index}:bob`), async (seat) => seat));
  await Promise.all(seats);
  await Promise.all([alice.leave(), bob?.leave(), watcher.leave(), (late as SdkRoom | null)?.leave()]);
  return { matches: 1, lateSpectators: late === null ? 0 : 1, reconnections: returned ? 1 : 0 };
}

// ------------------------------------------------------------------------------------------------------------

/** Where a suite's clients connect: the main port, or (webSocketPort) HTTP there and WebSockets on a port of their own. */
export interface OneTruthSuite {
  matches: number;
  webSocketPort: boolean;
}

async function loopbackWebSocketPort(): Promise<WebSocketPortConfig> {
  const port = await freePort();
  return { port, host: "127.0.0.1", publicAddress: `127.0.0.1:${port}` };
}

/** The differential test on a server of its own (see the module's comment). */
export function oneTruthSuite(suite: OneTruthSuite): void {
  MATCHES = suite.matches;
  beforeAll(async () => {
    truth.install();
    const port = await freePort();
    const webSocketPort = suite.webSocketPort ? await loopbackWebSocketPort() : null;
    server = makeServer({ gracefullyShutdown: false, aiThreads: 1, webSocketPort });
    await server.listen(port, "127.0.0.1");
    url = `ws://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    // A failed run may leave tables playing: the shutdown is bounded so that the failure is what is reported.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      server.gracefullyShutdown(false),
      new Promise((resolve) => (timer = setTimeout(resolve, 10_000))),
    ]);
    clearTimeout(timer);
    truth.uninstall();
  }, 20_000);

  describe("every client's decoded state equals its table's view for it, after every frame", () => {
    const minutes = 5 * 60_000;
    test(`Fool: ${MATCHES} games`, async () => report("fool", await playTables(foolTable)), minutes);
    test(`Even-Steven: ${MATCHES} games`, async () => report("evensteven", await playTables(evenStevenTable)), minutes);
    test(`Patience: ${MATCHES} deals`, async () => report("patience", await playTables(patienceTable)), minutes);
    test(`Tractor: ${MATCHES} matches`, async () => report("tractor", await playTables(tractorTable)), minutes);
  });
}
