/**
 * bin/replay ID|FILE [--url URL | --db PATH|URL] [--quiet]: prints a recorded game action by action and checks it
 * through the game's engine. The record comes from a file (a record as GET /games/:id gives it), from a server's
 * HTTP API (`--url`), straight from a records database (`--db`: the SQLite file, or a postgres:// URL), or, with an
 * id alone, from the local record store: the one a server started here keeps, found from the same environment
 * (DATA_DIR's data/cardhall.sqlite, or DATABASE_URL), whatever port the server runs on and whether it runs or not.
 *
 * It also checks the deal (docs/arena.md, "Checking a deal by hand"): the seed the engine replayed the deal from, with
 * the salt the record keeps, must hash to the commitment published when the deal started. A record made before deals
 * were sealed has no commitment, which is said and is no error.
 *
 * Exit status: 0 when the engine reproduces every action, event and the result and the deal matches its commitment
 * (or none was recorded); 2 when it does not (the first action that disagrees, or the commitment that does not
 * match, is named on stderr); 1 when the record cannot be found or read.
 */
import { Command } from "commander";
import * as fs from "node:fs";
import type { GameRecord, RecordedEvent, RecordedSeat, Replay } from "../../rooms/kit/record";
import { RecordsApi } from "../../client-sdk/records";
import { isPostgresUrl, type DatabaseConfig } from "../../server/records/database";
import { RecordStore } from "../../server/records/store";
import { recordsConfig } from "../../server/records";
import { checkDealSeal, describeActor, replayRecord, ReplayMismatch } from "../../server/records/replay";
import { EXIT_BAD_INPUT, EXIT_DONE, EXIT_FAILED, usageErrorsAreBadInput } from "./lib/exit-status";

/** A record that cannot be found or read fails the run; one that does not replay is bad input. */
const NOT_FOUND = EXIT_FAILED;
const DOES_NOT_REPLAY = EXIT_BAD_INPUT;
/** Payloads are cut to this many characters on a line: the line is for reading, the record has everything. */
const PAYLOAD_WIDTH = 100;

class NotFound extends Error {}

async function fetchRecord(source: string, options: { url?: string; db?: string }): Promise<GameRecord> {
  if (fs.existsSync(source)) return JSON.parse(fs.readFileSync(source, "utf8")) as GameRecord;
  if (options.db !== undefined)
    return fromDatabase(source, isPostgresUrl(options.db) ? { url: options.db } : { file: options.db });
  // The SDK's reader: the same URL handling and the server's own error messages ("no such game").
  if (options.url !== undefined) return new RecordsApi(options.url).game(source);
  const local = recordsConfig(process.env);
  if (local === null)
    throw new NotFound("records are off here (RECORDS=off): name a server with --url or a database with --db");
  return fromDatabase(source, local, " (the local record store; --url reads a server's)");
}

async function fromDatabase(id: string, database: DatabaseConfig, which = ""): Promise<GameRecord> {
  if (database.file !== undefined && !fs.existsSync(database.file))
    throw new NotFound(`no database file ${database.file}${which}`);
  const store = await RecordStore.open(database);
  try {
    const record = await store.get(id);
    if (record === undefined) throw new NotFound(`no game ${id} in ${store.where}`);
    return record;
  } finally {
    await store.close();
  }
}

function seatLabel(seats: readonly RecordedSeat[], actor: number | string): string {
  if (typeof actor !== "number") return "dealer";
  const seat = seats[actor];
  return seat?.name ? `seat ${actor} (${seat.name}, ${seat.kind})` : describeActor(actor);
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? "";
  return text.length > PAYLOAD_WIDTH ? `${text.slice(0, PAYLOAD_WIDTH - 1)}…` : text;
}

function eventLines(events: readonly RecordedEvent[]): string[] {
  return events.map(
    (event) => `      ${event.name}${event.to === undefined ? "" : ` (to seat ${event.to})`} ${short(event.payload)}`,
  );
}

/**
 * The seed people know the game by: the one its result names, as bin/bots, the bridge and the page print it. A round
 * of a match (Tractor) is dealt from its own seed, derived from the match's, which the record keeps to replay it.
 */
