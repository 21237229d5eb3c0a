/**
 * The SDK as a bot author installs it: `npm run sdk:pack` makes the tarball where the README says, it is installed
 * into a project outside the repository (from the registry's cache, nothing else), a strict TypeScript bot is
 * type-checked there as an ES module and as CommonJS, the README's tour under `tsc --init`'s own settings too, and
 * both run against a real server to a game's end; the browser build loads with web APIs alone, and in a real
 * browser (headless Chromium, where the machine has one) the installed browser build plays an Even-Steven game
 * against the server to its verdict, lists the rooms, and meets CONNECTION from a server that is not there. The
 * package is built once, by the pack; without Chromium the browser's part is skipped.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { finished, freePort, ServerProcess, type Finished } from "./server-process";

const ROOT = path.resolve(__dirname, "..", "..");
const PACKAGE_DIR = path.join(ROOT, "packages", "sdk");
const NODE = path.join(ROOT, "node_modules", ".bin", "node");
const TSC = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
const FIXTURES = path.join(ROOT, "test", "fixtures", "sdk-package");
const BOT_SOURCE = path.join(FIXTURES, "bot.ts");
const CHROMIUM = ["chromium", "chromium-browser", "google-chrome"].find(
  (name) => spawnSync("which", [name]).status === 0,
);
/** Packing builds the package; installing may reach the registry for the two dependencies. */
const SETUP_TIMEOUT_MS = 240_000;
/** The tour plays an Even-Steven game, a Fool game against the AI, a Patience deal and a short Tractor match. */
const TOUR_TIMEOUT_MS = 120_000;

/** Runs a program to its end (killed after `timeoutMs`), with the repository's Node first on the PATH. */
function run(command: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<Finished> {
  const env = {
    ...process.env,
    PATH: `${path.join(ROOT, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`,
  };
  return finished(spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] }), timeoutMs);
}

async function succeed(command: string, args: string[], cwd: string): Promise<string> {
  const finished = await run(command, args, cwd);
  if (finished.status !== 0)
    throw new Error(`${command} ${args.join(" ")} exited ${finished.status}:\n${finished.stdout}\n${finished.stderr}`);
  return finished.stdout;
}

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

/** What this test reads of esbuild's metafile. */
interface BuildMeta {
  inputs: Record<string, unknown>;
  outputs: Record<string, { imports: unknown[] }>;
}

const STRICT_TSCONFIG = {
  compilerOptions: {
    strict: true,
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    outDir: "out",
    skipLibCheck: true,
    types: [],
  },
  include: ["*.mts", "*.cts"],
};

