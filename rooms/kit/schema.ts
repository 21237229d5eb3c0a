/**
 * @colyseus/schema: the one copy of it that Colyseus itself runs, for every module of the project.
 *
 * Under Node 22, @colyseus/core loads as an ES module (its `module-sync` export) and imports the schema's ES build,
 * while `require("@colyseus/schema")` from the project's compiled CommonJS gives the schema's CommonJS build: two
 * copies of every class and function of it in one server, each compiled and optimized apart, the states made by one
 * copy and encoded by the other (they agree through symbols both take from `Symbol.for`). Here the project takes the
 * build that core's own resolution picked: the ES one in a server, the CommonJS one under jest, which loads core as
 * CommonJS. Types come from the package as usual.
 */
import * as path from "node:path";
import type * as Library from "@colyseus/schema";

function copyColyseusRuns(): typeof Library {
  const build = path.dirname(require.resolve("@colyseus/schema"));
  const coreIsEsModule = require.resolve("@colyseus/core").endsWith(".mjs");
  return require(path.join(build, coreIsEsModule ? "index.mjs" : "index.cjs")) as typeof Library;
}

const schema = copyColyseusRuns();

export const { $changes, $childType, $numFields, $values, ChangeTree, Encoder, decode, type, view } = schema;
export const Schema = schema.Schema;
export type Schema = Library.Schema;
export const ArraySchema = schema.ArraySchema;
export type ArraySchema<V> = Library.ArraySchema<V>;
export const StateView = schema.StateView;
export type StateView = Library.StateView;
export type ChangeTree = Library.ChangeTree;
export type Encoder = Library.Encoder;
export type Iterator = Library.Iterator;
