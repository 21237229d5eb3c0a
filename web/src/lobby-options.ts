/**
 * The table options the lobby offers next to each game's start buttons: a small "Table options" disclosure of plain
 * choices, each a `<select>` named by its label. The choices become the `/play/<game>?…` address, in the rooms'
 * join-option names (rooms/<game>/protocol.ts); the table modules read them from there. A choice left at its
 * default stays out of the address, so a start with no option changed opens `/play/<game>` as before, except
 * Tractor's rules, which are always said (tables people start play checked throws unless told otherwise).
 */
import { h } from "./dom";
import type { GameName } from "./games";

interface Choice {
  readonly text: string;
  readonly value: string;
}

interface TableOption {
  /** The join option's name in the room's protocol. */
  readonly name: string;
  readonly label: string;
  /** The first choice is the default. */
  readonly choices: readonly Choice[];
  /** Put in the address even at its default. */
  readonly always?: boolean;
  /** A line under the choice, saying what it means. */
  readonly hint?: string;
}

const seconds = (values: readonly number[], usual: number): Choice[] =>
  values.map((ms) => ({
    text: `${ms < 60_000 ? `${ms / 1000} seconds` : `${ms / 60_000} minute${ms === 60_000 ? "" : "s"}`}${ms === usual ? " (usual)" : ""}`,
    value: String(ms),
  }));

/** The usual first: the default of each option is its first choice. */
const usualFirst = (choices: Choice[], usual: string): Choice[] => [
  ...choices.filter((choice) => choice.value === usual),
  ...choices.filter((choice) => choice.value !== usual),
];

const CLOCK: TableOption = {
  name: "turnTimeMs",
  label: "Time for each move",
  choices: usualFirst(seconds([15_000, 30_000, 60_000, 180_000], 30_000), "30000"),
};

export const TABLE_OPTIONS: Record<GameName, readonly TableOption[]> = {
  tractor: [
    {
      name: "throws",
      label: "Rules",
      always: true,
      choices: [
        { text: "Checked throws (the usual rule)", value: "check-other-hands" },
        { text: "Every throw stands (the original problem)", value: "always-accept" },
      ],
      hint: "Checked: a throw another hand can beat fails, and the thrower's team pays 10 points.",
    },
    {
      name: "startRanks",
      label: "Starting ranks",
      choices: [
        { text: "Both teams at 2 (a whole match)", value: "2,2" },
        { text: "Both teams at 10 (a shorter match)", value: "10,10" },
        { text: "Both teams at Ace (a short match: the next team to go up wins)", value: "A,A" },
      ],
    },
    CLOCK,
    {
      name: "botLevel",
      label: "Computer players' level",
      choices: [
        { text: "Normal (plays by rules of thumb)", value: "normal" },
        { text: "Strong (weighs the cards it cannot see)", value: "strong" },
        { text: "Easy (now and then plays any card)", value: "easy" },
      ],
    },
    {
      name: "botDelayMs",
      label: "Computer players' speed",
      choices: [
        { text: "Normal (0.8 seconds a move)", value: "800" },
        { text: "Quick (0.3 seconds a move)", value: "300" },
        { text: "Slow (2 seconds a move)", value: "2000" },
      ],
    },
  ],
  fool: [
    {
      name: "ai",
      label: "Computer opponent",
      choices: [
        { text: "The AI (thinks ahead)", value: "ai" },
        { text: "The greedy player (lays the card that hurts most now)", value: "greedy" },
      ],
    },
    {
      name: "aiLevel",
      label: "The AI's level",
      choices: [
        { text: "Normal", value: "normal" },
        { text: "Strong (searches further)", value: "strong" },
        { text: "Easy (the greedy player)", value: "easy" },
      ],
    },
    CLOCK,
  ],
  evensteven: [
    {
      name: "n",
      label: "Cards in your hand",
      choices: usualFirst(
        Array.from({ length: 13 }, (_, index) => ({
          text: `${index + 1} card${index === 0 ? "" : "s"}${index + 1 === 7 ? " (usual)" : ""}`,
          value: String(index + 1),
        })),
        "7",
      ),
    },
  ],
  patience: [
    {
      name: "paceMs",
      label: "Dealing pace",
      choices: [
        { text: "Normal (half a second a step)", value: "500" },
        { text: "Quick (a tenth of a second a step)", value: "100" },
        { text: "Slow (1.5 seconds a step)", value: "1500" },
      ],
    },
  ],
};

/** A game's options: the disclosure to show, and the address a start button opens with the options chosen. */
export interface OptionsForm {
  readonly element: HTMLElement;
  withOptions(path: string): string;
}

export function optionsForm(game: GameName, title: string): OptionsForm {
  const options = TABLE_OPTIONS[game];
  const selects = options.map((option) => {
    const select = h(
      "select",
      { attrs: { id: `option-${game}-${option.name}`, name: option.name } },
      ...option.choices.map((choice) => h("option", { value: choice.value, text: choice.text })),
    );
    return { option, select };
  });
  const element = h(
    "details",
    { class: "table-options" },
    h("summary", { text: "Table options", label: `Table options for ${title}` }),
    ...selects.map(({ option, select }) => {
      const hint = option.hint
        ? h("span", { class: "option-hint", text: option.hint, attrs: { id: `${select.id}-hint` } })
        : null;
      if (hint) select.setAttribute("aria-describedby", hint.id);
      return h(
        "div",
        { class: "table-option" },
        h("label", { text: option.label, attrs: { for: select.id } }),
        select,
        hint,
      );
    }),
  );
  return {
    element,
    withOptions(path) {
      const [pathname, search = ""] = path.split("?");
      const query = new URLSearchParams(search);
      for (const { option, select } of selects) {
        if (option.always || select.value !== option.choices[0].value) query.set(option.name, select.value);
      }
      const text = query.toString().replace(/%2C/g, ",");
      return text ? `${pathname}?${text}` : pathname;
    },
  };
}
