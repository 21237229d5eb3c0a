/**
 * The web client (web/, built by `npm run build` into dist/web) served at `/`, and the page again at its own
 * routes (`/watch/<roomId>`, `/play/<game>`, `/replay/<id>`, `/rules/<game>`, `/players/<name>`, `/account`,
 * `/tournaments/<id>` when a browser asks for a page there rather than the JSON) so that a link or a reload opens
 * the right page.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import express, { type Application, type Response } from "express";

/** Where the built page is: dist/web beside the compiled server, or under dist/ when the server runs from source. */
export function webDirectory(): string {
  const compiled = path.basename(path.dirname(__dirname)) === "dist";
  return path.resolve(__dirname, "..", compiled ? "web" : path.join("dist", "web"));
}

/** The page's own paths: each answers with the page, which reads the path itself. */
export const PAGE_ROUTES = [
  "/watch/:roomId",
  "/play/:game",
  "/replay/:id",
  "/rules/:game",
  "/players/:name",
  "/account",
  "/tournaments/:id",
];

export function serveWebClient(app: Application, directory = webDirectory()): void {
  const index = path.join(directory, "index.html");
  const sendPage = (res: Response) => {
    if (!fs.existsSync(index))
      return void res.status(503).type("text").send("The web page is not built: run `npm run build`.\n");
    res.setHeader("cache-control", "no-cache");
    res.sendFile(index);
  };
  // Bundles carry a hash of their content in their names: they never change, so browsers may keep them.
  app.use("/assets", express.static(path.join(directory, "assets"), { immutable: true, maxAge: "365d" }));
  // A name that is no bundle (an old page's, a typo) is a plain 404 here: passed on as an error, it would reach
  // Express's last handler, which prints the error's whole stack into the JSON-lines log.
  app.use("/assets", (_req, res) => void res.status(404).type("text").send("No such file.\n"));
  app.get("/", (_req, res) => sendPage(res));
  app.get(PAGE_ROUTES, (_req, res) => sendPage(res));
}
