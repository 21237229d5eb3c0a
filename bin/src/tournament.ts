/**
 * bin/tournament --server ws://HOST:PORT --game fool|tractor --format round-robin|swiss --deals N
 *                --entry "NAME=COMMAND [ARGS...]" ... [--entry-token NAME=TOKEN ...]
 * A tournament on duplicate deals between named identities (docs/arena.md, "Tournaments"): every pairing plays the
 * same N deals, each twice with the seats swapped, so the cards dealt favour nobody over the pair of games (Tractor:
 * an entrant is a team, both its seats its own program's; a game is a match's first round). Each seat of each game
 * is the entrant's program, started afresh and played through the bridge's own code (lib/bridge-run.ts) under the
 * entrant's bot token; a program that crashes, or lets its turn clock run out `--max-timeouts` times, forfeits that
 * game. Once every game is played the report goes to the server (POST /tournaments, with the operator's secret
 * when the server asks for one), which checks each game against its record and keeps the tournament; the
 * standings are printed with the address of the tournament's page.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import type { FoolOverEvent } from "../../rooms/fool/protocol";
import { TRACTOR_SEATS, type TractorRoundEndEvent } from "../../rooms/tractor/protocol";
import { freshSeed, seededRandom } from "../../rooms/kit/random";
import {
  foolPoints,
  pairKey,
  pointsAfterForfeits,
  roundRobin,
  swissRound,
  swissRounds,
  tractorPoints,
  TOURNAMENT_FORMATS,
  TOURNAMENT_GAMES,
  TOURNAMENT_TABLES,
  type Forfeit,
  type Pairing,
  type Tournament,
  type TournamentFormat,
  type TournamentGame,
  type TournamentGameReport,
  type TournamentReport,
  type TournamentRound,
} from "../../rooms/kit/tournament";
import { httpBase } from "../../client-sdk/records";
import { choice, webSocketAddress, wholeNumber } from "./lib/arguments";
import { Bridge, type BridgePrinter, type BridgeRunOptions } from "./lib/bridge-run";
import { tableRules, takeSeat, type BridgedSeat, type TableRequest } from "./lib/bridge-seats";
import { EXIT_BAD_INPUT, EXIT_DONE, EXIT_FAILED, usageErrorsAreBadInput } from "./lib/exit-status";
import { JsonLinesProgram } from "./lib/json-lines-program";

/** An entrant: its identity's name, its program, and its bot's token (never printed). */
interface Entry {
  name: string;
  command: string;
  args: string[];
  token: string;
}

interface TournamentOptions {
  server: string;
  game: TournamentGame;
  format: TournamentFormat;
  deals: number;
  rounds?: number;
  seed?: number;
  name?: string;
  entry: { name: string; words: string[] }[];
  entryToken: { name: string; token: string }[];
  turnTimeMs: number;
  maxTimeouts: number;
  maxErrors: number;
  maxLineBytes: number;
  secret?: string;
}

/** A game of the plan: a deal of a round, the entrants by seat. */
interface PlannedGame {
  round: number;
  deal: number;
  seed: number;
  seats: Entry[];
}

/**
 * How each game's table is made and read: a seat's request (seat 0's makes the table, the others join it by id)
 * and the event that ends the game, with the points it gives each seat. A Tractor game is its match's first round.
 */
interface TableKind {
  seatRequest(seat: number, room: string | undefined): Partial<TableRequest>;
  endEvent: string;
  points(event: unknown, seats: number): number[];
}

const TABLE_KINDS: Record<TournamentGame, TableKind> = {
  fool: {
    seatRequest: (seat, room) => ({ foolSeat: seat as 0 | 1, room }),
    endEvent: "over",
    points: (event, seats) => foolPoints(event as FoolOverEvent, seats),
  },
  tractor: {
    // Four programs and no bots; the room's own pause before the deal and between rounds kept short.
    seatRequest: (seat, room) => ({ seat: TRACTOR_SEATS[seat], bots: [], room }),
    endEvent: "roundEnd",
    points: (event, seats) => tractorPoints(event as TractorRoundEndEvent, seats),
  },
};

