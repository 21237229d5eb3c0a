import type { Room as ClientRoom } from "@colyseus/sdk";

/** Polls until `condition` holds; rejects after `timeoutMs` (a bound, never an assertion on speed). */
export async function waitUntil(condition: () => boolean, timeoutMs = 10_000, what = "condition"): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Everything one client received, decoded: every message (type and payload) and a snapshot of the decoded state
 * after every patch. Hidden-information tests search all of it.
 */
export class Received {
  readonly messages: Array<{ type: string | number; payload: unknown }> = [];
  readonly snapshots: unknown[] = [];

  constructor(room: ClientRoom) {
    room.onMessage("*", (type: string | number, payload: unknown) => this.messages.push({ type, payload }));
    const snapshot = () => this.snapshots.push(JSON.parse(JSON.stringify((room.state as { toJSON(): unknown }).toJSON())));
    if (room.state) snapshot();
    room.onStateChange(snapshot);
  }

  /** All of it as one JSON text, to search for values that must not be there. */
  text(): string {
    return JSON.stringify({ messages: this.messages, snapshots: this.snapshots });
  }

  /** The strings and numbers in everything received, as a set of whole tokens (so "Qs" does not match "Qsx"). */
  tokens(): Set<string> {
    const tokens = new Set<string>();
    const visit = (value: unknown): void => {
      if (typeof value === "string" || typeof value === "number") tokens.add(String(value));
      else if (Array.isArray(value)) value.forEach(visit);
      else if (value && typeof value === "object") Object.entries(value).forEach(([key, inner]) => (tokens.add(key), visit(inner)));
    };
    visit(this.messages);
    visit(this.snapshots);
    return tokens;
  }
}
