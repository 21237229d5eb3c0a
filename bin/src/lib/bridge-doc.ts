/**
 * The field tables of docs/bridge.md, written from the protocol's one definition (bridge-protocol.ts), so that the
 * document cannot drift from what the bridge sends and reads (test/unit/bridge-doc.test.ts compares them).
 * Run `node dist/bin/src/lib/bridge-doc.js` after a build to print them.
 */
import type { z } from "zod";
import { answerMessage, bridgeToProgram } from "./bridge-protocol";

/** A field's type in a few words: `string`, `integer or null`, `"turn"`, `array`, `one of: a, b`. */
function typeName(schema: z.ZodType): string {
  const def = schema.def as {
    type: string;
    innerType?: z.ZodType;
    values?: unknown[];
    options?: z.ZodType[];
    entries?: Record<string, string>;
  };
  const checks = (schema.def as { checks?: Array<{ _zod: { def: { check: string; format?: string } } }> }).checks ?? [];
  switch (def.type) {
    case "optional":
      return `${typeName(def.innerType!)}, optional`;
    case "nullable":
      return `${typeName(def.innerType!)} or null`;
    case "literal":
      return def.values!.map((value) => JSON.stringify(value)).join(" or ");
    case "enum":
      return `one of ${Object.values(def.entries!)
        .map((value) => JSON.stringify(value))
        .join(", ")}`;
    case "union":
      return def.options!.map(typeName).join(" or ");
    case "number":
      return checks.some((check) => check._zod.def.format === "safeint") ? "integer" : "number";
    case "record":
      return "object";
    case "unknown":
      return "any JSON";
    default:
      return def.type;
  }
}

function table(schema: z.ZodObject): string {
  const rows = Object.entries(schema.shape).map(([field, type]) => {
    const described = type as z.ZodType;
    return `| \`${field}\` | ${typeName(described)} | ${described.description ?? ""} |`;
  });
  return ["| field | type | meaning |", "|---|---|---|", ...rows].join("\n");
}

/** Every message's table, bridge to program first, then the program's answer. */
export function bridgeProtocolTables(): string {
  const sections = Object.entries(bridgeToProgram).map(([name, schema]) => `#### \`${name}\`\n\n${table(schema)}`);
  sections.push(`#### the answer (program → bridge)\n\n${table(answerMessage)}`);
  return sections.join("\n\n") + "\n";
}

if (require.main === module) process.stdout.write(bridgeProtocolTables());
