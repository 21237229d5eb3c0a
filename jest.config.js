/** Jest runs the TypeScript sources through ts-jest; CLI tests spawn the compiled bin/ programs. */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: { warnOnly: false } }] },
  moduleNameMapper: { "^rou3$": "<rootDir>/.jest/rou3.cjs" },
  setupFiles: ["<rootDir>/test/setup/environment.ts"],
  setupFilesAfterEnv: ["<rootDir>/test/setup/console.ts", "<rootDir>/test/setup/scratch.ts"],
  testTimeout: 30000,
};
