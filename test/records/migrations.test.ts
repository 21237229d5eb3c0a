import { spawn } from "node:child_process";
import * as path from "node:path";
import { MIGRATIONS } from "../../server/records/schema";
import { scratchDirectory } from "../setup/scratch";

/** The compiled module (`npm test` builds first): each process below opens the database as a server does. */
const BUILT = path.join(__dirname, "..", "..", "dist", "server", "records", "database.js");

/**
 * Opens `file` in a process of its own, as a server starting does, at the time `startAt` (the processes' starts made
 * to meet, as a cluster's do); resolves with what it printed (ok and the migrations the file records, or why not).
 */
function openInProcess(file: string, startAt: number): Promise<string> {
  const script = `
    const { openDatabase } = require(${JSON.stringify(BUILT)});
    setTimeout(() => openDatabase({ file: ${JSON.stringify(file)} })
      .then(async ({ db }) => {
        const rows = await db.selectFrom("kysely_migration").select("name").execute();
        await db.destroy();
        process.stdout.write("ok " + rows.map((row) => row.name).join(","));
      })
      .catch((error) => process.stdout.write("failed: " + error.message)), ${startAt} - Date.now());
  `;
  const child = spawn(process.execPath, ["--disable-warning=ExperimentalWarning", "-e", script], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once("close", () => resolve(output)));
}

test("processes started together on a new SQLite file (bin/cluster) all start: one makes the tables, the others wait and find them made", async () => {
  const everyMigration = `ok ${Object.keys(MIGRATIONS).sort().join(",")}`;
  // Without the lock, three processes on a new file failed in most rounds ("table games already exists").
  for (let round = 0; round < 4; round++) {
    const file = path.join(scratchDirectory("cardhall-migrations-"), "records.sqlite");
    const startAt = Date.now() + 1_500; // once the three have loaded their modules
    const outcomes = await Promise.all([
      openInProcess(file, startAt),
      openInProcess(file, startAt),
      openInProcess(file, startAt),
    ]);
    expect(outcomes).toEqual([everyMigration, everyMigration, everyMigration]);
  }
});
