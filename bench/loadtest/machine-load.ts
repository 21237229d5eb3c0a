/** The whole machine's load over a window (Linux's /proc/stat): how busy its cores were, and what the hypervisor took. */
import { readFileSync } from "node:fs";

export interface MachineLoad {
  busyPercent: number;
  /** CPU time stolen by the hypervisor for other guests: when it is high, every latency here is inflated. */
  stealPercent: number;
  /** The most stolen in any one second: theft comes in bursts that the average hides, and a burst makes a p99. */
  stealWorstSecondPercent: number;
  /** The seconds in which the hypervisor took more than STEAL_BURST_PERCENT. */
  stealBurstSeconds: number;
}

/** A second in which the hypervisor took more than this share of the CPU counts as a burst of theft. */
export const STEAL_BURST_PERCENT = 10;

export interface CpuTicks {
  busy: number;
  idle: number;
  steal: number;
}

/** The machine's CPU counters since boot, from /proc/stat's first line; null where there is no /proc. */
function readCpuTicks(): CpuTicks | null {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
      .split("\n")[0]
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal: steal ?? 0 };
  } catch {
    return null;
  }
}

/** The machine's load between two moments (ms since the epoch), read every second in between. */
export async function machineLoadDuring(from: number, until: number): Promise<MachineLoad | null> {
  const at = (time: number) =>
    new Promise<CpuTicks | null>((resolve) =>
      setTimeout(() => resolve(readCpuTicks()), Math.max(0, time - Date.now())),
    );
  const readings = [await at(from)];
  for (let second = from + 1000; second < until; second += 1000) readings.push(await at(second));
  readings.push(await at(until));
  return machineLoadOver(readings);
}

/** The load over consecutive readings of the CPU counters, with the worst second of theft. */
export function machineLoadOver(readings: readonly (CpuTicks | null)[]): MachineLoad | null {
  if (readings.length < 2 || readings.some((reading) => reading === null)) return null;
  const ticks = readings as CpuTicks[];
  const whole = shares(ticks[0]!, ticks[ticks.length - 1]!);
  if (!whole) return null;
  const stolenPerSecond = ticks.slice(1).flatMap((after, index) => shares(ticks[index]!, after)?.stealPercent ?? []);
  return {
    ...whole,
    stealWorstSecondPercent: Math.max(0, ...stolenPerSecond),
    stealBurstSeconds: stolenPerSecond.filter((percent) => percent > STEAL_BURST_PERCENT).length,
  };
}

function shares(before: CpuTicks, after: CpuTicks): Pick<MachineLoad, "busyPercent" | "stealPercent"> | null {
  const busy = after.busy - before.busy;
  const steal = after.steal - before.steal;
  const total = busy + steal + (after.idle - before.idle);
  if (total <= 0) return null;
  const percent = (ticks: number) => Math.round((ticks / total) * 1000) / 10;
  return { busyPercent: percent(busy), stealPercent: percent(steal) };
}
