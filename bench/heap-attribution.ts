/**
 * npm run bench:heap-attribution -- <file.heapsnapshot> [--inside <field> ...]
 *
 * Where a server's heap goes, per table and per client: reads a V8 heap snapshot of a server under load, builds its
 * dominator tree (what each object alone keeps alive) and prints
 * - each room class: its tables, what one retains, and which of its fields retain it (with what it holds through
 *   several fields at once, such as its schema state, shared by the room and its serializer);
 * - each client's objects (ws's WebSocket, Node's Socket, Colyseus's WebSocketClient), per client;
 * - the rest of the heap, by the path from the roots that holds it;
 * - with `--inside match` (any field of the rooms, as many times as wanted): what each room class's objects in that
 *   field retain, by their own fields, the same way (a game's match: its engine state, its steps).
 * To take a snapshot: start the server with `node --heapsnapshot-signal=SIGWINCH dist/server/main.js` (not SIGUSR2,
 * on which Colyseus shuts the server down), drive it with the load test and `kill -WINCH <pid>` once its tables are
 * open; the snapshot is written in the server's directory. BENCHMARKS.md, "Half the memory per table", used it.
 */
import * as fs from "node:fs";

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/**
 * The classes a client is made of, one each per connected client: on the main port ws's WebSocket and Node's Socket,
 * on the WebSocket port uWebSockets.js's socket and its wrapper (server/transport/uws-websocket-port.ts); Colyseus's client.
 */
const CLIENT_CLASSES = ["WebSocket", "Socket", "uWS.WebSocket", "UwsConnection", "WebSocketClient"];
const TOP_FIELDS = 12;
const TOP_PATHS = 20;

/** The snapshot's graph: nodes by index, each with its class, size and edges (weak ones left out). */
class HeapGraph {
  readonly count: number;
  private readonly nodeFieldCount: number;
  private readonly edgeFieldCount: number;
  private readonly firstEdge: Uint32Array;
  private readonly field: Record<"type" | "name" | "size" | "edges" | "edgeType" | "edgeName" | "to", number>;

  constructor(private readonly heap: Snapshot) {
    const { node_fields: nodeFields, edge_fields: edgeFields } = heap.snapshot.meta;
    this.nodeFieldCount = nodeFields.length;
    this.edgeFieldCount = edgeFields.length;
    this.field = {
      type: nodeFields.indexOf("type"),
      name: nodeFields.indexOf("name"),
      size: nodeFields.indexOf("self_size"),
      edges: nodeFields.indexOf("edge_count"),
      edgeType: edgeFields.indexOf("type"),
      edgeName: edgeFields.indexOf("name_or_index"),
      to: edgeFields.indexOf("to_node"),
    };
    this.count = heap.nodes.length / this.nodeFieldCount;
    this.firstEdge = new Uint32Array(this.count + 1);
    for (let node = 0, edge = 0; node < this.count; node++) {
      this.firstEdge[node] = edge;
      edge += heap.nodes[node * this.nodeFieldCount + this.field.edges] * this.edgeFieldCount;
      this.firstEdge[node + 1] = edge;
    }
  }

  size(node: number): number {
    return this.heap.nodes[node * this.nodeFieldCount + this.field.size];
  }

  /** "type:name" for objects and closures (strings, code and arrays by their kind alone). */
  className(node: number): string {
    const type = this.heap.snapshot.meta.node_types[0][this.heap.nodes[node * this.nodeFieldCount + this.field.type]];
    const name = this.heap.strings[this.heap.nodes[node * this.nodeFieldCount + this.field.name]];
    return type === "object" || type === "closure" ? `${type}:${name.slice(0, 60)}` : type;
  }

  /** Whether the node is a class's prototype (it has a "constructor" of its own), not an instance. */
  isPrototype(node: number): boolean {
    for (const [name] of this.edges(node)) if (name === "constructor") return true;
    return false;
  }

  /** The name of an edge from `from` to `to` ("?" if none). */
  edgeName(from: number, to: number): string {
    for (const [name, target] of this.edges(from)) if (target === to) return name;
    return "?";
  }

  /** The node's strong edges: [edge name, target]. */
  *edges(node: number): Generator<[string, number]> {
    const { edge_types: edgeTypes } = this.heap.snapshot.meta;
    for (let edge = this.firstEdge[node]; edge < this.firstEdge[node + 1]; edge += this.edgeFieldCount) {
      const type = edgeTypes[0][this.heap.edges[edge + this.field.edgeType]];
      if (type === "weak") continue;
      const nameOrIndex = this.heap.edges[edge + this.field.edgeName];
      const name = type === "element" || type === "hidden" ? `[${nameOrIndex}]` : this.heap.strings[nameOrIndex];
      yield [name, this.heap.edges[edge + this.field.to] / this.nodeFieldCount];
    }
  }
}

