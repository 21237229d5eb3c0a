// Jest loads modules as CommonJS, and rou3 (required by @colyseus/core's HTTP router) ships only as ESM.
// Node itself can require() it; Jest cannot. This writes a CommonJS copy, transpiled with the TypeScript
// compiler we already pin, that jest.config.js maps `rou3` to. `npm test` runs it first.
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

// rou3 does not export its package.json, so find its folder from its resolved entry point.
const entry = require.resolve("rou3").replace(/\\/g, "/");
const source = entry.endsWith(".mjs") ? entry : path.join(path.dirname(entry), "index.mjs");
const output = ts.transpileModule(fs.readFileSync(source, "utf8"), {
  compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
}).outputText;
fs.mkdirSync(path.join(__dirname, "..", ".jest"), { recursive: true });
fs.writeFileSync(path.join(__dirname, "..", ".jest", "rou3.cjs"), output);
