/**
 * The rules pages in headless Chromium: /rules/<game> is served with the page for every game and shows that game's
 * rules in words (Tractor's with its table options: checked throws and their penalty, every throw stands, the
 * starting ranks, declaring trumps); the lobby links each; nothing in them is a protocol code.
 */
import { GAME_NAMES } from "../../rooms/games";
import { CHROMIUM, webSuite } from "./browser";

const TITLES: Record<string, string> = {
  evensteven: "Even-Steven",
  fool: "Fool",
  tractor: "Tractor",
  patience: "Patience",
};

(CHROMIUM ? describe : describe.skip)("the rules pages in Chromium", () => {
  const suite = webSuite();

  it("answers /rules/<game> with the page for every game", async () => {
    for (const game of GAME_NAMES) {
      const response = await fetch(`${suite.server.httpUrl}/rules/${game}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(/<main id="app"/);
    }
  });

  it("shows each game's rules in words", async () => {
    for (const game of GAME_NAMES.filter((name) => name in TITLES)) {
      const { page } = await suite.open(`/rules/${game}`);
      await page.getByRole("heading", { level: 1, name: `Rules of ${TITLES[game]}` }).waitFor();
      expect(await page.title()).toBe(`Rules of ${TITLES[game]} · cardhall`);
      const text = (await page.locator(".page").textContent()) ?? "";
      expect(text.length).toBeGreaterThan(800);
      expect(text).not.toMatch(/\b[A-Z]{2,}_[A-Z_]+\b|check-other-hands|always-accept|roundOver|matchOver|[{}]/);
      expect(await page.getByRole("link", { name: `Play ${TITLES[game]}` }).getAttribute("href")).toBe(`/play/${game}`);
    }
  }, 60_000);

  it("explains Tractor's table options", async () => {
    const { page } = await suite.open("/rules/tractor");
    await page.getByRole("heading", { name: "Throws: the two rules a table can play" }).waitFor();
    const text = (await page.locator(".page").textContent()) ?? "";
    for (const words of [
      "Checked throws",
      "10-point penalty",
      "Every throw stands",
      "Starting ranks",
      "declare its suit the trump suit",
      "pair of red jokers",
      "buries 8 cards",
      "past Ace",
    ])
      expect(text).toContain(words);
  });

  it("is linked from the lobby, and the links between rules pages go without a reload", async () => {
    const { page } = await suite.open("/");
    await page.getByRole("link", { name: "Rules of Tractor" }).click();
    await page.getByRole("heading", { level: 1, name: "Rules of Tractor" }).waitFor();
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await page.getByRole("link", { name: "Rules of Fool" }).click();
    await page.getByRole("heading", { level: 1, name: "Rules of Fool" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/rules/fool");
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await page.goto(`${suite.server.httpUrl}/rules/nogame`);
    await page.getByRole("alert").filter({ hasText: 'there is no game "nogame"' }).waitFor();
  });
});
