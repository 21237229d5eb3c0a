import { execFileSync } from "node:child_process";
import * as path from "node:path";

/** The compiled module (`npm test` builds first), loaded by the child processes below. */
const BUILT = path.join(__dirname, "..", "..", "dist", "server", "runtime", "thread-priority.js");

/**
 * Runs `body` in a fresh Node process (this one's priority is never touched) with `priority` the built module and
 * `niceOfEveryThread()` the nice value of each of its threads (/proc), and returns what the body printed, parsed.
 */
function inChild(body: string): unknown {
  const script = `
    const fs = require("fs");
    const priority = require(${JSON.stringify(BUILT)});
    const niceOf = (tid) => { const stat = fs.readFileSync("/proc/self/task/" + tid + "/stat", "utf8"); return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]); };
    const niceOfEveryThread = () => fs.readdirSync("/proc/self/task").map(niceOf);
    (async () => { ${body} })().then((value) => process.stdout.write(JSON.stringify(value)), (error) => { console.error(error); process.exit(1); });
  `;
  return JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
}

describe("a process's priority (Linux: a nice value is each thread's own)", () => {
  test("lowering the process lowers every one of its threads, and what it starts after", () => {
    // Five below where the test runs (a machine may run its tests lowered already): raising it back would be refused.
    const seen = inChild(`
      const before = niceOfEveryThread();
      const target = Math.min(19, niceOf(process.pid) + 5);
      const lowered = priority.lowerThisProcess(target);
      const child = Number(require("child_process").execFileSync(process.execPath, ["-e", "process.stdout.write(String(require('os').getPriority()))"], { encoding: "utf8" }));
      return { before, target, lowered, after: niceOfEveryThread(), child };
    `) as { before: number[]; target: number; lowered: number; after: number[]; child: number };
    expect(seen.before.length).toBeGreaterThan(1); // Node's own helper threads are there to be lowered too
    expect(new Set(seen.before)).not.toContain(seen.target);
    expect(seen.lowered).toBe(seen.target); // the value it reports is the one it set
    expect(new Set(seen.after)).toEqual(new Set([seen.target]));
    expect(seen.child).toBe(seen.target);
  });

  test("a system that refuses leaves the process as it was, and says so in the value it reads back", () => {
    const seen = inChild(`
      const before = niceOf(process.pid);
      require("os").setPriority = () => { throw Object.assign(new Error("operation not permitted"), { code: "EPERM" }); };
      return { before, reported: priority.lowerThisProcess(Math.min(19, before + 5)), after: niceOf(process.pid) };
    `) as { before: number; reported: number; after: number };
    expect(seen.after).toBe(seen.before);
    expect(seen.reported).toBe(seen.before);
  });
});
