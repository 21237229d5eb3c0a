/**
 * What a table sends the room, one message per control at a time: the control is disabled from the moment its
 * message is sent until the room answers (so a double click sends once), the last refusal is cleared by the
 * next action, and a refusal is said in words.
 */
import { inWords } from "./connection";
import { say } from "./seats";

export class Requests {
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly refusals: HTMLElement,
    private readonly changed: () => void,
  ) {}

  /** Whether the message of `control` (or, without one, any message) is on its way. */
  pending(control?: string): boolean {
    return control === undefined ? this.inFlight.size > 0 : this.inFlight.has(control);
  }

  /** Sends `request` for `control` unless it is already on its way; resolves true once the room accepted it. */
  send(control: string, request: () => Promise<unknown>): Promise<boolean> {
    if (this.inFlight.has(control)) return Promise.resolve(false);
    say(this.refusals, "");
    this.inFlight.add(control);
    this.changed();
    return request()
      .then(
        () => true,
        (error: unknown) => {
          say(this.refusals, inWords(error));
          return false;
        },
      )
      .finally(() => {
        this.inFlight.delete(control);
        this.changed();
      });
  }

  /** Clears the refusal line (a new game, a new turn). */
  clear(): void {
    say(this.refusals, "");
  }
}