/** A game played: its report line and each seat's points. */
interface PlayedGame {
  report: TournamentGameReport;
  points: number[];
}

/** How many times, and how far apart, a report is sent again while the server is still writing its games. */
const REPORT_TRIES = 40;
const REPORT_RETRY_MS = 500;

function say(line: string): void {
  process.stderr.write(`tournament: ${line}\n`);
}

/**
 * A command line split into words without a shell: spaces separate words; single or double quotes keep spaces
 * inside one. Nothing is expanded, so an entry runs exactly the program it names.
 */
export function commandWords(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: string | null = null;
  for (const character of text) {
    if (quote !== null) {
      if (character === quote) quote = null;
      else word += character;
    } else if (character === "'" || character === '"') {
      quote = character;
      word ??= "";
    } else if (/\s/.test(character)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? "") + character;
  }
  if (quote !== null) throw new InvalidArgumentError(`a ${quote} quote is not closed`);
  if (word !== null) words.push(word);
  return words;
}

/** `NAME=VALUE`, parsed and collected (commander's repeatable option). */
function named<T>(what: string, value: (text: string) => T) {
  return (text: string, earlier: ({ name: string } & T)[]): ({ name: string } & T)[] => {
    const at = text.indexOf("=");
    if (at <= 0) throw new InvalidArgumentError(`expected NAME=${what}`);
    return [...earlier, { name: text.slice(0, at).trim(), ...value(text.slice(at + 1)) }];
  };
}

const entryOption = named("COMMAND", (text) => {
  const words = commandWords(text);
  if (words.length === 0) throw new InvalidArgumentError("the entry names no program");
  return { words };
});
const tokenOption = named("TOKEN", (token) => ({ token }));

