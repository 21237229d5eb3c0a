/**
 * V8's garbage collections, counted from the first time they are asked for, and the heap each major collection
 * left: what the process holds live, as close as a running server can tell without a heap snapshot. The heap's size
 * otherwise says little about the tables: V8 lets it grow to up to four times what is live before it collects the
 * old generation again (at 3,000 clients, 516 MB used over 130 MB live), so a figure read at any other moment is
 * mostly garbage.
 */
import { constants, PerformanceObserver, type PerformanceEntry } from "node:perf_hooks";
import { getHeapStatistics } from "node:v8";
import { matchMaker } from "@colyseus/core";

/** The heap a major collection left, and the tables open then. */
export interface HeapAfterMajor {
  /** V8's heap in use just after the collection (read as its report arrives, a turn of the event loop later). */
  heapBytes: number;
  rooms: number;
}

/** How many collections of each kind, their pauses' total in ms (a major one's marking before it is not in it), and the heap the last major one left. */
export interface GcCounts {
  major: number;
  majorMs: number;
  minor: number;
  minorMs: number;
  lastMajor: HeapAfterMajor | null;
}

/** A "gc" performance entry's kind, as Node gives it in the entry's detail: major, minor, or another (incremental, weak callbacks). */
export function collectionKind(entry: PerformanceEntry): "major" | "minor" | null {
  const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
  if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) return "major";
  return kind === constants.NODE_PERFORMANCE_GC_MINOR ? "minor" : null;
}

let counts: GcCounts | null = null;

/** The counts, observed from the first call on (the same object every call, updated as collections are reported). */
export function garbageCollections(): GcCounts {
  if (counts !== null) return counts;
  const observed: GcCounts = { major: 0, majorMs: 0, minor: 0, minorMs: 0, lastMajor: null };
  new PerformanceObserver((list) => {
    let sawMajor = false;
    for (const entry of list.getEntries()) {
      const kind = collectionKind(entry);
      if (kind === "major") {
        observed.major++;
        observed.majorMs += entry.duration;
        sawMajor = true;
      } else if (kind === "minor") {
        observed.minor++;
        observed.minorMs += entry.duration;
      }
    }
    // What the program allocated since the collection (a few milliseconds' worth) is counted too: close enough.
    if (sawMajor)
      observed.lastMajor = { heapBytes: getHeapStatistics().used_heap_size, rooms: matchMaker.stats.local.roomCount };
  }).observe({ entryTypes: ["gc"] });
  counts = observed;
  return observed;
}

/** The counts as /metrics.json gives them: pauses in whole milliseconds. */
export function roundedGarbageCollections({ major, majorMs, minor, minorMs, lastMajor }: GcCounts): GcCounts {
  return {
    major,
    majorMs: Math.round(majorMs),
    minor,
    minorMs: Math.round(minorMs),
    lastMajor: lastMajor === null ? null : { ...lastMajor },
  };
}
