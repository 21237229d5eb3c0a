/** What every table shows the same way: a seat (name, who holds it, cards held, whose turn) and the turn clock. */
import { h } from "./dom";

export interface SeatInfo {
  name: string;
  /** "you", "bot", "AI", "open", or a person's name. */
  holder: string;
  connected: boolean;
  cards: number;
  active: boolean;
  extra?: string;
}

export function seatView(seat: SeatInfo, children: Node[] = []): HTMLElement {
  const status = seat.connected ? "" : " (away)";
  return h(
    "section",
    { class: `seat${seat.active ? " active" : ""}`, label: `${seat.name}${seat.active ? ", to play" : ""}` },
    h("div", { class: "seat-name", text: `${seat.name}${seat.holder && seat.holder !== seat.name ? ` · ${seat.holder}` : ""}${status}` }),
    h("div", { class: "seat-count", text: `${seat.cards} card${seat.cards === 1 ? "" : "s"}${seat.extra ? ` · ${seat.extra}` : ""}` }),
    ...children,
  );
}

/**
 * The visible turn clock: the seconds left until `deadline` (ms since the epoch), counting down on its own.
 * One ticking timer for the page, shared by every clock drawn.
 */
export function turnClock(deadline: number, whose: string): HTMLElement {
  const clock = h("div", { class: "clock", role: "timer", label: "Turn clock" });
  clock.dataset.deadline = String(deadline);
  clock.dataset.whose = whose;
  paintClock(clock);
  ensureTicking();
  return clock;
}

function paintClock(clock: HTMLElement): void {
  const deadline = Number(clock.dataset.deadline);
  if (!deadline) {
    clock.textContent = "";
    clock.hidden = true;
    return;
  }
  clock.hidden = false;
  const seconds = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  clock.textContent = `${clock.dataset.whose}: ${seconds} s`;
  clock.classList.toggle("urgent", seconds <= 5);
}

let ticking = false;
function ensureTicking(): void {
  if (ticking) return;
  ticking = true;
  setInterval(() => document.querySelectorAll<HTMLElement>(".clock").forEach(paintClock), 250);
}

/** A region for the room's refusals and the connection's news, read out when it changes. */
export function notice(): HTMLElement {
  return h("p", { class: "notice", role: "alert" });
}

export function say(region: HTMLElement, text: string): void {
  region.textContent = text;
}
