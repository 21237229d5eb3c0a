/**
 * The head of every table: its title, the rules it plays by in a line, how many people watch, a link to the
 * game's rules page and the sound toggle.
 */
import { h } from "./dom";
import { soundToggle } from "./sound";

export interface TableHeader {
  element: HTMLElement;
  /** Redraws the facts line: the table's rules in words, and the spectators. */
  update(facts: { rules?: string; spectators: number }): void;
}

export function tableHeader(title: string, game: string): TableHeader {
  const facts = h("p", { class: "table-facts" });
  const element = h("header", { class: "table-header" },
    h("h1", { text: title }),
    h("nav", { class: "table-links", label: "About this table" }, h("a", { href: `/rules/${game}`, text: "Rules", attrs: { "data-link": "" } }), soundToggle()),
    facts,
  );
  return {
    element,
    update({ rules, spectators }) {
      const watching = spectators === 0 ? "nobody watching" : `${spectators} watching`;
      facts.textContent = [rules, watching].filter(Boolean).join(" · ");
    },
  };
}
