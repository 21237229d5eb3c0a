/** How a rated queue seats a group, with and without the house's bots (docs/arena.md, "House bots"). */
import { FOOL_HOUSE_BOTS, TRACTOR_HOUSE_BOTS } from "../../server/arena/house-bots";
import { nearestHouseBots, QUEUED_GAMES, type Entrant } from "../../server/arena/rated-queue";

const [fool, tractor] = QUEUED_GAMES;
const strongAi = FOOL_HOUSE_BOTS.find((bot) => bot.name === "AI (ai, strong)")!;

test("Fool between two players: a table for two, the better-rated in seat 0", () => {
  const table = fool.seat<string>([
    { rank: 12, player: "ann" },
    { rank: 3, player: "bea" },
  ]);
  expect(table).toEqual({
    tableOptions: { mode: "two-players" },
    seats: [
      { player: "ann", options: { seat: 0 } },
      { player: "bea", options: { seat: 1 } },
    ],
  });
});

test("Fool against the house: the AI's seat at its level, the player in the other, the AI at a bot's pace", () => {
  const table = fool.seat<string>([
    { rank: 20, house: strongAi },
    { rank: 3, player: "bea" },
  ]);
  expect(table).toEqual({
    tableOptions: { mode: "vs-ai", ai: "ai", aiLevel: "strong", aiDelayMs: 0, seat: 1 },
    seats: [{ player: "bea", options: { seat: 1 } }],
  });
});

test("Tractor with one player: the best and the weakest are partners, the missing seats are house bots at their levels", () => {
  const [easy, normal, strong] = TRACTOR_HOUSE_BOTS;
  const bestFirst: Array<Entrant<string>> = [
    { rank: 30, house: strong },
    { rank: 20, player: "cy" },
    { rank: 10, house: normal },
    { rank: 5, house: easy },
  ];
  const table = tractor.seat(bestFirst);
  expect(table.seats).toEqual([{ player: "cy", options: { seat: "Bob" } }]);
  expect(table.tableOptions).toEqual({
    bots: ["Alice", "David", "Charles"],
    botLevels: { Alice: "strong", David: "normal", Charles: "easy" },
  });
});

test("the house bots chosen are the nearest to the group's rank, each a different one", () => {
  const rated = TRACTOR_HOUSE_BOTS.map((bot, index) => ({ bot, rank: 1000 + 10 * index }));
  expect(nearestHouseBots(rated, 1019, 2).map(({ bot }) => bot.level)).toEqual(["strong", "normal"]);
  expect(nearestHouseBots(rated, 900, 3).map(({ bot }) => bot.level)).toEqual(["easy", "normal", "strong"]);
});
