import { spawnSync } from "node:child_process";
import * as path from "node:path";

export const ROOT = path.resolve(__dirname, "..", "..");
/** The original statements' sample inputs and outputs, copied into the repository so the tests stand alone. */
export const SEEDS = path.resolve(ROOT, "test", "fixtures", "samples");

export interface Run {
  stdout: string;
  stderr: string;
  status: number | null;
}

/** Runs one of the project's bin/ programs (compiled by `npm test`'s build step) with the given stdin. */
export function runBin(name: string, args: readonly string[], input: string, timeoutMs = 60_000): Run {
  const result = spawnSync(path.join(ROOT, "bin", name), args, { input, encoding: "utf8", timeout: timeoutMs });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

export function fixture(name: string): string {
  return path.join(ROOT, "test", "fixtures", name);
}
