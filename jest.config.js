/**
 * Jest transpiles the TypeScript sources with swc, without type-checking them: `npm run build` type-checks the
 * tests with everything else, once. CLI and end-to-end tests spawn the compiled programs in dist/.
 */
const swc = {
  swcrc: false,
  sourceMaps: "inline",
  module: { type: "commonjs" },
  jsc: {
    target: "es2022",
    // @colyseus/schema's @type decorators need TypeScript's legacy decorators, with class fields assigned in the
    // constructor (useDefineForClassFields false), exactly as tsconfig.json compiles them.
    parser: { syntax: "typescript", decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: false, useDefineForClassFields: false },
  },
};

module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["@swc/jest", swc] },
  moduleNameMapper: { "^rou3$": "<rootDir>/.jest/rou3.cjs" },
  setupFiles: ["<rootDir>/test/setup/environment.ts"],
  setupFilesAfterEnv: ["<rootDir>/test/setup/console.ts", "<rootDir>/test/setup/scratch.ts"],
  testTimeout: 30000,
  maxWorkers: 2,
};
