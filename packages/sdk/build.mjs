/**
 * Builds the SDK package from the SDK's source in client-sdk/: one bundle for Node's `import`, one for `require`,
 * one for browsers, and the type declarations. The rooms' protocol definitions the SDK imports are bundled from
 * their one source in rooms/; the Node bundles leave @colyseus/sdk and zod to the installing project, the browser
 * bundle carries them.
 */
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
// `node build.mjs DIR` builds into DIR instead (a test's own copy, out of the way of a pack under way).
const out = process.argv[2] ? resolve(process.argv[2]) : join(here, "dist");
const root = join(here, "..", "..");
const entry = join(root, "client-sdk", "index.ts");
const runtimeDependencies = ["@colyseus/sdk", "zod"];

rmSync(out, { recursive: true, force: true });

const common = { entryPoints: [entry], bundle: true, target: "es2022", sourcemap: false, logLevel: "warning" };
await build({
  ...common,
  platform: "node",
  format: "esm",
  external: runtimeDependencies,
  outfile: join(out, "index.mjs"),
});
await build({
  ...common,
  platform: "node",
  format: "cjs",
  external: runtimeDependencies,
  outfile: join(out, "index.cjs"),
});
// A browser has no Node built-ins: platform "browser" fails the build if anything bundled reaches for one.
const browser = await build({
  ...common,
  platform: "browser",
  format: "esm",
  minify: true,
  metafile: true,
  outfile: join(out, "browser.mjs"),
});
writeFileSync(join(out, "browser-meta.json"), JSON.stringify(browser.metafile));

const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
execFileSync(process.execPath, [tsc, "-p", join(here, "tsconfig.json"), "--outDir", join(out, "types")], {
  stdio: "inherit",
});
