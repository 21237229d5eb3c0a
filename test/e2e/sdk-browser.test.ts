/**
 * The SDK's browser build in a real browser (headless Chromium, where the machine has one): the page imports the
 * bundle, plays an Even-Steven game against a real server to its verdict, lists the rooms, and meets CONNECTION
 * from a server that is not there. Without Chromium the test is skipped; the bundle's freedom from Node built-ins
 * is proven by sdk-package.test.ts regardless.
 */
import { spawn, spawnSync } from "child_process";
import { copyFileSync, createReadStream, mkdtempSync, rmSync } from "fs";
import { createServer, type Server } from "http";
import { tmpdir } from "os";
import * as path from "path";
import { finished, freePort, ServerProcess } from "./server-process";

const ROOT = path.resolve(__dirname, "..", "..");
const NODE = path.join(ROOT, "node_modules", ".bin", "node");
const FIXTURES = path.join(ROOT, "test", "fixtures", "sdk-package");
const CHROMIUM = ["chromium", "chromium-browser", "google-chrome"].find((name) => spawnSync("which", [name]).status === 0);

/** Serves the page and the bundle (nothing else) from `folder`. */
function servePage(folder: string, port: number): Promise<Server> {
  const files: Record<string, [string, string]> = {
    "/": ["browser-page.html", "text/html"],
    "/browser.mjs": ["browser.mjs", "text/javascript"],
  };
  const server = createServer((request, response) => {
    const file = files[new URL(request.url ?? "/", "http://localhost").pathname];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": file[1] });
    createReadStream(path.join(folder, file[0])).pipe(response);
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

(CHROMIUM ? describe : describe.skip)("the SDK's browser build in headless Chromium", () => {
  let folder: string;
  let cardhall: ServerProcess;
  let page: Server;
  let pagePort: number;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), "cardhall-browser-"));
    const build = spawnSync(NODE, [path.join(ROOT, "packages", "sdk", "build.mjs"), path.join(folder, "sdk")], { encoding: "utf8", timeout: 120_000 });
    if (build.status !== 0) throw new Error(`the SDK build failed: ${build.stderr}`);
    copyFileSync(path.join(folder, "sdk", "browser.mjs"), path.join(folder, "browser.mjs"));
    copyFileSync(path.join(FIXTURES, "browser-page.html"), path.join(folder, "browser-page.html"));
    cardhall = new ServerProcess(await freePort());
    await cardhall.start();
    pagePort = await freePort();
    page = await servePage(folder, pagePort);
  }, 180_000);

  afterAll(async () => {
    await cardhall?.stop();
    await new Promise((resolve) => (page ? page.close(resolve) : resolve(undefined)));
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it("plays a game to its verdict, lists the rooms and reports CONNECTION for a server that is not there", async () => {
    const debuggingPort = await freePort();
    const url = `http://127.0.0.1:${pagePort}/?server=${encodeURIComponent(cardhall.url)}`;
    const browser = spawn(CHROMIUM!, ["--headless", "--no-sandbox", "--disable-gpu", `--remote-debugging-port=${debuggingPort}`, `--user-data-dir=${path.join(folder, "profile")}`, url], {
      stdio: "ignore",
      detached: true,
    });
    try {
      const { status, stdout, stderr } = await finished(spawn(NODE, [path.join(FIXTURES, "read-page.js"), String(debuggingPort)], { stdio: ["ignore", "pipe", "pipe"] }));
      expect(stderr).toBe("");
      expect(status).toBe(0);
      const [userAgent, ...lines] = stdout.split("\n");
      expect(userAgent).toMatch(/HeadlessChrome/);
      expect(lines.join("\n")).toMatch(/^game over: (WIN|LOSE NECESSARILY|LOSE UNNECESSARILY)\nrooms listed: true\nno server: CONNECTION\ndone\n$/);
    } finally {
      process.kill(-browser.pid!, "SIGKILL"); // the browser and every process it started
    }
  }, 60_000);
});
