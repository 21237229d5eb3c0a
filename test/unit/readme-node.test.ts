/**
 * The Node the README says the project needs is the one package.json declares (`engines`), and an install on an
 * older Node is described as it goes: npm's EBADENGINE warnings, said to be harmless.
 */
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");

test("the README names the engines range package.json declares, and the EBADENGINE warnings an older Node's npm prints", () => {
  const { engines } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    engines: { node: string };
  };
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const needs = readme.slice(readme.indexOf("The machine needs"), readme.indexOf("`HOST` and `PORT`"));
  expect(needs).toContain(`Node \`${engines.node}\``);
  expect(needs).toContain("EBADENGINE");
});
