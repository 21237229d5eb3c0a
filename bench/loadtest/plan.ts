/** The plan of a load test: the tables that seat its clients, dealt round the server's addresses and the workers. */
import { scriptedSeats, type GameName } from "./games";
import type { TractorBotLevel } from "../../rooms/tractor/protocol";
import type { TablePlan } from "./messages";

/**
 * Turns the mix's weights into tables that seat exactly `clients` players: each game with tables of several seats
 * (Tractor's four) gets its share in whole tables (one at least), and the one-seat games share the rest by their
 * weights (largest remainders). Throws when the mix cannot seat that many exactly (only games of several seats).
 */
export function planTables(
  clients: number,
  mix: Partial<Record<GameName, number>>,
  urls: readonly string[] = [""],
  tractorBots?: TractorBotLevel,
): TablePlan[] {
  const seatsOf = (game: GameName) => scriptedSeats(game, tractorBots);
  const entries = Object.entries(mix).filter(([, weight]) => (weight ?? 0) > 0) as Array<[GameName, number]>;
  const totalWeight = entries.reduce((sum, [, weight]) => sum + weight, 0);
  const share = (weight: number) => (clients * weight) / totalWeight;
  const tableCounts = new Map<GameName, number>();
  let seated = 0;
  for (const [game, weight] of entries) {
    const seats = seatsOf(game);
    if (seats === 1) continue;
    const count = Math.min(Math.max(1, Math.round(share(weight) / seats)), Math.floor((clients - seated) / seats));
    tableCounts.set(game, count);
    seated += count * seats;
  }
  const single = entries.filter(([game]) => seatsOf(game) === 1);
  const rest = clients - seated;
  if (rest > 0 && single.length === 0) {
    throw new Error(
      `${clients} clients cannot all be seated: the mix has only tables of ${entries.map(([game]) => `${seatsOf(game)} (${game})`).join(", ")} seats`,
    );
  }
  const singleWeight = single.reduce((sum, [, weight]) => sum + weight, 0);
  const exact = single.map(([game, weight]) => ({ game, exact: (rest * weight) / singleWeight }));
  exact.forEach(({ game, exact: players }) => tableCounts.set(game, Math.floor(players)));
  const leftOver = rest - exact.reduce((sum, { exact: players }) => sum + Math.floor(players), 0);
  [...exact]
    .sort((a, b) => (b.exact % 1) - (a.exact % 1))
    .slice(0, leftOver)
    .forEach(({ game }) => tableCounts.set(game, tableCounts.get(game)! + 1));
  const tables: TablePlan[] = [];
  for (const [game] of entries) {
    for (let i = 0; i < (tableCounts.get(game) ?? 0); i++) tables.push({ game, players: seatsOf(game), url: "" });
  }
  return dealAddresses(interleave(tables), urls);
}

/**
 * Each game's tables dealt round the addresses (each game starting at another), so that every address matchmakes
 * its share of every game, whatever the number of games and of addresses.
 */
function dealAddresses(tables: TablePlan[], urls: readonly string[]): TablePlan[] {
  const places = dealRoundByGame(tables, urls.length);
  return tables.map((table, index) => ({ ...table, url: urls[places[index]] }));
}

/**
 * Where each table goes among `count` places (workers, addresses): every game's tables dealt round the places
 * separately, each game starting at another place, so the games' odd tables do not all land on the first one.
 */
function dealRoundByGame(tables: readonly TablePlan[], count: number): number[] {
  const dealtByGame = new Map<GameName, number>();
  const games: GameName[] = [];
  return tables.map((table) => {
    if (!games.includes(table.game)) games.push(table.game);
    const dealt = dealtByGame.get(table.game) ?? 0;
    dealtByGame.set(table.game, dealt + 1);
    return (dealt + games.indexOf(table.game)) % count;
  });
}

/** Mixes the games so each moment of the ramp opens some of every game. */
function interleave(tables: TablePlan[]): TablePlan[] {
  const byGame = new Map<string, TablePlan[]>();
  for (const table of tables) byGame.set(table.game, [...(byGame.get(table.game) ?? []), table]);
  const queues = [...byGame.values()];
  const mixed: TablePlan[] = [];
  while (queues.some((queue) => queue.length > 0))
    for (const queue of queues) if (queue.length) mixed.push(queue.shift()!);
  return mixed;
}

/**
 * Each worker's tables: every game's tables dealt round the workers separately, so each worker gets an even share
 * of every game (a game's bots cost more or less than another's) and keeps the ramp's mix. Dealing the mixed list
 * round the workers instead would give each worker a single game whenever the workers and the games are as many.
 */
export function dealToWorkers(tables: readonly TablePlan[], workerCount: number): TablePlan[][] {
  const shares: TablePlan[][] = Array.from({ length: workerCount }, () => []);
  const places = dealRoundByGame(tables, workerCount);
  tables.forEach((table, index) => shares[places[index]]!.push(table));
  return shares;
}
