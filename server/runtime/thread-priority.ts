/**
 * Lowering a process's scheduling priority (its nice value, 0 to 19), for work that should take the cores only when
 * the server leaves them: the load generator on the server's own machine. On Linux a nice value is each thread's own
 * (setpriority on a thread id), and a thread, or a process forked from it, starts with the nice value of the thread
 * that made it. Lowering is always allowed; a system that refuses (a container's seccomp policy) leaves it as it was.
 */
import * as fs from "node:fs";
import * as os from "node:os";

/**
 * Lowers every thread of this process (Node's own helpers included), and so whatever it starts after: on Linux
 * each thread in /proc/self/task, elsewhere the process. Returns the calling thread's nice value after: the one a
 * process it starts begins with, lower than asked when the system refused.
 */
export function lowerThisProcess(nice: number): number {
  if (process.platform !== "linux") setNice(0, nice);
  else for (const thread of fs.readdirSync("/proc/self/task")) setNice(Number(thread), nice);
  return os.getPriority();
}

function setNice(thread: number, nice: number): void {
  try {
    os.setPriority(thread, nice);
  } catch {
    // Refused (the caller sees it in the value it reads back), or a thread that has just ended.
  }
}
