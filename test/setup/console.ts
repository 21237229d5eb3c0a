import { format } from "node:util";
import { sendLogsTo } from "../../rooms/kit/log";

/**
 * A passing test run is quiet. Everything written to the console while the tests run is held here instead of
 * printed; a test that expects output takes it with `takeConsole` (and asserts on it), and whatever is left over
 * when a test ends fails that test, printed in full so it can be traced.
 */
type Level = "log" | "info" | "warn" | "error" | "debug";
interface Line {
  level: Level;
  text: string;
}

const held: Line[] = [];

/** Announcements that carry no information, made once as a module is imported. */
const IMPORT_CHATTER: RegExp[] = [
  /optional \.env file not found/, // Colyseus' tools look for an optional .env file in every process
];

for (const level of ["log", "info", "warn", "error", "debug"] as const) {
  console[level] = (...args: unknown[]) => {
    const text = format(...args);
    if (!IMPORT_CHATTER.some((pattern) => pattern.test(text))) held.push({ level, text });
  };
}

/**
 * The server's log (pino's JSON lines) is held the same way, one held line per log line:
 * `<level> <message> <the line's other fields as JSON>`.
 */
const LOG_LEVELS: Record<string, Level> = {
  trace: "debug",
  debug: "debug",
  info: "info",
  warn: "warn",
  error: "error",
  fatal: "error",
};
sendLogsTo({
  write(line: string) {
    const { level, msg, time: _time, pid: _pid, ...fields } = JSON.parse(line) as Record<string, unknown>;
    held.push({
      level: LOG_LEVELS[String(level)] ?? "log",
      text: `${String(level)} ${String(msg)} ${JSON.stringify(fields)}`,
    });
  },
});

/** Removes and returns the held lines that match `pattern` (all of them, in order). */
export function takeConsole(pattern: RegExp): string[] {
  const taken: string[] = [];
  for (let index = held.length - 1; index >= 0; index--) {
    if (pattern.test(held[index].text)) taken.unshift(held.splice(index, 1)[0].text);
  }
  return taken;
}

function failOnLeftovers(when: string): void {
  const left = held.splice(0);
  if (left.length === 0) return;
  const listing = left.map((line) => `  console.${line.level}: ${line.text}`).join("\n");
  throw new Error(`unexpected console output ${when}:\n${listing}`);
}

afterEach(() => failOnLeftovers("during this test"));
afterAll(() => failOnLeftovers("after the last test of this file (its clean-up)"));
