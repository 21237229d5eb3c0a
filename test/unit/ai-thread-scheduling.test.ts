import * as path from "node:path";
import { Worker } from "node:worker_threads";
import {
  aiThreadSchedulingFromEnvironment,
  DEFAULT_AI_THREAD_SCHEDULING,
  thisThreadPolicy,
} from "../../server/ai/ai-thread-scheduling";

/** The compiled modules (`npm test` builds first): a worker thread cannot load the TypeScript sources. */
const BUILT = path.join(__dirname, "..", "..", "dist", "server");

interface ThreadReport {
  policy: string | undefined;
  outcome?: unknown;
  /** The log lines the thread wrote (the server's JSON lines). */
  logs: Array<{ event: string; msg: string }>;
}

/** Runs `script` in a fresh worker thread with `env`, where `report(value)` answers with the thread's policy and log lines. */
function inThread(script: string, env: NodeJS.ProcessEnv): Promise<ThreadReport> {
  const code = `
    const { parentPort } = require("worker_threads");
    const logs = [];
    require(${JSON.stringify(path.join(BUILT, "..", "rooms", "kit", "log.js"))}).sendLogsTo({ write: (line) => logs.push(JSON.parse(line)) });
    const scheduling = require(${JSON.stringify(path.join(BUILT, "ai", "ai-thread-scheduling.js"))});
    const report = (value) => parentPort.postMessage({ policy: scheduling.thisThreadPolicy(), logs, ...value });
    ${script}
  `;
  const worker = new Worker(code, { eval: true, env });
  return new Promise((resolve, reject) => {
    worker.once("message", (value: ThreadReport) => void worker.terminate().then(() => resolve(value)));
    worker.once("error", reject);
  });
}

describe("how the AI threads are scheduled (AI_THREAD_SCHEDULING)", () => {
  test("read from the environment: batch unless set, normal when asked, a clear error for anything else", () => {
    expect(DEFAULT_AI_THREAD_SCHEDULING).toBe("batch");
    expect(aiThreadSchedulingFromEnvironment({})).toBe("batch");
    expect(aiThreadSchedulingFromEnvironment({ AI_THREAD_SCHEDULING: "" })).toBe("batch");
    expect(aiThreadSchedulingFromEnvironment({ AI_THREAD_SCHEDULING: "normal" })).toBe("normal");
    expect(() => aiThreadSchedulingFromEnvironment({ AI_THREAD_SCHEDULING: "fast" })).toThrow(
      'AI_THREAD_SCHEDULING must be "batch" (the AI threads never take a core from the main thread as they wake) or "normal", got "fast"',
    );
  });

  test("a thread scheduled as batch runs as batch, and the thread that started it does not", async () => {
    const thread = await inThread("report({ outcome: scheduling.scheduleThisThread('batch') });", process.env);
    expect(thread).toMatchObject({ policy: "batch", outcome: { policy: "batch" } });
    expect(thisThreadPolicy()).toBe("normal");
  });

  test.each([
    ["the Fool AI's", "fool-ai-worker.js"],
    ["the Tractor AI's", "tractor-ai-worker.js"],
  ])("%s worker thread takes the server's setting as it loads", async (_name, file) => {
    const load = `require(${JSON.stringify(path.join(BUILT, "ai", file))}); report({});`;
    expect((await inThread(load, { ...process.env, AI_THREAD_SCHEDULING: undefined })).policy).toBe("batch");
    expect((await inThread(load, { ...process.env, AI_THREAD_SCHEDULING: "normal" })).policy).toBe("normal");
  });

  test("without chrt the thread stays as the kernel likes, and says why once", async () => {
    // The refusal is logged once the log module has loaded (promptly, not in the same step): the report waits a turn.
    const load = `require(${JSON.stringify(path.join(BUILT, "ai", "fool-ai-worker.js"))}); setImmediate(() => report({}));`;
    const thread = await inThread(load, { PATH: "", AI_THREAD_SCHEDULING: "batch" });
    expect(thread.policy).toBe("normal");
    expect(thread.logs).toEqual([
      expect.objectContaining({
        event: "ai_thread_scheduling_refused",
        msg: expect.stringContaining("chrt could not run (ENOENT)"),
      }),
    ]);
  });
});
