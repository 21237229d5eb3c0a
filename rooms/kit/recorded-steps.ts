/**
 * A match's steps, kept for its record until the game (or round) ends. Each step is held as its JSON text, not as
 * the objects the engine made: a step's events and their payloads are a dozen small objects that would otherwise
 * live for the whole game, be promoted to V8's old generation and be marked by every major GC, at about 6.6 KB a
 * table in the load test's mix (BENCHMARKS.md, "A match's steps kept as text"). The record is stored as JSON, so a
 * step read back is what the store would give back: nothing the record keeps is lost by the round trip.
 */
import type { RecordedStep } from "./record";

export class RecordedSteps<Step extends RecordedStep = RecordedStep> {
  private readonly texts: string[] = [];

  push(step: Step): void {
    this.texts.push(JSON.stringify(step));
  }

  get length(): number {
    return this.texts.length;
  }

  /** Every step so far, as new objects (a record of them is the caller's to keep). */
  read(): Step[] {
    return JSON.parse(`[${this.texts.join(",")}]`) as Step[];
  }
}
