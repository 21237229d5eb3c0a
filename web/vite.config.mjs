import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");
const outDir = join(root, "dist", "web");

/** Writes the bundle's module list (paths relative to the repository) beside it. */
function moduleList() {
  return {
    name: "cardhall-module-list",
    generateBundle(_options, bundle) {
      const modules = new Set();
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === "chunk")
          for (const id of Object.keys(chunk.modules)) modules.add(relative(root, id.replace(/^\0/, "")));
      }
      this.emitFile({ type: "asset", fileName: "modules.json", source: JSON.stringify([...modules].sort(), null, 1) });
    },
  };
}

export default defineConfig({
  root: here,
  base: "/",
  logLevel: "warn",
  build: { outDir, emptyOutDir: true, target: "es2022", sourcemap: false, reportCompressedSize: false },
  plugins: [moduleList()],
});
