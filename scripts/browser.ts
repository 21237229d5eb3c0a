/**
 * Headless Chromium (Debian's) driven by playwright-core: what the page's screenshots script, its benchmark and
 * its tests share; and how those scripts run.
 */
import { spawnSync } from "node:child_process";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (file) => spawnSync(file, ["--version"]).status === 0,
);

/** The flags that work on this project's machines (root, no GPU, nothing fetched from elsewhere). */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Starts the browser with a fresh profile of its own (playwright makes it, and removes it on `close()`). */
export function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM) throw new Error("no chromium here: install Debian's (apt-get install -y chromium)");
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}

/** Runs a script's `main` and exits: 0 when it resolves, 1 with its error's stack on stderr when it fails. */
export function runScript(name: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${name} failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