/** The dominator tree from node 0 (Cooper, Harvey and Kennedy's iteration over a reverse postorder) and retained sizes. */
function dominators(graph: HeapGraph): { idom: Int32Array; retained: Float64Array } {
  const order = new Int32Array(graph.count).fill(-1);
  const postorder: number[] = [];
  const stack: Array<{ node: number; edges: Generator<[string, number]> }> = [{ node: 0, edges: graph.edges(0) }];
  const seen = new Uint8Array(graph.count);
  seen[0] = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const next = top.edges.next();
    if (next.done) {
      order[top.node] = postorder.length;
      postorder.push(top.node);
      stack.pop();
    } else if (!seen[next.value[1]]) {
      seen[next.value[1]] = 1;
      stack.push({ node: next.value[1], edges: graph.edges(next.value[1]) });
    }
  }
  const predecessors: number[][] = Array.from({ length: graph.count }, () => []);
  for (const node of postorder) for (const [, target] of graph.edges(node)) predecessors[target].push(node);
  const idomByOrder = new Int32Array(postorder.length).fill(-1);
  const root = order[0];
  idomByOrder[root] = root;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (a < b) a = idomByOrder[a];
      while (b < a) b = idomByOrder[b];
    }
    return a;
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (let at = postorder.length - 1; at >= 0; at--) {
      if (at === root) continue;
      let found = -1;
      for (const predecessor of predecessors[postorder[at]]) {
        const p = order[predecessor];
        if (p >= 0 && idomByOrder[p] !== -1) found = found === -1 ? p : intersect(p, found);
      }
      if (found !== -1 && idomByOrder[at] !== found) [idomByOrder[at], changed] = [found, true];
    }
  }
  const idom = new Int32Array(graph.count).fill(-1);
  const retained = new Float64Array(graph.count);
  for (const node of postorder) retained[node] = graph.size(node);
  for (let at = 0; at < postorder.length; at++) {
    if (at === root) continue;
    const node = postorder[at];
    idom[node] = postorder[idomByOrder[at]];
    retained[idom[node]] += retained[node];
  }
  return { idom, retained };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(2)} MB`;

function sortedTop(totals: Map<string, number>, top: number): Array<[string, number]> {
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, top);
}

/** Per instance of `className`: what it retains, by the field that holds it (several fields at once: "held through several fields"). */
function describeClass(
  graph: HeapGraph,
  { idom, retained }: ReturnType<typeof dominators>,
  className: string,
  instances: number[],
): void {
  const byField = new Map<string, number>();
  const directTargets = new Map<number, string>();
  let total = 0;
  for (const instance of instances) {
    total += retained[instance];
    for (const [name, target] of graph.edges(instance)) if (idom[target] === instance) directTargets.set(target, name);
  }
  const isInstance = new Set(instances);
  for (let node = 0; node < graph.count; node++) {
    if (!isInstance.has(idom[node])) continue;
    const field = directTargets.get(node) ?? `held through several fields: ${graph.className(node)}`;
    byField.set(field, (byField.get(field) ?? 0) + retained[node]);
  }
  console.log(`${className}: ${instances.length}, each ${kb(total / instances.length)}`);
  for (const [field, bytes] of sortedTop(byField, TOP_FIELDS))
    console.log(`  ${kb(bytes / instances.length).padStart(9)}  ${field}`);
}

/** For each room class, the objects its instances hold in `field`, described as a class of their own. */
function describeField(
  graph: HeapGraph,
  tree: ReturnType<typeof dominators>,
  byClass: Map<string, number[]>,
  field: string,
): void {
  for (const [className, instances] of [...byClass].sort((a, b) => a[0].localeCompare(b[0]))) {
    if (!className.endsWith("Room")) continue;
    const held = instances.flatMap((instance) =>
      [...graph.edges(instance)]
        .filter(([name, target]) => name === field && tree.idom[target] === instance)
        .map(([, target]) => target),
    );
    if (held.length > 0) describeClass(graph, tree, `${className}.${field}`, held);
  }
}

function main(): void {
  const [file, ...rest] = process.argv.slice(2);
  if (file === undefined) throw new Error("give the heap snapshot's file");
  const inside = rest.flatMap((arg, at) => (rest[at - 1] === "--inside" ? [arg] : []));
  const graph = new HeapGraph(JSON.parse(fs.readFileSync(file, "utf8")) as Snapshot);
  const tree = dominators(graph);
  const byClass = new Map<string, number[]>();
  for (let node = 0; node < graph.count; node++) {
    const name = graph.className(node);
    const wanted = /^object:\w+Room$/.test(name) || CLIENT_CLASSES.some((each) => name === `object:${each}`);
    if (wanted && tree.idom[node] !== -1 && !graph.isPrototype(node))
      (byClass.get(name) ?? byClass.set(name, []).get(name)!).push(node);
  }
  let total = 0;
  for (let node = 0; node < graph.count; node++) total += graph.size(node);
  console.log(`${file}: ${mb(total)} in ${graph.count} objects`);
  for (const [className, instances] of [...byClass].sort((a, b) => a[0].localeCompare(b[0])))
    describeClass(graph, tree, className, instances);
  // Everything else, by the first three objects of the path from the roots that holds it.
  const owners = new Set([...byClass.values()].flat());
  const byPath = new Map<string, number>();
  for (let node = 1; node < graph.count; node++) {
    if (tree.idom[node] === -1) continue;
    const chain: number[] = [];
    for (let at = node; at > 0; at = tree.idom[at]) chain.unshift(at);
    if (chain.some((at) => owners.has(at))) continue;
    const where = chain
      .slice(0, 3)
      .map((at, index) =>
        index === 0 ? graph.className(at) : `.${graph.edgeName(chain[index - 1], at)} ${graph.className(at)}`,
      )
      .join(" ");
    byPath.set(where, (byPath.get(where) ?? 0) + graph.size(node));
  }
  console.log("the rest, by what holds it:");
  for (const [where, bytes] of sortedTop(byPath, TOP_PATHS)) console.log(`  ${mb(bytes).padStart(9)}  ${where}`);
  for (const field of inside) describeField(graph, tree, byClass, field);
}

main();
