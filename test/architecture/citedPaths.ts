// Repository paths that prose cites: in the docs and the READMEs anywhere, in source files inside comments only
// (a string literal is code, and the code's own tests judge it). A citation is a top-level folder of the
// repository followed by a path, e.g. `services/webhooks/claims.ts`, `storage/batchesInFlight` (a module, as an
// import names it) or `storage/migrations/0019` (a file name's prefix).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, normalize } from "node:path";

export interface Citation {
  file: string;
  line: number;
  path: string;
}

/** Build output a command makes (gitignored) inside a tracked folder: cited by its docs before it exists. */
const BUILT = [/^sdk\/dist(\/|$)/];

/** The repository's tracked top-level folders: a path under an untracked one (data/, test-results/) is no citation. */
function topFolders(trackedFiles: readonly string[]): string[] {
  return [
    ...new Set(trackedFiles.filter((file) => file.includes("/")).map((file) => file.split("/")[0] as string)),
  ];
}

/** The cited paths of one text: a placeholder (`<context>`, `*`, `…`, `NNNN`) right after a path is no citation. */
export function citationsIn(
  text: string,
  folders: readonly string[],
): Array<{ index: number; path: string }> {
  const pattern = new RegExp(`(?<![\\w./:@~-])((?:${folders.join("|")})/[\\w./-]*[\\w/])`, "g");
  const found: Array<{ index: number; path: string }> = [];
  for (const match of text.matchAll(pattern)) {
    const path = match[1] as string;
    const after = text.slice((match.index ?? 0) + match[0].length);
    if (/^(<|\*|\{|…|\.\.\.)/.test(after) || /\/NNNN|\/x\.ts$/.test(path)) continue;
    found.push({ index: match.index ?? 0, path });
  }
  return found;
}

/** Markdown links to files of the repository (`[x](chains.md#anchor)`), relative to the linking file. */
export function linksIn(text: string): Array<{ index: number; target: string }> {
  const found: Array<{ index: number; target: string }> = [];
  for (const match of text.matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g)) {
    const target = match[1] as string;
    if (/^[a-z]+:/i.test(target)) continue;
    found.push({ index: match.index ?? 0, target });
  }
  return found;
}

/** The comments of a source file, blanked elsewhere so offsets (and so line numbers) stay true. */
function commentsOf(source: string): string {
  const kept = source.replace(/[^\n]/g, " ").split("");
  for (const match of source.matchAll(/\/\*[\s\S]*?\*\/|(?<![:"'`\w])\/\/.*$|^\s*#.*$/gm)) {
    for (let i = 0; i < match[0].length; i++) kept[(match.index ?? 0) + i] = match[0][i] as string;
  }
  return kept.join("");
}

export function exists(root: string, path: string): boolean {
  if (BUILT.some((rule) => rule.test(path))) return true;
  const full = join(root, path);
  for (const candidate of [full, `${full}.ts`, join(full, "index.ts")])
    if (existsSync(candidate)) return true;
  // A file name's prefix: `storage/migrations/0019` cites 0019_….sql.
  const folder = dirname(full);
  return (
    existsSync(folder) &&
    statSync(folder).isDirectory() &&
    readdirSync(folder).some((name) => name.startsWith(`${basename(full)}_`))
  );
}

const PROSE = /\.md$/;
const SOURCE = /\.(ts|sol|c|h|sql|sh|toml)$/;

/** Every citation in the repository's tracked prose and source comments. */
export function citations(root: string): Citation[] {
  const tracked = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n");
  const folders = topFolders(tracked);
  const files = tracked.filter(
    (file) => (PROSE.test(file) || SOURCE.test(file)) && !file.startsWith("sdk/src/generated/"),
  );
  const found: Citation[] = [];
  for (const file of files) {
    const full = join(root, file);
    if (!existsSync(full)) continue;
    const source = readFileSync(full, "utf8");
    const text = PROSE.test(file) ? source : commentsOf(source);
    const lineStarts = [0];
    for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1);
    const lineOf = (index: number) => lineStarts.filter((start) => start <= index).length;
    for (const { index, path } of citationsIn(text, folders)) {
      found.push({ file, line: lineOf(index), path: path.replace(/\.+$/, "") });
    }
    if (PROSE.test(file)) {
      for (const { index, target } of linksIn(text)) {
        const path = normalize(join(dirname(file), target));
        // Outside the repository (the shared spec beside it) is not the repository's to check.
        if (!path.startsWith("..")) found.push({ file, line: lineOf(index), path });
      }
    }
  }
  return found;
}
