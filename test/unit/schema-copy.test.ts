/**
 * The project's states are made by the copy of @colyseus/schema that Colyseus encodes them with (rooms/kit/schema.ts).
 * In a server, Node loads @colyseus/core as an ES module, which imports the schema's ES build; a plain
 * `require("@colyseus/schema")` would load its CommonJS build beside it. Checked in a fresh Node process on the
 * compiled build (`npm test` builds first): jest loads every package as CommonJS, so only such a process sees it.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";

const ROOT = path.join(__dirname, "..", "..");

test("in a server, the states' schema is the copy Colyseus runs, and the only one loaded", () => {
  const script = `
    const path = require("path");
    const core = require("@colyseus/core");
    const { FoolRoomState } = require(${JSON.stringify(path.join(ROOT, "dist", "rooms", "fool", "state.js"))});
    const build = path.dirname(require.resolve("@colyseus/schema"));
    const esBuild = require(path.join(build, "index.mjs"));
    const serializer = new core.SchemaSerializer();
    const state = new FoolRoomState();
    serializer.reset(state);
    process.stdout.write(JSON.stringify({
      coreIsEsModule: require.resolve("@colyseus/core").endsWith(".mjs"),
      encoderFromEsBuild: serializer.encoder instanceof esBuild.Encoder,
      stateFromEsBuild: state instanceof esBuild.Schema && state[esBuild.$changes] instanceof esBuild.ChangeTree,
      commonJsBuildLoaded: Object.keys(require.cache).some((file) => file === path.join(build, "index.cjs")),
    }));
  `;
  const seen = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8", cwd: ROOT }));
  expect(seen).toEqual({
    coreIsEsModule: true,
    encoderFromEsBuild: true,
    stateFromEsBuild: true,
    commonJsBuildLoaded: false,
  });
});

test("the project's modules take @colyseus/schema's values from rooms/kit/schema.ts (types may come from the package)", () => {
  const fs = jest.requireActual<typeof import("fs")>("fs");
  const sources = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return sources(file);
      return entry.name.endsWith(".ts") ? [file] : [];
    });
  const valueImport = /^import\s+(?!type\b)[^;]*from\s+"@colyseus\/schema";/m;
  const offenders = ["rooms", "server", "client-sdk", "bin", "bench"]
    .flatMap((dir) => sources(path.join(ROOT, dir)))
    .filter(
      (file) =>
        file !== path.join(ROOT, "rooms", "kit", "schema.ts") && valueImport.test(fs.readFileSync(file, "utf8")),
    )
    .map((file) => path.relative(ROOT, file));
  expect(offenders).toEqual([]);
});
