/**
 * The tournament page in headless Chromium: two bots play a tournament of one deal (two games, the seats swapped)
 * through bin/tournament; /tournaments/<id> shows the standings with their 95% ranges in words and each game with a
 * link to its replay, which opens the replay page; at a phone's width nothing is wider than the screen.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { CHROMIUM, webSuite } from "./browser";
import { registerBot } from "./identities";
import { finished } from "./server-process";

const ROOT = path.resolve(__dirname, "..", "..");
const PLAYER = path.join(ROOT, "examples", "python", "fool_player.py");

(CHROMIUM ? describe : describe.skip)("the tournament page in Chromium", () => {
  const suite = webSuite();
  let id: string;

  beforeAll(async () => {
    const tokens = [
      await registerBot(suite.server.httpUrl, "Page Owner", "Left Bot"),
      await registerBot(suite.server.httpUrl, "Page Owner", "Right Bot"),
    ];
    const args = [
      "--server",
      suite.server.url,
      "--deals",
      "1",
      "--name",
      "A cup with a rather long name to wrap at a phone's width",
      "--entry",
      `Left Bot=python3 ${PLAYER} 1`,
      "--entry",
      `Right Bot=python3 ${PLAYER} 2`,
    ];
    const run = await finished(
      spawn(path.join(ROOT, "bin", "tournament"), args, {
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, CARDHALL_TOKEN_LEFT_BOT: tokens[0], CARDHALL_TOKEN_RIGHT_BOT: tokens[1] },
      }),
      120_000,
    );
    const found = /^tournament (\S+): /m.exec(run.stdout)?.[1];
    if (run.status !== 0 || found === undefined)
      throw new Error(`the tournament failed (${run.status}): ${run.stdout}\n${run.stderr}`);
    id = found;
  }, 150_000);

  test("the page shows the standings in words and links each game to its replay", async () => {
    const { page } = await suite.open(`/tournaments/${id}`);
    const standings = page.getByRole("list", { name: "Standings" });
    await standings.waitFor();
    const lines = await standings.getByRole("listitem").allTextContents();
    expect(lines).toHaveLength(2);
    for (const line of lines)
      expect(line).toMatch(
        /^(Left|Right) Bot \d(\.5)? points? in 2 games · [01]\.\d\d a game \(95% between [01]\.\d\d and [01]\.\d\d\)$/,
      );
    const replays = page.getByRole("link", { name: /^Replay of deal 1/ });
    expect(await replays.count()).toBe(2);
    await replays.first().click();
    await page.locator(".page h1", { hasText: /^Replay of Fool / }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/replay\/[0-9A-Za-z_-]+$/);
  });

  test("at a phone's width nothing is clipped", async () => {
    const { page } = await suite.open(`/tournaments/${id}`, { phone: true });
    await page.getByRole("list", { name: "Standings" }).waitFor();
    const [scrollWidth, clientWidth] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ]);
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  });
});
