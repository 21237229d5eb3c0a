// uWebSockets.js as its own package is imported (`import uWebSockets from "uWebSockets.js"`), made of the binaries
// uws-pack publishes on npm: uws-pack exports an ES module alone, without a default export, so its binary for this
// platform and Node's ABI is loaded here by its path.
const fs = require("fs");
const path = require("path");

function binaryPath() {
  const name = `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
  for (const modules of module.paths) {
    const file = path.join(modules, "uws-pack", "dist", "bin", name);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(`uWebSockets.js: uws-pack has no ${name} (this platform or Node version is not one it builds for)`);
}

module.exports = require(binaryPath());
