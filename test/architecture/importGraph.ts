// The project's real import graph, read from the sources: every static or dynamic import of every .ts file.
// The layering and browser-safety tests judge it, so a rule is checked against what the code does.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export const ROOT = resolve(__dirname, "..", "..");

export interface ImportEdge {
  /** The importing file, relative to the repository root. */
  from: string;
  /** The imported project file (relative to the root), or the package name as written. */
  to: string;
  kind: "file" | "package";
  line: number;
}

export function withoutComments(source: string): string {
  // Keep line breaks so the line numbers of what remains stay true.
  return source
    .replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, " "))
    .replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
}

const SPECIFIER = /(?:\bfrom|\bimport|\brequire\s*\(|\bimport\s*\()\s*["']([^"']+)["']/g;

function resolveFile(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, join(base, "index.ts")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** The imports of one file, as edges. */
export function importsOf(file: string): ImportEdge[] {
  const from = relative(ROOT, file);
  const lines = withoutComments(readFileSync(file, "utf8")).split("\n");
  const edges: ImportEdge[] = [];
  lines.forEach((text, index) => {
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[1] as string;
      if (specifier.startsWith(".")) {
        const target = resolveFile(file, specifier);
        edges.push({ from, to: target ? relative(ROOT, target) : specifier, kind: "file", line: index + 1 });
      } else {
        edges.push({ from, to: specifier, kind: "package", line: index + 1 });
      }
    }
  });
  return edges;
}

/** The repository's TypeScript files that git knows of (tracked or not ignored), relative to the root. */
export function sourceFiles(): string[] {
  return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.ts"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter((file) => file !== "" && existsSync(join(ROOT, file)));
}

/** Every project file reachable from `entry` through imports, and every package they name. */
export function reachableFrom(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    for (const edge of importsOf(join(ROOT, file))) {
      if (edge.kind === "package") packages.add(edge.to);
      else pending.push(edge.to);
    }
  }
  return { files: [...files], packages: [...packages] };
}
