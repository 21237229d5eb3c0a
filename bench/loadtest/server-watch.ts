/** The server's side of a run: whether it answers, and its /metrics.json sampled every second while a phase runs. */
import type { ServerMetrics } from "../../server/telemetry/server-metrics";

function httpUrl(wsUrl: string): string {
  return wsUrl.replace(/^ws/, "http").replace(/\/$/, "");
}

/** The server's /metrics.json (or /metrics from a server built before /metrics became Prometheus's text). */
async function fetchMetrics(url: string): Promise<ServerMetrics | null> {
  for (const route of ["/metrics.json", "/metrics"]) {
    try {
      const response = await fetch(`${httpUrl(url)}${route}`);
      if (response.ok && response.headers.get("content-type")?.startsWith("application/json"))
        return (await response.json()) as ServerMetrics;
    } catch {
      return null;
    }
  }
  return null;
}

/** The longest the final sample waits for the server to have let every client go (its teardown). */
const TEARDOWN_WAIT_MS = 10_000;

/**
 * Samples the server's /metrics.json every second while a phase runs; the last sample once the server has no
 * clients left (or after TEARDOWN_WAIT_MS), so that its figures include the teardown: every client leaving at once.
 */
export function watchServer(url: string): { stop: () => Promise<ServerMetrics[]> } {
  const samples: ServerMetrics[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const metrics = await fetchMetrics(url);
      if (metrics) samples.push({ ...metrics, uptimeSeconds: Date.now() / 1000 });
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      const until = Date.now() + TEARDOWN_WAIT_MS;
      let last = await fetchMetrics(url);
      while (last && last.clients > 0 && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        last = await fetchMetrics(url);
      }
      if (last) samples.push({ ...last, uptimeSeconds: Date.now() / 1000 });
      return samples;
    },
  };
}

/** Throws, naming the address, when a server does not answer GET /health: a load test against nothing has failed. */
export async function answers(url: string): Promise<void> {
  try {
    const response = await fetch(`${httpUrl(url)}/health`);
    if (!response.ok) throw new Error(`GET /health answered ${response.status}`);
  } catch (error) {
    throw new Error(`cannot reach ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
