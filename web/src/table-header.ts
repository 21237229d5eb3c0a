/**
 * The head of every table: its title, the rules it plays by in a line, how many people watch, the seal of the deal
 * in play (docs/arena.md, "Checking a deal by hand"), a link to the game's rules page and the sound toggle.
 */
import type { DealSealView } from "../../rooms/kit/commitment";
import { h } from "./dom";
import { soundToggle } from "./sound";

export interface TableHeader {
  element: HTMLElement;
  /** Redraws the facts line: the table's rules in words, the spectators, and the deal's seal. */
  update(facts: { rules?: string; spectators: number; seal: DealSealView }): void;
}

/** How much of a commitment the header shows: enough to compare by eye; the whole one is its tooltip. */
const SHOWN_HEX_DIGITS = 8;

export function tableHeader(title: string, game: string): TableHeader {
  const facts = h("p", { class: "table-facts" });
  const seal = h("p", { class: "table-seal" });
  const element = h(
    "header",
    { class: "table-header" },
    h("h1", { text: title }),
    h(
      "nav",
      { class: "table-links", label: "About this table" },
      h("a", { href: `/rules/${game}`, text: "Rules", attrs: { "data-link": "" } }),
      soundToggle(),
    ),
    facts,
    seal,
  );
  return {
    element,
    update({ rules, spectators, seal: shown }) {
      const watching = spectators === 0 ? "nobody watching" : `${spectators} watching`;
      facts.textContent = [rules, watching].filter(Boolean).join(" · ");
      seal.textContent = sealWords(shown);
      seal.title =
        shown.commitment === ""
          ? ""
          : `The deal's commitment: SHA-256 of its seed and a secret salt, both revealed when the deal is over (${shown.commitment})`;
      seal.hidden = shown.commitment === "";
    },
  };
}

/** "Deal sealed: 3f9a1c2d…", and once that deal is over, its revealed seed. */
function sealWords(seal: DealSealView): string {
  if (seal.commitment === "") return "";
  const sealed = `Deal sealed: ${seal.commitment.slice(0, SHOWN_HEX_DIGITS)}…`;
  return seal.revealedCommitment === seal.commitment ? `${sealed} · revealed: seed ${seal.revealedSeed}` : sealed;
}
