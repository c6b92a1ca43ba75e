// The repository's root, found from wherever this module runs: its own folder under tsx, or dist/roles/ in a
// role that `npm run build` bundled (every module of a bundle shares the bundle's `__dirname`). Files the roles
// read at run time (migrations, the IDL, the web assets, the EVM indexer's Ponder app) are named from here.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const PACKAGE_NAME = "identity-protection-service";

function isProjectRoot(folder: string): boolean {
  const manifest = join(folder, "package.json");
  return (
    existsSync(manifest) &&
    (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name === PACKAGE_NAME
  );
}

function rootAbove(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    if (isProjectRoot(folder)) return folder;
    if (dirname(folder) === folder) throw new Error(`No ${PACKAGE_NAME} package.json above ${start}.`);
  }
}

export const PROJECT_ROOT = rootAbove(__dirname);

/** A path inside the repository, from its root. */
export function projectPath(...segments: string[]): string {
  return join(PROJECT_ROOT, ...segments);
}
