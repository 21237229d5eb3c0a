/**
 * Colyseus imports PM2's agent (@pm2/io) for its own two gauges, and the agent starts itself on import whatever runs
 * the server: its timers list every open handle of the process each second, twice (an array of every socket: 8,000
 * at 8,000 clients, 1% of the main thread under that load), and sample the event loop and V8 for
 * PM2 alone. Outside PM2 (which sets `pm_id` in its processes) it is stopped as the server starts; under PM2 it runs
 * as Colyseus meant. The server's own metrics are on /metrics.
 */
import pm2Agent from "@pm2/io";

/** Whether PM2 runs this process (its agent reports to PM2 only then). */
export function runByPm2(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.pm_id !== undefined;
}

/**
 * Stops the agent's timers and its listener for PM2's messages unless PM2 runs the process (its handler of uncaught
 * exceptions stays, as Colyseus's own do). Colyseus's later gauges are kept, untimed.
 */
export function stopPm2AgentOutsidePm2(env: NodeJS.ProcessEnv = process.env): boolean {
  if (runByPm2(env)) return false;
  pm2Agent.destroy();
  return true;
}