function seedLine(record: GameRecord): string {
  const named = (record.result as { seed?: unknown } | null)?.seed;
  return typeof named === "number" && named !== record.seed
    ? `seed ${named} (the match's ${record.seed})`
    : `seed ${record.seed}`;
}

/** The record as lines: a heading, the start's events, each action with its events, the result. */
export function describeRecord(record: GameRecord): string[] {
  const round = record.round === undefined ? "" : `, round ${record.round}`;
  const lines = [
    `${record.game} ${record.part} ${record.id} (room ${record.roomId}, match ${record.match}${round}), ${seedLine(record)}`,
    `  seats: ${record.seats.map((seat) => `${seat.seat}: ${seat.name || "-"} (${seat.kind})`).join(", ")}`,
    `  start`,
    ...eventLines(record.start),
  ];
  record.actions.forEach((step, index) => {
    const at = new Date(step.at).toISOString().slice(11, 23);
    lines.push(
      `  ${String(index + 1).padStart(4)}  ${at}  ${seatLabel(record.seats, step.actor)} [${step.by}] ${short(step.action)}`,
    );
    lines.push(...eventLines(step.events));
  });
  lines.push(`  result ${JSON.stringify(record.result)}`);
  return lines;
}

async function main(argv: readonly string[]): Promise<number> {
  const program = usageErrorsAreBadInput(new Command("replay"))
    .description("Prints a recorded game action by action and checks that its engine reproduces it exactly.")
    .argument("<id-or-file>", "a record id, or a file holding a record (JSON, as GET /games/:id gives it)")
    .option("--url <url>", "the server whose HTTP API has the record, e.g. http://127.0.0.1:2567")
    .option("--db <path-or-url>", "read the record from this records database (an SQLite file or a postgres:// URL)")
    .addHelpText(
      "after",
      "\nWith an id alone, the record is read from the local record store, as a server started here keeps it:\nDATA_DIR's cardhall.sqlite (data/ by default), or DATABASE_URL's PostgreSQL.",
    )
    .option("--quiet", "print only the verdict")
    .showHelpAfterError()
    .parse(argv);
  const options = program.opts<{ url?: string; db?: string; quiet?: boolean }>();
  const source = program.args[0];
  let record: GameRecord;
  try {
    record = await fetchRecord(source, options);
  } catch (error) {
    process.stderr.write(`replay: ${error instanceof Error ? error.message : String(error)}\n`);
    return NOT_FOUND;
  }
  if (!options.quiet) process.stdout.write(describeRecord(record).join("\n") + "\n");
  if (record.seedWithheld) {
    process.stderr.write(
      `replay: ${record.id ?? source} is a round of a match still being played: the server shows its match's seed, which every later deal follows from, once the match is over (GET /games/${record.id}/replay replays it on the server now)\n`,
    );
    return NOT_FOUND;
  }
  let replay: Replay;
  try {
    replay = replayRecord(record);
  } catch (error) {
    if (!(error instanceof ReplayMismatch)) throw error;
    process.stderr.write(`replay: ${record.id ?? source} does not replay: ${error.message}\n`);
    return DOES_NOT_REPLAY;
  }
  const sealed = checkDealSeal(replay.deal);
  if (sealed.verdict === "mismatch") {
    process.stderr.write(`replay: ${record.id ?? source}: ${sealed.reason}\n`);
    return DOES_NOT_REPLAY;
  }
  process.stdout.write(
    `verified: the engine reproduces all ${record.actions.length} actions, their events and the result\n`,
  );
  process.stdout.write(
    sealed.verdict === "verified"
      ? `deal verified: the seed ${sealed.seed} matches its commitment ${sealed.commitment}, and the deal follows from the seed\n`
      : "no commitment recorded: the deal cannot be checked against one\n",
  );
  return EXIT_DONE;
}

main(process.argv).then(
  (status) => process.exit(status),
  (error: unknown) => {
    process.stderr.write(`replay: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(NOT_FOUND);
  },
);
