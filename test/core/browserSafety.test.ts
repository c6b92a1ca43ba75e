import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, resolve } from "node:path";
import { expect } from "chai";

const ROOT = resolve(__dirname, "..", "..");
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
}

function importSpecifiers(source: string): string[] {
  return [...source.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((match) => match[1] as string);
}

/** Every project file reachable from `entry` through static imports, and every package it names. */
function importGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of importSpecifiers(withoutComments(readFileSync(file, "utf8")))) {
      if (specifier.startsWith(".")) {
        const base = join(dirname(file), specifier);
        pending.push(base.endsWith(".ts") ? base : `${base}.ts`);
      } else {
        packages.add(specifier);
      }
    }
  }
  return { files: [...files], packages: [...packages] };
}

describe("browser-safe decision verifier (core/decision/verifyNoble.ts)", () => {
  const graph = importGraph(join(ROOT, "core", "decision", "verifyNoble.ts"));

  it("reaches the shared verification rules (so the walk is real)", () => {
    const relative = graph.files.map((file) => file.slice(ROOT.length + 1));
    expect(relative).to.include.members([
      "core/decision/verification.ts",
      "core/decision/canonical.ts",
      "core/encoding/base64.ts",
    ]);
  });

  it("imports no Node built-in module, directly or indirectly", () => {
    expect(graph.packages.filter((name) => NODE_BUILTINS.has(name))).to.deep.equal([]);
    expect(graph.packages).to.deep.equal(["@noble/ed25519"]);
  });

  it("uses no Node-only globals (Buffer, process, require)", () => {
    for (const file of graph.files) {
      const code = withoutComments(readFileSync(file, "utf8"));
      expect(code, file).to.not.match(/\bBuffer\b|\bprocess\.|\brequire\(/);
    }
  });
});
