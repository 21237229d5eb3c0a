/** The bridge's pieces: its protocol's documentation, the actions it accepts, and its bounded line reading. */
import * as fs from "node:fs";
import * as path from "node:path";
import { bridgeProtocolTables } from "../../bin/src/lib/bridge-doc";
import { bridgeActions } from "../../bin/src/lib/bridge-protocol";
import { JsonLinesProgram } from "../../bin/src/lib/json-lines-program";

const ROOT = path.resolve(__dirname, "..", "..");
const NODE = path.join(ROOT, "node_modules", ".bin", "node");

describe("the bridge's protocol", () => {
  test("docs/bridge.md holds every message's table exactly as the protocol's definition writes it", () => {
    const docs = fs.readFileSync(path.join(ROOT, "docs", "bridge.md"), "utf8");
    const sections = bridgeProtocolTables().trimEnd().split("\n\n#### ");
    expect(sections.length).toBe(9); // eight messages to the program, and its answer
    for (const section of sections) expect(docs).toContain(section.replace(/^#### /, ""));
  });

  test("an action is the room's own payload with its message's type; anything else is refused before it reaches the room", () => {
    expect(bridgeActions.evensteven.safeParse({ type: "play", card: "Qs" }).success).toBe(true);
    expect(bridgeActions.evensteven.safeParse({ type: "play", card: "Qs", extra: 1 }).success).toBe(false);
    expect(bridgeActions.fool.safeParse({ kind: "play", card: "*", as: "7S" }).success).toBe(true);
    expect(bridgeActions.fool.safeParse({ kind: "fold" }).success).toBe(false);
    expect(bridgeActions.tractor.safeParse({ type: "bury", cards: ["H2", "H3"] }).success).toBe(true);
    expect(bridgeActions.tractor.safeParse({ type: "declare", cards: ["H2"] }).success).toBe(false);
    expect(bridgeActions.patience.safeParse({ type: "step" }).success).toBe(true);
  });
});

describe("a program's lines", () => {
  test("a line past the limit is reported by its length, never kept whole; the lines around it come through", async () => {
    // 8 MiB in 64 KiB writes, between two ordinary lines, the last without a line end.
    const script = `
      process.stdout.write('{"a":1}\\n');
      const piece = "x".repeat(65536);
      for (let i = 0; i < 128; i++) process.stdout.write(piece);
      process.stdout.write('\\n{"b":2}');`;
    const program = new JsonLinesProgram(NODE, ["-e", script], 1024);
    expect(await program.started()).toBeNull();
    expect(await program.next()).toEqual({ kind: "line", text: '{"a":1}' });
    expect(await program.next()).toEqual({ kind: "tooLong", bytes: 8 * 1024 * 1024 });
    expect(await program.next()).toEqual({ kind: "line", text: '{"b":2}' });
    expect(await program.next()).toEqual({ kind: "ended" });
    expect(await program.finish(5_000)).toEqual({ status: 0, description: "exited with status 0", killed: false });
  });

  test("waiting for a line ends when its signal aborts; the line still comes to the next wait", async () => {
    const program = new JsonLinesProgram(NODE, ["-e", "process.stdin.once('data', () => console.log('late'))"], 1024);
    const stop = new AbortController();
    const waiting = program.next(stop.signal);
    stop.abort();
    expect(await waiting).toEqual({ kind: "aborted" });
    program.send({ go: true });
    expect(await program.next()).toEqual({ kind: "line", text: "late" });
    expect(await program.finish(5_000)).toMatchObject({ status: 0 });
  });
});