/** The package's version: the tarball is named after it. */
const VERSION = (JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8")) as { version: string })
  .version;

/** The README's TypeScript blocks, as written. */
function readmeBlocks(): string[] {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
}

/** The address the README's examples use; the test's server has its own. */
const README_SERVER = "ws://127.0.0.1:2567";

describe("the SDK package, installed outside the repository", () => {
  let workspace: string;
  let project: string;
  let server: ServerProcess;
  let compiled: Finished;
  let compiledUnderInit: Finished;
  /** Where `npm run sdk:pack` left its tarball, and the repository root's tarballs after it. */
  let packedAt: string;
  let tarballsAtRoot: string[];

  beforeAll(async () => {
    workspace = mkdtempSync(path.join(tmpdir(), "cardhall-sdk-"));
    // As the README says: `npm run sdk:pack` in the repository makes packages/sdk/cardhall-sdk-<version>.tgz.
    const expected = path.join(PACKAGE_DIR, `cardhall-sdk-${VERSION}.tgz`);
    rmSync(expected, { force: true });
    const packed = JSON.parse(await succeed("npm", ["run", "--silent", "sdk:pack", "--", "--json"], ROOT)) as Array<{
      filename: string;
    }>;
    packedAt = existsSync(expected) ? expected : path.join(ROOT, packed[0].filename);
    tarballsAtRoot = readdirSync(ROOT).filter((name) => name.endsWith(".tgz"));
    const tarball = path.join(workspace, path.basename(packedAt));
    copyFileSync(packedAt, tarball);
    rmSync(packedAt, { force: true });

    project = path.join(workspace, "bot");
    mkdirSync(project);
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "outside-bot", private: true }));
    await succeed("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], project);
    copyFileSync(BOT_SOURCE, path.join(project, "bot.mts"));
    copyFileSync(BOT_SOURCE, path.join(project, "bot.cts"));
    readmeBlocks().forEach((block, index) => writeFileSync(path.join(project, `readme-${index + 1}.mts`), block));
    writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify(STRICT_TSCONFIG));
    compiled = await run(NODE, [TSC, "-p", "tsconfig.json"], project);
    // The README's tour in a project of its own set up by `tsc --init` (TypeScript 5.9: noUncheckedIndexedAccess,
    // exactOptionalPropertyTypes, verbatimModuleSyntax...), the settings the README points a bot's project to.
    const initProject = path.join(project, "init");
    mkdirSync(initProject);
    await succeed(NODE, [TSC, "--init"], initProject);
    writeFileSync(
      path.join(initProject, "tour.mts"),
      readmeBlocks().find((block) => block.includes("new CardhallClient("))!,
    );
    compiledUnderInit = await run(NODE, [TSC, "-p", "tsconfig.json", "--noEmit"], initProject);

    server = new ServerProcess(await freePort());
    await server.start();
    // The README's examples, compiled as written, are run against this server.
    for (const [index] of readmeBlocks().entries()) {
      const file = path.join(project, "out", `readme-${index + 1}.mjs`);
      if (existsSync(file)) writeFileSync(file, readFileSync(file, "utf8").replaceAll(README_SERVER, server.url));
    }
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await server?.stop();
    if (workspace) rmSync(workspace, { recursive: true, force: true });
  });

  it("is packed by `npm run sdk:pack` at packages/sdk/cardhall-sdk-<version>.tgz, as the README says, and nowhere else", () => {
    expect(packedAt).toBe(path.join(PACKAGE_DIR, `cardhall-sdk-${VERSION}.tgz`));
    expect(tarballsAtRoot).toEqual([]);
  });

  it("type-checks the README's tour under `tsc --init`'s settings, as the README says a bot's project may use", () => {
    expect(compiledUnderInit.stdout + compiledUnderInit.stderr).toBe("");
    expect(compiledUnderInit.status).toBe(0);
  });

  it("depends on @colyseus/sdk and zod alone at run time", () => {
    const installed = JSON.parse(
      readFileSync(path.join(project, "node_modules", "@cardhall", "sdk", "package.json"), "utf8"),
    ) as { dependencies: Record<string, string> };
    expect(Object.keys(installed.dependencies).sort()).toEqual(["@colyseus/sdk", "zod"]);
  });

  it("type-checks a strict TypeScript bot, as an ES module and as CommonJS, and the README's TypeScript blocks, with the package's types", () => {
    expect(readmeBlocks().length).toBeGreaterThan(0);
    expect(compiled.stdout + compiled.stderr).toBe("");
    expect(compiled.status).toBe(0);
  });

  it.each(["bot.mjs", "bot.cjs"])("runs the compiled %s against a live server to the game's verdict", async (file) => {
    const finished = await run(NODE, [path.join("out", file), server.url], project);
    expect(finished.stderr).toBe("");
    expect(finished.stdout).toMatch(/^game over: (WIN|LOSE NECESSARILY|LOSE UNNECESSARILY)\nafter leaving: LEFT\n$/);
    expect(finished.status).toBe(0);
  });

  it(
    "runs the README's SDK tour to its end",
    async () => {
      const tour = readmeBlocks().findIndex((block) => block.includes("new CardhallClient("));
      const finished = await run(NODE, [path.join("out", `readme-${tour + 1}.mjs`)], project, TOUR_TIMEOUT_MS);
      expect(finished.stderr).toBe("");
      expect(finished.stdout).toMatch(/the first session: TAKEN_OVER\n/);
      // Ranks as people read them, as bin/bots prints them: letters, and "past A" for the winners.
      expect(finished.stdout).toMatch(/team [12] wins the match; ranks (past A|[2-9TJQKA]) \/ (past A|[2-9TJQKA])\n$/);
      expect(finished.status).toBe(0);
    },
    TOUR_TIMEOUT_MS + 10_000,
  );

  it("ships a browser build that imports nothing (no Node built-in, no package) and works with web APIs", async () => {
    // The build's own account of the bundle (esbuild's metafile, written beside it by the build that packing ran).
    const meta = JSON.parse(readFileSync(path.join(PACKAGE_DIR, "dist", "browser-meta.json"), "utf8")) as BuildMeta;
    const [bundle] = Object.values(meta.outputs);
    expect(bundle.imports).toEqual([]);
    expect(Object.keys(meta.inputs).filter((input) => input.startsWith("node:"))).toEqual([]);

    const browserBuild = path.join(project, "node_modules", "@cardhall", "sdk", "dist", "browser.mjs");
    // Node 22 has the browser's fetch and WebSocket as globals: the bundle needs nothing else to list the rooms.
    const script = `const { CardhallClient } = await import(${JSON.stringify(pathToFileURL(browserBuild).href)});
      const rooms = await new CardhallClient(${JSON.stringify(server.url)}).listRooms();
      console.log(Array.isArray(rooms) ? "rooms listed" : "no list");`;
    const finished = await run(NODE, ["--input-type=module", "-e", script], project);
    expect(finished.stdout + finished.stderr).toBe("rooms listed\n");
  });

  (CHROMIUM ? describe : describe.skip)("its browser build in headless Chromium", () => {
    let folder: string;
    let page: Server;
    let pagePort: number;

    // biome-ignore lint/suspicious/noDuplicateTestHooks: this describe's own hooks (it is chosen at run time: skipped without Chromium)
    beforeAll(async () => {
      folder = mkdtempSync(path.join(tmpdir(), "cardhall-browser-"));
      copyFileSync(
        path.join(project, "node_modules", "@cardhall", "sdk", "dist", "browser.mjs"),
        path.join(folder, "browser.mjs"),
      );
      copyFileSync(path.join(FIXTURES, "browser-page.html"), path.join(folder, "browser-page.html"));
      pagePort = await freePort();
      page = await servePage(folder, pagePort);
    });

    // biome-ignore lint/suspicious/noDuplicateTestHooks: this describe's own hooks (it is chosen at run time: skipped without Chromium)
    afterAll(async () => {
      await new Promise((resolve) => (page ? page.close(resolve) : resolve(undefined)));
      if (folder) rmSync(folder, { recursive: true, force: true });
    });

    it("plays a game to its verdict, lists the rooms and reports CONNECTION for a server that is not there", async () => {
      const debuggingPort = await freePort();
      const url = `http://127.0.0.1:${pagePort}/?server=${encodeURIComponent(server.url)}`;
      const browser = spawn(
        CHROMIUM!,
        [
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          `--remote-debugging-port=${debuggingPort}`,
          `--user-data-dir=${path.join(folder, "profile")}`,
          url,
        ],
        {
          stdio: "ignore",
          detached: true,
        },
      );
      try {
        const { status, stdout, stderr } = await finished(
          spawn(NODE, [path.join(FIXTURES, "read-page.js"), String(debuggingPort)], {
            stdio: ["ignore", "pipe", "pipe"],
          }),
        );
        expect(stderr).toBe("");
        expect(status).toBe(0);
        const [userAgent, ...lines] = stdout.split("\n");
        expect(userAgent).toMatch(/HeadlessChrome/);
        expect(lines.join("\n")).toMatch(
          /^game over: (WIN|LOSE NECESSARILY|LOSE UNNECESSARILY)\nrooms listed: true\nno server: CONNECTION\ndone\n$/,
        );
      } finally {
        process.kill(-browser.pid!, "SIGKILL"); // the browser and every process it started
      }
    }, 60_000);
  });
});
