/** What every table shows the same way: a seat (name, who holds it, cards held, whose turn) and the turn clock. */
import { h } from "./dom";

/**
 * Who holds a seat, as the person looking at the table should read it: "You" is only ever one's own seat; a
 * program the room runs is "Computer" (with its level when the table has levels); an open seat says so.
 */
export type Holder =
  | { kind: "you" }
  | { kind: "person"; name: string }
  | { kind: "computer"; level?: string }
  | { kind: "open" };

export function holderWords(holder: Holder): string {
  switch (holder.kind) {
    case "you":
      return "You";
    case "person":
      return holder.name || "A guest";
    case "computer":
      return holder.level ? `Computer (${holder.level})` : "Computer";
    case "open":
      return "Open seat";
  }
}

export interface SeatInfo {
  /** The seat's own name (Tractor's Alice … David; Fool's and Even-Steven's seat carry the player's name). */
  name: string;
  holder: Holder;
  connected: boolean;
  cards: number;
  active: boolean;
  extra?: string;
}

/** A seat's heading: its name, and who holds it when that says more ("Alice · Computer", "Ann · You"). */
function seatTitle(seat: Pick<SeatInfo, "name" | "holder">): string {
  const who = holderWords(seat.holder);
  // A seat named as its holder reads once: "Computer", "Computer (easy)", not "Computer · Computer".
  if (who === seat.name || who.startsWith(`${seat.name} (`)) return who;
  return seat.holder.kind === "person" && seat.holder.name === seat.name ? seat.name : `${seat.name} · ${who}`;
}

export function seatView(seat: SeatInfo, children: Node[] = []): HTMLElement {
  const away = seat.connected ? "" : " (away)";
  const mine = seat.holder.kind === "you";
  return h(
    "section",
    {
      class: `seat${seat.active ? " active" : ""}${mine ? " mine" : ""}`,
      label: `${seat.name}${seat.active ? (mine ? ", your turn" : ", to play") : ""}`,
    },
    h("div", { class: "seat-name", text: `${seatTitle(seat)}${away}` }),
    h("div", {
      class: "seat-count",
      text: `${seat.cards} card${seat.cards === 1 ? "" : "s"}${seat.extra ? ` · ${seat.extra}` : ""}`,
    }),
    ...children,
  );
}

/** Whose turn it is, in words: "Your turn" for oneself, "Bob to move" for anyone else. */
export function toMove(name: string, mine: boolean, verb = "to move"): string {
  return mine ? "Your turn" : `${name} ${verb}`;
}

/** The clock's owner in words: "Your time", "Bob's time". */
export function timeOf(name: string, mine: boolean): string {
  return mine ? "Your time" : `${name}'s time`;
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

/** A region for the room's refusals and the connection's troubles, read out when it changes. */
export function notice(): HTMLElement {
  return h("p", { class: "notice", role: "alert" });
}

/** A region for news that is not a refusal ("the clock played for you"), read out politely. */
export function news(): HTMLElement {
  return h("p", { class: "news", role: "status" });
}

export function say(region: HTMLElement, text: string): void {
  region.textContent = text;
}
