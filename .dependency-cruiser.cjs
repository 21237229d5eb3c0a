/**
 * What may import what (docs/architecture.md, "Layers"), checked by `npm run lint:layers` before the tests run.
 *
 *   rooms/        the games and the table kit: imports nothing of the project outside rooms/
 *   client-sdk/   the typed client: rooms/ and npm packages only, never a module only a server runs
 *   web/src/      the page: the SDK and rooms/ alike
 *   server/       the composition: rooms/ and its own folders; never bin/, bench/, scripts/, test/, the SDK or the page
 *   bin/ bench/ scripts/  programs: anything, but nothing imports them back
 *
 * Type-only imports count as imports: a type that crosses a layer ties the two layers together as much as a value.
 * Each rule says why it is there; a violation is fixed where the code belongs, not by an exception here.
 */

/** rooms/ modules that only a server runs: the Colyseus room and its schema state, and the table kit's machinery
 * (the table and its parts, seats and reservations, frames, the log, the kit's metrics sink, the schema and what
 * writes it, Colyseus's internals, the deal's salt, the records a table makes as it plays). */
const SERVER_ONLY_ROOMS =
  "^rooms/(" +
  "[^/]+/(room|state)[.]ts$" +
  "|kit/(table|room-kit|seats|reservations|frames|log|metrics|schema|schema-lists|state-check|state-writer|seal-state" +
  "|deal-seal|colyseus-internals|patch-maps|small-emitter|recorded-game|recorded-steps)([.]ts$|-|/)" +
  ")";

/** npm packages only a server loads (the page's bundle must hold none of them: test/e2e/web.test.ts checks the build),
 * uWebSockets.js among them (a file: dependency on packages/uwebsockets-binary). */
const SERVER_PACKAGES =
  "^packages/uwebsockets-binary/|node_modules/(@colyseus/(core|ws-transport|testing|tools|monitor|redis-driver|redis-presence)|express|express-basic-auth" +
  "|express-rate-limit|pino|kysely|pg|piscina|ioredis|prom-client|uWebSockets[.]js|uws-pack|@node-rs|@pm2|openskill)/";

/** The modules the SDK and the page share with the server: each game's protocol and definition, the kit's protocol,
 * and the list of games. */
const SHARED_PROTOCOL = "^rooms/(games[.]ts|kit/(protocol|game)[.]ts|[^/]+/(protocol|game)[.]ts)$";

/** Code that browsers and clients run, and the protocol modules the server shares with it. */
const SHARED_CODE = ["^client-sdk/", "^web/", SHARED_PROTOCOL];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "No import cycles. A cycle makes its modules one unit (none can be loaded, tested or understood without the " +
        "others) and, in CommonJS, hands one of them a half-loaded module. Break it where it belongs: move the type or " +
        "the value to the module that owns it.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "rooms-stay-in-rooms",
      comment:
        "rooms/ is the games and the kit that the server, the SDK, the page and the judges all build on: it imports " +
        "nothing of theirs (a server installs what the kit reports to, as reportTableMetricsTo does).",
      severity: "error",
      from: { path: "^rooms/" },
      to: { path: "^(server|client-sdk|web|bin|bench|scripts|test|packages)/" },
    },
    {
      name: "server-not-programs",
      comment:
        "server/ is the product: programs and benchmarks use it, never the other way round, and the page reaches it " +
        "only over HTTP and WebSockets (server/web.ts serves dist/web by its path, not by an import).",
      severity: "error",
      from: { path: "^server/" },
      to: { path: "^(bin|bench|scripts|test|web|client-sdk)/" },
    },
    {
      name: "server-folders-under-the-composition",
      comment:
        "server/app.ts composes the folders (ai, telemetry, runtime, transport, capacity, cluster, records, identity, " +
        "arena) and server/main.ts starts it: neither is imported from inside server/, so each folder can be read and " +
        "tested without the whole server. main.ts starts a server as it loads: nothing imports it.",
      severity: "error",
      from: { path: "^server/[^/]+/" },
      to: { path: "^server/(app|main)[.]ts$" },
    },
    {
      name: "nothing-imports-main",
      comment:
        "server/main.ts starts a server as it loads (what `npm start` runs): programs spawn it, never import it.",
      severity: "error",
      from: {},
      to: { path: "^server/main[.]ts$" },
    },
    {
      name: "sdk-only-protocols",
      comment:
        "The SDK runs in browsers and in programs of any kind: it imports rooms/ (the protocols, the engines' pure " +
        "rules) and npm packages, never server/, the page, or a program.",
      severity: "error",
      from: { path: "^client-sdk/" },
      to: { path: "^(server|web|bin|bench|scripts|test|packages)/" },
    },
    {
      name: "page-only-sdk-and-protocols",
      comment:
        "The page (bundled by Vite into dist/web) imports the SDK and rooms/, never server/ or a program: the bundle " +
        "would carry server code to every browser.",
      severity: "error",
      from: { path: "^web/" },
      to: { path: "^(server|bin|bench|scripts|test|packages)/" },
    },
    {
      name: "shared-code-not-server-only",
      comment:
        "What the SDK and the page import, and the shared protocol modules, never reach a module only a server runs " +
        "(a room, its schema state, the table kit's machinery), directly or through another module: the protocol " +
        "carries no server types, and the page's bundle no server code.",
      severity: "error",
      from: { path: SHARED_CODE },
      to: { path: SERVER_ONLY_ROOMS, reachable: true },
    },
    {
      name: "shared-code-not-server-packages",
      comment:
        "Nor a package only a server loads (Colyseus's server, express, pino, the databases' clients, the thread pools).",
      severity: "error",
      from: { path: SHARED_CODE },
      to: { path: SERVER_PACKAGES, reachable: true },
    },
    {
      name: "page-records-as-types",
      comment:
        "The page and the SDK take the records' shapes from rooms/kit/record.ts as types alone: its values are the " +
        "server's (test/e2e/web.test.ts keeps the module out of the page's bundle).",
      severity: "error",
      from: { path: ["^client-sdk/", "^web/"] },
      to: { path: "^rooms/kit/record[.]ts$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "product-not-dev-packages",
      comment:
        "Code that ships (rooms/, server/, the SDK, the page, bin/) never needs a devDependency: an install for production lacks them.",
      severity: "error",
      from: { path: "^(rooms|server|client-sdk|web|bin)/" },
      to: { dependencyTypes: ["npm-dev"], dependencyTypesNot: ["type-only"] },
    },
    {
      name: "resolvable",
      comment: "Every import resolves: a module the check cannot find is one whose layer it cannot check.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)dist/" },
    tsConfig: { fileName: "tsconfig.json" },
    // Type-only imports are edges too (they are what tied the shared protocol to the server's metrics).
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      extensions: [".ts", ".js", ".mjs", ".cjs", ".json", ".d.ts"],
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
