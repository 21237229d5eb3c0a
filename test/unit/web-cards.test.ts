/** The web page's card names: every game's notation read the same way, the notation first, then words. */
import { cardFace, cardName } from "../../web/src/cards";

describe("the web page's card names", () => {
  it.each([
    ["QS", "QS, queen of spades"], // Fool, Patience
    ["TD", "TD, ten of diamonds"],
    ["*", "*, joker"],
    ["10s", "10s, ten of spades"], // Even-Steven
    ["Jh", "Jh, jack of hearts"],
    ["H5", "H5, five of hearts"], // Tractor
    ["CA", "CA, ace of clubs"],
    ["BJ", "BJ, black joker"],
    ["RJ", "RJ, red joker"],
  ])("names %s as %s", (code, name) => {
    expect(cardName(code)).toBe(name);
  });

  it("colours hearts, diamonds and the red joker red", () => {
    expect(["H5", "7D", "Jh", "RJ"].map((code) => cardFace(code).red)).toEqual([true, true, true, true]);
    expect(["S5", "7C", "Js", "BJ", "*"].map((code) => cardFace(code).red)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
