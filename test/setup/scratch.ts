import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/**
 * Scratch directories for a test file's files (a worker module, a report, a database), removed when the file's tests
 * end, whether they passed or not: a run of the suite leaves nothing in the system's temporary directory.
 */
const made: string[] = [];

/** A new, empty directory under the system's temporary directory, named from `prefix`, removed after this file's tests. */
export function scratchDirectory(prefix: string): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(directory);
  return directory;
}

afterAll(() => {
  for (const directory of made.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
});
