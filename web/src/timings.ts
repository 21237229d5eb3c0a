/**
 * The page's own timings, for the benchmark (bench/web.ts) to read: when the first table was drawn (a performance
 * mark, so its time counts from the page's opening) and how long each redraw after a state change took (the last
 * few thousand, so a page left open for hours does not grow).
 */
const KEPT = 5_000;

export interface PageTimings {
  updates: number[];
}

declare global {
  interface Window {
    cardhallTimings?: PageTimings;
  }
}

const timings: PageTimings = (window.cardhallTimings = { updates: [] });
let drawn = false;

/** Wraps a table's redraw: its first call marks "cardhall:first-table", every call's duration is kept. */
export function timed<A extends unknown[]>(redraw: (...args: A) => void): (...args: A) => void {
  return (...args: A) => {
    const started = performance.now();
    redraw(...args);
    if (!drawn) {
      drawn = true;
      performance.mark("cardhall:first-table");
    }
    timings.updates.push(performance.now() - started);
    if (timings.updates.length > KEPT) timings.updates.splice(0, timings.updates.length - KEPT);
  };
}
