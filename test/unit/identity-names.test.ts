import fc from "fast-check";
import { HOUSE_BOTS, isHouseName } from "../../server/arena/house-bots";
import { houseBotLevelWords } from "../../rooms/house-bots";
import { nameKey, nameProblem } from "../../server/identity/names";

describe("registered names", () => {
  test.each(["Al", "Deep Blue", "bot-7", "a.b_c", "Z".repeat(24)])("%s may be registered", (name) => {
    expect(nameProblem(name)).toBeNull();
  });

  test.each([
    ["A", /2 to 24/],
    ["Z".repeat(25), /2 to 24/],
    [" Ann", /ASCII/],
    ["Ann ", /ASCII/],
    ["Ann  Lee", /ASCII/],
    ["Аnn", /ASCII/], // a Cyrillic А
    ["Ann\u200d", /ASCII/],
    ["42", /one letter/],
  ])("%j may not: %s", (name, reason) => {
    expect(nameProblem(name)).toMatch(reason);
  });

  test("names that differ only by case, separators or digits that pass for letters are one name", () => {
    const same = ["Deep Blue", "deep-blue", "DEEPBLUE", "Deep_B1ue", "deep.blue", "DeepBIue"];
    expect(new Set(same.map(nameKey)).size).toBe(1);
    expect(nameKey("Deep Green")).not.toBe(nameKey("Deep Blue"));
    expect(nameKey("B0B")).toBe(nameKey("bob"));
    expect(nameKey("5am")).toBe(nameKey("Sam"));
  });

  test("a key is the rule's, character by character, for any string (against a reference made of one step a character)", () => {
    const LOOK_ALIKES: Record<string, string> = { "0": "o", "1": "l", i: "l", "5": "s" };
    const reference = (name: string) =>
      [...name.normalize("NFKC").toLowerCase()]
        .filter((character) => !/[\s._-]/.test(character))
        .map((character) => LOOK_ALIKES[character] ?? character)
        .join("");
    const characters = fc.constantFrom(..."aAiIlL015sS oO._-\t\u00a0\u2003\u3000ＡＢ１\u0130Аé\u200d😀");
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: characters, maxLength: 30 }),
          fc.string({ unit: "grapheme", maxLength: 30 }),
          fc.string({ maxLength: 30 }),
        ),
        (name) => {
          expect(nameKey(name)).toBe(reference(name));
        },
      ),
      { numRuns: 3000 },
    );
  });

  test("a look-alike from another script has a key of its own, and cannot be registered anyway", () => {
    expect(nameKey("Аnn")).not.toBe(nameKey("Ann"));
    expect(nameProblem("Аnn")).not.toBeNull();
  });
});

describe("the house's names", () => {
  test("every house bot's name is the house's, and so is a registrable name that reads as one", () => {
    expect(HOUSE_BOTS.map((bot) => bot.name)).toEqual([
      "AI (random)",
      "AI (greedy)",
      "AI (ai)",
      "AI (ai, strong)",
      "Bot (easy)",
      "Bot (normal)",
      "Bot (strong)",
    ]);
    for (const { name } of HOUSE_BOTS) expect(isHouseName(name)).toBe(true);
    for (const name of ["AI ai strong", "ai-greedy", "Bot normal", "B0T Strong"]) expect(isHouseName(name)).toBe(true);
  });

  test("names near the house's but not the same stay free", () => {
    for (const name of ["AI", "Bot", "AI greedy bot", "Botany", "Strong Bot"]) expect(isHouseName(name)).toBe(false);
  });
});

test("each house bot has its own level in words within its game, as the page shows it", () => {
  for (const game of ["fool", "tractor"] as const) {
    const words = HOUSE_BOTS.filter((bot) => bot.game === game).map(houseBotLevelWords);
    expect(new Set(words).size).toBe(words.length);
  }
  expect(HOUSE_BOTS.filter((bot) => bot.game === "fool").map(houseBotLevelWords)).toEqual([
    "random moves",
    "easy",
    "normal",
    "strong",
  ]);
});
