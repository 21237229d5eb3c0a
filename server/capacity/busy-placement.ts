/**
 * The busy guard in a cluster (server/capacity/busy-guard.ts). After each sample of its main thread, a process with a guard
 * says in Redis whether it is busy, and reads what the others said. A new table goes to a process that is not busy:
 * the one with the fewest rooms among them, Colyseus's own rule, which it follows among all the processes when every
 * one is busy. So a busy process refuses a new table only when no process of the cluster would take it. A process
 * without a guard never says it is busy: it takes tables like one that is not.
 */
import { matchMaker } from "@colyseus/core";
import { log } from "../../rooms/kit/log";
import type { BusyGuard } from "./busy-guard";

/** The presence's hash of each guarded process's word: "1" busy, "0" not. */
export const BUSY_PROCESSES_KEY = "cardhall:busy";

interface ProcessLoad {
  processId: string;
  roomCount: number;
}

/** The ids of the processes that said they are busy, among those the cluster lists as alive. */
async function busyProcesses(): Promise<{ processes: ProcessLoad[]; busy: Set<string> }> {
  const [processes, said] = await Promise.all([
    matchMaker.stats.fetchAll(),
    matchMaker.presence.hgetall(BUSY_PROCESSES_KEY),
  ]);
  const busy = new Set(processes.map((process) => process.processId).filter((id) => said?.[id] === "1"));
  return { processes, busy };
}

function fewestRooms(processes: readonly ProcessLoad[]): ProcessLoad | undefined {
  return [...processes].sort((first, second) => first.roomCount - second.roomCount)[0];
}

/** Colyseus's `selectProcessIdToCreateRoom`: the process with the fewest rooms among those not busy (among all when every one is). */
export async function placeNewTable(): Promise<string> {
  const { processes, busy } = await busyProcesses();
  const free = processes.filter((process) => !busy.has(process.processId));
  return fewestRooms(free.length > 0 ? free : processes)?.processId ?? matchMaker.processId;
}

/**
 * Has `guard` say after each sample whether this process is busy, and learn which others are and whether one of
 * them takes new tables. While Redis is away the guard judges alone (it refuses when this process is busy). Returns
 * what takes this process's word away, at shutdown.
 */
export function shareBusyInCluster(guard: BusyGuard): () => Promise<void> {
  let redisAway = false;
  guard.onSample(() => {
    void (async () => {
      try {
        await matchMaker.presence.hset(BUSY_PROCESSES_KEY, matchMaker.processId, guard.busy ? "1" : "0");
        const { processes, busy } = await busyProcesses();
        busy.delete(matchMaker.processId);
        guard.learnCluster(
          busy,
          processes.some((process) => process.processId !== matchMaker.processId && !busy.has(process.processId)),
        );
        redisAway = false;
      } catch (error) {
        guard.learnCluster(new Set(), false);
        if (!redisAway)
          log.warn(
            { event: "busy_share_failed" },
            `the busy guard cannot read the cluster's processes (${error instanceof Error ? error.message : String(error)}); it judges by this process alone`,
          );
        redisAway = true;
      }
    })();
  });
  return async () => {
    await matchMaker.presence.hdel(BUSY_PROCESSES_KEY, matchMaker.processId).catch(() => false);
  };
}
