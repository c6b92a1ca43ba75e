// The production roles as compiled code: each role's entry bundled by esbuild into dist/roles/<role>.js with its
// source map, the npm packages left to node_modules. Unlike tsx, which runs the sources with esbuild's keepNames
// (every closure bound to a name is named by Object.defineProperty when created), the bundle keeps no names.
import { mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type BuildOptions, buildSync } from "esbuild";
import { projectPath } from "../../config/projectRoot";
import { EMBEDDED_THREAD_BUNDLE } from "../../storage/embeddedServer";

/** Each role's bundle name and its entry (`npm run <role>` runs dist/roles/<bundle>.js). */
export const ROLE_ENTRIES = {
  api: "api/main.ts",
  worker: "worker/main.ts",
  "indexer-evm": "indexer/evm/main.ts",
  "indexer-solana": "indexer/solana/main.ts",
} as const;

export type RoleBundle = keyof typeof ROLE_ENTRIES;

/**
 * Threads a bundle may start, as esbuild entry points to bundle beside it: the embedded database's
 * (storage/embeddedServer finds it beside its own bundle). The benches' servers need it; the roles run only
 * against Postgres.
 */
export const THREAD_ENTRY_POINTS: Readonly<Record<string, string>> = {
  [EMBEDDED_THREAD_BUNDLE.replace(/\.js$/, "")]: projectPath("storage", "embeddedServerThread.ts"),
};

export const ROLES_DIR = projectPath("dist", "roles");

/** How every bundle of the project is made: Node 20, CommonJS, source maps, npm packages not bundled. */
export const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  packages: "external",
  sourcemap: "linked",
  keepNames: false,
  logLevel: "warning",
  tsconfig: projectPath("tsconfig.json"),
};

/** Bundles every role into ROLES_DIR; returns the bundles' paths by role. */
export function buildRoles(): Record<RoleBundle, string> {
  // Built beside ROLES_DIR (the same depth, so the source maps' relative paths hold), then each file renamed into
  // place: a role starting meanwhile, or another build running at once (a parallel test run), reads a whole file.
  const staging = projectPath("dist", `.roles-${process.pid}`);
  buildSync({
    ...NODE_BUNDLE,
    entryPoints: Object.fromEntries(
      Object.entries(ROLE_ENTRIES).map(([bundle, entry]) => [bundle, projectPath(entry)]),
    ),
    outdir: staging,
  });
  mkdirSync(ROLES_DIR, { recursive: true });
  for (const file of readdirSync(staging)) renameSync(join(staging, file), join(ROLES_DIR, file));
  rmSync(staging, { recursive: true, force: true });
  return Object.fromEntries(
    Object.keys(ROLE_ENTRIES).map((bundle) => [bundle, projectPath("dist", "roles", `${bundle}.js`)]),
  ) as Record<RoleBundle, string>;
}

/** The bundle of a role's entry (as ROLE_ENTRIES names it). */
export function roleBundleOf(entry: string): string {
  const found = Object.entries(ROLE_ENTRIES).find(([, roleEntry]) => roleEntry === entry);
  if (found === undefined)
    throw new Error(`${entry} is no role entry; roles: ${Object.values(ROLE_ENTRIES).join(", ")}.`);
  return projectPath("dist", "roles", `${found[0]}.js`);
}
