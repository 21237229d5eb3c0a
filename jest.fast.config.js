/**
 * `npm run test:fast`: the engines, the kit and the rooms in-process (test/unit, test/rooms), with no build first.
 * Left out, for `npm test` after its build: the records' tests (PostgreSQL servers, compiled modules), the
 * command-line and end-to-end tests, the tests that load compiled modules from dist/ (in a worker thread or a
 * fresh Node process, which cannot load the TypeScript sources), and the forced-win proof (1,500 seeded rounds
 * played out exhaustively, a few minutes alone).
 */
const base = require("./jest.config");

const testsOfTheBuild = [
  "/test/unit/ai-thread-scheduling.test.ts",
  "/test/unit/fool-ai-thread.test.ts",
  "/test/unit/heap-growth.test.ts",
  "/test/unit/schema-copy.test.ts",
  "/test/unit/thread-priority.test.ts",
  "/test/unit/tractor-ai-thread.test.ts",
];
const seededProofs = ["/test/unit/tractor-forced-win.test.ts"];

module.exports = {
  ...base,
  roots: ["<rootDir>/test/unit", "<rootDir>/test/rooms"],
  testPathIgnorePatterns: ["/node_modules/", ...testsOfTheBuild, ...seededProofs],
};