/** The environment variable that may hold an entrant's token: CARDHALL_TOKEN_ and its name, upper case, `_` for the rest. */
export function tokenVariable(name: string): string {
  return `CARDHALL_TOKEN_${name.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

/** The entries with their tokens, or what is wrong with them. */
function entriesOf(options: TournamentOptions): Entry[] | string {
  const names = options.entry.map((entry) => entry.name);
  if (names.length < 2) return "a tournament needs two entries or more (--entry NAME=COMMAND)";
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined) return `${twice} is entered twice`;
  const stranger = options.entryToken.find((given) => !names.includes(given.name));
  if (stranger) return `--entry-token names ${stranger.name}, who has no --entry`;
  const entries: Entry[] = [];
  for (const { name, words } of options.entry) {
    const token = options.entryToken.find((given) => given.name === name)?.token ?? process.env[tokenVariable(name)];
    if (!token)
      return `${name} has no token: give --entry-token ${name}=TOKEN or set ${tokenVariable(name)} (tournaments are between identities)`;
    entries.push({ name, command: words[0], args: words.slice(1), token });
  }
  return entries;
}

/** The deals every pairing plays: N seeds drawn from the tournament's seed. */
function dealSeeds(seed: number, deals: number): number[] {
  const random = seededRandom(`tournament ${seed}`);
  return Array.from({ length: deals }, () => freshSeed(random));
}

/** A pairing's games: each deal twice, `a` first and then `b`, so both play both sides of every deal. */
function gamesOf(
  game: TournamentGame,
  pairing: Pairing,
  round: number,
  seeds: readonly number[],
  entries: ReadonlyMap<string, Entry>,
): PlannedGame[] {
  const seated = (first: string, second: string) =>
    TOURNAMENT_TABLES[game].arrangement(first, second).map((name) => entries.get(name)!);
  return seeds.flatMap((seed, index) => [
    { round, deal: index + 1, seed, seats: seated(pairing.a, pairing.b) },
    { round, deal: index + 1, seed, seats: seated(pairing.b, pairing.a) },
  ]);
}

/** Where an entrant's bridge reports go: its own results are the tournament's to print; its troubles are said. */
function printerFor(entrant: string): BridgePrinter {
  return { out: () => undefined, say: (line) => say(`${entrant}: ${line}`) };
}

class TournamentRunner {
  private readonly bridgeOptions: BridgeRunOptions;

  constructor(private readonly options: TournamentOptions) {
    this.bridgeOptions = {
      game: options.game,
      maxErrors: options.maxErrors,
      maxLineBytes: options.maxLineBytes,
      timing: false,
    };
  }

  /** One game: every seat's program started, the seats taken (seat 0's makes the table with the deal's seed), played out. */
  async play(planned: PlannedGame): Promise<PlayedGame> {
    const { seats, seed } = planned;
    const kind = TABLE_KINDS[this.options.game];
    const programs = seats.map((entry) => new JsonLinesProgram(entry.command, entry.args, this.options.maxLineBytes));
    const bridges = seats.map((entry, seat) => new Bridge(programs[seat], this.bridgeOptions, printerFor(entry.name)));
    let ended: unknown;
    const request = (seat: number, room?: string): TableRequest => ({
      url: this.options.server,
      name: seats[seat].name,
      token: seats[seat].token,
      seed,
      turnTimeMs: this.options.turnTimeMs,
      ...kind.seatRequest(seat, room),
      onWaitToJoin: (reason, waitMs) =>
        say(
          `round ${planned.round}, deal ${planned.deal}, seat ${seat}: ${reason}; asking again in ${Math.ceil(waitMs / 1000)} s`,
        ),
      onEvent: (name, payload) => {
        if (name === kind.endEvent) ended ??= payload;
        bridges[seat].send({ type: "event", name, payload });
      },
    });
    const taken: BridgedSeat[] = [];
    try {
      taken.push(await this.seat(request(0)));
      for (let seat = 1; seat < seats.length; seat++)
        taken.push(await this.seat(request(seat, taken[0].session.roomId)));
      await Promise.all(bridges.map((bridge, seat) => bridge.run(taken[seat], seats[seat].name, 1)));
    } catch (error) {
      for (const program of programs) program.kill();
      throw error;
    } finally {
      await Promise.all(taken.map((seat) => seat.session.leave().catch(() => undefined)));
    }
    if (ended === undefined) throw new Error(`the game in room ${taken[0].session.roomId} ended without its result`);
    const names = seats.map((entry) => entry.name);
    const forfeits = forfeitsOf(bridges, names, this.options.maxTimeouts);
    const report: TournamentGameReport = {
      round: planned.round,
      deal: planned.deal,
      seed,
      seats: names,
      roomId: taken[0].session.roomId,
      forfeits,
    };
    return { report, points: pointsAfterForfeits(kind.points(ended, seats.length), names, forfeits) };
  }

  private async seat(request: TableRequest): Promise<BridgedSeat> {
    const checked = tableRules(this.options.game, request);
    if ("problem" in checked) throw new Error(checked.problem);
    return takeSeat(this.options.game, request, 1, checked.rules);
  }
}

/** The entrants who forfeit the game, once each (a Tractor team's two seats are one entrant). */
function forfeitsOf(bridges: readonly Bridge[], names: readonly string[], maxTimeouts: number): Forfeit[] {
  const forfeits: Forfeit[] = [];
  bridges.forEach((bridge, seat) => {
    const reason = forfeitReason(bridge, maxTimeouts);
    if (reason !== null && !forfeits.some((forfeit) => forfeit.entrant === names[seat]))
      forfeits.push({ entrant: names[seat], reason });
  });
  return forfeits;
}

/**
 * Why a seat is forfeited: its program stopped playing, or let its turn clock run out `maxTimeouts` times (a program
 * that does not answer; a turn missed now and then on a busy machine is not that); null when it played its game.
 */
function forfeitReason(bridge: Bridge, maxTimeouts: number): string | null {
  const { programEnded, tally } = bridge.verdict();
  if (programEnded !== null) return `${programEnded} during the game`;
  if (tally.timedOut >= maxTimeouts)
    return `the program let its turn clock run out ${tally.timedOut === 1 ? "once" : `${tally.timedOut} times`}`;
  return null;
}

function gameLine(played: PlayedGame): string {
  const { round, deal, seed, seats, forfeits } = played.report;
  const result =
    played.points[0] === played.points[1] ? "drawn" : `${seats[played.points[0] > played.points[1] ? 0 : 1]} won`;
  const forfeited = forfeits.map((forfeit) => `; ${forfeit.entrant} forfeits (${forfeit.reason})`).join("");
  const seatsOf = (name: string) => seats.flatMap((sitting, seat) => (sitting === name ? [seat] : []));
  const side = (name: string) =>
    `${name} (${seatsOf(name).length === 1 ? "seat" : "seats"} ${seatsOf(name).join(" and ")})`;
  return `round ${round}, deal ${deal} (seed ${seed}): ${side(seats[0])} v ${side(seats[1])}: ${result}${forfeited}`;
}

/** Plays every round: all of a round's pairings at once, each pairing's games one after another. */
async function playRounds(options: TournamentOptions, entries: Entry[], seeds: number[]): Promise<PlayedGame[]> {
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const names = entries.map((entry) => entry.name);
  const runner = new TournamentRunner(options);
  const rounds =
    options.format === "round-robin" ? roundRobin(names).length : (options.rounds ?? swissRounds(names.length));
  const fixed = options.format === "round-robin" ? roundRobin(names) : null;
  const played: PlayedGame[] = [];
  const points = new Map<string, number>();
  const met = new Set<string>();
  const byes = new Set<string>();
  for (let round = 1; round <= rounds; round++) {
    const pairings: TournamentRound = fixed?.[round - 1] ?? swissRound(names, points, met, byes);
    if (pairings.bye !== undefined) {
      byes.add(pairings.bye);
      process.stdout.write(`round ${round}: ${pairings.bye} sits out\n`);
    }
    const results = await Promise.all(
      pairings.pairings.map(async (pairing) => {
        const games: PlayedGame[] = [];
        for (const planned of gamesOf(options.game, pairing, round, seeds, byName)) {
          const game = await runner.play(planned);
          process.stdout.write(gameLine(game) + "\n");
          games.push(game);
        }
        return games;
      }),
    );
    for (const game of results.flat()) {
      played.push(game);
      game.report.seats.forEach((name, seat) => points.set(name, (points.get(name) ?? 0) + game.points[seat]));
    }
    for (const pairing of pairings.pairings) met.add(pairKey(pairing.a, pairing.b));
  }
  return played;
}

/** Sends the report (again while the server is still writing some of its games); the tournament's id. */
async function report(options: TournamentOptions, body: TournamentReport): Promise<string> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.secret) headers.authorization = `Bearer ${options.secret}`;
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(`${httpBase(options.server)}/tournaments`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as { id?: string; error?: string };
    if (response.status === 201 && answer.id) return answer.id;
    if (response.status !== 409 || attempt >= REPORT_TRIES)
      throw new Error(
        `the server did not keep the tournament (${response.status}): ${answer.error ?? "no reason given"}`,
      );
    await new Promise((resolve) => setTimeout(resolve, REPORT_RETRY_MS));
  }
}

function percent(value: number): string {
  return value.toFixed(3);
}

function standingsLines(tournament: Tournament): string[] {
  return tournament.standings.map((line, index) => {
    const forfeits = line.forfeits > 0 ? `, ${line.forfeits} forfeited` : "";
    return `${index + 1}. ${line.entrant}: ${line.points} points in ${line.games} games, ${percent(line.score)} a game (95%: ${percent(line.low)} to ${percent(line.high)})${forfeits}`;
  });
}

async function runTournament(options: TournamentOptions): Promise<number> {
  const entries = entriesOf(options);
  if (typeof entries === "string") {
    say(entries);
    return EXIT_BAD_INPUT;
  }
  if (options.format === "round-robin" && options.rounds !== undefined) {
    say("--rounds is for swiss: a round-robin plays every pairing once");
    return EXIT_BAD_INPUT;
  }
  const seed = options.seed ?? freshSeed();
  const startedAt = performance.now();
  const played = await playRounds(options, entries, dealSeeds(seed, options.deals));
  const seconds = (performance.now() - startedAt) / 1000;
  process.stdout.write(`${played.length} games in ${seconds.toFixed(1)} s; the deals came from seed ${seed}\n`);
  const name =
    options.name ?? `${options.game} ${options.format}, ${new Date().toISOString().slice(0, 16).replace("T", " ")}`;
  const body: TournamentReport = {
    name,
    game: options.game,
    format: options.format,
    deals: options.deals,
    entrants: entries.map((entry) => entry.name),
    games: played.map((game) => game.report),
  };
  const id = await report(options, body);
  const tournament = (await (await fetch(`${httpBase(options.server)}/tournaments/${id}`)).json()) as Tournament;
  for (const line of standingsLines(tournament)) process.stdout.write(line + "\n");
  process.stdout.write(`tournament ${id}: ${httpBase(options.server)}/tournaments/${id}\n`);
  return EXIT_DONE;
}

function main(): void {
  usageErrorsAreBadInput(new Command("tournament"))
    .description(
      "Runs a tournament on duplicate deals between named identities' programs and reports it to the server (docs/arena.md).",
    )
    .requiredOption("--server <url>", "the server's WebSocket address, e.g. ws://127.0.0.1:2567", webSocketAddress)
    .addOption(
      new Option("--game <name>", `the game: ${TOURNAMENT_GAMES.join(", ")}`)
        .argParser(choice(TOURNAMENT_GAMES))
        .default("fool"),
    )
    .addOption(
      new Option("--format <format>", `${TOURNAMENT_FORMATS.join(" or ")}`)
        .argParser(choice(TOURNAMENT_FORMATS))
        .default("round-robin"),
    )
    .requiredOption(
      "--deals <n>",
      "deals every pairing plays, each twice with the seats swapped",
      wholeNumber(1, 1_000),
    )
    .option("--rounds <n>", "swiss: rounds to play (default ⌈log2 entrants⌉)", wholeNumber(1, 1_000))
    .option(
      "--seed <seed>",
      "the seed the deals are drawn from (default: a fresh one, printed at the end)",
      wholeNumber(1, 2147483646),
    )
    .option("--name <name>", "the tournament's name on its page")
    .option(
      "--entry <NAME=COMMAND>",
      "an entrant: its bot's name and its program's command line (quotes group words; no shell)",
      entryOption,
      [],
    )
    .option(
      "--entry-token <NAME=TOKEN>",
      "an entrant's bot token (or CARDHALL_TOKEN_<NAME>, upper case, _ for other characters)",
      tokenOption,
      [],
    )
    .option(
      "--turn-time-ms <ms>",
      "each seat's turn clock (the room plays for a seat whose clock runs out)",
      wholeNumber(100, 600_000),
      10_000,
    )
    .option(
      "--max-timeouts <n>",
      "turns a program may let its clock run out in a game before it forfeits the game",
      wholeNumber(1, 1_000),
      3,
    )
    .option("--max-errors <n>", "refused answers to one turn before the seat's bot plays it", wholeNumber(1, 1_000), 3)
    .option("--max-line-bytes <n>", "the longest answer line read", wholeNumber(64, 16 * 1024 * 1024), 65_536)
    .addOption(
      new Option(
        "--secret <secret>",
        "the operator's secret, when the server asks for one (TOURNAMENT_SECRET there)",
      ).env("CARDHALL_TOURNAMENT_SECRET"),
    )
    .action(async (options: TournamentOptions) => {
      process.exitCode = await runTournament(options);
    })
    .parseAsync(process.argv)
    .catch((error: unknown) => {
      say(error instanceof Error ? error.message : String(error));
      process.exitCode = EXIT_FAILED;
    });
}

if (require.main === module) main();
