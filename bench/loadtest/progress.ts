/** The run's progress on stderr: a bar per phase on a terminal, a plain line now and then elsewhere. */
import { MultiBar, Presets } from "cli-progress";
import type { Counters } from "./messages";
import type { LoadTestOptions } from "./report-shape";

interface Progress {
  update: (label: string, counters: Counters, target: number) => void;
  stop: () => void;
}

/** How often the plain progress lines come when nobody watches a terminal. */
const PLAIN_PROGRESS_MS = 5_000;

/** A progress bar per phase on a terminal; elsewhere (a log, a pipe, CI) a plain line now and then, and at the end. */
export function progressReport(options: LoadTestOptions): Progress {
  if (options.quiet) return { update: () => undefined, stop: () => undefined };
  return process.stderr.isTTY ? progressBars() : progressLines();
}

function progressSummary(counters: Counters): string {
  return `${counters.moves} moves | ${counters.failed} failed | ${counters.errors} errors | ${counters.desyncs} desyncs`;
}

function progressBars(): Progress {
  const bars = new MultiBar(
    { format: "{label} |{bar}| {value}/{total} connected | {summary}", hideCursor: true },
    Presets.shades_classic,
  );
  const perLabel = new Map<string, ReturnType<MultiBar["create"]>>();
  return {
    update: (label, counters, target) => {
      let bar = perLabel.get(label);
      if (!bar) perLabel.set(label, (bar = bars.create(target, 0, { label })));
      bar.update(counters.connected, { label, summary: progressSummary(counters) });
    },
    stop: () => bars.stop(),
  };
}

function progressLines(): Progress {
  const lastWritten = new Map<string, number>();
  const latest = new Map<string, string>();
  const write = (line: string) => process.stderr.write(`${line}\n`);
  return {
    update: (label, counters, target) => {
      const line = `${label}: ${counters.connected}/${target} connected | ${progressSummary(counters)}`;
      latest.set(label, line);
      const now = Date.now();
      if (now - (lastWritten.get(label) ?? 0) < PLAIN_PROGRESS_MS) return;
      lastWritten.set(label, now);
      write(line);
    },
    stop: () => latest.forEach(write),
  };
}
