/**
 * How the kernel schedules the AI's worker threads against the main thread.
 *
 * The main thread hands a decision to an AI thread that sleeps while it has none: the hand-over wakes it. On Linux a
 * thread that slept is owed CPU time, so the woken AI thread takes the core from the thread that woke it, and the
 * main thread, with every room's messages waiting behind it, waits for a core while a decision it did not need to
 * watch begins. At 8,000 clients on two cores that wait was 3% of the main thread's time, which a profile counts in
 * piscina's hand-over. Linux's batch policy (SCHED_BATCH) is made
 * for such work: its threads get their fair share of the cores as before, but never take a core from the thread
 * running there when they wake. The AI's answers are bounded by their own clocks (server/ai/ai-admission.ts), not by
 * the scheduler, so nothing else changes for them.
 *
 * `AI_THREAD_SCHEDULING`: `batch` (the default) or `normal` (the kernel's default policy). The policy is set by
 * util-linux's `chrt`, which every Debian system has; where it is missing, or on another system, the thread stays as
 * it was and says so once.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { isMainThread } from "node:worker_threads";

export const AI_THREAD_SCHEDULINGS = ["batch", "normal"] as const;
export type AiThreadScheduling = (typeof AI_THREAD_SCHEDULINGS)[number];
export const DEFAULT_AI_THREAD_SCHEDULING: AiThreadScheduling = "batch";

/** The scheduling `AI_THREAD_SCHEDULING` asks for, or an error naming it. */
export function aiThreadSchedulingFromEnvironment(env: NodeJS.ProcessEnv): AiThreadScheduling {
  const text = env.AI_THREAD_SCHEDULING;
  if (text === undefined || text === "") return DEFAULT_AI_THREAD_SCHEDULING;
  if (!(AI_THREAD_SCHEDULINGS as readonly string[]).includes(text)) {
    throw new Error(
      `AI_THREAD_SCHEDULING must be "batch" (the AI threads never take a core from the main thread as they wake) or "normal", got "${text}"`,
    );
  }
  return text as AiThreadScheduling;
}

/** Linux's scheduling policies by their number (sched.h), as /proc reports them. */
const POLICY_NAMES: Readonly<Record<number, string>> = {
  0: "normal",
  1: "fifo",
  2: "round-robin",
  3: "batch",
  5: "idle",
  6: "deadline",
};

/** The calling thread's kernel id (Linux), or undefined elsewhere. */
function thisThreadId(): string | undefined {
  try {
    return fs.readlinkSync("/proc/thread-self").split("/").pop();
  } catch {
    return undefined;
  }
}

/** The calling thread's scheduling policy ("normal", "batch"...), or undefined where the system does not say (not Linux). */
export function thisThreadPolicy(): string | undefined {
  try {
    const stat = fs.readFileSync("/proc/thread-self/stat", "utf8");
    // The command name (field 2) may hold spaces: the fields counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const policy = Number(fields[41 - 3]);
    return POLICY_NAMES[policy] ?? `policy ${policy}`;
  } catch {
    return undefined;
  }
}

/**
 * Gives the calling thread the scheduling asked for (a thread it starts later inherits it). Returns the thread's
 * policy after, or the reason it could not be set; never throws: a thread scheduled as the kernel likes still works.
 */
export function scheduleThisThread(scheduling: AiThreadScheduling): { policy: string } | { refused: string } {
  const thread = thisThreadId();
  if (thread === undefined) return { refused: "this system does not name its threads in /proc (not Linux)" };
  const policy = scheduling === "batch" ? "--batch" : "--other";
  const run = spawnSync("chrt", [policy, "--pid", "0", thread], { encoding: "utf8", timeout: 5_000 });
  if (run.error !== undefined)
    return { refused: `chrt could not run (${(run.error as NodeJS.ErrnoException).code ?? run.error.name})` };
  if (run.status !== 0) return { refused: `chrt refused (${run.stderr.trim() || `exit ${run.status}`})` };
  return { policy: thisThreadPolicy() ?? scheduling };
}

/**
 * What an AI worker thread does as it starts (server/ai/fool-ai-worker.ts, server/ai/tractor-ai-worker.ts): takes the
 * scheduling the server was started with (the main thread checked the setting; a thread that reads a wrong one
 * keeps the default). Nothing on the main thread, which imports the same modules to decide in-process, nor off Linux.
 * The log is loaded only to say a refusal: a thread that is scheduled loads no package (its memory is the AI's).
 */
export function scheduleAiThread(): void {
  if (isMainThread || process.platform !== "linux") return;
  let scheduling = DEFAULT_AI_THREAD_SCHEDULING;
  try {
    scheduling = aiThreadSchedulingFromEnvironment(process.env);
  } catch {
    // Refused at the server's start already: a thread never starts with it.
  }
  const outcome = scheduleThisThread(scheduling);
  if (!("refused" in outcome)) return;
  void import("../../rooms/kit/log").then(({ log }) => {
    log.warn(
      { event: "ai_thread_scheduling_refused", scheduling },
      `an AI thread could not be scheduled as ${scheduling} work: ${outcome.refused}; it runs as the kernel's default`,
    );
  });
}
