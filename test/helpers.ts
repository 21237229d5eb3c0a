import * as fs from "node:fs";
import * as path from "node:path";
import type { Room as ClientRoom } from "@colyseus/sdk";
import { CardhallError } from "../client-sdk/errors";
import { takeConsole } from "./setup/console";
import { scratchDirectory } from "./setup/scratch";

/**
 * Reads until `ready` says the value is what the test waits for (records are written in batches), and returns the
 * last value read: at most 100 reads, 100 ms apart (a bound, never an assertion on speed).
 */
export async function readUntil<T>(read: () => Promise<T>, ready: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let reads = 1; !ready(value) && reads < 100; reads++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

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
 * Waits for `count` console lines matching `pattern` and takes them (see test/setup/console.ts): libraries write
 * some of theirs a moment after the event that causes them.
 */
export async function expectConsole(pattern: RegExp, count = 1): Promise<string[]> {
  const taken: string[] = [];
  await waitUntil(
    () => (taken.push(...takeConsole(pattern)), taken.length >= count),
    5000,
    `console output ${pattern}`,
  );
  expect(taken).toHaveLength(count);
  return taken;
}

/**
 * Cuts a client's socket as a network failure would (no leave message). The SDK does not reconnect a room joined
 * less than five seconds ago by itself, and says so; that line is taken here.
 */
export async function dropConnection(client: ClientRoom): Promise<void> {
  (client.connection as unknown as { transport: { ws: { close: () => void } } }).transport.ws.close();
  await expectConsole(/Room has not been up for long enough for automatic reconnection/);
}

/**
 * A join the table refuses: the refusal comes in the HTTP matchmaking request, before any seat is reserved or any
 * socket opened, as a client error (4xx) with the table's reason.
 */
export async function expectRefused(join: Promise<unknown>, reason: RegExp | string): Promise<void> {
  const error: unknown = await join.then(
    () => undefined,
    (refusal: unknown) => refusal,
  );
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).toMatch(reason);
  const status = (error as { code?: unknown }).code;
  expect(typeof status === "number" && status >= 400 && status < 500).toBe(true);
}

/** The CardhallError an SDK call rejects with (the test fails if it resolves, or rejects with anything else). */
export async function sdkRefusal(call: Promise<unknown>): Promise<CardhallError> {
  const error = await call.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(CardhallError);
  return error as CardhallError;
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
    const snapshot = () =>
      this.snapshots.push(JSON.parse(JSON.stringify((room.state as { toJSON(): unknown }).toJSON())));
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
      else if (value && typeof value === "object")
        Object.entries(value).forEach(([key, inner]) => (tokens.add(key), visit(inner)));
    };
    visit(this.messages);
    visit(this.snapshots);
    return tokens;
  }
}

/**
 * A worker module for an AI thread pool (server/ai/fool-ai-pool.ts, server/ai/tractor-ai-pool.ts) whose `review` task
 * answers the thread's own resource limits, as Node gives them to the thread (worker_threads.resourceLimits).
 */
export function limitsReportingWorker(): string {
  const file = path.join(scratchDirectory("cardhall-limits-"), "limits-worker.js");
  fs.writeFileSync(
    file,
    `module.exports = function decide() {};\nmodule.exports.review = () => require("worker_threads").resourceLimits;\n`,
  );
  return file;
}

/**
 * Asks an AI thread pool (server/ai/fool-ai-pool.ts, server/ai/tractor-ai-pool.ts) to warm twice, waits for its warming
 * task, and checks that it ran once on the one thread it started.
 */
export async function expectWarmedOnce(threads: { warm(): void }): Promise<void> {
  threads.warm();
  threads.warm();
  const pool = (threads as unknown as { pool: { get(): { threads: unknown[]; completed: number } } }).pool.get();
  await waitUntil(() => pool.completed > 0, 30_000, "the warming task");
  expect(pool.completed).toBe(1);
  expect(pool.threads).toHaveLength(1);
}
